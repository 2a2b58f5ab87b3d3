package exec

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// randValue draws values that stress the order: NULLs, NaN, ±Inf, -0,
// empty and shared-prefix strings and bytes, and columns of mixed types.
func randValue(r *rand.Rand) catalog.Value {
	types := []catalog.Type{catalog.TypeString, catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble,
		catalog.TypeBoolean, catalog.TypeTimestamp, catalog.TypeDate, catalog.TypeBytes, catalog.TypeMap}
	t := types[r.IntN(len(types))]
	if r.IntN(8) == 0 {
		return catalog.Null(t)
	}
	strs := []string{"", "a", "ab", "b", "\x00", "\xff", "é", "ab\x00"}
	switch t {
	case catalog.TypeString:
		return catalog.String(strs[r.IntN(len(strs))])
	case catalog.TypeDouble:
		fs := []float64{0, math.Copysign(0, -1), 1.5, -2, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64}
		return catalog.Double(fs[r.IntN(len(fs))])
	case catalog.TypeBytes:
		if r.IntN(6) == 0 {
			return catalog.Bytes(nil)
		}
		return catalog.Bytes([]byte(strs[r.IntN(len(strs))]))
	case catalog.TypeBoolean:
		return catalog.Bool(r.IntN(2) == 0)
	case catalog.TypeMap:
		var es []catalog.MapEntry
		for i := r.IntN(4); i > 0; i-- {
			v := randValue(r)
			for v.Type == catalog.TypeMap || v.Type == catalog.TypeDouble && math.IsNaN(v.F) {
				v = randValue(r)
			}
			es = append(es, catalog.MapEntry{Key: catalog.String(strs[r.IntN(len(strs))]), Val: v})
		}
		return catalog.NewMap(es)
	}
	is := []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, 1714564800000}
	return catalog.Value{Type: t, I: is[r.IntN(len(is))]}
}

// The encoding gives every value back exactly, and compares two encoded
// values as catalog.Compare compares them.
func TestSortCodecValues(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var a, b fieldView
	for range 20000 {
		x, y := randValue(r), randValue(r)
		ex, ey := appendValue(nil, x), appendValue(nil, y)
		if rest := readValue(ex, &a); len(rest) != 0 {
			t.Fatalf("%v: %d bytes left", x, len(rest))
		}
		readValue(ey, &b)
		if got, want := compareViews(&a, &b), catalog.Compare(x, y); got != want {
			t.Fatalf("compare(%#v, %#v) = %d, want %d", x, y, got, want)
		}
		c := newSortCodec(nil, 1, nil)
		if got := c.decode(ex); !reflect.DeepEqual(got[0], x) && !(x.Type == catalog.TypeDouble && math.IsNaN(x.F) && math.IsNaN(got[0].F)) {
			t.Fatalf("decode(encode(%#v)) = %#v", x, got[0])
		}
	}
}

// refSort is the order ORDER BY promises, computed on values: a stable
// sort by catalog.Compare, DESC reversed, NULL first ascending.
func refSort(rows []catalog.Row, keys []planner.SortKey) {
	sort.SliceStable(rows, func(i, j int) bool {
		for _, k := range keys {
			c := catalog.Compare(rows[i][k.Col], rows[j][k.Col])
			if c == 0 {
				continue
			}
			if k.Desc {
				c = -c
			}
			return c < 0
		}
		return false
	})
}

// The sort of encoded rows gives the rows, and the order among ties, of a
// stable sort on values, with and without a LIMIT, over keys of mixed
// types, NULLs, NaN and DESC.
func TestSortMatchesValueOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		n := 1 + r.IntN(300)
		in := &sliceIter{}
		var want []catalog.Row
		for i := range n {
			row := catalog.Row{randValue(r), randValue(r), catalog.Bigint(int64(i)), randValue(r)}
			if round%2 == 0 { // one type per column, as a table has
				row[0] = catalog.Bigint(int64(r.IntN(5)))
				if r.IntN(6) == 0 {
					row[0] = catalog.Null(catalog.TypeBigint)
				}
				row[1] = catalog.Double([]float64{math.NaN(), 1, -1, math.Inf(1)}[r.IntN(4)])
			}
			in.rows = append(in.rows, &Row{Vals: row})
			want = append(want, row)
		}
		keys := []planner.SortKey{{Col: 0, Desc: r.IntN(2) == 0}, {Col: 1, Desc: r.IntN(2) == 0}}
		if r.IntN(3) == 0 {
			keys = append(keys, planner.SortKey{Col: 0, Desc: !keys[0].Desc})
		}
		limit := planner.NoLimit
		// Mixed types order by catalog.Compare, which is not transitive
		// across them (an INT and a TIMESTAMP compare as numbers, either
		// against a DOUBLE by type); the heap of a top-N then keeps rows
		// a full sort would not, so limits go with one type per column.
		if round%2 == 0 && r.IntN(2) == 0 {
			limit = int64(1 + r.IntN(n))
		}
		x := &Executor{}
		it, err := x.sort(context.Background(), in, &planner.Sort{Keys: keys, Limit: limit, Keep: []int{0, 1, 2, 3}})
		if err != nil {
			t.Fatal(err)
		}
		var got []catalog.Row
		for {
			row, err := it.next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, row.Vals)
		}
		refSort(want, keys)
		if limit != planner.NoLimit {
			// Ties at the limit's edge may keep either row; the keys
			// must agree row by row, and every row must be one of the
			// input's.
			want = want[:limit]
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d rows, want %d", round, len(got), len(want))
		}
		for i := range got {
			for _, k := range keys {
				if catalog.Compare(got[i][k.Col], want[i][k.Col]) != 0 {
					t.Fatalf("round %d (keys %v, limit %d): row %d is %v, want %v", round, keys, limit, i, got[i], want[i])
				}
			}
			if limit == planner.NoLimit && got[i][2].I != want[i][2].I {
				t.Fatalf("round %d (keys %v): row %d is input row %d, want %d (ties keep their input order)", round, keys, i, got[i][2].I, want[i][2].I)
			}
		}
	}
}

// A top-N whose every input row beats the worst one held compacts its
// arena, and so holds at most about twice what its rows need.
func TestSortTopCompacts(t *testing.T) {
	const n, limit = 50000, 1000
	in := &sliceIter{}
	for i := range n {
		in.rows = append(in.rows, &Row{Vals: catalog.Row{catalog.Bigint(int64(n - i)), catalog.String("some text to hold")}})
	}
	x := &Executor{}
	it, err := x.sort(context.Background(), in, &planner.Sort{Keys: []planner.SortKey{{Col: 0}}, Limit: limit, Keep: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	u := it.(*unpackIter)
	held := 0
	for _, ch := range u.a.chunks {
		held += cap(ch)
	}
	if need := u.a.live; held > 2*need+2*arenaChunk {
		t.Errorf("the arena holds %d bytes for %d bytes of rows", held, need)
	}
	for want := int64(1); want <= limit; want++ {
		r, err := it.next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if r.Vals[0].I != want || r.Vals[1].S != "some text to hold" {
			t.Fatalf("row %d: %v", want, r.Vals)
		}
	}
	if _, err := it.next(context.Background()); err != io.EOF {
		t.Fatalf("after the last row: %v", err)
	}
}
