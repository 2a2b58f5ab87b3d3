package hbasestore_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// TestCountWhileRegionsReopen alters a family of orders, split into 16
// regions, which makes the master reopen every region, and runs COUNT(*)
// in the regions, EXPLAIN ANALYZE of it and SHOW REGIONS while it does
// and after: each time the count is every row written, the aggregate
// asks 16 regions, and SHOW REGIONS lists 16. The store reads hbase:meta
// through pages of one row (a result size of one byte) though it asks
// for four.
func TestCountWhileRegionsReopen(t *testing.T) {
	t.Parallel() // its tables are its own
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root(), MetaScanRows: 4, ScanMaxResultSize: 1},
		hbasestore.Options{CompressionFallback: true, Coprocessors: []string{hbase.AggregateClass}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, tb, x := scratchExample(t, st, "orders")
	rows := ordersRows(tb)
	if err := x.Insert(ctx, tb, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	const count = "SELECT COUNT(*) FROM orders ALLOW FULL SCAN"
	want := fmt.Sprintf("(%d)", len(rows))
	check := func(when string) {
		t.Helper()
		got, err := result(ctx, e, count)
		if err != nil || strings.Join(got, "") != want {
			t.Fatalf("%s: %s gives %v (%v), want %s", when, count, got, err, want)
		}
		a, err := explainAnalyze(ctx, e, count)
		if err != nil || !strings.Contains(a.text, "SERVER AGGREGATE COUNT") || !strings.Contains(a.text, "regions 16,") {
			t.Fatalf("%s: EXPLAIN ANALYZE %s (%v):\n%s", when, count, err, a.text)
		}
		if n, err := countRows(ctx, e, "SHOW REGIONS orders"); err != nil || n != 16 {
			t.Fatalf("%s: SHOW REGIONS lists %d regions (%v), want 16", when, n, err)
		}
	}
	check("before the alter")
	for round, versions := range []int{2, 3} {
		f := exec.Spec(tb).Families[0]
		f.Versions = versions
		reads, err := hbasetest.WhileRunning(func() error { return st.AlterFamily(ctx, tb.Physical, f) },
			func(n int) { check(fmt.Sprintf("alter %d, read %d", round, n)) })
		if err != nil {
			t.Fatalf("alter %d: %v", round, err)
		}
		t.Logf("alter %d: %d reads while and after the regions reopened", round, reads)
	}
}

// countRows runs q and counts the rows it returns.
func countRows(ctx context.Context, e *engine.Engine, q string) (int, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return 0, err
	}
	res, err := e.Run(ctx, stmt)
	if err != nil {
		return 0, err
	}
	defer res.Close()
	n := 0
	for {
		if _, err := res.Rows.Next(ctx); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
		n++
	}
}
