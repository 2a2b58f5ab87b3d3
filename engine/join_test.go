package engine_test

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

var (
	joinAnalyze = regexp.MustCompile(`ANALYZE left rows (\d+), reads (\d+) in (\d+) RPCs, keys looked up (\d+), rows of o (\d+), joined rows (\d+)`)
	rpcsAnalyze = regexp.MustCompile(`ANALYZE rows read \d+, rows received \d+, rows returned (\d+), .*RPCs (\d+),`)
)

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLookupJoinBatches loads make demo's orders and joins the buyer
// table (orders_by_buyer) to the seller table (orders) by its whole key,
// as seed 000's design reads an order: EXPLAIN must say LOOKUP JOIN with
// a multi-get per batch, and EXPLAIN ANALYZE must count one read of
// orders per 100 rows of the buyer's orders, each one store call (the
// step's own RPCs, measured) beside the calls of the buyer table's own
// read.
func TestLookupJoinBatches(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	n := examples.DemoRows["orders"]
	if testing.Short() {
		n /= 5
	}
	writeOrders(t, e, n, 1)
	const where = "WHERE b.buyer IN ('b7', 'b8', 'b9', 'b10', 'b11')"
	join := "SELECT b.order_id, o.amount, o.status FROM orders_by_buyer b JOIN orders o ON o.seller = b.seller AND o.ts = b.ts AND o.order_id = b.order_id " + where
	text, err := explain(t, e, "EXPLAIN "+join)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"JOIN o: POINT LOOKUP OVER orders FOR EACH BATCH", "CLIENT LOOKUP JOIN orders AS o, BATCHES OF 100 LEFT ROWS", "BATCH  one multi-get of the batch's keys per 100 left rows"} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
	text, err = explain(t, e, "EXPLAIN ANALYZE "+join)
	if err != nil {
		t.Fatal(err)
	}
	m, all := joinAnalyze.FindStringSubmatch(text), rpcsAnalyze.FindStringSubmatch(text)
	if m == nil || all == nil {
		t.Fatalf("no join figures in:\n%s", text)
	}
	left, reads, rpcs, keys, right, rows := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4]), atoi(t, m[5]), atoi(t, m[6])
	if left <= 100 {
		t.Fatalf("%d left rows: the test needs more than one batch", left)
	}
	if want := (left + 99) / 100; reads != want || keys != left || right != left || rows != left {
		t.Errorf("left rows %d, reads %d (want %d), keys %d, rows of o %d, joined %d; want every order found once:\n%s", left, reads, want, keys, right, rows, text)
	}
	if rpcs != reads {
		t.Errorf("the lookups of %d batches made %d store calls, want one multi-get each:\n%s", reads, rpcs, text)
	}
	lone, err := explain(t, e, "EXPLAIN ANALYZE SELECT b.order_id FROM orders_by_buyer b "+where)
	if err != nil {
		t.Fatal(err)
	}
	l := rpcsAnalyze.FindStringSubmatch(lone)
	if l == nil {
		t.Fatalf("no figures in:\n%s", lone)
	}
	if got, want := atoi(t, all[2]), atoi(t, l[2])+reads; got != want || atoi(t, all[1]) != left {
		t.Errorf("the join made %d store calls, want %d (its left read's %s and one multi-get per batch), and returned %s rows, want %d:\n%s", got, want, l[2], all[1], left, text)
	}
}

// TestHashJoinBudget checks that a hash join past the sort budget fails
// with its one-line error.
func TestHashJoinBudget(t *testing.T) {
	e := exampleEngine(t, engine.Config{SortBudget: 10})
	writeOrders(t, e, 200, 1)
	stmt, err := parser.ParseOne("SELECT o.order_id FROM orders o JOIN orders p ON p.status = o.status WHERE o.seller = 's1' ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	_, err = drain(e, stmt)
	if !errors.Is(err, exec.ErrJoinBudget) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "hash join of p holds more than 10") {
		t.Fatalf("got %v, want the hash join budget's error", err)
	}
}

func drain(e *engine.Engine, stmt parser.Stmt) (int, error) {
	ctx := context.Background()
	res, err := e.Run(ctx, stmt)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		_, err := res.Rows.Next(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// A join under parallel reads (the default, auto) returns what it returns
// read serially: a join reads its tables in its own batches.
func TestJoinUnderParallelReads(t *testing.T) {
	st := tempStore(t)
	open := func(context.Context) (exec.Store, error) { return st, nil }
	serial := exampleEngine(t, engine.Config{Open: open, Parallel: 1})
	auto := exampleEngine(t, engine.Config{Open: open})
	writeOrders(t, serial, 3000, 1)
	q := "SELECT i.order_id, o.seller, o.amount FROM orders_by_id i JOIN orders o ON o.seller = i.seller AND o.ts = i.ts AND o.order_id = i.order_id WHERE i.order_id BETWEEN 1000 AND 50000000 ORDER BY i.order_id"
	want, _, err := serial.Exec(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := auto.Exec(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 100 || rowsText(got) != rowsText(want) {
		t.Fatalf("parallel: %d rows, serial: %d rows, or they differ", len(got), len(want))
	}
}
