package hbasestore_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// ordersEngine returns an engine over the example catalog's orders table
// with the orders rows, on a store that gives it the coprocessors named
// (none: the store's defaults). The table is shared by every test that
// asks for the same coprocessors (sharedOrdersFor), so the tests only
// read it. A cluster that cannot load a coprocessor ends the test, saying
// so.
func ordersEngine(t *testing.T, coprocessors []string) (*engine.Engine, []catalog.Row, *catalog.Table) {
	t.Helper()
	f := sharedOrdersFor(t, hbasetest.Quorum(t), coprocessors)
	if hbasetest.CoprocessorMissing(f.err) {
		hbasetest.NoCoprocessor(t, hbase.AggregateClass, f.err)
	}
	if f.err != nil {
		t.Fatal(f.err)
	}
	e := engine.New(engine.Config{Catalog: f.cat, Open: func(context.Context) (exec.Store, error) { return f.st, nil }})
	return e, f.rows, f.tb
}

// emptyOrders makes the scratch catalog's orders table, with the given
// coprocessors, in a store of its own (dropped at the end), and returns
// an engine over it, the table and an executor to write its rows.
func emptyOrders(t *testing.T, coprocessors []string) (*engine.Engine, *catalog.Table, *exec.Executor) {
	t.Helper()
	st := openStore(t, hbasestore.Options{CompressionFallback: true, Coprocessors: coprocessors})
	cat, tb, x := scratchExample(t, st, "orders")
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	return e, tb, x
}

// countWhere counts the rows for which keep holds: the answer the
// statements must give, from the rows written.
func countWhere(tb *catalog.Table, rows []catalog.Row, keep func(get func(string) catalog.Value) bool) string {
	n := 0
	for _, r := range rows {
		get := func(name string) catalog.Value {
			i, _ := tb.Column(name)
			return r[i]
		}
		if keep(get) {
			n++
		}
	}
	return fmt.Sprintf("(%d)", n)
}

// TestServerAggregateCount runs COUNT(*) on the orders table, split in 16
// regions, through the engine: on a table that loads the aggregation
// endpoint it runs in the regions (EXPLAIN says SERVER AGGREGATE COUNT),
// with pushdown off and on a table without the endpoint it counts keys in
// the client (CLIENT COUNT). Every way gives the count of the rows
// written, and the endpoint receives at least 5x fewer bytes than the
// read with pushdown off.
func TestServerAggregateCount(t *testing.T) {
	t.Parallel() // it only reads the shared orders table
	with, rows, tb := ordersEngine(t, []string{hbase.AggregateClass})
	without, _, _ := ordersEngine(t, nil)
	ctx := context.Background()
	sellers := map[string]bool{"s1": true, "s7": true, "s23": true, "s42": true}
	cases := []struct {
		name, q string
		keep    func(get func(string) catalog.Value) bool
		// minBytes is the least ratio of bytes received with pushdown
		// off to bytes with the endpoint; 0 is not checked.
		minBytes float64
	}{
		{"one seller", "SELECT COUNT(*) FROM orders WHERE seller = 's1'",
			func(get func(string) catalog.Value) bool { return get("seller").S == "s1" }, 5},
		{"all 16 regions", "SELECT COUNT(*) FROM orders ALLOW FULL SCAN",
			func(func(string) catalog.Value) bool { return true }, 5},
		{"16 regions, filtered", "SELECT COUNT(*) FROM orders WHERE status = 'paid' ALLOW FULL SCAN",
			func(get func(string) catalog.Value) bool { return get("status").S == "paid" }, 5},
		{"fan-out", "SELECT COUNT(*) FROM orders WHERE seller IN ('s1', 's7', 's23', 's42') AND status != 'refunded'",
			func(get func(string) catalog.Value) bool {
				return sellers[get("seller").S] && get("status").S != "refunded"
			}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := countWhere(tb, rows, c.keep)
			type way struct {
				name string
				e    *engine.Engine
				on   bool
				// server: EXPLAIN must say SERVER AGGREGATE COUNT.
				server bool
			}
			ways := []way{{"endpoint", with, true, true}, {"endpoint, pushdown off", with, false, false}, {"no endpoint", without, true, false}}
			bytes := map[string]int64{}
			for _, w := range ways {
				w.e.SetPushdown(w.on)
				got, err := result(ctx, w.e, c.q)
				if err != nil {
					t.Fatalf("%s: %v", w.name, err)
				}
				if strings.Join(got, "") != want {
					t.Errorf("%s: %s gives %v, want %s", w.name, c.q, got, want)
				}
				a, err := explainAnalyze(ctx, w.e, c.q)
				if err != nil {
					t.Fatalf("%s: %v", w.name, err)
				}
				server := strings.Contains(a.text, "SERVER AGGREGATE COUNT")
				if server != w.server || (server && !strings.Contains(a.text, hbase.AggregateClass)) {
					t.Errorf("%s: EXPLAIN ANALYZE, want SERVER AGGREGATE COUNT %v:\n%s", w.name, w.server, a.text)
				}
				if !server && !strings.Contains(a.text, "CLIENT COUNT") {
					t.Errorf("%s: EXPLAIN ANALYZE does not say CLIENT COUNT:\n%s", w.name, a.text)
				}
				bytes[w.name] = a.bytes
				t.Logf("%s: %s = %s; bytes received %d, RPCs %d, rows received %d", w.name, c.q, want, a.bytes, a.rpcs, a.rowsReceived)
				if w.server {
					t.Logf("EXPLAIN ANALYZE with the endpoint:\n%s", a.text)
				}
			}
			off, on := bytes["endpoint, pushdown off"], bytes["endpoint"]
			if on <= 0 {
				t.Fatalf("no bytes measured with the endpoint")
			}
			ratio := float64(off) / float64(on)
			t.Logf("%.1fx fewer bytes with the endpoint than with pushdown off (%d against %d); keys only without the endpoint: %d",
				ratio, on, off, bytes["no endpoint"])
			if c.minBytes > 0 && ratio < c.minBytes {
				t.Errorf("%.1fx fewer bytes with the endpoint, want at least %.0fx", ratio, c.minBytes)
			}
		})
	}
}

