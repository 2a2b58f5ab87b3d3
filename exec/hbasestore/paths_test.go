package hbasestore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// pathCase is a query whose plan and region spread are checked as well as
// its rows.
type pathCase struct {
	name string
	q    string
	// plan is text the EXPLAIN must hold.
	plan string
	// regions is the exact number of regions read, or with atLeast the
	// least.
	regions int
	atLeast bool
	// rpcs, when not 0, is the exact number of RPCs.
	rpcs int
	// sorted checks the rows come sorted on output column order,
	// descending when desc.
	sorted bool
	order  int
	desc   bool
}

// testPaths runs queries whose access paths cross regions: reversed
// scans over region boundaries, a scan over 4 regions, fan-outs over every
// region, and multi-gets spread over regions.
func (e *env) testPaths(t *testing.T) {
	ctx := context.Background()
	rows := func(name string) []catalog.Row {
		tb := e.table(t, name)
		out, err := run(ctx, e.emb, mustPlan(t, e, "SELECT * FROM "+tb.Name+" ALLOW FULL SCAN"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ev := rows("order_events")[17]
	cal := rows("user_calendar_record")[23]
	var ids []string
	for i, r := range rows("orders") {
		if i%150 == 0 {
			ids = append(ids, r[2].String())
		}
	}
	cases := []pathCase{
		{name: "reversed-scan-over-4-regions", q: "SELECT * FROM order_events WHERE user_id BETWEEN 20 AND 180 ORDER BY user_id DESC",
			plan: "RANGE SCAN REVERSE", regions: 4, order: 0, desc: true, sorted: true},
		{name: "reversed-scan-bounds-on-region-boundaries", q: "SELECT * FROM order_events WHERE user_id BETWEEN 50 AND 149 ORDER BY user_id DESC",
			plan: "RANGE SCAN REVERSE", regions: 2, order: 0, desc: true, sorted: true},
		{name: "forward-scan-over-4-regions", q: "SELECT * FROM order_events WHERE user_id BETWEEN 20 AND 180",
			plan: "RANGE SCAN OVER", regions: 4, order: 0, sorted: true},
		{name: "forward-scan-bounds-on-region-boundaries", q: "SELECT * FROM order_events WHERE user_id BETWEEN 50 AND 149",
			plan: "RANGE SCAN OVER", regions: 2, order: 0, sorted: true},
		{name: "scan-over-3-regions-text-key", q: "SELECT * FROM logs_by_host WHERE hostname BETWEEN 'db1' AND 'web10' AND log_event = 'error'",
			plan: "RANGE SCAN", regions: 3},
		{name: "fan-out-16-regions-merged-newest-first", q: "SELECT * FROM logs WHERE ts BETWEEN TIMESTAMP '2024-05-02 00:00:00' AND TIMESTAMP '2024-05-05 00:00:00' ORDER BY ts DESC LIMIT 300",
			plan: "PARALLEL 16-WAY RANGE SCAN REVERSE", regions: 16, order: 2, desc: true, sorted: true},
		{name: "fan-out-16-regions-forward", q: "SELECT hostname, ts FROM logs WHERE ts >= TIMESTAMP '2024-05-06 00:00:00' ORDER BY ts",
			plan: "PARALLEL 16-WAY", regions: 16, order: 1, sorted: true},
		{name: "fan-out-10-regions", q: "SELECT * FROM user_calendar_record WHERE date BETWEEN DATE '2024-04-01' AND DATE '2024-04-20'",
			plan: "PARALLEL 10-WAY", regions: 10},
		{name: "random-suffix-prefix-scan", q: fmt.Sprintf("SELECT * FROM order_events WHERE user_id = %s AND order_id = %s", ev[0], ev[1]),
			plan: "RANGE SCAN", regions: 1, rpcs: 1},
		{name: "random-suffix-prefix-scans-over-4-regions", q: fmt.Sprintf("SELECT * FROM order_events WHERE user_id IN (10, 60, 110, 160, %s) AND order_id = %s", ev[0], ev[1]),
			plan: "SKIP SCAN ON 5 RANGES", regions: 4, atLeast: true},
		{name: "multi-get-100-keys", q: fmt.Sprintf("SELECT * FROM user_calendar_record WHERE uid IN (%s) AND date = %s AND type = %s", hundredUIDs(cal[0]), exectest.Literal(cal[1]), cal[2]),
			plan: "POINT LOOKUP ON 100 KEYS", regions: 5, atLeast: true, rpcs: 1},
		{name: "multi-get-over-hash-regions", q: fmt.Sprintf("SELECT * FROM user_calendar_record WHERE uid IN (%s, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14) AND date = %s AND type = %s", cal[0], exectest.Literal(cal[1]), cal[2]),
			plan: "POINT LOOKUP ON", regions: 5, atLeast: true, rpcs: 1},
		{name: "index-then-multi-get-over-16-regions", q: "SELECT * FROM orders WHERE order_id IN (" + strings.Join(ids, ", ") + ")",
			plan: "INDEX LOOKUP OVER orders_by_id", regions: 8, atLeast: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { e.checkPath(t, c) })
	}
}

// hundredUIDs lists uid and 99 others, as an IN list.
func hundredUIDs(uid catalog.Value) string {
	list := []string{uid.String()}
	for i := 1; len(list) < 100; i++ {
		if int64(i) != uid.I {
			list = append(list, fmt.Sprint(i))
		}
	}
	return strings.Join(list, ", ")
}

func (e *env) checkPath(t *testing.T, c pathCase) {
	ctx := context.Background()
	var stats exec.Stats
	sel, err := e.compare(ctx, c.q, &stats)
	if err != nil {
		t.Fatal(err)
	}
	text := sel.String()
	if !strings.Contains(text, c.plan) {
		t.Fatalf("plan lacks %q:\n%s", c.plan, text)
	}
	got, err := run(ctx, e.hb, sel, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatalf("no rows: the check proves nothing\n%s", text)
	}
	regions := int(stats.Regions.Load())
	if regions != c.regions && (!c.atLeast || regions < c.regions) {
		t.Errorf("read %d regions, want %s%d\n%s", regions, map[bool]string{true: ">= "}[c.atLeast], c.regions, text)
	}
	if rpcs := int(stats.RPCs.Load()); c.rpcs != 0 && rpcs != c.rpcs {
		t.Errorf("%d RPCs, want %d", rpcs, c.rpcs)
	}
	if c.sorted {
		for i := 1; i < len(got); i++ {
			cmp := catalog.Compare(got[i-1][c.order], got[i][c.order])
			if (c.desc && cmp < 0) || (!c.desc && cmp > 0) {
				t.Fatalf("row %d out of order: %s after %s", i, rowText(got[i]), rowText(got[i-1]))
			}
		}
	}
	t.Logf("%d rows, %d regions, %d RPCs, %d rows read", len(got), regions, stats.RPCs.Load(), stats.RowsRead.Load())
}

func (e *env) table(t *testing.T, name string) *catalog.Table {
	for _, tb := range e.cat.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}

func mustPlan(t *testing.T, e *env, q string) *planner.Select {
	t.Helper()
	sel, err := plan(e.pl, q)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}
