package exec

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// TestAggStateMerge: partial states over parts of the values merge into
// the state over all of them, as a store aggregating per region needs.
func TestAggStateMerge(t *testing.T) {
	vals := []catalog.Value{catalog.Bigint(5), catalog.Null(catalog.TypeBigint), catalog.Bigint(-2), catalog.Bigint(9), catalog.Bigint(1)}
	arg := &expr.Col{Index: 0, Name: "x", T: catalog.TypeBigint}
	for _, f := range []planner.AggFunc{planner.AggCount, planner.AggSum, planner.AggMin, planner.AggMax, planner.AggAvg} {
		typ := catalog.TypeBigint
		if f == planner.AggAvg {
			typ = catalog.TypeDouble
		}
		call := &planner.AggCall{Func: f, Arg: arg, Type: typ, Text: f.String() + "(x)"}
		whole, a, b := newAggState(call), newAggState(call), newAggState(call)
		for i, v := range vals {
			whole.Add(v)
			part := a
			if i >= 2 {
				part = b
			}
			part.Add(v)
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		got, err := a.Result()
		if err != nil {
			t.Fatal(err)
		}
		if want := result(t, whole); catalog.Compare(got, want) != 0 || got.Type != want.Type {
			t.Errorf("%s: merged %v, whole %v", call.Text, got, want)
		}
	}
	empty := newAggState(&planner.AggCall{Func: planner.AggSum, Arg: arg, Type: catalog.TypeBigint})
	if r := result(t, empty); !r.Null {
		t.Errorf("SUM over no rows is %v, want NULL", r)
	}
}

func result(t *testing.T, s *AggState) catalog.Value {
	t.Helper()
	v, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAggStateWideSum: a BIGINT SUM fails only when its total does not
// fit a BIGINT, whatever its partial sums on the way, in one state or
// across merged ones; an AVG never fails, and is the exact mean rounded
// once to a DOUBLE.
func TestAggStateWideSum(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	arg := &expr.Col{Index: 0, Name: "x", T: catalog.TypeBigint}
	sum := &planner.AggCall{Func: planner.AggSum, Arg: arg, Type: catalog.TypeBigint, Text: "SUM(x)"}
	avg := &planner.AggCall{Func: planner.AggAvg, Arg: arg, Type: catalog.TypeDouble, Text: "AVG(x)"}
	for _, c := range []struct {
		vals   []int64
		sum    string // the SUM, or the error it gives
		avg    float64
		splits []int // where partial states begin, merged in order
	}{
		{[]int64{maxI, 1, -2}, "9223372036854775806", (maxI - 1) / 3.0, nil},
		{[]int64{maxI, maxI, minI, minI}, "-2", -0.5, nil},
		{[]int64{maxI, maxI, minI, minI}, "-2", -0.5, []int{1, 2, 3}},
		{[]int64{maxI, maxI, minI, minI}, "-2", -0.5, []int{2}},
		{[]int64{minI, -1, 1}, "-9223372036854775808", minI / 3.0, []int{2}},
		{[]int64{maxI, 1}, "SUM(x): the sum 9223372036854775808 does not fit a BIGINT: expr: integer overflow", 1 << 62, nil},
		{[]int64{minI, -1}, "SUM(x): the sum -9223372036854775809 does not fit a BIGINT: expr: integer overflow", -(1 << 62), []int{1}},
		{[]int64{minI, minI, minI}, "SUM(x): the sum -27670116110564327424 does not fit a BIGINT: expr: integer overflow", minI, nil},
		// The mean of three 2^53+1 is 2^53+1, halfway between two DOUBLEs:
		// it rounds to the even one, 2^53. Rounding the sum to a DOUBLE
		// first would give 2^53+2.
		{[]int64{1<<53 + 1, 1<<53 + 1, 1<<53 + 1}, "27021597764222979", 1 << 53, nil},
	} {
		for _, call := range []*planner.AggCall{sum, avg} {
			st := newAggState(call)
			parts := []*AggState{st}
			for i, v := range c.vals {
				if slices.Contains(c.splits, i) {
					parts = append(parts, newAggState(call))
				}
				parts[len(parts)-1].Add(catalog.Bigint(v))
			}
			for _, p := range parts[1:] {
				if err := st.Merge(p); err != nil {
					t.Fatal(err)
				}
			}
			got, err := st.Result()
			if call == avg {
				if err != nil || got.Type != catalog.TypeDouble || got.F != c.avg {
					t.Errorf("AVG of %v (split at %v) = %v, %v; want %v", c.vals, c.splits, got, err, c.avg)
				}
				continue
			}
			text := got.String()
			if err != nil {
				text = err.Error()
			}
			if text != c.sum {
				t.Errorf("SUM of %v (split at %v) = %s; want %s", c.vals, c.splits, text, c.sum)
			}
			if err != nil && !errors.Is(err, expr.ErrOverflow) {
				t.Errorf("SUM of %v: %v is not expr.ErrOverflow", c.vals, err)
			}
		}
	}
}
