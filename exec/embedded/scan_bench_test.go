package embedded_test

import (
	"context"
	"io"
	"testing"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// BenchmarkFullScanDecode compares rkql's pipeline over 20,000 orders rows
// (scan, decode key and cells, filter, project) with a hand-written loop
// doing the same decoding over the same store scan.
func BenchmarkFullScanDecode(b *testing.B) {
	cat, st := openCatalogB(b, "../../examples/catalog.yaml")
	orders, _ := cat.Table("orders")
	x := &exec.Executor{Store: st}
	ctx := context.Background()
	if err := x.EnsureTable(ctx, orders); err != nil {
		b.Fatal(err)
	}
	if err := x.Insert(ctx, orders, examples.Rows(orders, 20_000, 1), 0, nil); err != nil {
		b.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	b.Run("rkql", func(b *testing.B) {
		for b.Loop() {
			n, _ := runQuery(b, x, pl, "SELECT * FROM orders WHERE amount > 500 ALLOW FULL SCAN")
			if n == 0 {
				b.Fatal("no rows")
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		amount, _ := orders.Column("amount")
		for b.Loop() {
			it, err := st.Scan(ctx, orders.Physical, exec.Range{}, exec.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for {
				sr, err := it.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				row := orders.NewRow()
				if err := orders.DecodeKey(sr.Key, row, nil); err != nil {
					b.Fatal(err)
				}
				for _, c := range sr.Cells {
					for i := range orders.Columns {
						col := &orders.Columns[i]
						if col.Family == c.Family && col.Qualifier == c.Qualifier {
							if row[i], err = col.DecodeCell(c.Value); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
				if !row[amount].Null && row[amount].F > 500 {
					n++
				}
			}
			it.Close()
			if n == 0 {
				b.Fatal("no rows")
			}
		}
	})
}
