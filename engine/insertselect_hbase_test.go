package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// hbaseCopyCatalog is copyCatalog with HBase table names of its own for
// orders, orders_v2 and its index, and orders split in four regions.
func hbaseCopyCatalog(orders, v2, index string) string {
	src := strings.Replace(copyCatalog, "  - name: orders\n", "  - name: orders\n    hbase: "+orders+"\n    split: {algorithm: HexStringSplit, regions: 4}\n", 1)
	src = strings.Replace(src, "  - name: orders_v2\n", "  - name: orders_v2\n    hbase: "+v2+"\n", 1)
	return strings.Replace(src, "      - name: v2_by_seller\n", "      - name: v2_by_seller\n        hbase: "+index+"\n", 1)
}

// TestInsertSelectHBase loads orders rows into orders on HBase (200,000
// with RKQL_LONG=1, 20,000 otherwise), copies them by INSERT INTO
// orders_v2 SELECT * FROM orders into another layout with an index, and
// checks by queries on each side that every row arrived with every
// column: the counts, all rows sorted, one seller's rows through the new
// index, and CHECK INDEX of that index.
func TestInsertSelectHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	n := exectest.Size(2_000, 20_000, 200_000)
	orders, v2, index := hbasetest.TableName("insel_orders"), hbasetest.TableName("insel_orders_v2"), hbasetest.TableName("insel_v2_by_seller")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, name := range []string{orders, v2, index} {
		t.Cleanup(func() { _ = st.DropTable(context.Background(), name) })
	}
	cat, err := catalog.Parse([]byte(hbaseCopyCatalog(orders, v2, index)))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	run(t, e, "CREATE TABLE orders")
	run(t, e, "CREATE TABLE orders_v2")
	tb, _ := cat.Table("orders")
	rows := withBuyer(tb, n)
	begin := time.Now()
	if err := e.Write(ctx, tb, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows written into %s: %v", n, orders, time.Since(begin).Round(time.Millisecond))

	begin = time.Now()
	if tag := run(t, e, "INSERT INTO orders_v2 SELECT * FROM orders ALLOW FULL SCAN"); tag != "INSERT "+itoa(n) {
		t.Fatalf("tag %q, want INSERT %d", tag, n)
	}
	t.Logf("INSERT INTO orders_v2 SELECT * FROM orders, %d rows: %v", n, time.Since(begin).Round(time.Millisecond))

	for _, table := range []string{"orders", "orders_v2"} {
		if got := sortedRows(t, e, "SELECT COUNT(*) FROM "+table+" ALLOW FULL SCAN"); len(got) != 1 || got[0] != itoa(n) {
			t.Fatalf("COUNT(*) of %s: %v, want %d", table, got, n)
		}
	}
	cols := "seller, buyer, order_id, ts, amount, status"
	old := sortedRows(t, e, "SELECT "+cols+" FROM orders ALLOW FULL SCAN")
	got := sortedRows(t, e, "SELECT "+cols+" FROM orders_v2 ALLOW FULL SCAN")
	if len(old) != n || len(got) != n {
		t.Fatalf("%d rows in orders and %d in orders_v2, want %d", len(old), len(got), n)
	}
	for i := range old {
		if old[i] != got[i] {
			t.Fatalf("row %d of %d sorted: orders has\n%s\norders_v2 has\n%s", i+1, n, old[i], got[i])
		}
	}
	// The generated rows themselves, as the query returns them.
	want := make([]string, len(rows))
	for i, r := range rows {
		want[i] = rowsText([]catalog.Row{r})
	}
	sort.Strings(want)
	if strings.Join(want, "\n") != strings.Join(old, "\n") {
		t.Fatal("orders does not hold the rows written")
	}

	// One seller's rows, read through v2_by_seller, are that seller's
	// rows of orders.
	seller := strings.Fields(old[len(old)/2])[0]
	if !strings.Contains(explainText(t, e, "EXPLAIN SELECT "+cols+" FROM orders_v2 WHERE seller = '"+seller+"'"), "v2_by_seller") {
		t.Fatal("the seller query on orders_v2 does not use v2_by_seller")
	}
	a := sortedRows(t, e, "SELECT "+cols+" FROM orders WHERE seller = '"+seller+"'")
	b := sortedRows(t, e, "SELECT "+cols+" FROM orders_v2 WHERE seller = '"+seller+"'")
	if len(a) == 0 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("seller %s: %d rows in orders, %d through v2_by_seller", seller, len(a), len(b))
	}

	res, _, err := e.Exec(ctx, "CHECK INDEX v2_by_seller")
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("CHECK INDEX: %d rows", len(res))
	}
	// data_rows, entries, no_entry, missing, orphans, unverified, stale,
	// repaired.
	r := res[0]
	if fmt.Sprint(r[0].I, r[1].I, r[3].I, r[4].I, r[5].I, r[6].I) != fmt.Sprint(n, n, 0, 0, 0, 0) || r[2].I != 0 {
		t.Fatalf("CHECK INDEX v2_by_seller: %s, want %d rows and entries, none missing, orphaned, unverified or stale", rowsText(res), n)
	}
}

