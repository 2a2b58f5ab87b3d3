package engine_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// inList renders the values as an IN list's text.
func inList(vals []catalog.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// orList renders col = v OR col = w … for the values.
func orList(col string, vals []catalog.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = col + " = " + v.String()
	}
	return strings.Join(parts, " OR ")
}

// inValues takes n values of column col: every other one from the rows
// (in a shuffled order, NULL left out), the rest values no row holds.
func inValues(rows []catalog.Row, col, n int, absent func(i int) catalog.Value) []catalog.Value {
	out := make([]catalog.Value, 0, n)
	for i := 0; len(out) < n; i++ {
		if v := rows[(i*7919)%len(rows)][col]; i%2 == 0 && !v.Null {
			out = append(out, v)
		} else if i%2 == 1 {
			out = append(out, absent(i))
		}
	}
	return out
}

// matchesIn is v [NOT] IN (vals) as SQL has it, tested value by value:
// NULL matches nothing, and neither does NOT IN a list that holds NULL.
func matchesIn(v catalog.Value, vals []catalog.Value, not bool) bool {
	if v.Null {
		return false
	}
	sawNull := false
	for _, x := range vals {
		if x.Null {
			sawNull = true
		} else if catalog.Equal(x, v) {
			return !not
		}
	}
	return not && !sawNull
}

// TestLongInLists: IN and NOT IN lists of 20,000 values, on the key of
// an index (points past the ranges' cap), on the table's leading key
// field (a range per value), and on a column no key holds (a filter), and
// an OR of as many equalities, return exactly the rows a brute-force test
// of each row returns.
func TestLongInLists(t *testing.T) {
	e, rows := loadedOrders(t, 3000)
	tb, _ := e.Catalog().Table("orders")
	col := func(name string) int { i, _ := tb.Column(name); return i }
	id, seller, buyer := col("order_id"), col("seller"), col("buyer")
	ids := inValues(rows, id, 20000, func(i int) catalog.Value { return catalog.Bigint(int64(-i)) })
	sellers := inValues(rows, seller, 20000, func(i int) catalog.Value { return catalog.String(fmt.Sprintf("nobody%d", i)) })
	buyers := inValues(rows, buyer, 20000, func(i int) catalog.Value { return catalog.String(fmt.Sprintf("nobody%d", i)) })
	withNull := append(slices.Clone(buyers[:10000]), catalog.Null(catalog.TypeString))
	for _, c := range []struct {
		where string
		col   int
		vals  []catalog.Value
		not   bool
		plan  string
	}{
		{"order_id IN " + inList(ids), id, ids, false, "ACCESS POINT LOOKUP ON "},
		{"seller IN " + inList(sellers), seller, sellers, false, "SKIP SCAN ON "},
		{"buyer IN " + inList(buyers) + " ALLOW FULL SCAN", buyer, buyers, false, "FILTER BY buyer IN ("},
		{"buyer NOT IN " + inList(buyers) + " ALLOW FULL SCAN", buyer, buyers, true, "FILTER BY buyer NOT IN ("},
		{"buyer NOT IN " + inList(withNull) + " ALLOW FULL SCAN", buyer, withNull, true, "FILTER BY buyer NOT IN ("},
		{"buyer IN " + inList(withNull) + " ALLOW FULL SCAN", buyer, withNull, false, "FILTER BY buyer IN ("},
		{"(" + orList("buyer", buyers) + ") ALLOW FULL SCAN", buyer, buyers, false, "FILTER BY buyer = "},
	} {
		q := "SELECT order_id FROM orders WHERE " + c.where
		name := c.where[:strings.IndexAny(c.where[1:], "(=")+1]
		plan, err := explain(t, e, "EXPLAIN "+q)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan, c.plan) {
			t.Errorf("%s…: the plan lacks %q:\n%s", name, c.plan, plan[:min(len(plan), 800)])
		}
		got := orderIDs(t, e, q)
		var want []int64
		for _, r := range rows {
			if matchesIn(r[c.col], c.vals, c.not) {
				want = append(want, r[id].I)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s…: %d rows, want %d", name, len(got), len(want))
		}
		t.Logf("%s…: %d rows", name, len(want))
	}
}

