package parser

import (
	"syscall"
	"testing"
	"time"
)

const benchSelect = "SELECT * FROM orders WHERE seller = 's1' AND ts BETWEEN TIMESTAMP '2024-05-01 00:00:00' AND TIMESTAMP '2024-05-02 00:00:00'"

// cpuTime is the CPU time used by the process so far. On a shared machine
// it measures the parser's cost better than wall time does.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if _, err := Parse(benchSelect); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkTokenize measures the lexer alone, as a baseline for Parse.
func BenchmarkTokenize(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tokenize(benchSelect); err != nil {
			b.Fatal(err)
		}
	}
}