// BenchmarkInsertSelectHBase is BenchmarkInsertSelect on the local HBase:
// each iteration imports the rows from CSV into a new orders_v2 and
// copies them from orders into another new orders_v2 by INSERT … SELECT,
// the two taking turns going first, and the ratio of the two times is
// reported (RKQL_BENCH_ROWS rows, 20,000 by default):
//
//	go test -run XXX -bench InsertSelectHBase -benchtime 1x ./engine/
func BenchmarkInsertSelectHBase(b *testing.B) {
	q := hbasetest.Quorum(b)
	n := benchRows(b)
	ctx := context.Background()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	drop := func(names ...string) {
		for _, name := range names {
			_ = st.DropTable(context.Background(), name)
		}
	}
	orders := hbasetest.TableName("insel_bench_orders")
	b.Cleanup(func() { drop(orders) })
	// engineFor is an engine whose orders_v2 is a new table.
	engineFor := func() *engine.Engine {
		v2, index := hbasetest.TableName("insel_bench_v2"), hbasetest.TableName("insel_bench_v2_by_seller")
		b.Cleanup(func() { drop(v2, index) })
		cat, err := catalog.Parse([]byte(hbaseCopyCatalog(orders, v2, index)))
		if err != nil {
			b.Fatal(err)
		}
		e := engine.New(engine.Config{Catalog: cat,
			Open: func(context.Context) (exec.Store, error) { return st, nil }})
		if _, _, err := e.Exec(ctx, "CREATE TABLE orders_v2"); err != nil {
			b.Fatal(err)
		}
		return e
	}
	e := engineFor()
	if _, _, err := e.Exec(ctx, "CREATE TABLE orders"); err != nil {
		b.Fatal(err)
	}
	tb, _ := e.Catalog().Table("orders")
	rows := withBuyer(tb, n)
	if err := e.Write(ctx, tb, nil, rows, 0, nil); err != nil {
		b.Fatal(err)
	}
	data := ordersCSV(tb, rows)
	importing := func() time.Duration {
		b.StopTimer()
		e := engineFor()
		b.StartTimer()
		start := time.Now()
		got, err := e.Import(ctx, bytes.NewReader(data), engine.ImportOptions{Table: "orders_v2", Name: "orders.csv"})
		took := time.Since(start)
		if err != nil || got != int64(n) {
			b.Fatalf("imported %d rows, %v", got, err)
		}
		return took
	}
	copying := func() time.Duration {
		b.StopTimer()
		e := engineFor()
		b.StartTimer()
		start := time.Now()
		_, tag, err := e.Exec(ctx, "INSERT INTO orders_v2 SELECT * FROM orders ALLOW FULL SCAN")
		took := time.Since(start)
		if err != nil || tag != "INSERT "+itoa(n) {
			b.Fatalf("%s, %v", tag, err)
		}
		return took
	}
	compareCopy(b, importing, copying)
}
