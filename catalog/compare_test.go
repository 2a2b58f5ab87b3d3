package catalog

import (
	"math"
	"testing"
)

// Doubles compare as SQL orders them: NaN equals NaN and is greater than
// everything else; -0 equals +0.
func TestCompareDoubles(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		a, b float64
		want int
	}{
		{nan, nan, 0},
		{nan, inf, 1},
		{inf, nan, -1},
		{nan, 1, 1},
		{-inf, nan, -1},
		{math.Copysign(0, -1), 0, 0},
		{1, 2, -1},
	}
	for _, c := range cases {
		if got := Compare(Double(c.a), Double(c.b)); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// NaN is never a key value, so no key range has to place it.
	cat, err := Parse([]byte(`tables:
  - name: t
    families: [{name: f}]
    columns: [{name: d, type: DOUBLE}]
    rowkey: [{field: d, encoding: binary}]
`))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("t")
	if _, err := tb.EncodeKey(Row{Double(nan)}, nil); err == nil {
		t.Error("NaN was written into a key")
	}
}
