package examples_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

func ordersTable(t *testing.T) *catalog.Table {
	t.Helper()
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := c.Table("orders")
	if !ok {
		t.Fatal("the example catalog has no orders")
	}
	return tb
}

// 200,000 orders, generated in chunks of 50,000 as the JSON lines writer
// does, repeat no order number: the index orders_by_id is unique.
func TestStreamUniqueOrderIDs(t *testing.T) {
	tb := ordersTable(t)
	col, _ := tb.Column("order_id")
	seen := map[int64]int{}
	n := 0
	for rows := range examples.Stream(tb, 200_000, 50_000) {
		for _, r := range rows {
			id := r[col].I
			if prev, dup := seen[id]; dup {
				t.Fatalf("row %d repeats order_id %d of row %d", n, id, prev)
			}
			seen[id] = n
			n++
		}
	}
	if n != 200_000 {
		t.Fatalf("%d rows, want 200000", n)
	}
	// The first chunk is what Rows draws: the same data as before.
	first := examples.Rows(tb, 10, 1)
	i := 0
	for rows := range examples.Stream(tb, 10, 4) {
		if i == 0 {
			for j, r := range rows {
				if catalog.Compare(r[col], first[j][col]) != 0 {
					t.Fatalf("row %d: order_id %v, Rows gives %v", j, r[col], first[j][col])
				}
			}
		}
		i++
	}
	if i != 3 {
		t.Fatalf("10 rows in chunks of 4 came in %d chunks", i)
	}
}

// The rows of a stream over several chunks load through the write path
// into orders, whose unique index orders_by_id refuses a repeated order
// number.
func TestStreamLoadsUnderUniqueIndex(t *testing.T) {
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := c.Table("orders")
	st, err := embedded.Open(filepath.Join(t.TempDir(), "store"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := engine.New(engine.Config{Catalog: c, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	defer e.Close()
	ctx := context.Background()
	for rows := range examples.Stream(tb, 3000, 1000) {
		if err := e.Write(ctx, tb, nil, rows, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := e.Exec(ctx, "SELECT COUNT(*) FROM orders ALLOW FULL SCAN")
	if err != nil || len(got) != 1 || got[0][0].I != 3000 {
		t.Fatalf("count %v %v, want 3000", got, err)
	}
	rows, _, err := e.Exec(ctx, "CHECK INDEX orders_by_id")
	if err != nil {
		t.Fatalf("CHECK INDEX orders_by_id: %v (%v)", err, rows)
	}
}
