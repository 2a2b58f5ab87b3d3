package engine_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// copyCatalog has orders in two layouts, the second with an index, and
// a table of other types.
const copyCatalog = `
tables:
  - name: orders
    families: [{name: d}]
    columns:
      - {name: seller, type: STRING}
      - {name: buyer, type: STRING, column: "d:buyer"}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP}
      - {name: amount, type: DOUBLE, column: "d:amount"}
      - {name: status, type: STRING, column: "d:status"}
    rowkey:
      - {hash: md5, of: [seller], width: 4}
      - {field: seller}
      - {literal: "|"}
      - {field: ts, encoding: java, order: desc}
      - {field: order_id, encoding: java}
  - name: orders_v2
    families: [{name: f}]
    columns:
      - {name: seller, type: STRING, column: "f:s"}
      - {name: buyer, type: STRING}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP, column: "f:t"}
      - {name: amount, type: DOUBLE, column: "f:a"}
      - {name: status, type: STRING, column: "f:st"}
    rowkey:
      - {bucket: order_id, mod: 8, binary: true}
      - {field: buyer}
      - {literal: "|"}
      - {field: order_id, encoding: java}
    indexes:
      - name: v2_by_seller
        rowkey:
          - {field: seller}
          - {literal: "|"}
          - {field: order_id, encoding: java}
        carries: [buyer]
  - name: small
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: n, type: INT, column: "d:n"}
    rowkey:
      - {field: k}
`

func copyEngine(t *testing.T) *engine.Engine {
	t.Helper()
	cat, err := catalog.Parse([]byte(copyCatalog))
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	return engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
}

// sortedRows is the rows of q as text, sorted.
func sortedRows(t *testing.T, e *engine.Engine, q string) []string {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = rowsText([]catalog.Row{r})
	}
	sort.Strings(out)
	return out
}

// INSERT INTO new SELECT * FROM old copies every row into another layout
// with its index entries; a query on each side, by key and through the
// index, gives the same rows.
func TestInsertSelectCopiesLayout(t *testing.T) {
	e := copyEngine(t)
	tb, _ := e.Catalog().Table("orders")
	if err := e.Write(context.Background(), tb, nil, examples.Rows(tb, 3000, 7), 0, nil); err != nil {
		t.Fatal(err)
	}
	withBuyer := len(sortedRows(t, e, "SELECT seller FROM orders WHERE buyer IS NOT NULL ALLOW FULL SCAN"))
	if withBuyer < 2000 {
		t.Fatalf("%d rows with a buyer of 3000", withBuyer)
	}
	var reported []int64
	e.SetProgress(func(n int64) { reported = append(reported, n) })
	if tag := run(t, e, "INSERT INTO orders_v2 SELECT * FROM orders WHERE buyer IS NOT NULL ALLOW FULL SCAN"); tag != "INSERT "+itoa(withBuyer) {
		t.Fatalf("tag %q, want INSERT %d", tag, withBuyer)
	}
	e.SetProgress(nil)
	if len(reported) != 1 || reported[0] != int64(withBuyer) {
		t.Errorf("progress %v, want [%d] (one batch of at most 5000)", reported, withBuyer)
	}
	cols := "seller, buyer, order_id, ts, amount, status"
	old := sortedRows(t, e, "SELECT "+cols+" FROM orders WHERE buyer IS NOT NULL ALLOW FULL SCAN")
	got := sortedRows(t, e, "SELECT "+cols+" FROM orders_v2 ALLOW FULL SCAN")
	if len(old) != withBuyer || strings.Join(old, "\n") != strings.Join(got, "\n") {
		t.Fatalf("%d rows copied of %d, or they differ", len(got), len(old))
	}
	// Through the new index: one seller's rows are the same on each side.
	seller := strings.Fields(old[0])[0]
	a := sortedRows(t, e, "SELECT "+cols+" FROM orders WHERE seller = '"+seller+"' AND buyer IS NOT NULL")
	b := sortedRows(t, e, "SELECT "+cols+" FROM orders_v2 WHERE seller = '"+seller+"'")
	if len(a) == 0 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("seller %s: %d rows in orders, %d through v2_by_seller", seller, len(a), len(b))
	}
	if !strings.Contains(explainText(t, e, "EXPLAIN SELECT * FROM orders_v2 WHERE seller = '"+seller+"'"), "v2_by_seller") {
		t.Error("the seller query on orders_v2 does not use v2_by_seller")
	}
	// A column list and a filtered query: only those rows and columns.
	run(t, e, "DELETE FROM orders_v2 WHERE order_id >= 0 ALLOW FULL SCAN")
	if tag := run(t, e, "UPSERT INTO orders_v2 (buyer, order_id, seller) SELECT buyer, order_id, seller FROM orders WHERE seller = '"+seller+"' AND buyer IS NOT NULL"); tag != "UPSERT "+itoa(len(a)) {
		t.Fatalf("tag %q, want UPSERT %d", tag, len(a))
	}
	if n := sortedRows(t, e, "SELECT COUNT(*) FROM orders_v2 WHERE amount IS NULL AND seller = '"+seller+"' ALLOW FULL SCAN"); n[0] != itoa(len(a)) {
		t.Fatalf("rows without amount %v, want %d", n, len(a))
	}
}

func itoa(n int) string { return rowsText([]catalog.Row{{catalog.Bigint(int64(n))}}) }

