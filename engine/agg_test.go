package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// loadedOrders returns an engine over orders holding n generated rows,
// and those rows.
func loadedOrders(t *testing.T, n int) (*engine.Engine, []catalog.Row) {
	t.Helper()
	e := newEngine(t, embedded.Pushdown{})
	_, rows := writeOrders(t, e, n, 3)
	return e, rows
}

// TestGroupByHavingOrder runs the statement of the issue and checks it
// against sums computed here from the loaded rows.
func TestGroupByHavingOrder(t *testing.T) {
	e, rows := loadedOrders(t, 3000)
	tb, _ := e.Catalog().Table("orders")
	col := func(name string) int { i, _ := tb.Column(name); return i }
	type agg struct {
		n   int64
		sum float64
		any bool
	}
	want := map[string]*agg{}
	for _, r := range rows {
		if r[col("seller")].S != "s3" {
			continue
		}
		k := r[col("status")].Text()
		a := want[k]
		if a == nil {
			a = &agg{}
			want[k] = a
		}
		a.n++
		if v := r[col("amount")]; !v.Null {
			a.sum += v.F
			a.any = true
		}
	}
	got, _, err := e.Exec(context.Background(), "SELECT status, COUNT(*), SUM(amount) FROM orders WHERE seller = 's3' GROUP BY status HAVING COUNT(*) > 1 ORDER BY 2 DESC")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range want {
		if a.n > 1 {
			n++
		}
	}
	if len(got) != n || n == 0 {
		t.Fatalf("got %d groups, want %d", len(got), n)
	}
	for i, r := range got {
		a := want[r[0].Text()]
		if a == nil || r[1].I != a.n || i > 0 && got[i-1][1].I < r[1].I {
			t.Fatalf("row %d: %v, want count %v in descending order", i, r, a)
		}
		if d := r[2].F - a.sum; a.any && (d > 1e-6 || d < -1e-6) || !a.any && !r[2].Null {
			t.Fatalf("row %d: sum %v, want %v", i, r[2], a.sum)
		}
	}
}

// TestExpressionErrors: bad expressions are one-line errors with a
// position.
func TestExpressionErrors(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	for _, tc := range []struct{ q, want string }{
		{"SELECT status, COUNT(*) FROM orders WHERE seller = 's1'", "1:8: column status must appear in GROUP BY"},
		{"SELECT SUM(status) FROM orders WHERE seller = 's1'", "1:12: SUM needs numbers, and status is STRING"},
		{"SELECT FOO(amount) FROM orders WHERE seller = 's1'", "1:8: unknown function FOO"},
		{"SELECT * FROM orders WHERE seller = 's1' AND COUNT(*) > 1", "aggregate function COUNT is not allowed in WHERE"},
		{"SELECT amount + status FROM orders WHERE seller = 's1'", "+ needs numbers"},
		{"SELECT * FROM orders WHERE seller = 's1' AND _key = 'x'", "_key can only be selected"},
		{"SELECT * FROM orders WHERE seller = 's1' ORDER BY 9", "ORDER BY 9 is not a position"},
		{"SELECT 9223372036854775807 + 1 FROM orders WHERE seller = 's1'", "does not fit a BIGINT"},
		{"SELECT *, COUNT(*) FROM orders WHERE seller = 's1'", "SELECT * cannot be used with GROUP BY"},
	} {
		st, err := parser.ParseOne(tc.q)
		if err == nil {
			_, err = e.Plan(context.Background(), st)
		}
		var perr *parser.Error
		if err == nil || !errors.As(err, &perr) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want a positioned one-line error", tc.q, err)
			continue
		}
		line, col := parser.Position(tc.q, perr.Pos)
		if got := fmt.Sprintf("%d:%d: %s", line, col, perr.Msg); !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want it to contain %q", tc.q, got, tc.want)
		}
	}
}

// TestGroupBudget: a hash aggregation past its budget stops with a clear
// error; a streaming one needs no budget.
func TestGroupBudget(t *testing.T) {
	e := exampleEngine(t, engine.Config{GroupBudget: 3})
	writeOrders(t, e, 500, 5)
	_, _, err := e.Exec(context.Background(), "SELECT buyer, COUNT(*) FROM orders GROUP BY buyer ALLOW FULL SCAN")
	if !errors.Is(err, exec.ErrGroupBudget) || !strings.Contains(err.Error(), "more than 3 groups") {
		t.Fatalf("got %v, want the group budget error", err)
	}
	rows, _, err := e.Exec(context.Background(), "SELECT seller, COUNT(*) FROM orders GROUP BY seller ALLOW FULL SCAN")
	if err != nil || len(rows) <= 3 {
		t.Fatalf("streaming GROUP BY seller: %d rows, %v", len(rows), err)
	}
}

