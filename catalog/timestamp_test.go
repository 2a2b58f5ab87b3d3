package catalog

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestAppendTimestamp compares AppendTimestamp with time.Time's own
// formatting over the whole int64 range, around the epoch, leap days,
// century years and the ends of years 1 and 9999.
func TestAppendTimestamp(t *testing.T) {
	ms := []int64{0, -1, 1, 999, -999, -1000, 86_399_999, -86_400_000, -86_400_001, math.MinInt64, math.MaxInt64,
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() - 1,
		time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC).UnixMilli(), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
		time.Date(2000, 2, 29, 12, 0, 0, 0, time.UTC).UnixMilli(), time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli() - 1,
		time.Date(2100, 2, 28, 23, 59, 59, 0, time.UTC).UnixMilli(), time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	r := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		ms = append(ms, r.Int64N(2*253_402_300_800_000)-62_135_596_800_000-1000, int64(r.Uint64()))
	}
	for _, m := range ms {
		want := time.UnixMilli(m).UTC().Format("2006-01-02 15:04:05.000")
		if got := string(AppendTimestamp(nil, m)); got != want {
			t.Fatalf("AppendTimestamp(%d) = %q, want %q", m, got, want)
		}
	}
}

// BenchmarkAppendTimestamp formats a timestamp with AppendTimestamp
// (rkql) and with time.Time.AppendFormat (raw).
func BenchmarkAppendTimestamp(b *testing.B) {
	const ms = 1714700000123
	buf := make([]byte, 0, 32)
	b.Run("rkql", func(b *testing.B) {
		for b.Loop() {
			buf = AppendTimestamp(buf[:0], ms)
		}
	})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			buf = time.UnixMilli(ms).UTC().AppendFormat(buf[:0], "2006-01-02 15:04:05.000")
		}
	})
}
