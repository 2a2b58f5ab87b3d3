package exec

import (
	"context"
	"io"
	"runtime"
	"strconv"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// genIter makes n rows as a scan decodes them: a wide text, a BIGINT, a
// STRING of about ten bytes and another BIGINT, each string allocated on
// its own. The rows are made one at a time, so that only what a sort
// holds stays on the heap.
type genIter struct{ i, n int }

func (g *genIter) next(context.Context) (*Row, error) {
	if g.i >= g.n {
		return nil, io.EOF
	}
	g.i++
	k := int64(g.i*7919) % int64(g.n) // every key once, out of order
	return &Row{Vals: catalog.Row{
		catalog.String("a wide text column the query does not return"), catalog.Bigint(k),
		catalog.String("name" + strconv.Itoa(100000+g.i)), catalog.Bigint(int64(g.i)),
	}, Key: []byte("row key of some length")}, nil
}

func (g *genIter) close() {}

// heapAfterGC is the live heap, after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// sortHeld sorts n generated rows by column 1, keeping columns 1 and 2
// (with a LIMIT of limit, or none), and returns the heap the sorted rows
// hold per row, measured before the first one is read.
func sortHeld(tb testing.TB, n int, limit int64) float64 {
	x := &Executor{SortBudget: 2 * n}
	s := &planner.Sort{Keys: []planner.SortKey{{Col: 1, Name: "k"}}, Limit: limit, Keep: []int{1, 2}}
	before := heapAfterGC()
	it, err := x.sort(context.Background(), &genIter{n: n}, s)
	if err != nil {
		tb.Fatal(err)
	}
	after := heapAfterGC()
	held := n
	if limit != planner.NoLimit {
		held = int(limit)
	}
	perRow := (float64(after) - float64(before)) / float64(held)
	for want := int64(0); ; want++ {
		r, err := it.next(context.Background())
		if err == io.EOF {
			if want != int64(held) {
				tb.Fatalf("%d rows out, want %d", want, held)
			}
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if r.Vals[1].I != want || r.Vals[2].S == "" {
			tb.Fatalf("row %d: %v", want, r.Vals)
		}
	}
	it.close()
	return perRow
}

// valuesHeld is the baseline: the same rows packed to the two columns as
// catalog values, one small slice each, as a sort of values holds them.
func valuesHeld(n int) float64 {
	before := heapAfterGC()
	g := &genIter{n: n}
	rows := make([]*Row, 0, n)
	for {
		r, err := g.next(context.Background())
		if err != nil {
			break
		}
		rows = append(rows, &Row{Vals: catalog.Row{r.Vals[1], r.Vals[2]}})
	}
	after := heapAfterGC()
	runtime.KeepAlive(rows)
	return (float64(after) - float64(before)) / float64(n)
}

// BenchmarkSortHeld reports the heap a client sort holds per row
// (held-B/row) for a full sort and a top-N, beside the baseline of the
// same rows held as packed values.
func BenchmarkSortHeld(b *testing.B) {
	const n = 200_000
	b.Run("values-baseline", func(b *testing.B) {
		var per float64
		for range b.N {
			per = valuesHeld(n)
		}
		b.ReportMetric(per, "held-B/row")
	})
	b.Run("full", func(b *testing.B) {
		var per float64
		for range b.N {
			per = sortHeld(b, n, planner.NoLimit)
		}
		b.ReportMetric(per, "held-B/row")
	})
	b.Run("top", func(b *testing.B) {
		var per float64
		for range b.N {
			per = sortHeld(b, n, n/2)
		}
		b.ReportMetric(per, "held-B/row")
	})
}

// BenchmarkSort times a client sort of generated rows, full and top-N,
// without forcing collections.
func BenchmarkSort(b *testing.B) {
	const n = 200_000
	for _, c := range []struct {
		name  string
		limit int64
	}{{"full", planner.NoLimit}, {"top", n / 2}, {"top100", 100}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			x := &Executor{SortBudget: 2 * n}
			s := &planner.Sort{Keys: []planner.SortKey{{Col: 1, Name: "k"}}, Limit: c.limit, Keep: []int{1, 2}}
			for range b.N {
				it, err := x.sort(context.Background(), &genIter{n: n}, s)
				if err != nil {
					b.Fatal(err)
				}
				for {
					if _, err := it.next(context.Background()); err != nil {
						break
					}
				}
				it.close()
			}
		})
	}
}
