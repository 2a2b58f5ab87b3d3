package exec

import (
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
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
