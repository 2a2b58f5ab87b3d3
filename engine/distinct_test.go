package engine_test

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

var analyzeRows = regexp.MustCompile(`ANALYZE rows read (\d+), rows received (\d+), rows returned (\d+)`)

// TestLooseScanReadsFewRows loads the demo orders and checks EXPLAIN
// ANALYZE's figures for SELECT DISTINCT seller: the loose scan reads a
// few rows per distinct seller, not the table, and returns each seller
// once, as the generated rows say.
func TestLooseScanReadsFewRows(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, embedded.Pushdown{})
	tb, ok := e.Catalog().Table("orders")
	if !ok {
		t.Fatal("no orders table")
	}
	n := examples.DemoRows["orders"]
	if testing.Short() {
		n /= 5
	}
	rows := examples.Rows(tb, n, 1)
	if err := e.Write(ctx, tb, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	col, _ := tb.Column("seller")
	var want []string
	for _, r := range rows {
		if !slices.Contains(want, r[col].S) {
			want = append(want, r[col].S)
		}
	}
	slices.Sort(want)

	const q = "SELECT DISTINCT seller FROM orders ALLOW FULL SCAN"
	got, _, err := e.Exec(ctx, "SELECT DISTINCT seller FROM orders ORDER BY seller ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	var sellers []string
	for _, r := range got {
		sellers = append(sellers, r[0].S)
	}
	if !slices.Equal(sellers, want) {
		t.Fatalf("DISTINCT seller = %v, want %v", sellers, want)
	}

	st, err := parser.ParseOne("EXPLAIN ANALYZE " + q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	m := analyzeRows.FindStringSubmatch(res.Text)
	if m == nil {
		t.Fatalf("no ANALYZE figures in\n%s", res.Text)
	}
	read, _ := strconv.Atoi(m[1])
	returned, _ := strconv.Atoi(m[3])
	if returned != len(want) {
		t.Errorf("rows returned %d, want %d distinct sellers\n%s", returned, len(want), res.Text)
	}
	if read > 3*len(want) || read < len(want) {
		t.Errorf("rows read %d for %d distinct sellers in %d rows: want at most 3 per seller\n%s", read, len(want), n, res.Text)
	}
	t.Logf("%d rows, %d sellers, rows read %d\n%s", n, len(want), read, res.Text)
}

// TestDistinctBudget: a client DISTINCT past its budget is a one-line
// error that names the budget.
func TestDistinctBudget(t *testing.T) {
	ctx := context.Background()
	e := exampleEngine(t, engine.Config{DistinctBudget: 10})
	writeOrders(t, e, 500, 3)
	if _, _, err := e.Exec(ctx, "SELECT DISTINCT status FROM orders ALLOW FULL SCAN"); err != nil {
		t.Fatalf("a few statuses fit the budget: %v", err)
	}
	_, _, err := e.Exec(ctx, "SELECT DISTINCT order_id FROM orders ALLOW FULL SCAN")
	if err == nil || !regexpOneLine.MatchString(err.Error()) {
		t.Fatalf("err = %v, want a one-line budget error", err)
	}
}

var regexpOneLine = regexp.MustCompile(`^[^\n]*distinct budget exceeded: more than 10 distinct rows[^\n]*$`)
