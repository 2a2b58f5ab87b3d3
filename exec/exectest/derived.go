package exectest

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// RunDerived is the differential suite of derived tables: the rows
// RunJoins loads, random SELECTs FROM (SELECT …) AS d (filtered,
// grouped, nested, with subqueries inside) and JOINs of derived tables
// (hash joins to them, LEFT JOINs, a derived table joined to a table
// by its key), each run's rows equal to the reference's (each derived
// table answered on its own by nested loops, then the query around it;
// a condition on a derived table's column, which the planner may move
// into its SELECT, is tested after it)
// and, where the query is sqlite's SQL too, to sqlite3's answer. run is
// the engine, which answers subqueries first.
func RunDerived(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options, run SubqueryRunner) {
	o.Queries = cmp.Or(o.Queries, 80)
	kinds := runEngineQueries(t, st, cat, o, 37, "derived table query", func(g *joinGen, i int) (string, string) { return g.derived(i) },
		func(ctx context.Context, sources map[string]ref.Source, q string, db *SQLite, kinds map[string]int) error {
			return checkDerived(ctx, run, sources, q, db, kinds)
		})
	if kinds == nil {
		return
	}
	t.Logf("%d derived table queries, kinds %v", o.Queries, kinds)
	for _, k := range []string{"FILTER", "GROUPED", "OUTER AGGREGATE", "HASH JOIN", "LEFT JOIN", "LOOKUP AFTER", "NESTED", "SUBQUERY INSIDE", "PUSHED", "NOT PUSHED"} {
		if kinds[k] == 0 {
			t.Errorf("no %s derived table query was run", k)
		}
	}
	if kinds["ROWS"] < o.Queries/3 {
		t.Errorf("only %d of %d derived table queries returned rows", kinds["ROWS"], o.Queries)
	}
}

// checkDerived compares the rows of q, run, with the reference's and
// sqlite's.
func checkDerived(ctx context.Context, run SubqueryRunner, sources map[string]ref.Source, q string, db *SQLite, kinds map[string]int) error {
	s, err := parseSelect(q)
	if err != nil {
		return err
	}
	var want *ref.Result
	if len(s.Joins) > 0 {
		want, err = ref.EvaluateJoin(s, sources, time.Time{})
	} else {
		want, err = ref.EvaluateSubqueries(s, sources, time.Time{})
	}
	if err != nil {
		return err
	}
	got, err := run(ctx, q)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if err := ref.Compare(got, want); err != nil {
		return err
	}
	if len(got) > 0 {
		kinds["ROWS"]++
	}
	if db == nil || strings.Contains(q, " LIMIT ") {
		return nil
	}
	if err := sameAsSQLite(db, q, got); err != nil {
		return err
	}
	kinds["SQLITE"]++
	return nil
}

