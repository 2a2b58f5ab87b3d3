package embedded_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

const newestLogs = "SELECT * FROM logs WHERE ts >= TIMESTAMP '2024-05-01 00:00:00' ORDER BY ts LIMIT 10"

// loadLogs fills a store with n generated rows of the logs table.
func loadLogs(tb testing.TB, n int) (*exec.Executor, *planner.Planner, *catalog.Table) {
	tb.Helper()
	cat, err := catalog.LoadFile("../../examples/catalog.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	t, _ := cat.Table("logs")
	x := &exec.Executor{Store: openStore(tb)}
	ctx := context.Background()
	if err := x.EnsureTable(ctx, t); err != nil {
		tb.Fatal(err)
	}
	if err := x.Insert(ctx, t, examples.Rows(t, n, 1), 0, nil); err != nil {
		tb.Fatal(err)
	}
	return x, planner.New(cat, planner.Options{}), t
}

func runQuery(tb testing.TB, x *exec.Executor, pl *planner.Planner, q string) (int, *exec.Stats) {
	sel := planSelect(tb, pl, q)
	ctx := context.Background()
	stats := &exec.Stats{}
	rows, err := x.Query(ctx, sel, stats)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for {
		if _, err := rows.Next(ctx); err == io.EOF {
			return n, stats
		} else if err != nil {
			tb.Fatal(err)
		}
		n++
	}
}

// TestMergeStreams checks that ORDER BY ts LIMIT 10 over the 16 buckets of
// logs reads the merge's heads, not the buckets.
func TestMergeStreams(t *testing.T) {
	x, pl, _ := loadLogs(t, 20_000)
	n, stats := runQuery(t, x, pl, newestLogs)
	if n != 10 {
		t.Fatalf("got %d rows, want 10", n)
	}
	// Each of the 16 streams holds one row ahead of the merge, and the
	// stream the last row came from has read one more.
	if read := stats.RowsRead.Load(); read > 10+16+1 {
		t.Errorf("read %d rows to return 10 over 16 buckets; want at most %d", read, 10+16+1)
	}
}

// BenchmarkMergeLimit compares the planned query with a hand-written loop
// that opens the 16 bucket scans and merges them itself.
func BenchmarkMergeLimit(b *testing.B) {
	x, pl, t := loadLogs(b, 50_000)
	b.Run("rkql", func(b *testing.B) {
		var read int64
		for b.Loop() {
			_, stats := runQuery(b, x, pl, newestLogs)
			read += stats.RowsRead.Load()
		}
		b.ReportMetric(float64(read)/float64(b.N), "rows_read/op")
	})
	b.Run("raw", func(b *testing.B) {
		ctx := context.Background()
		start := examples.Epoch.UnixMilli()
		for b.Loop() {
			var its []exec.RowIter
			var heads []*exec.StoreRow
			for bucket := range 16 {
				lo := []byte{byte(bucket), 0, 0, 0, 0, 0, 0, 0, 0}
				for i := 0; i < 8; i++ {
					lo[1+i] = byte(uint64(start) >> (56 - 8*i))
				}
				it, err := x.Store.Scan(ctx, t.Physical, exec.Range{Start: lo, Stop: []byte{byte(bucket + 1)}}, exec.ReadOptions{Limit: 10})
				if err != nil {
					b.Fatal(err)
				}
				r, err := it.Next(ctx)
				if err != nil && err != io.EOF {
					b.Fatal(err)
				}
				its, heads = append(its, it), append(heads, r)
			}
			for got := 0; got < 10; got++ {
				best := -1
				for i, h := range heads {
					if h != nil && (best < 0 || bytes.Compare(h.Key[1:], heads[best].Key[1:]) < 0) {
						best = i
					}
				}
				if best < 0 {
					break
				}
				r, err := its[best].Next(ctx)
				if err == io.EOF {
					r = nil
				} else if err != nil {
					b.Fatal(err)
				}
				heads[best] = r
			}
			for _, it := range its {
				it.Close()
			}
		}
	})
}
