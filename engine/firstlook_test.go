package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestFirstLookLimit: on the embedded store, SELECT * FROM orders LIMIT 5
// needs no ALLOW FULL SCAN and reads at most 5 rows, measured.
func TestFirstLookLimit(t *testing.T) {
	checkFirstLook(t, tempStore(t), nil)
}

// TestIntegrationFirstLookLimit is TestFirstLookLimit on a real HBase,
// over 16 regions.
func TestIntegrationFirstLookLimit(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	prefix := hbasetest.TableName("firstlook")
	checkFirstLook(t, st, func(tb *catalog.Table) {
		tb.Physical = prefix + "_" + tb.Name
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := st.DropTable(ctx, tb.Physical); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
				t.Errorf("clean-up: %v", err)
			}
		})
	})
}

// analyzeRows reads a figure of EXPLAIN ANALYZE's line.
func analyzeFigure(t *testing.T, text, figure string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^ANALYZE .*\b` + figure + ` (\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %q in EXPLAIN ANALYZE:\n%s", figure, text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func checkFirstLook(t *testing.T, st exec.Store, rename func(*catalog.Table)) {
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if rename != nil {
		for _, tb := range cat.Tables {
			if tb.Name == "orders" {
				rename(tb)
				for _, ix := range tb.Indexes {
					rename(ix.Table)
					ix.Physical = ix.Table.Physical
				}
			}
		}
	}
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	ctx := context.Background()
	run := func(q string) (*engine.Result, error) {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		return e.Run(ctx, stmt)
	}
	const rows = 60
	var vals []string
	for i := range rows {
		vals = append(vals, fmt.Sprintf("('s%d', 'b%d', %d, %d, %d.5, 'paid')", i%7, i%5, i, 1_700_000_000_000+int64(i)*1000, i))
	}
	res, err := run("INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES " + strings.Join(vals, ", "))
	if err != nil {
		t.Fatal(err)
	}
	res.Close()

	res, err = run("SELECT * FROM orders LIMIT 5")
	if err != nil {
		t.Fatalf("SELECT * FROM orders LIMIT 5: %v", err)
	}
	got := 0
	for {
		if _, err := res.Rows.Next(ctx); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		got++
	}
	res.Close()
	if got != 5 {
		t.Fatalf("SELECT * FROM orders LIMIT 5 returned %d rows, want 5", got)
	}

	for _, pushdown := range []bool{true, false} {
		e.SetPushdown(pushdown)
		res, err = run("EXPLAIN ANALYZE SELECT * FROM orders LIMIT 5")
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text
		res.Close()
		if !strings.Contains(text, "LIMIT 5 bounds the read: at most 5 rows") {
			t.Errorf("pushdown %v: EXPLAIN does not say that the LIMIT bounds the read:\n%s", pushdown, text)
		}
		read, returned := analyzeFigure(t, text, "rows read"), analyzeFigure(t, text, "rows returned")
		// With pushdown off the store is not told the LIMIT, and EXPLAIN
		// says it may read a batch past it; it still stops long before
		// the end.
		most := 5
		if !pushdown {
			most = rows / 2
			if !strings.Contains(text, "the store reads at most one batch of rows past it") {
				t.Errorf("pushdown off: EXPLAIN does not say the store may read past the LIMIT:\n%s", text)
			}
		}
		if read > most || returned != 5 {
			t.Errorf("pushdown %v: rows read %d, returned %d of %d; want at most %d read and 5 returned:\n%s", pushdown, read, returned, rows, most, text)
		}
	}
	e.SetPushdown(true)

	for _, q := range []string{"SELECT * FROM orders WHERE amount > 5 LIMIT 5", "SELECT COUNT(*) FROM orders", "SELECT * FROM orders ORDER BY amount LIMIT 5"} {
		_, err := run(q)
		if !errors.Is(err, planner.ErrFullScan) {
			t.Fatalf("%s: got %v, want the full-scan refusal", q, err)
		}
		if want := "or add ALLOW FULL SCAN to read it anyway: " + q + " ALLOW FULL SCAN"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: the refusal does not give the statement to type (%q):\n%v", q, want, err)
		}
	}
}
