package ref

import (
	"math"
	"testing"
)

// floatVsInt orders a double against an integer exactly, where a
// conversion either way would round.
func TestFloatVsInt(t *testing.T) {
	for _, c := range []struct {
		f    float64
		i    int64
		want int
	}{
		{0x1p63, math.MaxInt64, 1},
		{-0x1p63, math.MinInt64, 0},
		{math.Nextafter(-0x1p63, 0), math.MinInt64, 1},
		{0x1p53, 1<<53 + 1, -1},
		{0x1p53 + 2, 1<<53 + 1, 1},
		{2.5, 2, 1},
		{-2.5, -2, -1},
		{-2.5, -3, 1},
		{math.Copysign(0, -1), 0, 0},
		{math.Inf(1), math.MaxInt64, 1},
		{math.Inf(-1), math.MinInt64, -1},
		{math.NaN(), math.MaxInt64, 1},
	} {
		if got := floatVsInt(c.f, c.i); got != c.want {
			t.Errorf("floatVsInt(%v, %d) = %d, want %d", c.f, c.i, got, c.want)
		}
	}
}
