package exec

import (
	"math"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// A BIGINT sum from the regions is trusted only when no partial sum of
// its values can wrap a Java long.
func TestBigSumFits(t *testing.T) {
	for _, c := range []struct {
		n      int64
		lo, hi catalog.Value
		want   bool
	}{
		{0, catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeBigint), true},
		{1000, catalog.Bigint(-5), catalog.Bigint(7), true},
		{2, catalog.Bigint(0), catalog.Bigint(math.MaxInt64), false},
		{1, catalog.Bigint(math.MinInt64), catalog.Bigint(math.MinInt64), true},
		{2, catalog.Bigint(math.MinInt64), catalog.Bigint(0), false},
		{3, catalog.Bigint(-math.MaxInt64 / 3), catalog.Bigint(math.MaxInt64 / 3), true},
		{4, catalog.Bigint(-math.MaxInt64 / 3), catalog.Bigint(1), false},
	} {
		if got := bigSumFits(c.n, c.lo, c.hi); got != c.want {
			t.Errorf("bigSumFits(%d, %v, %v) = %v, want %v", c.n, c.lo, c.hi, got, c.want)
		}
	}
}

// combine adds ranges' answers as one read would have.
func TestCombine(t *testing.T) {
	null := catalog.Null(catalog.TypeDouble)
	acc := AggResult{Value: null, Sum: null}
	for _, p := range []AggResult{
		{Count: 2, Value: catalog.Double(1.5), Sum: catalog.Double(3)},
		{Value: null, Sum: null},
		{Count: 1, Value: catalog.Double(-4), Sum: catalog.Double(-4)},
	} {
		acc = combine(AggMin, acc, p)
	}
	if acc.Count != 3 || acc.Value.F != -4 {
		t.Errorf("MIN over ranges: %+v", acc)
	}
	sum := AggResult{Value: null, Sum: null}
	for _, p := range []AggResult{{Value: catalog.Double(1.5)}, {Value: null}, {Value: catalog.Double(2)}} {
		sum = combine(AggSum, sum, p)
	}
	if sum.Value.F != 3.5 {
		t.Errorf("SUM over ranges: %+v", sum)
	}
}
