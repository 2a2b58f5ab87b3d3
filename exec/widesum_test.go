package exec

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestWideSum: random sums of extreme and small values, added one by one
// and as merged parts, agree with big.Int arithmetic.
func TestWideSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	draw := func() int64 {
		switch r.IntN(4) {
		case 0:
			return math.MaxInt64 - r.Int64N(3)
		case 1:
			return math.MinInt64 + r.Int64N(3)
		case 2:
			return r.Int64N(2001) - 1000
		}
		return int64(r.Uint64())
	}
	for range 2000 {
		var whole, a, b WideSum
		want := new(big.Int)
		for i := range r.IntN(40) {
			v := draw()
			want.Add(want, big.NewInt(v))
			whole.Add(v)
			if i%3 == 0 {
				a.Add(v)
			} else {
				b.Add(v)
			}
		}
		a.AddSum(b)
		if whole != a {
			t.Fatalf("merged %+v, whole %+v", a, whole)
		}
		if whole.Big().Cmp(want) != 0 {
			t.Fatalf("sum %s, want %s", whole.Big(), want)
		}
		v, ok := whole.Int64()
		if ok != want.IsInt64() || ok && v != want.Int64() {
			t.Fatalf("Int64 of %s = %d, %v", want, v, ok)
		}
	}
}
