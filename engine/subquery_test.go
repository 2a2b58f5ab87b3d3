package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// subqueryEngine holds five sites, one with no owner, and the orders of
// three sellers.
func subqueryEngine(t *testing.T, cfg engine.Config) *engine.Engine {
	t.Helper()
	e := exampleEngine(t, cfg)
	for _, q := range []string{
		"INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 's1', 10), ('b.com', 's2', 20), ('c.com', 's1', 30), ('d.com', 'nobody', 40)",
		"INSERT INTO sites (domain, visits) VALUES ('e.com', 50)",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES " +
			"('s1', 'b1', 1, 1000, 5.5, 'new'), ('s1', 'b2', 2, 2000, 7.5, 'paid'), " +
			"('s2', 'b1', 3, 3000, 1.5, 'new'), ('s3', 'b3', 4, 4000, 9.5, 'new')",
	} {
		run(t, e, q)
	}
	return e
}

func TestSubqueryResults(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	for _, c := range []struct{ q, want string }{
		{"SELECT order_id FROM orders WHERE seller IN (SELECT owner FROM sites WHERE visits < 35 ALLOW FULL SCAN) ORDER BY order_id", "1; 2; 3"},
		{"SELECT order_id FROM orders WHERE seller IN (SELECT owner FROM sites WHERE visits > 100 ALLOW FULL SCAN)", ""},
		// NOT IN over a set holding NULL is never true.
		{"SELECT order_id FROM orders WHERE seller NOT IN (SELECT owner FROM sites ALLOW FULL SCAN) ALLOW FULL SCAN", ""},
		{"SELECT order_id FROM orders WHERE seller NOT IN (SELECT owner FROM sites WHERE owner IS NOT NULL ALLOW FULL SCAN) ALLOW FULL SCAN", "4"},
		{"SELECT order_id FROM orders WHERE seller NOT IN (SELECT owner FROM sites WHERE visits > 100 ALLOW FULL SCAN) ORDER BY order_id ALLOW FULL SCAN", "1; 2; 3; 4"},
		{"SELECT order_id FROM orders WHERE (seller, order_id) IN (SELECT owner, visits / 10 FROM sites WHERE visits < 35 ALLOW FULL SCAN) ORDER BY order_id ALLOW FULL SCAN", "1"},
		{"SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM sites s WHERE s.owner = o.seller AND s.visits > 15 ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "1; 2; 3"},
		{"SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM sites s WHERE s.owner = o.seller AND s.visits > 25 ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "3; 4"},
		{"SELECT order_id FROM orders WHERE EXISTS (SELECT 1 FROM sites WHERE domain = 'a.com') AND seller = 's2'", "3"},
		{"SELECT order_id FROM orders WHERE NOT EXISTS (SELECT 1 FROM sites WHERE domain = 'a.com') AND seller = 's2'", ""},
		{"SELECT order_id FROM orders WHERE amount > (SELECT AVG(amount) FROM orders ALLOW FULL SCAN) ORDER BY order_id ALLOW FULL SCAN", "2; 4"},
		{"SELECT order_id FROM orders WHERE amount = (SELECT amount FROM orders WHERE seller = 's9') ALLOW FULL SCAN", ""},
		{"SELECT o.order_id, s.domain FROM orders o JOIN sites s ON s.owner = o.seller WHERE s.visits IN (SELECT visits FROM sites WHERE domain IN ('a.com', 'b.com')) ORDER BY o.order_id, s.domain ALLOW FULL SCAN", "1 a.com; 2 a.com; 3 b.com"},
		{"SELECT o.order_id FROM orders o JOIN sites s ON s.owner = o.seller WHERE NOT EXISTS (SELECT 1 FROM orders p WHERE p.seller = s.owner AND p.order_id = o.order_id AND p.status = 'paid' ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "1; 1; 3"},
		{"SELECT order_id, (SELECT MAX(visits) FROM sites ALLOW FULL SCAN) + 1 AS top FROM orders WHERE seller = 's1' ORDER BY order_id", "1 51; 2 51"},
		{"SELECT order_id, (SELECT visits FROM sites WHERE domain = 'x.com') FROM orders WHERE seller = 's2'", "3 NULL"},
		{"SELECT domain FROM sites WHERE owner IN (SELECT seller FROM orders WHERE buyer IN (SELECT buyer FROM orders WHERE order_id = 3)) ORDER BY domain ALLOW FULL SCAN", "a.com; b.com; c.com"},
	} {
		if got := readAll(t, e, c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// TestSubqueryKeyList: a subquery of a table's key values makes the outer
// read a point lookup of each, shown as a semi-join run first.
func TestSubqueryKeyList(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	run(t, e, "INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 's1', 10), ('b.com', 's2', 20)")
	run(t, e, "INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', 1, 1000, 5.5, 'new')")
	text, err := explain(t, e, "EXPLAIN ANALYZE SELECT owner FROM sites WHERE domain IN (SELECT status || '.com' FROM orders_by_buyer WHERE buyer = 'b1')")
	if err != nil {
		t.Fatal(err)
	}
	text2, err := explain(t, e, "EXPLAIN SELECT visits FROM sites WHERE domain IN (SELECT domain FROM sites_by_owner WHERE owner = 's1')")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"CLIENT SEMI JOIN (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): domain IN (SELECT domain FROM sites_by_owner WHERE owner = 's1')",
		"SUBQUERY SELECT domain FROM sites_by_owner WHERE owner = 's1'",
		"ROWS   1",
		"POINT LOOKUP ON 1 KEY OVER sites",
	} {
		if !strings.Contains(text2, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text2)
		}
	}
	if !strings.Contains(text, "TIME") || !strings.Contains(text, "ANALYZE rows read") {
		t.Errorf("EXPLAIN ANALYZE lacks the subquery's time or the read's figures:\n%s", text)
	}
	js, err := explain(t, e, "EXPLAIN (FORMAT JSON) SELECT visits FROM sites WHERE domain IN (SELECT domain FROM sites_by_owner WHERE owner = 's1')")
	if err != nil || !strings.Contains(js, `"CLIENT SEMI JOIN"`) || !strings.Contains(js, `"distinct_values": 1`) {
		t.Errorf("EXPLAIN JSON lacks the semi-join step (%v):\n%s", err, js)
	}
	anti, err := explain(t, e, "EXPLAIN SELECT visits FROM sites WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.seller = sites.owner AND o.status = 'new' ALLOW FULL SCAN) ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(anti, "CLIENT ANTI JOIN (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): NOT EXISTS") {
		t.Errorf("NOT EXISTS is not an anti-join:\n%s", anti)
	}
	// Correlated by an index key of the inner table, with the outer rows
	// bound by their own: the outer keys first, then a lookup of them.
	for q, want := range map[string]string{
		"EXPLAIN SELECT order_id FROM orders o WHERE o.seller = 's1' AND EXISTS (SELECT 1 FROM sites s WHERE s.owner = o.buyer)":     "CLIENT LOOKUP SEMI JOIN",
		"EXPLAIN SELECT order_id FROM orders o WHERE o.seller = 's1' AND NOT EXISTS (SELECT 1 FROM sites s WHERE s.owner = o.buyer)": "CLIENT LOOKUP ANTI JOIN",
	} {
		text, err := explain(t, e, q)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, want) || !strings.Contains(text, "SELECT DISTINCT o.buyer FROM orders AS o WHERE o.seller = 's1'") || !strings.Contains(text, "ROWS   0") {
			t.Errorf("%s: not a %s of the outer keys:\n%s", q, want, text)
		}
	}
}

func TestSubqueryErrors(t *testing.T) {
	e := subqueryEngine(t, engine.Config{SortBudget: 3})
	for _, c := range []struct{ q, want string }{
		{"SELECT order_id FROM orders WHERE seller IN (SELECT domain FROM sites ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery yields more than 3 rows, the sort budget"},
		{"SELECT order_id FROM orders WHERE seller IN (SELECT owner, domain FROM sites WHERE domain = 'a.com')", "the subquery must select 1 column"},
		{"SELECT order_id FROM orders WHERE amount = (SELECT visits FROM sites WHERE visits < 35 ALLOW FULL SCAN) ALLOW FULL SCAN", "the scalar subquery returned 3 rows"},
		{"SELECT order_id FROM orders o WHERE seller IN (SELECT owner FROM sites s WHERE s.visits > o.order_id ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery reads o.order_id of the outer query other than in an equality of its WHERE"},
		{"SELECT order_id FROM orders o WHERE seller IN (SELECT owner FROM sites s WHERE s.owner = o.buyer OR s.visits = 1 ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery reads o.buyer of the outer query other than in an equality of its WHERE"},
		{"SELECT order_id, (SELECT MAX(visits) + o.amount FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN) FROM orders o ALLOW FULL SCAN", "the subquery reads o.amount of the outer query other than in an equality of its WHERE: a correlated subquery is supported only when its WHERE ANDs equalities"},
		{"SELECT order_id FROM orders o WHERE amount > (SELECT MAX(visits) FROM sites s WHERE s.owner <> o.seller ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery reads o.seller of the outer query"},
		{"SELECT order_id, (SELECT visits FROM sites s WHERE s.owner = o.seller ORDER BY visits LIMIT 1) FROM orders o ALLOW FULL SCAN", "a correlated scalar subquery cannot have DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT or OFFSET"},
		{"SELECT order_id FROM orders o WHERE seller IN (SELECT owner FROM sites s WHERE s.owner = o.buyer GROUP BY owner ALLOW FULL SCAN) ALLOW FULL SCAN", "a correlated IN subquery cannot have GROUP BY, HAVING, LIMIT or OFFSET"},
		{"SELECT order_id, (SELECT p.buyer FROM orders p WHERE p.seller = o.seller) FROM orders o WHERE o.seller = 's1'", "more than one row returned by a subquery used as an expression"},
		{"SELECT order_id FROM orders o WHERE o.buyer = (SELECT p.buyer FROM orders p WHERE p.seller = o.seller AND p.order_id < 3 ALLOW FULL SCAN) ALLOW FULL SCAN", "more than one row returned by a subquery used as an expression"},
		{"SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM sites s WHERE s.visits > o.order_id ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery reads o.order_id of the outer query"},
		{"SELECT o.order_id FROM orders o JOIN sites s ON s.owner IN (SELECT owner FROM sites WHERE domain = 'a.com') WHERE o.seller = 's1'", "a subquery is supported only in the WHERE or the select list of a SELECT"},
		{"DELETE FROM orders WHERE seller IN (SELECT owner FROM sites WHERE domain = 'a.com')", "a subquery is supported only in the WHERE or the select list of a SELECT"},
	} {
		_, _, err := e.Exec(context.Background(), c.q)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant one line with %q", c.q, err, c.want)
		}
	}
	_, _, err := e.Exec(context.Background(), "SELECT order_id FROM orders WHERE seller IN (SELECT domain FROM sites ALLOW FULL SCAN) ALLOW FULL SCAN")
	if !errors.Is(err, engine.ErrSubqueryBudget) {
		t.Errorf("past the budget: %v, want ErrSubqueryBudget", err)
	}
}

// TestSubqueryColumnName: a subquery in the select list is named by its
// text, or by its alias.
func TestSubqueryColumnName(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	stmt, err := parser.ParseOne("SELECT order_id, (SELECT visits FROM sites WHERE domain = 'a.com'), (SELECT 2 FROM sites WHERE domain = 'a.com') AS two FROM orders WHERE seller = 's2'")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), stmt)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var names []string
	for _, c := range res.Columns {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, ", "), "order_id, (SELECT visits FROM sites WHERE domain = 'a.com'), two"; got != want {
		t.Errorf("columns %s, want %s", got, want)
	}
}