// orderIDs runs q and returns its first column, sorted.
func orderIDs(t testing.TB, e *engine.Engine, q string) []int64 {
	t.Helper()
	rs, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r[0].I
	}
	slices.Sort(out)
	return out
}

// BenchmarkInOnKey reads 100,000 values of an IN list on the key of an
// index, half of them present in 20,000 rows (10,000 distinct): planned
// as points, the read is batched multi-gets in key order. "plan" parses
// and plans; "run" also reads.
func BenchmarkInOnKey(b *testing.B) {
	e := newEngine(b, embedded.Pushdown{})
	tb, _ := e.Catalog().Table("orders")
	rows := examples.Rows(tb, 20000, 3)
	if err := e.Write(context.Background(), tb, nil, rows, 0, nil); err != nil {
		b.Fatal(err)
	}
	id, _ := tb.Column("order_id")
	ids := inValues(rows, id, 100000, func(i int) catalog.Value { return catalog.Bigint(int64(-i)) })
	q := "SELECT order_id FROM orders WHERE order_id IN " + inList(ids)
	present := map[int64]bool{}
	for _, v := range ids {
		present[v.I] = v.I >= 0
	}
	want := 0
	for _, ok := range present {
		if ok {
			want++
		}
	}
	if n := len(orderIDs(b, e, q)); n != want || want < 10000 {
		b.Fatalf("%d rows, want %d", n, want)
	}
	st, err := parser.ParseOne(q)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, step := range []struct {
		name string
		do   func() error
	}{
		{"parse", func() error { _, err := parser.ParseOne(q); return err }},
		{"plan", func() error { _, err := e.Plan(context.Background(), st); return err }},
		{"plan+read", func() error {
			res, err := e.Run(ctx, st)
			if err != nil {
				return err
			}
			defer res.Close()
			for {
				if _, err := res.Rows.Next(ctx); err != nil {
					if err == io.EOF {
						return nil
					}
					return err
				}
			}
		}},
	} {
		b.Run(step.name, func(b *testing.B) {
			start := cpuTime(b)
			for b.Loop() {
				if err := step.do(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time the process has used: on a shared machine it
// measures the work better than wall time does.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestLongInListOrder: the rows of more points than one batch of Gets
// reads, sorted, come in the order asked for, each once.
func TestLongInListOrder(t *testing.T) {
	e, rows := loadedOrders(t, 3000)
	tb, _ := e.Catalog().Table("orders")
	id, _ := tb.Column("order_id")
	ids := inValues(rows, id, 20000, func(i int) catalog.Value { return catalog.Bigint(int64(-i)) })
	want := 0
	for _, r := range rows {
		if matchesIn(r[id], ids, false) {
			want++
		}
	}
	for _, dir := range []string{"", " DESC"} {
		q := "SELECT order_id FROM orders WHERE order_id IN " + inList(ids) + " ORDER BY order_id" + dir
		plan, err := explain(t, e, "EXPLAIN "+q)
		if err != nil {
			t.Fatal(err)
		}
		rs, _, err := e.Exec(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int64, len(rs))
		for i, r := range rs {
			got[i] = r[0].I
		}
		sorted := slices.Clone(got)
		slices.Sort(sorted)
		if dir != "" {
			slices.Reverse(sorted)
		}
		if !slices.Equal(got, sorted) || len(slices.Compact(slices.Clone(sorted))) != len(got) || len(got) != want {
			t.Errorf("ORDER BY order_id%s: %d rows, not in order or repeated; plan:\n%s", dir, len(got), plan[:min(len(plan), 600)])
		}
	}
}
