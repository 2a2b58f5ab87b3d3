package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// A sort holds only the columns the nodes above read, packed, and hands
// each row on with them at their places: a sort of wide rows costs the
// width of what the query returns, not of the table.
func TestSortHoldsOnlyKeptColumns(t *testing.T) {
	in := &sliceIter{}
	for _, n := range []int64{3, 1, 2} {
		in.rows = append(in.rows, &Row{Vals: catalog.Row{catalog.String("wide text"), catalog.Bigint(n), catalog.String("more"), catalog.Bigint(10 * n)}, Key: []byte("k")})
	}
	x := &Executor{}
	s := &planner.Sort{Keys: []planner.SortKey{{Col: 1, Name: "n"}}, Limit: planner.NoLimit, Keep: []int{3, 1}}
	it, err := x.sort(context.Background(), in, s)
	if err != nil {
		t.Fatal(err)
	}
	u, ok := it.(*unpackIter)
	if !ok {
		t.Fatalf("sort returned %T", it)
	}
	if got := fmt.Sprint(u.c.fields); got != "[1 3]" {
		t.Fatalf("a held row encodes columns %s, want [1 3]", got)
	}
	for _, r := range u.rows {
		enc := u.a.row(r)
		if n := u.c.size(enc); n != len(appendValue(appendValue(nil, catalog.Bigint(1)), catalog.Bigint(10))) {
			t.Fatalf("a held row takes %d bytes: %q", n, enc[:n])
		}
	}
	for want := int64(1); want <= 3; want++ {
		r, err := it.next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Vals) != 4 || r.Vals[1].I != want || r.Vals[3].I != 10*want || r.Vals[0].S != "" {
			t.Fatalf("row %d: %v", want, r.Vals)
		}
	}
}