// correlatedEngine is subqueryEngine with two orders of no amount: one
// of seller s2, whose new orders then hold a NULL amount, and one of
// seller s4, who has no new order.
func correlatedEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e := subqueryEngine(t, engine.Config{})
	run(t, e, "INSERT INTO orders (seller, buyer, order_id, ts, status) VALUES ('s2', 'b4', 5, 5000, 'new'), ('s4', 'b5', 6, 6000, 'paid')")
	return e
}

// TestCorrelatedIn: x [NOT] IN a subquery correlated by equalities
// keeps SQL's three-valued logic per outer row: NULL when x is NULL or
// its group holds a NULL and no value matches, and over an empty group
// FALSE (NOT IN: TRUE) whatever x is.
func TestCorrelatedIn(t *testing.T) {
	e := correlatedEngine(t)
	// The new orders' amounts by seller: s1 {5.5}, s2 {1.5, NULL},
	// s3 {9.5}, s4 none.
	const newOf = "(SELECT p.amount FROM orders p WHERE p.seller = o.seller AND p.status = 'new' ALLOW FULL SCAN)"
	for _, c := range []struct{ q, want string }{
		{"SELECT o.order_id, o.amount IN " + newOf + " FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 TRUE; 2 FALSE; 3 TRUE; 4 TRUE; 5 NULL; 6 FALSE"},
		{"SELECT o.order_id, o.amount NOT IN " + newOf + " FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 FALSE; 2 TRUE; 3 FALSE; 4 FALSE; 5 NULL; 6 TRUE"},
		{"SELECT o.order_id FROM orders o WHERE o.amount IN " + newOf + " ORDER BY o.order_id ALLOW FULL SCAN", "1; 3; 4"},
		{"SELECT o.order_id FROM orders o WHERE o.amount NOT IN " + newOf + " ORDER BY o.order_id ALLOW FULL SCAN", "2; 6"},
		{"SELECT o.order_id FROM orders o WHERE NOT (o.amount IN " + newOf + ") ORDER BY o.order_id ALLOW FULL SCAN", "2; 6"},
		{"SELECT o.order_id FROM orders o WHERE o.amount NOT IN " + newOf + " OR o.order_id = 5 ORDER BY o.order_id ALLOW FULL SCAN", "2; 5; 6"},
		// A group of only a NULL: NOT IN is NULL for each of its rows.
		{"SELECT o.order_id FROM orders o WHERE o.amount NOT IN (SELECT p.amount FROM orders p WHERE p.seller = o.seller AND p.order_id = 5 ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "1; 2; 4; 6"},
		// Two correlated columns and a row value.
		{"SELECT o.order_id FROM orders o WHERE (o.amount, o.status) IN (SELECT p.amount, p.status FROM orders p WHERE p.seller = o.seller AND p.buyer = o.buyer ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "1; 2; 3; 4"},
		// Correlated to a joined table.
		{"SELECT o.order_id, s.domain FROM orders o JOIN sites s ON s.owner = o.seller WHERE s.visits IN (SELECT t.visits FROM sites t WHERE t.owner = o.seller AND t.visits > 15 ALLOW FULL SCAN) ORDER BY o.order_id, s.domain ALLOW FULL SCAN", "1 c.com; 2 c.com; 3 b.com; 5 b.com"},
		// Sites by an owner with an order of that many visits / 10... none; and by the index key, a lookup.
		{"SELECT s.domain FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'e.com') AND s.visits / 10 IN (SELECT o.order_id FROM orders o WHERE o.seller = s.owner) ORDER BY s.domain", "a.com"},
		{"SELECT s.domain FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'e.com') AND s.visits / 10 NOT IN (SELECT o.order_id FROM orders o WHERE o.seller = s.owner) ORDER BY s.domain", "b.com; e.com"},
	} {
		if got := readAll(t, e, c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// TestCorrelatedScalar: a scalar subquery correlated by equalities is
// its group's value for each outer row, NULL (COUNT: 0) for an empty
// group, in the select list and the WHERE.
func TestCorrelatedScalar(t *testing.T) {
	e := correlatedEngine(t)
	for _, c := range []struct{ q, want string }{
		{"SELECT o.order_id, (SELECT MAX(p.amount) FROM orders p WHERE p.seller = o.seller ALLOW FULL SCAN) FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 7.5; 2 7.5; 3 1.5; 4 9.5; 5 1.5; 6 NULL"},
		{"SELECT o.order_id, (SELECT COUNT(*) FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN) AS n FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 2; 2 2; 3 1; 4 0; 5 1; 6 0"},
		{"SELECT o.order_id, (SELECT COUNT(s.domain) + 1 FROM sites s WHERE s.owner = o.seller AND s.visits > 15 ALLOW FULL SCAN) FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 2; 2 2; 3 2; 4 1; 5 2; 6 1"},
		{"SELECT o.order_id, (SELECT SUM(s.visits) FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN), (SELECT AVG(s.visits) FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN), (SELECT MIN(s.domain) FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN) FROM orders o ORDER BY o.order_id ALLOW FULL SCAN",
			"1 40 20 a.com; 2 40 20 a.com; 3 20 20 b.com; 4 NULL NULL NULL; 5 20 20 b.com; 6 NULL NULL NULL"},
		{"SELECT o.order_id FROM orders o WHERE o.amount = (SELECT MAX(p.amount) FROM orders p WHERE p.seller = o.seller ALLOW FULL SCAN) ORDER BY o.order_id ALLOW FULL SCAN", "2; 3; 4"},
		{"SELECT o.order_id FROM orders o WHERE (SELECT COUNT(*) FROM orders p WHERE p.seller = o.seller ALLOW FULL SCAN) = 1 ORDER BY o.order_id ALLOW FULL SCAN", "4; 6"},
		// One row a group: a value, not an aggregate.
		{"SELECT o.order_id, (SELECT p.buyer FROM orders p WHERE p.seller = o.seller AND p.order_id = o.order_id ALLOW FULL SCAN) FROM orders o ORDER BY o.order_id ALLOW FULL SCAN", "1 b1; 2 b2; 3 b1; 4 b3; 5 b4; 6 b5"},
		// s1's group has two rows, but no outer row reads it.
		{"SELECT o.order_id, (SELECT p.buyer FROM orders p WHERE p.seller = o.seller ALLOW FULL SCAN) FROM orders o WHERE o.seller IN ('s3', 's4')  ORDER BY o.order_id", "4 b3; 6 b5"},
		// By the inner table's key, the outer rows bound by theirs: a lookup.
		{"SELECT s.domain, (SELECT MAX(o.amount) FROM orders o WHERE o.seller = s.owner) FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'd.com', 'e.com') ORDER BY s.domain", "a.com 7.5; b.com 1.5; d.com NULL; e.com NULL"},
		// Grouped outer rows.
		{"SELECT o.seller, COUNT(*), (SELECT COUNT(*) FROM sites s WHERE s.owner = o.seller ALLOW FULL SCAN) FROM orders o GROUP BY o.seller ORDER BY o.seller ALLOW FULL SCAN", "s1 2 2; s2 2 1; s3 1 0; s4 1 0"},
	} {
		if got := readAll(t, e, c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// TestCorrelatedExplain: EXPLAIN shows a correlated subquery as a
// CLIENT step with its inner read's plan, a lookup join with its batch
// size, and EXPLAIN ANALYZE its measured reads.
func TestCorrelatedExplain(t *testing.T) {
	e := correlatedEngine(t)
	text := explainText(t, e, "EXPLAIN ANALYZE SELECT s.domain, (SELECT MAX(o.amount) FROM orders o WHERE o.seller = s.owner) FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'd.com')")
	for _, want := range []string{
		"CLIENT LOOKUP SCALAR SUBQUERY PER GROUP (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): (SELECT MAX(o.amount) FROM orders AS o WHERE o.seller = s.owner)",
		"SELECT DISTINCT s.owner FROM sites AS s WHERE s.domain IN ('a.com', 'b.com', 'd.com') AND s.owner IS NOT NULL; then SELECT o.seller, MAX(o.amount) FROM orders AS o WHERE o.seller IS NOT NULL AND o.seller IN (\"<3 outer values>\") GROUP BY o.seller",
		"INNER PLAN",
		"BATCH  one read of the inner table per 100 outer values",
		"outer values 3, reads 1 in",
		"ROWS   2",
		"DISTINCT VALUES 2",
		"SKIP SCAN ON 3 RANGES OVER orders",
		"STORE CALLS",
		"ROWS RECEIVED 7", // the outer values' 3, and the inner rows' 4 the skip scan reads

	} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, text)
		}
	}
	text = explainText(t, e, "EXPLAIN SELECT o.order_id FROM orders o WHERE o.amount NOT IN (SELECT p.amount FROM orders p WHERE p.seller = o.seller AND p.status = 'new' ALLOW FULL SCAN) ALLOW FULL SCAN")
	for _, want := range []string{
		"CLIENT ANTI JOIN (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): o.amount NOT IN (SELECT",
		"SELECT DISTINCT p.seller, p.amount FROM orders AS p WHERE p.status = 'new' AND p.seller IS NOT NULL",
		"INNER PLAN FULL SCAN OVER orders",
		"ROWS   4",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "STORE CALLS") {
		t.Errorf("EXPLAIN without ANALYZE shows measured figures:\n%s", text)
	}
	// NOT IN by the inner table's key, the outer rows bound by theirs.
	text = explainText(t, e, "EXPLAIN SELECT s.domain FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'e.com') AND s.visits / 10 NOT IN (SELECT o.order_id FROM orders o WHERE o.seller = s.owner)")
	for _, want := range []string{
		"CLIENT LOOKUP ANTI JOIN (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): s.visits / 10 NOT IN (SELECT o.order_id FROM orders AS o WHERE o.seller = s.owner)",
		"then SELECT DISTINCT o.seller, o.order_id FROM orders AS o WHERE o.seller IS NOT NULL AND o.seller IN (\"<2 outer values>\")",
		"INNER PLAN SKIP SCAN ON 2 RANGES OVER orders",
		"ROWS   4",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
	js := explainText(t, e, "EXPLAIN ANALYZE (FORMAT JSON) SELECT s.domain, (SELECT COUNT(*) FROM orders o WHERE o.seller = s.owner) AS n FROM sites s WHERE s.domain IN ('a.com', 'b.com') ORDER BY n")
	for _, want := range []string{`"CLIENT LOOKUP SCALAR SUBQUERY PER GROUP"`, `"inner_plan": [`, `"batch_rows": 100`, `"store_calls": `, `"rows_received": `} {
		if !strings.Contains(js, want) {
			t.Errorf("EXPLAIN JSON lacks %s:\n%s", want, js)
		}
	}
	if got := readAll(t, e, "SELECT s.domain, (SELECT COUNT(*) FROM orders o WHERE o.seller = s.owner) AS n FROM sites s WHERE s.domain IN ('a.com', 'b.com', 'd.com') ORDER BY n, s.domain"); got != "d.com 0; a.com 2; b.com 2" {
		t.Errorf("ordered by the subquery's alias: %s", got)
	}
}

// TestCorrelatedBatches: the outer rows' values are looked up 100 a
// read, and every batch's rows count.
func TestCorrelatedBatches(t *testing.T) {
	e := exampleEngine(t, engine.Config{})
	var vals []string
	for i := 0; i < 2500; i++ {
		vals = append(vals, fmt.Sprintf("('s%d', 'bx', %d, %d, %d.5, 'new')", i, i, 1000+i, i%7))
	}
	run(t, e, "INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+strings.Join(vals, ", "))
	run(t, e, "INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s7', 'by', 9000, 9000, 99.5, 'new'), ('s2400', 'by', 9001, 9001, 0.5, 'new')")
	const q = "SELECT COUNT(*), SUM((SELECT COUNT(*) FROM orders p WHERE p.seller = o.seller)) FROM orders o WHERE o.buyer = 'bx' AND o.amount IN (SELECT p.amount + 0 FROM orders p WHERE p.seller = o.seller AND p.amount < 99)"
	if got := readAll(t, e, q); got != "2500 2502" {
		t.Errorf("%s: %s, want 2500 2502", q, got)
	}
	text := explainText(t, e, "EXPLAIN ANALYZE "+q)
	for _, want := range []string{"CLIENT LOOKUP SEMI JOIN", "CLIENT LOOKUP SCALAR SUBQUERY PER GROUP", "BATCH  one read of the inner table per 100 outer values", "outer values 2500, reads 25 in", "<2500 outer values>"} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
}
