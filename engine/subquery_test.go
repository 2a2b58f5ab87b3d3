package engine_test

import (
	"context"
	"errors"
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
		{"SELECT order_id FROM orders o WHERE seller IN (SELECT owner FROM sites s WHERE s.visits = o.order_id ALLOW FULL SCAN) ALLOW FULL SCAN", "the subquery reads o.order_id of the outer query"},
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
