package embedded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

const benchRows = 100_000

// benchMutations returns n rows of one 64-byte cell each, in key order.
func benchMutations(n int) []exec.Mutation {
	val := make([]byte, 64)
	muts := make([]exec.Mutation, n)
	for i := range muts {
		muts[i] = exec.Mutation{
			Key:   fmt.Appendf(nil, "row%08d", i),
			Cells: []exec.Cell{{Family: "cf", Qualifier: "q", Timestamp: 1, Value: val}},
		}
	}
	return muts
}

// BenchmarkScan walks the same 100k rows with a bare bbolt cursor (raw)
// and through Store.Scan (store), which adds decoding, copying and
// batching. Compare their ns/row.
//
//	go test -run XXX -bench Scan -benchtime 20x ./exec/embedded/
func BenchmarkScan(b *testing.B) {
	s := newTestStore(b, Options{})
	mustMutate(b, s, "t1", benchMutations(benchRows)...)
	ctx := context.Background()

	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			n, size := 0, 0
			err := s.db.View(func(tx *bolt.Tx) error {
				c := tx.Bucket([]byte("t1")).Cursor()
				for k, v := c.First(); k != nil; k, v = c.Next() {
					n++
					size += len(k) + len(v)
				}
				return nil
			})
			checkWalk(b, err, n, size)
		}
		reportPerRow(b)
	})

	b.Run("store", func(b *testing.B) {
		for b.Loop() {
			it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			n, size := 0, 0
			for {
				row, err := it.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n++
				size += len(row.Key) + len(row.Cells[0].Value)
			}
			_ = it.Close()
			checkWalk(b, nil, n, size)
		}
		reportPerRow(b)
	})
}

func checkWalk(b *testing.B, err error, n, size int) {
	if err != nil {
		b.Fatal(err)
	}
	if n != benchRows || size == 0 {
		b.Fatalf("walked %d rows (%d bytes), want %d", n, size, benchRows)
	}
}

func reportPerRow(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
}

// BenchmarkMutate writes 100k sorted rows into an empty table per
// iteration.
func BenchmarkMutate(b *testing.B) {
	muts := benchMutations(benchRows)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s := newTestStore(b, Options{})
		b.StartTimer()
		start := time.Now()
		if err := s.Mutate(ctx, "t1", muts); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Nanoseconds())/benchRows, "ns/row")
	}
}