// derived writes the i-th random SELECT over a derived table, and its
// kind: the shapes in turn, so that 10 queries have them all. The
// last two test the conditions moved into a derived table's SELECT: one
// that binds its key, which it then needs to read by, and one past a
// LIMIT, where moving it would change the answer.
func (g *joinGen) derived(i int) (string, string) {
	pick := func(xs ...string) string { return xs[g.r.IntN(len(xs))] }
	maybe := func(s string) string {
		if g.r.IntN(2) == 0 {
			return s
		}
		return ""
	}
	order := func(cols ...string) string {
		if g.r.IntN(3) != 0 {
			return ""
		}
		s := " ORDER BY " + pick(cols...) + pick("", " DESC")
		if g.r.IntN(2) == 0 {
			s += fmt.Sprintf(" LIMIT %d", 1+g.r.IntN(20))
		}
		return s
	}
	switch i % 10 {
	case 8:
		return fmt.Sprintf("SELECT d.order_id, d.amount FROM (SELECT %s FROM orders) d WHERE d.seller = %s AND %s",
			pick("order_id, seller, amount, status", "*"), g.lit("orders", "seller"), pick("d.amount > "+g.lit("orders", "amount"), "d.status IS NOT NULL", "d.order_id < "+g.lit("orders", "order_id"))), "PUSHED"
	case 9:
		return fmt.Sprintf("SELECT d.order_id, d.amount FROM (SELECT order_id, amount FROM orders WHERE seller = %s ORDER BY order_id LIMIT %d) d WHERE d.amount > %s",
			g.lit("orders", "seller"), 1+g.r.IntN(4), g.lit("orders", "amount")), "NOT PUSHED"
	case 0:
		inner := pick("status = "+g.lit("orders", "status"), "amount > "+g.lit("orders", "amount"), "seller = "+g.lit("orders", "seller"), "buyer IS NOT NULL")
		outer := pick("d.amount < "+g.lit("orders", "amount"), "d.buyer = "+g.lit("orders", "buyer"), "d.status IS NULL", "d.seller <> "+g.lit("orders", "seller"))
		return fmt.Sprintf("SELECT d.seller, d.buyer, d.amount FROM (SELECT seller, buyer, amount, status FROM orders WHERE %s ALLOW FULL SCAN) AS d WHERE %s%s ALLOW FULL SCAN",
			inner, outer, order("d.seller", "d.amount", "d.buyer")), "FILTER"
	case 1:
		key := pick("seller", "buyer", "status")
		where := maybe(" WHERE amount > " + g.lit("orders", "amount"))
		return fmt.Sprintf("SELECT d.k, d.n, d.ids FROM (SELECT %s AS k, COUNT(*) AS n, SUM(order_id) AS ids, MAX(amount) AS top FROM orders%s GROUP BY %s) d WHERE d.n %s %d%s ALLOW FULL SCAN",
			key, where, key, pick(">", ">=", "<"), 1+g.r.IntN(3), order("d.k", "d.n", "d.ids")), "GROUPED"
	case 2:
		return fmt.Sprintf("SELECT d.status, COUNT(*) AS n, MAX(d.amount) AS m, MIN(d.order_id) AS first FROM (SELECT status, amount, order_id FROM orders WHERE seller IN (%s, %s)) d GROUP BY d.status%s ALLOW FULL SCAN",
			g.lit("orders", "seller"), g.lit("orders", "seller"), maybe(" HAVING COUNT(*) > 1")), "OUTER AGGREGATE"
	case 3:
		inner := pick("SELECT seller, COUNT(*) AS n FROM orders GROUP BY seller", "SELECT seller, MAX(amount) AS n FROM orders WHERE status IS NOT NULL GROUP BY seller")
		return fmt.Sprintf("SELECT o.order_id, o.seller, c.n FROM orders o JOIN (%s) c ON c.seller = o.seller WHERE %s ALLOW FULL SCAN",
			inner, pick("o.buyer = "+g.lit("orders", "buyer"), "o.seller = "+g.lit("orders", "seller"), "c.n > 1", "o.amount > "+g.lit("orders", "amount"))), "HASH JOIN"
	case 4:
		return fmt.Sprintf("SELECT s.domain, b.n, b.spent FROM sites s LEFT JOIN (SELECT buyer, COUNT(*) AS n, MAX(amount) AS spent FROM orders_by_buyer%s GROUP BY buyer) b ON b.buyer = s.owner%s ALLOW FULL SCAN",
			maybe(" WHERE status = "+g.lit("orders", "status")), maybe(" WHERE s.visits > "+g.lit("sites", "visits"))), "LEFT JOIN"
	case 5:
		return fmt.Sprintf("SELECT d.order_id, o.amount, o.status FROM (SELECT seller, ts, order_id FROM orders_by_buyer WHERE buyer %s) d JOIN orders o ON o.seller = d.seller AND o.ts = d.ts AND o.order_id = d.order_id%s ALLOW FULL SCAN",
			pick("= "+g.lit("orders", "buyer"), "IN ("+g.lit("orders", "buyer")+", "+g.lit("orders", "buyer")+")"), maybe(" WHERE o.amount > "+g.lit("orders", "amount"))), "LOOKUP AFTER"
	case 6:
		return fmt.Sprintf("SELECT %sx FROM (SELECT b AS x, a FROM (SELECT buyer AS b, amount AS a FROM orders WHERE amount > %s ALLOW FULL SCAN) i WHERE i.b IS NOT NULL) d%s",
			pick("DISTINCT ", ""), g.lit("orders", "amount"), maybe(" WHERE d.a < "+g.lit("orders", "amount"))), "NESTED"
	default:
		return fmt.Sprintf("SELECT d.order_id, d.seller FROM (SELECT order_id, seller FROM orders WHERE buyer %sIN (SELECT owner FROM sites WHERE visits > %s ALLOW FULL SCAN) ALLOW FULL SCAN) d%s",
			pick("", "NOT "), g.lit("sites", "visits"), maybe(" WHERE d.order_id > "+g.lit("orders", "order_id"))), "SUBQUERY INSIDE"
	}
}