func TestInsertSelectExplain(t *testing.T) {
	e := copyEngine(t)
	got := explainText(t, e, "EXPLAIN INSERT INTO orders_v2 SELECT * FROM orders WHERE seller = 's1'")
	for _, want := range []string{"CLIENT INSERT THE ROWS INTO orders_v2", "COLUMNS", "seller, buyer, order_id, ts, amount, status", "5000 rows a write", "v2_by_seller", "RANGE SCAN OVER orders"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}

func TestInsertSelectRefused(t *testing.T) {
	e := copyEngine(t)
	tb, _ := e.Catalog().Table("orders")
	if err := e.Write(context.Background(), tb, nil, examples.Rows(tb, 10, 1), 0, nil); err != nil {
		t.Fatal(err)
	}
	run(t, e, "INSERT INTO small (k, n) VALUES ('a', 1)")
	for q, want := range map[string]string{
		"INSERT INTO orders_v2 SELECT seller FROM orders ALLOW FULL SCAN":                            "the SELECT returns 1 column, for the 6 columns of orders_v2",
		"INSERT INTO orders_v2 (buyer, order_id) SELECT buyer, amount FROM orders ALLOW FULL SCAN":   "output 2 of the SELECT (amount) is DOUBLE, and column order_id of orders_v2 is BIGINT",
		"INSERT INTO orders SELECT * FROM orders ALLOW FULL SCAN":                                    "INSERT INTO orders SELECT … FROM orders would read its own writes: copy through another table",
		"INSERT INTO orders_v2 (buyer, order_id) SELECT buyer, NULL FROM orders ALLOW FULL SCAN":     "row 1 of the SELECT: a NULL key field order_id",
		"INSERT INTO small (k, n) SELECT seller, order_id * 10000000000 FROM orders ALLOW FULL SCAN": "does not fit INT column n",
		"INSERT INTO orders_v2 (buyer) SELECT buyer FROM orders ALLOW FULL SCAN":                     "INSERT INTO orders_v2 must set key field order_id",
	} {
		_, _, err := e.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", q, err, want)
		}
	}
}

// BenchmarkInsertSelect copies orders rows (20,000; RKQL_BENCH_ROWS sets
// the count) into orders_v2 (a new layout with an index) by INSERT …
// SELECT, and imports the same rows from CSV into the same table as the
// baseline, each into a fresh store that holds orders, the two one after
// the other in each iteration, taking turns going first. It reports the
// mean time of each and their ratio, INSERT … SELECT's over import's,
// from the same run:
//
//	go test -run XXX -bench 'InsertSelect$' -benchtime 5x ./engine/
func BenchmarkInsertSelect(b *testing.B) {
	n := benchRows(b)
	cat, err := catalog.Parse([]byte(copyCatalog))
	if err != nil {
		b.Fatal(err)
	}
	tb, _ := cat.Table("orders")
	rows := withBuyer(tb, n)
	data := ordersCSV(tb, rows)
	ctx := context.Background()
	// fresh is a new store holding orders: the import, like the copy,
	// writes orders_v2 beside it, as a user with orders would.
	fresh := func(b *testing.B) *engine.Engine {
		st, err := embedded.Open(b.TempDir(), embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
			Open: func(context.Context) (exec.Store, error) { return st, nil }})
		if err := e.Write(ctx, tb, nil, rows, 0, nil); err != nil {
			b.Fatal(err)
		}
		return e
	}
	importing := func() time.Duration {
		b.StopTimer()
		e := fresh(b)
		runtime.GC() // the garbage of writing orders is not the import's
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
		e := fresh(b)
		runtime.GC() // the garbage of writing orders is not the copy's
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

// benchRows is RKQL_BENCH_ROWS, or 20,000.
func benchRows(b *testing.B) int {
	s := os.Getenv("RKQL_BENCH_ROWS")
	if s == "" {
		return 20_000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("RKQL_BENCH_ROWS=%q: want a count of rows", s)
	}
	return n
}

// ordersCSV is rows of orders as CSV with a header, as rkql writes it.
func ordersCSV(tb *catalog.Table, rows []catalog.Row) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(tb.ColumnNames())
	for _, r := range rows {
		rec := make([]string, len(r))
		for i, v := range r {
			if !v.Null {
				rec[i] = v.Text()
			}
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}

// compareCopy runs importing and copying once an iteration, taking turns
// going first, so that neither pays more often for what the other leaves
// behind (dirty pages being written back, a store's compactions), and
// reports the mean time of each and the ratio of INSERT … SELECT's
// (copying) to import's.
func compareCopy(b *testing.B, importing, copying func() time.Duration) {
	var imported, copied time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			imported += importing()
			copied += copying()
		} else {
			copied += copying()
			imported += importing()
		}
	}
	b.ReportMetric(float64(imported.Milliseconds())/float64(b.N), "import-ms/op")
	b.ReportMetric(float64(copied.Milliseconds())/float64(b.N), "insert-select-ms/op")
	b.ReportMetric(copied.Seconds()/imported.Seconds(), "insert-select/import")
}

// withBuyer is the first n rows of examples.Rows for orders that have a
// buyer, which orders_v2's key needs.
func withBuyer(tb *catalog.Table, n int) []catalog.Row {
	var rows []catalog.Row
	for seed := uint64(3); len(rows) < n; seed++ {
		for _, r := range examples.RowsAt(tb, int(seed-3)*n*2, n*2, seed) {
			if !r[1].Null && len(rows) < n {
				rows = append(rows, r)
			}
		}
	}
	return rows
}
