package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// inValues are values whose equality SQL defines with care: -0 and 0,
// NaNs of other bits, the infinities, integers of several types with one
// value, text and bytes of one content, the empty string, NULLs.
var inValues = []catalog.Value{
	catalog.Double(0), catalog.Double(math.Copysign(0, -1)), catalog.Double(math.NaN()),
	catalog.Double(math.Float64frombits(0x7ff8000000000001)), catalog.Double(math.Inf(1)), catalog.Double(math.Inf(-1)),
	catalog.Double(1), catalog.Double(-2.5), catalog.Double(math.MaxFloat64), catalog.Double(5e-324),
	catalog.Bigint(0), catalog.Bigint(1), catalog.Bigint(-1), catalog.Bigint(math.MaxInt64), catalog.Bigint(math.MinInt64),
	{Type: catalog.TypeInt, I: 1}, catalog.TimestampMillis(1), catalog.TimestampMillis(0), {Type: catalog.TypeDate, I: 1},
	{Type: catalog.TypeBoolean, I: 1}, {Type: catalog.TypeBoolean},
	catalog.String(""), catalog.String("a"), catalog.String("é"), catalog.String("a\x00"),
	catalog.Bytes(nil), catalog.Bytes([]byte("a")), catalog.Bytes([]byte{0xff}),
	catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeDouble),
}

// TestInSetMatchesSearch: over random lists of those values, long enough
// to be indexed, IN and NOT IN give for every value what a search of the
// list value by value with catalog.Compare gives.
func TestInSetMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		n := linearIn + 1 + r.IntN(12)
		vals := make([]catalog.Value, n)
		for j := range vals {
			vals[j] = inValues[r.IntN(len(inValues))]
		}
		for _, not := range []bool{false, true} {
			fast := NewIn(0, "x", vals, not)
			if fast.set == nil {
				t.Fatalf("a list of %d values is not indexed", n)
			}
			slow := &In{Col: 0, Name: "x", Vals: vals, Not: not}
			for _, v := range inValues {
				row := catalog.Row{v}
				if got, want := eval(t, fast, row), eval(t, slow, row); got != want {
					t.Fatalf("case %d: %s over %s: indexed %v, searched %v", i, slow, v, got, want)
				}
			}
		}
	}
}

// BenchmarkInEval: one IN of n values, evaluated over rows that hit and
// miss; the time per row must not grow with n.
func BenchmarkInEval(b *testing.B) {
	for _, n := range []int{10, 1000, 100_000} {
		vals := make([]catalog.Value, n)
		for i := range vals {
			vals[i] = catalog.Bigint(int64(i * 2))
		}
		p := NewIn(0, "x", vals, false)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			row := catalog.Row{{}}
			i := 0
			for b.Loop() {
				row[0] = catalog.Bigint(int64(i % (2 * n)))
				_, _ = p.Eval(row)
				i++
			}
		})
	}
}

// TestOrSetMatchesTerms: an OR of equalities and IN lists on one column,
// indexed by NewOr, gives for every value what evaluating its terms one
// after another gives.
func TestOrSetMatchesTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 3000 {
		var terms []Expr
		for range 2 + r.IntN(10) {
			if r.IntN(3) == 0 {
				vals := []catalog.Value{inValues[r.IntN(len(inValues))], inValues[r.IntN(len(inValues))]}
				terms = append(terms, &In{Col: 0, Name: "x", Vals: vals})
			} else {
				terms = append(terms, &Cmp{Col: 0, Name: "x", Op: Eq, Val: inValues[r.IntN(len(inValues))]})
			}
		}
		fast, slow := NewOr(terms), &Or{Terms: terms}
		for _, v := range inValues {
			row := catalog.Row{v}
			if got, want := eval(t, fast, row), eval(t, slow, row); got != want {
				t.Fatalf("case %d: %s over %s: indexed %v, term by term %v", i, slow, v, got, want)
			}
		}
	}
	if NewOr([]Expr{&Cmp{Col: 0, Op: Eq, Val: catalog.Bigint(1)}, &Cmp{Col: 1, Op: Eq, Val: catalog.Bigint(2)}}).eq != nil {
		t.Error("an OR over two columns is indexed")
	}
	var long []Expr
	for i := range 20 {
		long = append(long, &Cmp{Col: 0, Op: Eq, Val: catalog.Bigint(int64(i))})
	}
	if NewOr(long).eq == nil {
		t.Error("an OR of 20 equalities on one column is not indexed")
	}
}
