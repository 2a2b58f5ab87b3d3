package exec

import (
	"math/big"
	"math/bits"
)

// WideSum is an exact sum of BIGINT values: a 128-bit two's complement
// integer, Hi the high word and Lo the low one. Fewer than 2^63 values of
// 64 bits each cannot overflow it, so a sum is exact whatever order its
// values are added in, and only the total is checked against BIGINT.
// The zero value is 0.
type WideSum struct {
	Hi int64
	Lo uint64
}

// Add adds v.
func (w *WideSum) Add(v int64) {
	lo, carry := bits.Add64(w.Lo, uint64(v), 0)
	w.Hi += v>>63 + int64(carry)
	w.Lo = lo
}

// AddSum adds another sum.
func (w *WideSum) AddSum(o WideSum) {
	lo, carry := bits.Add64(w.Lo, o.Lo, 0)
	w.Hi += o.Hi + int64(carry)
	w.Lo = lo
}

// Int64 returns the sum as a BIGINT; ok is false when it does not fit.
func (w WideSum) Int64() (v int64, ok bool) {
	v = int64(w.Lo)
	return v, w.Hi == v>>63
}

// Big returns the sum as a big.Int.
func (w WideSum) Big() *big.Int {
	neg := w.Hi < 0
	hi, lo := uint64(w.Hi), w.Lo
	if neg {
		// The magnitude of a negative sum: its two's complement.
		var borrow uint64
		lo, borrow = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, borrow)
	}
	b := new(big.Int).SetUint64(hi)
	b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(lo))
	if neg {
		b.Neg(b)
	}
	return b
}

// Mean returns the sum divided by n (n > 0), rounded once to the nearest
// DOUBLE.
func (w WideSum) Mean(n int64) float64 {
	const exact = 1 << 53 // integers up to 2^53 are exact DOUBLEs
	if v, ok := w.Int64(); ok && v >= -exact && v <= exact && n <= exact {
		// Both operands are exact, and IEEE division rounds once.
		return float64(v) / float64(n)
	}
	num := new(big.Float).SetPrec(128).SetInt(w.Big())
	den := new(big.Float).SetPrec(64).SetInt64(n)
	f, _ := new(big.Float).SetPrec(53).Quo(num, den).Float64()
	return f
}
