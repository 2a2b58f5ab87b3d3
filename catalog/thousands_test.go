package catalog

import (
	"math"
	"testing"
)

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {123456, "123,456"},
		{1234567, "1,234,567"}, {-1, "-1"}, {-1000, "-1,000"}, {-123456, "-123,456"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := Thousands(c.n); got != c.want {
				t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
			}
		})
	}
	if got := Thousands(12345); got != "12,345" {
		t.Errorf("Thousands(12345) = %q, want 12,345", got)
	}
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {999.4, "999"}, {999.6, "1,000"}, {1e7, "10,000,000"}, {-2500.2, "-2,500"},
		{math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"}, {math.NaN(), "NaN"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := Thousands(c.f); got != c.want {
				t.Errorf("Thousands(%g) = %q, want %q", c.f, got, c.want)
			}
		})
	}
}