// TestKeyPseudoColumn: _key is the row's raw key as toStringBinary shows
// it, after every other column of SELECT *, _ts, _key.
func TestKeyPseudoColumn(t *testing.T) {
	e, rows := loadedOrders(t, 300)
	tb, _ := e.Catalog().Table("orders")
	want := map[string]bool{}
	seller, _ := tb.Column("seller")
	for _, r := range rows {
		if r[seller].S == "s1" {
			k, err := tb.EncodeKey(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			want[catalog.ToStringBinary(k)] = true
		}
	}
	got, _, err := e.Exec(context.Background(), "SELECT *, _ts, _key FROM orders WHERE seller = 's1' ORDER BY _key")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i, r := range got {
		k := r[len(tb.Columns)+1]
		if len(r) != len(tb.Columns)+2 || !want[k.S] || r[len(tb.Columns)].Type != catalog.TypeTimestamp {
			t.Fatalf("row %d: %v is not a row of s1 with its _ts and _key", i, r)
		}
		if i > 0 && got[i-1][len(tb.Columns)+1].S > k.S {
			t.Fatalf("row %d: not in _key order", i)
		}
	}
}

// TestSumAvgNearBigintLimits: over values near ±2^63, a SUM fails only
// when its total does not fit a BIGINT, whatever the partial sums in
// scan order, and AVG is always the mean.
func TestSumAvgNearBigintLimits(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	for _, q := range bigintSumQueries {
		checkBigintSum(t, e, q.q, q.want)
	}
}

// bigintSumQueries are statements over sites whose values sum past
// ±2^63 in scan order, with the answers: rows of values joined by " "
// and "; ", or the error they give. The first inserts the rows; domains
// are keyed reversed, so each owner's domains are read in the order
// 1.x, 2.x, and so on.
var bigintSumQueries = []struct{ q, want string }{
	{"INSERT INTO sites (domain, owner, visits) VALUES " +
		"('1.s1', 'o1', 9223372036854775807), ('2.s1', 'o1', 9223372036854775807), ('3.s1', 'o1', -9223372036854775808), ('4.s1', 'o1', -9223372036854775808), " +
		"('1.s2', 'o2', 9223372036854775807), ('2.s2', 'o2', 1), " +
		"('1.s3', 'o3', -9223372036854775808), ('2.s3', 'o3', -1)", ""},
	{"SELECT SUM(visits), AVG(visits), COUNT(*) FROM sites WHERE domain LIKE '%.s1'", "-2 -0.5 4"},
	{"SELECT AVG(visits) FROM sites WHERE domain LIKE '%.s2'", "4.611686018427388e+18"},
	{"SELECT AVG(visits) FROM sites WHERE domain LIKE '%.s3'", "-4.611686018427388e+18"},
	{"SELECT owner, AVG(visits) FROM sites GROUP BY owner ORDER BY owner ALLOW FULL SCAN", "o1 -0.5; o2 4.611686018427388e+18; o3 -4.611686018427388e+18"},
	{"SELECT SUM(visits) FROM sites WHERE domain LIKE '%.s2'", "error: SUM(visits): the sum 9223372036854775808 does not fit a BIGINT"},
	{"SELECT SUM(visits) FROM sites WHERE domain LIKE '%.s3'", "error: SUM(visits): the sum -9223372036854775809 does not fit a BIGINT"},
	{"SELECT owner, SUM(visits) FROM sites GROUP BY owner ALLOW FULL SCAN", "error: SUM(visits): the sum 9223372036854775808 does not fit a BIGINT"},
}

// checkBigintSum runs q and checks its rows or error against want.
func checkBigintSum(t *testing.T, e *engine.Engine, q, want string) {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	got := ""
	if err != nil {
		got = "error: " + err.Error()
		if !errors.Is(err, expr.ErrOverflow) {
			t.Errorf("%s: %v is not an overflow", q, err)
		}
	}
	got += rowsText(rows)
	if !strings.HasPrefix(got, want) || want == "" && err != nil {
		t.Errorf("%s:\n got %s\nwant %s", q, got, want)
	}
}
