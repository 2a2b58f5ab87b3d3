package hbasestore_test

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// The 1,000 rows of the lookup join's benchmark and test: orders read by
// number through the index table orders_by_id, alone and joined to their
// rows of orders by the whole key (a scan of orders_by_id, then one
// multi-get per 100 of its rows).
const (
	joinBenchWhere  = " WHERE i.order_id BETWEEN 1000 AND 1000999"
	joinBenchSingle = "SELECT i.order_id, i.seller, i.ts FROM orders_by_id i" + joinBenchWhere
	joinBenchJoin   = "SELECT i.order_id, o.buyer, o.amount, o.status FROM orders_by_id i JOIN orders o ON o.seller = i.seller AND o.ts = i.ts AND o.order_id = i.order_id" + joinBenchWhere
)

// timedRead plans q, places it on x's store as rkql does (pushdown on),
// and reads all its rows: the time from planning to the last row, the
// rows, and the placed plan (whose join steps hold what they measured).
func timedRead(ctx context.Context, tb testing.TB, x *exec.Executor, pl *planner.Planner, q string, stats *exec.Stats) (time.Duration, int, *placed.Plan) {
	tb.Helper()
	begin := time.Now()
	sel, err := exectest.Plan(pl, q)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rows, err := x.Run(ctx, p, stats)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for {
		_, err := rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
	rows.Close()
	return time.Since(begin), n, p
}

// BenchmarkHBaseLookupJoin times, on HBase, the read of 1,000 rows of
// the index table orders_by_id alone (the anchor) and the lookup join of
// the same 1,000 rows to orders by its whole key, one after the other in
// each iteration, and reports the ratio of their medians as join/single
// (the target is at most 5), beside each one's median in ms. It skips
// when no HBase answers (fails under RKQL_REQUIRE_HBASE=1):
//
//	RKQL_HBASE_ZK=127.0.0.1:2181 go test ./exec/hbasestore -run '^$' -bench HBaseLookupJoin -benchtime 20x
func BenchmarkHBaseLookupJoin(b *testing.B) {
	ctx := context.Background()
	st := openStore(b, hbasestore.Options{CompressionFallback: true})
	cat, tb, x := scratchExample(b, st, "orders")
	if err := x.Insert(ctx, tb, examples.Rows(tb, 3000, 1), 0, nil); err != nil {
		b.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	check := func(what string, n int) {
		if n != 1000 {
			b.Fatalf("%s: %d rows, want 1,000", what, n)
		}
	}
	// Warm: the region cache, the connections, the servers' block cache.
	for range 2 {
		_, n, _ := timedRead(ctx, b, x, pl, joinBenchSingle, nil)
		check("single", n)
		_, n, _ = timedRead(ctx, b, x, pl, joinBenchJoin, nil)
		check("join", n)
	}
	var ones, joins []float64
	for b.Loop() {
		d, n, _ := timedRead(ctx, b, x, pl, joinBenchSingle, nil)
		check("single", n)
		ones = append(ones, float64(d))
		d, n, _ = timedRead(ctx, b, x, pl, joinBenchJoin, nil)
		check("join", n)
		joins = append(joins, float64(d))
	}
	one, join := median(ones), median(joins)
	b.ReportMetric(join/one, "join/single")
	b.ReportMetric(one/1e6, "single-ms")
	b.ReportMetric(join/1e6, "join-ms")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
