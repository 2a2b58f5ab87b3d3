package exec

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// TestStatsAdd: Add carries every count of a read's own Stats into the
// statement's, the slowest part as the larger, and the first malformed
// row's error when the statement has none.
func TestStatsAdd(t *testing.T) {
	var s, o Stats
	sv, ov := reflect.ValueOf(&s).Elem(), reflect.ValueOf(&o).Elem()
	n := 0
	for i := range sv.NumField() {
		f := sv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		c, ok := sv.Field(i).Addr().Interface().(*atomic.Int64)
		if !ok {
			t.Fatalf("Stats.%s is not an atomic.Int64: Add must learn it", f.Name)
		}
		c.Store(int64(100 * (i + 1)))
		ov.Field(i).Addr().Interface().(*atomic.Int64).Store(int64(i + 1))
		n++
	}
	bad := errors.New("bad row")
	o.malformed(bad)
	s.Add(&o)
	for i := range sv.NumField() {
		f := sv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		got := sv.Field(i).Addr().Interface().(*atomic.Int64).Load()
		want := int64(101 * (i + 1))
		switch f.Name {
		case "SlowestPart":
			want = int64(100 * (i + 1))
		case "Malformed":
			want++
		}
		if got != want {
			t.Errorf("Stats.%s = %d after Add, want %d", f.Name, got, want)
		}
	}
	if n < 10 {
		t.Fatalf("only %d counts found in Stats", n)
	}
	if err := s.FirstMalformed(); err != bad {
		t.Errorf("first malformed = %v, want %v", err, bad)
	}
	var z Stats
	z.SlowestPart.Store(5)
	var big Stats
	big.SlowestPart.Store(9)
	z.Add(&big)
	if z.SlowestPart.Load() != 9 {
		t.Errorf("slowest part %d, want the larger, 9", z.SlowestPart.Load())
	}
	(*Stats)(nil).Add(&o)
}

// TestLookupBatches: the batches' rows come back in batch order, no more
// than lookupDepth run at once, and the first error ends the rest.
func TestLookupBatches(t *testing.T) {
	var running, most atomic.Int64
	rows, err := LookupBatches(context.Background(), 25, func(ctx context.Context, i int) ([]catalog.Row, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		return []catalog.Row{{catalog.Bigint(int64(i))}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 25 {
		t.Fatalf("%d batches, want 25", len(rows))
	}
	for i, b := range rows {
		if len(b) != 1 || b[0][0].I != int64(i) {
			t.Errorf("batch %d holds %v", i, b)
		}
	}
	if m := most.Load(); m > lookupDepth {
		t.Errorf("%d batches ran at once, want at most %d", m, lookupDepth)
	}
	bad := errors.New("read failed")
	var started atomic.Int64
	_, err = LookupBatches(context.Background(), 50, func(ctx context.Context, i int) ([]catalog.Row, error) {
		started.Add(1)
		if i == 2 {
			return nil, bad
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if err != bad {
		t.Errorf("error %v, want %v", err, bad)
	}
	if n := started.Load(); n > lookupDepth+1 {
		t.Errorf("%d batches started after the error, want at most %d", n, lookupDepth+1)
	}
}
