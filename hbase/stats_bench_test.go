package hbase

import "testing"

// BenchmarkScannerStats compares what a reader that polls the counts
// after every row pays: Stats, which copies the server metrics map, and
// Counts, which does not.
func BenchmarkScannerStats(b *testing.B) {
	s := &Scanner{}
	s.mu.stats.ServerMetrics = map[string]int64{}
	for _, n := range []string{"ROWS_SCANNED", "ROWS_FILTERED", "BYTES_IN_RESULTS", "RPC_CALLS", "REMOTE_RPC_CALLS",
		"MILLIS_BETWEEN_NEXTS", "NOT_SERVING_REGION_EXCEPTION", "BYTES_IN_REMOTE_RESULTS", "REGIONS_SCANNED", "RPC_RETRIES"} {
		s.mu.stats.ServerMetrics[n] = 1
	}
	b.Run("Stats", func(b *testing.B) {
		for b.Loop() {
			if s.Stats().RPCs != 0 {
				b.Fatal("rpcs")
			}
		}
	})
	b.Run("Counts", func(b *testing.B) {
		for b.Loop() {
			if s.Counts().RPCs != 0 {
				b.Fatal("rpcs")
			}
		}
	})
}
