package engine_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/parser"
)

// TestDerivedResults runs derived tables in FROM and JOIN over the
// subquery tables: five sites, and the orders of three sellers.
func TestDerivedResults(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	const perSeller = "(SELECT seller, COUNT(*) AS n FROM orders GROUP BY seller)"
	for _, c := range []struct{ q, want string }{
		{"SELECT seller, n FROM " + perSeller + " AS d ORDER BY seller ALLOW FULL SCAN", "s1 2; s2 1; s3 1"},
		{"SELECT d.seller FROM " + perSeller + " d WHERE n > 1 ALLOW FULL SCAN", "s1"},
		{"SELECT n, COUNT(*) AS sellers FROM " + perSeller + " d GROUP BY n ORDER BY n ALLOW FULL SCAN", "1 2; 2 1"},
		{"SELECT COUNT(*) FROM " + perSeller + " d ALLOW FULL SCAN", "3"},
		{"SELECT status, SUM(amount) AS total FROM (SELECT status, amount FROM orders WHERE seller IN ('s1', 's2')) d GROUP BY status ORDER BY total DESC", "paid 7.5; new 7"},
		{"SELECT order_id FROM (SELECT order_id FROM orders WHERE seller = 's1') AS d ORDER BY order_id DESC LIMIT 1", "2"},
		{"SELECT order_id FROM (SELECT order_id FROM orders WHERE seller = 's1' ORDER BY order_id) AS d LIMIT 1 OFFSET 1", "2"},
		{"SELECT COUNT(*) FROM (SELECT order_id FROM orders LIMIT 2) d", "2"},
		{"SELECT x FROM (SELECT id AS x FROM (SELECT order_id AS id FROM orders WHERE seller = 's1') a) b ORDER BY x", "1; 2"},
		{"SELECT d.* FROM (SELECT domain, visits FROM sites WHERE domain = 'a.com') d", "a.com 10"},
		{"SELECT * FROM (SELECT * FROM sites WHERE domain = 'b.com') d", "b.com s2 20"},
		{"SELECT DISTINCT buyer FROM (SELECT buyer FROM orders WHERE seller IN ('s1', 's2')) d ORDER BY buyer", "b1; b2"},
		{"SELECT total FROM (SELECT amount * 2 AS total FROM orders WHERE seller = 's2') d", "3"},
		{"SELECT count FROM (SELECT COUNT(*) FROM orders WHERE seller = 's1') d", "2"},
		{"SELECT d.visits + 1 AS v FROM (SELECT visits FROM sites WHERE domain IN ('a.com', 'c.com')) d WHERE d.visits > 10", "31"},
		// Derived tables in JOIN: a hash join, whatever binds them.
		{"SELECT o.order_id, c.n FROM orders o JOIN " + perSeller + " c ON c.seller = o.seller ORDER BY o.order_id ALLOW FULL SCAN", "1 2; 2 2; 3 1; 4 1"},
		{"SELECT d.owner, c.n FROM (SELECT owner FROM sites WHERE owner IS NOT NULL) d LEFT JOIN " + perSeller + " c ON c.seller = d.owner ORDER BY d.owner, c.n ALLOW FULL SCAN", "nobody NULL; s1 2; s1 2; s2 1"},
		{"SELECT a.seller, b.buyer FROM (SELECT seller FROM orders WHERE seller = 's2') a JOIN (SELECT seller AS s, buyer FROM orders WHERE seller IN ('s2', 's3')) b ON b.s = a.seller", "s2 b1"},
		// A derived table first, then a catalog table read by its key.
		{"SELECT d.order_id, o.amount FROM (SELECT seller, ts, order_id FROM orders WHERE seller = 's1') d JOIN orders o ON o.seller = d.seller AND o.ts = d.ts AND o.order_id = d.order_id ORDER BY d.order_id", "1 5.5; 2 7.5"},
		// Subqueries inside a derived table, around it, and over it.
		{"SELECT order_id FROM (SELECT order_id FROM orders WHERE seller IN (SELECT owner FROM sites WHERE visits < 25 ALLOW FULL SCAN)) d ORDER BY order_id", "1; 2; 3"},
		{"SELECT seller FROM " + perSeller + " d WHERE seller IN (SELECT owner FROM sites WHERE visits > 15 ALLOW FULL SCAN) ORDER BY seller ALLOW FULL SCAN", "s1; s2"},
		{"SELECT order_id FROM orders WHERE seller IN (SELECT seller FROM " + perSeller + " d WHERE n = 1 ALLOW FULL SCAN) ORDER BY order_id", "3; 4"},
		{"SELECT seller FROM (SELECT seller FROM orders WHERE seller IN ('s1', 's2', 's3')) d WHERE EXISTS (SELECT 1 FROM sites s WHERE s.owner = d.seller ALLOW FULL SCAN) ORDER BY seller", "s1; s1; s2"},
		{"SELECT seller FROM (SELECT seller FROM orders WHERE seller IN ('s1', 's2', 's3')) d WHERE EXISTS (SELECT 1 FROM sites s WHERE s.owner = d.seller) ORDER BY seller", "s1; s1; s2"},
		{"SELECT order_id FROM (SELECT order_id, seller FROM orders WHERE seller IN ('s1', 's2', 's3')) d WHERE d.order_id IN (SELECT visits / 10 FROM sites s WHERE s.owner = d.seller ALLOW FULL SCAN) ORDER BY order_id", "1"},
		{"SELECT x FROM (SELECT o.order_id AS x FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.seller = o.seller ALLOW FULL SCAN) AND o.seller IN ('s1', 's2')) d", "2"},
		{"SELECT domain FROM sites WHERE EXISTS (SELECT 1 FROM " + perSeller + " d WHERE d.seller = sites.owner AND n > 1 ALLOW FULL SCAN) ORDER BY domain ALLOW FULL SCAN", "a.com; c.com"},
	} {
		if got := readAll(t, e, c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// TestDerivedErrors: each mistake is refused at the place it is made.
func TestDerivedErrors(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	for _, c := range []struct{ q, at, want string }{
		{"SELECT nope FROM (SELECT seller FROM orders) d ALLOW FULL SCAN", "nope FROM", `column "nope" does not exist in table d (columns: seller)`},
		{"SELECT seller FROM (SELECT seller FROM orders) d WHERE d.nope = 1 ALLOW FULL SCAN", "d.nope", `column "nope" does not exist in table d`},
		{"SELECT x.seller FROM (SELECT seller FROM orders) d ALLOW FULL SCAN", "x.seller", "unknown table or alias x in x.seller"},
		{"SELECT * FROM (SELECT seller, buyer AS seller FROM orders) d ALLOW FULL SCAN", "(SELECT seller, buyer", "derived table d has two columns named seller"},
		{"SELECT * FROM (SELECT o.order_id, p.order_id FROM orders o JOIN orders p ON p.seller = o.seller) d ALLOW FULL SCAN", "(SELECT o.order_id", "derived table d has two columns named order_id"},
		{"SELECT * FROM (SELECT amount + 1 FROM orders) d ALLOW FULL SCAN", "amount + 1", "column amount + 1 of derived table d has no name: give it an alias"},
		{"SELECT * FROM orders o JOIN (SELECT domain FROM sites WHERE sites.owner = o.seller) s ON s.domain = o.buyer ALLOW FULL SCAN", "o.seller)", "derived table s reads o.seller, but its SELECT reads no table o: a derived table cannot refer to the query around it"},
		{"SELECT order_id FROM orders o WHERE EXISTS (SELECT 1 FROM (SELECT domain FROM sites s WHERE s.owner = o.seller) d) ALLOW FULL SCAN", "o.seller)", "derived table d reads o.seller"},
		{"SELECT _ts FROM (SELECT seller FROM orders) d ALLOW FULL SCAN", "_ts FROM", "derived table d has no _ts"},
		{"SELECT * FROM (SELECT seller FROM orders) d USE INDEX (orders_by_buyer) ALLOW FULL SCAN", "USE INDEX", "an index hint does not apply to a derived table"},
		{"SELECT * FROM (SELECT seller FROM orders) d", "orders)", "query on orders would read the whole table"},
		{"SELECT * FROM (SELECT seller FROM nosuch) d", "nosuch", `table "nosuch" does not exist`},
		{"SELECT seller, nope FROM (SELECT * FROM orders) d ALLOW FULL SCAN", "nope", `column "nope" does not exist in table d (columns: seller, buyer, order_id, ts, amount, status)`},
	} {
		st, err := parser.ParseOne(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		_, err = e.Run(context.Background(), st)
		var perr *parser.Error
		if !errors.As(err, &perr) {
			t.Errorf("%s: error %v, want a *parser.Error", c.q, err)
			continue
		}
		if !strings.Contains(perr.Msg, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.q, perr.Msg, c.want)
		}
		if want := strings.Index(c.q, c.at); int(perr.Pos) != want {
			t.Errorf("%s: error at %d, want %d (%q): %s", c.q, perr.Pos, want, c.at, perr.Msg)
		}
	}
}

// TestDerivedPushdown: a condition of the WHERE on a derived table's
// columns is tested in its SELECT when that is exact, where it binds the
// key; never past a GROUP BY or a LIMIT, which it would change.
func TestDerivedPushdown(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	for _, c := range []struct{ q, want, plan, not string }{
		{"SELECT order_id FROM (SELECT * FROM orders) d WHERE d.seller = 's1' AND amount > 6", "2",
			"DERIVED TABLE d: RANGE SCAN OVER orders", "CLIENT FILTER BY"},
		// Of its *, the SELECT reads only the columns used around it
		// (the conditions moved into it are its own).
		{"SELECT order_id FROM (SELECT * FROM orders) d WHERE d.seller = 's1' AND amount > 6", "2",
			"CLIENT DERIVED TABLE d (order_id)", "status"},
		{"SELECT COUNT(*) FROM (SELECT * FROM orders WHERE seller = 's1') d", "2",
			"CLIENT DERIVED TABLE d (seller)", "status"},
		{"SELECT * FROM (SELECT * FROM orders WHERE seller = 's2') d", "s2 b1 3 1970-01-01 00:00:03.000 1.5 new",
			"CLIENT DERIVED TABLE d (seller, buyer, order_id, ts, amount, status)", ""},
		{"SELECT id FROM (SELECT order_id AS id, seller AS s FROM orders) d WHERE s = 's2'", "3",
			"QUERY  SELECT order_id AS id, seller AS s FROM orders WHERE seller = 's2'", "FULL SCAN"},
		{"SELECT order_id FROM (SELECT order_id, amount FROM orders WHERE seller = 's1' ORDER BY amount LIMIT 1) d WHERE amount > 6", "",
			"CLIENT FILTER BY amount > 6", ""},
		{"SELECT seller FROM (SELECT seller, COUNT(*) AS n FROM orders GROUP BY seller) d WHERE seller = 's1' ALLOW FULL SCAN", "s1",
			"CLIENT FILTER BY seller = 's1'", ""},
		{"SELECT s.domain, o.order_id FROM sites s JOIN (SELECT seller, order_id FROM orders) o ON o.seller = s.owner WHERE o.seller = 's2' ALLOW FULL SCAN", "b.com 3",
			"DERIVED TABLE o: RANGE SCAN OVER orders", ""},
	} {
		if got := readAll(t, e, c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
		text, err := explain(t, e, "EXPLAIN "+c.q)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, c.plan) || c.not != "" && strings.Contains(text, c.not) {
			t.Errorf("EXPLAIN %s: want %q, not %q:\n%s", c.q, c.plan, c.not, text)
		}
	}
}

var derivedRows = regexp.MustCompile(`ANALYZE rows of d (\d+)`)

// TestDerivedExplain: EXPLAIN shows the derived table's own plan under
// its CLIENT node, and ANALYZE the rows it yielded.
func TestDerivedExplain(t *testing.T) {
	e := subqueryEngine(t, engine.Config{})
	q := "SELECT d.seller FROM (SELECT seller, COUNT(*) AS n FROM orders GROUP BY seller) d WHERE n > 1 ALLOW FULL SCAN"
	text, err := explain(t, e, "EXPLAIN "+q)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DERIVED TABLE d: FULL SCAN OVER orders", "CLIENT DERIVED TABLE d (seller, n)", "COLUMNS seller STRING, n BIGINT", "CLIENT FILTER BY n > 1", "COST   d: "} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "ANALYZE") {
		t.Errorf("EXPLAIN without ANALYZE shows figures:\n%s", text)
	}
	text, err = explain(t, e, "EXPLAIN ANALYZE "+q)
	if err != nil {
		t.Fatal(err)
	}
	m := derivedRows.FindStringSubmatch(text)
	if m == nil || m[1] != "3" {
		t.Errorf("EXPLAIN ANALYZE does not count the 3 rows of d:\n%s", text)
	}
	if !strings.Contains(text, "rows returned 1,") {
		t.Errorf("EXPLAIN ANALYZE does not return 1 row:\n%s", text)
	}
	// A correlated EXISTS over its rows reads the subquery's table by its
	// index, for the values the derived table yields.
	text, err = explain(t, e, "EXPLAIN SELECT seller FROM (SELECT seller FROM orders WHERE seller IN ('s1', 's2', 's3')) d WHERE EXISTS (SELECT 1 FROM sites s WHERE s.owner = d.seller)")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "CLIENT LOOKUP SEMI JOIN") {
		t.Errorf("EXPLAIN of EXISTS over a derived table:\n%s", text)
	}
	// A derived table is never read by key; a catalog table joined to it
	// is.
	text, err = explain(t, e, "EXPLAIN SELECT d.order_id, o.amount FROM (SELECT seller, ts, order_id FROM orders WHERE seller = 's1') d JOIN orders o ON o.seller = d.seller AND o.ts = d.ts AND o.order_id = d.order_id")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "CLIENT LOOKUP JOIN orders AS o") || !strings.Contains(text, "DERIVED TABLE d: RANGE SCAN OVER orders") {
		t.Errorf("EXPLAIN of a lookup join after a derived table:\n%s", text)
	}
	text, err = explain(t, e, "EXPLAIN ANALYZE SELECT o.order_id FROM orders o JOIN (SELECT seller, ts, order_id FROM orders) d ON o.seller = d.seller AND o.ts = d.ts AND o.order_id = d.order_id WHERE o.seller = 's1' ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "CLIENT HASH JOIN d") || strings.Contains(text, "LOOKUP JOIN") || !strings.Contains(text, "d is a derived table, which has no rowkey") {
		t.Errorf("EXPLAIN of a join to a derived table:\n%s", text)
	}
	if m := derivedRows.FindStringSubmatch(text); m == nil || m[1] != "4" {
		t.Errorf("EXPLAIN ANALYZE of the join does not count the 4 rows of d:\n%s", text)
	}
}
