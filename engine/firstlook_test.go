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
		// With pushdown off the store is still told the LIMIT (a row
		// limit is no filter), and EXPLAIN says so.
		if !pushdown && !strings.Contains(text, "the store only reads and stops at the LIMIT") {
			t.Errorf("pushdown off: EXPLAIN does not say the store stops at the LIMIT:\n%s", text)
		}
		if read > 5 || returned != 5 {
			t.Errorf("pushdown %v: rows read %d, returned %d of %d; want at most 5 read and 5 returned:\n%s", pushdown, read, returned, rows, text)
		}
	}
	checkRawFirstLook(t, e, run, cat.Tables[tableIndex(t, cat, "orders")].Physical)
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

func tableIndex(t *testing.T, cat *catalog.Catalog, name string) int {
	t.Helper()
	for i, tb := range cat.Tables {
		if tb.Name == name {
			return i
		}
	}
	t.Fatalf("no table %s in the catalog", name)
	return -1
}

// checkRawFirstLook: SELECT * FROM RAW 'orders' LIMIT 5 (the HBase shell's
// scan 'orders', {LIMIT => 5}) and SELECT RAW * FROM orders LIMIT 3 need
// no ALLOW FULL SCAN and read at most 5 and 3 rows, measured, with
// pushdown on and off; a condition left to the client keeps them refused.
func checkRawFirstLook(t *testing.T, e *engine.Engine, run func(string) (*engine.Result, error), physical string) {
	ctx := context.Background()
	drain := func(q string) []catalog.Row {
		t.Helper()
		res, err := run(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer res.Close()
		var out []catalog.Row
		for {
			row, err := res.Rows.Next(ctx)
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, row)
		}
	}
	cases := []struct {
		q    string
		most int
	}{
		{fmt.Sprintf("SELECT * FROM RAW '%s' LIMIT 5", physical), 5},
		{"SELECT RAW * FROM orders LIMIT 3", 3},
	}
	for _, pushdown := range []bool{true, false} {
		e.SetPushdown(pushdown)
		for _, c := range cases {
			got := drain(c.q)
			keys := map[string]bool{}
			for _, row := range got {
				keys[row[0].String()] = true
			}
			if strings.HasPrefix(c.q, "SELECT RAW") {
				// One result row per cell of the first 3 rows.
				if len(keys) != c.most || len(got) < c.most {
					t.Errorf("pushdown %v: %s gave %d cells of %d rows, want the cells of %d rows", pushdown, c.q, len(got), len(keys), c.most)
				}
			} else if len(got) != c.most || len(keys) > c.most {
				t.Errorf("pushdown %v: %s gave %d cells of %d rows, want %d cells", pushdown, c.q, len(got), len(keys), c.most)
			}
			res, err := run("EXPLAIN ANALYZE " + c.q)
			if err != nil {
				t.Fatalf("pushdown %v: EXPLAIN ANALYZE %s: %v", pushdown, c.q, err)
			}
			text := res.Text
			res.Close()
			if want := fmt.Sprintf("LIMIT %d bounds the read: at most %d rows", c.most, c.most); !strings.Contains(text, want) {
				t.Errorf("pushdown %v: EXPLAIN %s does not say %q:\n%s", pushdown, c.q, want, text)
			}
			read, returned := analyzeFigure(t, text, "rows read"), analyzeFigure(t, text, "rows returned")
			received := analyzeFigure(t, text, "rows received")
			if read > c.most || returned != len(got) || received != len(keys) {
				t.Errorf("pushdown %v: %s: rows read %d, received %d, returned %d; want at most %d read, %d received and %d returned:\n%s",
					pushdown, c.q, read, received, returned, c.most, len(keys), len(got), text)
			}
		}
	}
	for _, q := range []string{
		fmt.Sprintf("SELECT * FROM RAW '%s' WHERE _value = 'paid' LIMIT 5", physical),
		"SELECT RAW * FROM orders WHERE amount > 5 LIMIT 3",
	} {
		_, err := run(q)
		if !errors.Is(err, planner.ErrFullScan) {
			t.Fatalf("%s: got %v, want the full-scan refusal", q, err)
		}
		if want := "to read it anyway: " + q + " ALLOW FULL SCAN"; !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: the refusal does not end with the statement to type (%q):\n%v", q, want, err)
		}
	}
}