// rowsOf runs q through the engine and returns its rows' values.
func rowsOf(t *testing.T, e *engine.Engine, q string) []catalog.Row {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows
}

// sameValues compares two rows, doubles to 10 significant digits: the
// regions add their partial sums in another order than the client does.
func sameValues(a, b catalog.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type == catalog.TypeDouble && y.Type == catalog.TypeDouble && !x.Null && !y.Null {
			if math.Abs(x.F-y.F) > 1e-10*math.Max(math.Abs(x.F), math.Abs(y.F)) {
				return false
			}
			continue
		}
		if !catalog.Equal(x, y) && !(x.Null && y.Null) {
			return false
		}
	}
	return true
}

// TestServerAggregateSQL runs SUM, MIN, MAX, AVG and COUNT(*) through SQL
// on the orders table, split in 16 regions: with the endpoint the regions
// compute them (SERVER AGGREGATE INTO ONE ROW), without it the client
// does, and both give the same answer; the endpoint receives fewer bytes.
func TestServerAggregateSQL(t *testing.T) {
	t.Parallel() // it only reads the shared orders table
	with, _, _ := ordersEngine(t, []string{hbase.AggregateClass})
	without, _, _ := ordersEngine(t, nil)
	ctx := context.Background()
	for _, q := range []string{
		"SELECT SUM(amount) FROM orders ALLOW FULL SCAN",
		"SELECT SUM(amount), MIN(amount), MAX(amount), AVG(amount), COUNT(*) FROM orders ALLOW FULL SCAN",
		"SELECT SUM(amount) AS total, COUNT(*) FROM orders WHERE seller = 's1' AND status = 'paid'",
		"SELECT MIN(amount), MAX(amount) FROM orders WHERE seller IN ('s1', 's7', 's23')",
		"SELECT SUM(amount), AVG(amount) FROM orders WHERE seller = 'nobody'",
	} {
		t.Run(q, func(t *testing.T) {
			got, want := rowsOf(t, with, q), rowsOf(t, without, q)
			if len(got) != 1 || len(want) != 1 || !sameValues(got[0], want[0]) {
				t.Fatalf("with the endpoint %v, without %v", got, want)
			}
			a, err := explainAnalyze(ctx, with, q)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(a.text, "SERVER AGGREGATE INTO ONE ROW") || !strings.Contains(a.text, hbase.AggregateClass) {
				t.Fatalf("EXPLAIN ANALYZE with the endpoint:\n%s", a.text)
			}
			b, err := explainAnalyze(ctx, without, q)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.text, "SERVER AGGREGATE") || !strings.Contains(b.text, "CLIENT AGGREGATE INTO ONE ROW") {
				t.Fatalf("EXPLAIN ANALYZE without the endpoint:\n%s", b.text)
			}
			t.Logf("%s = %v: %d bytes received with the endpoint, %d without", q, got[0], a.bytes, b.bytes)
			if a.bytes >= b.bytes && b.rowsReceived > 0 {
				t.Errorf("the endpoint received %d bytes, the client aggregate %d", a.bytes, b.bytes)
			}
		})
	}
	// Pushdown off: the client computes, with the same answer.
	with.SetPushdown(false)
	q := "SELECT SUM(amount), COUNT(*) FROM orders ALLOW FULL SCAN"
	a, err := explainAnalyze(ctx, with, q)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.text, "SERVER AGGREGATE") {
		t.Errorf("pushdown off still aggregates in the regions:\n%s", a.text)
	}
}

