package main

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// BenchmarkHBaseLatency runs a statement through rkql in process, with
// every connection to HBase's servers going through a LatencyNet that
// delays each RPC. scripts/bench-hbase drives it; it needs:
//
//	RKQL_BENCH_ZK       the cluster's ZooKeeper quorum
//	RKQL_BENCH_CATALOG  the catalog file
//	RKQL_BENCH_SQL      the statement
//	RKQL_BENCH_DELAY    the delay per RPC (a Go duration, e.g. 2ms)
//	RKQL_BENCH_RUNS     timed runs after one warm-up run (5)
//	RKQL_BENCH_ARGS     more rkql flags, space-separated (e.g. --parallel 4)
//
// It reports the median in ms/stmt and the delayed RPCs of one run in
// rpcs/stmt.
func BenchmarkHBaseLatency(b *testing.B) {
	zk := os.Getenv("RKQL_BENCH_ZK")
	if zk == "" {
		b.Skip("RKQL_BENCH_ZK is unset (scripts/bench-hbase sets it)")
	}
	delay, err := time.ParseDuration(os.Getenv("RKQL_BENCH_DELAY"))
	if err != nil {
		b.Fatalf("RKQL_BENCH_DELAY: %v", err)
	}
	runs := 5
	if s := os.Getenv("RKQL_BENCH_RUNS"); s != "" {
		if runs, err = strconv.Atoi(s); err != nil || runs < 1 {
			b.Fatalf("RKQL_BENCH_RUNS=%q", s)
		}
	}
	args := []string{"--zk", zk, "--catalog", os.Getenv("RKQL_BENCH_CATALOG"), "--timeout", "0", "--allow-full-scan", "--format", "csv"}
	args = append(args, strings.Fields(os.Getenv("RKQL_BENCH_ARGS"))...)
	args = append(args, "-e", `\timing on`)
	for range runs + 1 {
		args = append(args, "-e", os.Getenv("RKQL_BENCH_SQL"))
	}
	for b.Loop() {
		ln := hbasetest.NewLatencyNet(delay)
		var out, errw strings.Builder
		code := run(context.Background(), args, env{stdout: &out, stderr: &errw, stdin: strings.NewReader(""), dial: ln.Dial})
		rpcs := ln.Requests()
		ln.Close()
		if code != 0 {
			b.Fatalf("exit %d: %s", code, errw.String())
		}
		var times []float64
		sc := bufio.NewScanner(strings.NewReader(out.String()))
		for sc.Scan() {
			if ms, ok := strings.CutPrefix(sc.Text(), "Time: "); ok {
				v, err := strconv.ParseFloat(strings.TrimSuffix(ms, " ms"), 64)
				if err != nil {
					b.Fatal(err)
				}
				times = append(times, v)
			}
		}
		if len(times) != runs+1 {
			b.Fatalf("%d timings in the output, want %d:\n%s", len(times), runs+1, out.String())
		}
		times = times[1:]
		slices.Sort(times)
		b.ReportMetric(times[len(times)/2], "ms/stmt")
		b.ReportMetric(float64(rpcs)/float64(runs+1), "rpcs/stmt")
	}
}
