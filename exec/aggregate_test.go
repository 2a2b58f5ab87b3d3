package exec

import (
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
			if err := whole.Add(v); err != nil {
				t.Fatal(err)
			}
			part := a
			if i >= 2 {
				part = b
			}
			if err := part.Add(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		if got, want := a.Result(), whole.Result(); catalog.Compare(got, want) != 0 || got.Type != want.Type {
			t.Errorf("%s: merged %v, whole %v", call.Text, got, want)
		}
	}
	empty := newAggState(&planner.AggCall{Func: planner.AggSum, Arg: arg, Type: catalog.TypeBigint})
	if r := empty.Result(); !r.Null {
		t.Errorf("SUM over no rows is %v, want NULL", r)
	}
	over := newAggState(&planner.AggCall{Func: planner.AggSum, Arg: arg, Type: catalog.TypeBigint, Text: "SUM(x)"})
	_ = over.Add(catalog.Bigint(1 << 62))
	_ = over.Add(catalog.Bigint(1 << 62))
	if err := over.Add(catalog.Bigint(1 << 62)); err == nil {
		t.Error("a BIGINT sum past 2^63 must be an error")
	}
}