// TestServerAggregateBigintSums: BIGINT sums near ±2^63 on a table that
// loads the aggregation endpoint. A sum that cannot wrap is added in the
// regions. The regions add Java longs, which wrap silently, so a sum
// whose partial sums could wrap is read in the client instead (EXPLAIN
// ANALYZE says CLIENT), where it is exact: a SUM fails only when its
// total does not fit a BIGINT, and AVG never fails.
func TestServerAggregateBigintSums(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true, Coprocessors: []string{hbase.AggregateClass}})
	cat, _, _ := scratchExample(t, st, "sites")
	ctx := context.Background()
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	const all = "SELECT SUM(visits), AVG(visits) FROM sites ALLOW FULL SCAN"
	for _, tc := range []struct{ q, want, where string }{
		{"INSERT INTO sites (domain, owner, visits) VALUES ('1.s3', 'o3', 2305843009213693952), ('2.s3', 'o3', 2305843009213693952), ('3.s3', 'o3', 2305843009213693951)", "", ""},
		{all, "6917529027641081855 " + catalog.Double((3<<61-1)/3.0).Text(), "SERVER AGGREGATE"},
		{"INSERT INTO sites (domain, owner, visits) VALUES " +
			"('1.s1', 'o1', 9223372036854775807), ('2.s1', 'o1', 9223372036854775807), ('3.s1', 'o1', -9223372036854775808), ('4.s1', 'o1', -9223372036854775808), " +
			"('1.s2', 'o2', 9223372036854775807), ('2.s2', 'o2', 1)", "", ""},
		{"SELECT SUM(visits), AVG(visits), COUNT(*) FROM sites WHERE domain LIKE '%.s1'", "-2 -0.5 4", "CLIENT AGGREGATE"},
		{"SELECT AVG(visits) FROM sites ALLOW FULL SCAN", catalog.Double((1<<63 + 3<<61 - 3) / 9.0).Text(), "CLIENT AGGREGATE"},
		{"SELECT SUM(visits) FROM sites ALLOW FULL SCAN", "error: SUM(visits): the sum 16140901064495857661 does not fit a BIGINT", ""},
	} {
		rows, _, err := e.Exec(ctx, tc.q)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		}
		for _, r := range rows {
			var vs []string
			for _, v := range r {
				vs = append(vs, v.Text())
			}
			got += strings.Join(vs, " ")
		}
		if !strings.HasPrefix(got, tc.want) || tc.want == "" && err != nil {
			t.Errorf("%s:\n got %s\nwant %s", tc.q, got, tc.want)
		}
		if tc.where == "" {
			continue
		}
		a, err := explainAnalyze(ctx, e, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(a.text, tc.where) {
			t.Errorf("EXPLAIN ANALYZE %s lacks %s:\n%s", tc.q, tc.where, a.text)
		}
	}
}
