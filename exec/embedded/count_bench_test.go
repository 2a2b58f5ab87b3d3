package embedded_test

import (
	"context"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/planner"
)

// BenchmarkCountLogs counts 100k logs rows: SELECT COUNT(*) through the
// planner and executor (rkql), against a bare bbolt cursor counting the
// keys of the same file in one read transaction (raw), which reads a
// byte of each key and value but checks neither. Compare their ns/row.
//
//	go test -run XXX -bench CountLogs ./exec/embedded/
func BenchmarkCountLogs(b *testing.B) {
	const rows = 100_000
	x, pl, t := loadLogs(b, rows)
	b.Run("rkql", func(b *testing.B) {
		for b.Loop() {
			n, _ := runCount(b, x, pl, "SELECT COUNT(*) FROM logs ALLOW FULL SCAN")
			if n != rows {
				b.Fatalf("counted %d rows, want %d", n, rows)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
	})
	b.Run("raw", func(b *testing.B) {
		db := x.Store.(*embedded.Store).DB()
		for b.Loop() {
			n := 0
			err := db.View(func(tx *bolt.Tx) error {
				c := tx.Bucket([]byte(t.Physical)).Cursor()
				for k, v := c.First(); k != nil; k, v = c.Next() {
					if len(k) > 0 && len(v) > 0 && k[len(k)-1] != 0xff && v[0] == 0x01 {
						n++
					}
				}
				return nil
			})
			if err != nil || n != rows {
				b.Fatalf("counted %d rows (%v), want %d", n, err, rows)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
	})
}

// runCount runs a SELECT COUNT(*), placed on the store as the engine
// places it, and returns the count and the stats.
func runCount(tb testing.TB, x *exec.Executor, pl *planner.Planner, q string) (int64, *exec.Stats) {
	tb.Helper()
	sel := planSelect(tb, pl, q)
	ctx := context.Background()
	stats := &exec.Stats{}
	placed, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rows, err := x.Run(ctx, placed, stats)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	row, err := rows.Next(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return row[0].I, stats
}
