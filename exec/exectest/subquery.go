package exectest

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// SubqueryRunner runs one SELECT with subqueries and returns its rows:
// the engine, which answers subqueries before planning.
type SubqueryRunner func(ctx context.Context, q string) ([]catalog.Row, error)

// RunSubqueries is the differential suite of subqueries: the rows
// RunJoins loads, random [NOT] IN (SELECT …) of one column or two,
// [NOT] EXISTS and [NOT] IN correlated by equalities or not, and scalar
// subqueries, correlated or not, in the WHERE or the select list of a
// SELECT, each run's rows equal to
// ref.EvaluateSubqueries's nested loops and, where the query is
// sqlite's SQL too, to sqlite3's answer.
func RunSubqueries(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options, run SubqueryRunner) {
	o.Queries = cmp.Or(o.Queries, 100)
	kinds := runEngineQueries(t, st, cat, o, 31, "subquery", func(g *joinGen, i int) (string, string) { return g.subquery(i) },
		func(ctx context.Context, sources map[string]ref.Source, q string, db *SQLite, kinds map[string]int) error {
			return checkSubquery(ctx, run, sources, q, db, kinds)
		})
	if kinds == nil {
		return
	}
	t.Logf("%d subqueries, kinds %v", o.Queries, kinds)
	for _, k := range []string{"IN", "NOT IN", "EXISTS", "NOT EXISTS", "SCALAR", "ROW IN", "LOOKUP EXISTS", "LOOKUP NOT EXISTS",
		"CORRELATED IN", "CORRELATED NOT IN", "LOOKUP IN", "LOOKUP NOT IN", "CORRELATED SCALAR", "ITEM SCALAR", "LOOKUP SCALAR"} {
		if kinds[k] == 0 {
			t.Errorf("no %s subquery was run", k)
		}
	}
}

// runEngineQueries loads the rows RunJoins loads (the random source
// seeded with o.Seed and stream) and checks o.Queries queries that gen
// writes, each by check, counting their kinds; what names them in
// errors. It stops early, returning nil, after too many failures, and
// fails t when sqlite3 is at hand but compared none.
func runEngineQueries(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options, stream uint64, what string,
	gen func(g *joinGen, i int) (string, string),
	check func(ctx context.Context, sources map[string]ref.Source, q string, db *SQLite, kinds map[string]int) error) map[string]int {
	ctx := context.Background()
	o.Rows = cmp.Or(o.Rows, 300)
	o.Seed = diffSeed(o.Seed)
	x := &exec.Executor{Store: st}
	load := o.Load
	if load == nil {
		load = func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error {
			return x.Insert(ctx, t, rows, 0, nil)
		}
	}
	r := rand.New(rand.NewPCG(o.Seed, stream))
	orders, sources := loadJoinTables(t, x, cat, o, r, load)
	db := joinSQLite(t, sources)
	g := &joinGen{r: r, orders: orders, cat: cat}
	kinds := map[string]int{}
	for i := 0; i < o.Queries; i++ {
		q, kind := gen(g, i)
		if err := check(ctx, sources, q, db, kinds); err != nil {
			t.Errorf("%s %d: %s\n  %v", what, i, q, err)
			if i > 20 {
				return nil
			}
			continue
		}
		kinds[kind]++
	}
	if db != nil && kinds["SQLITE"] == 0 {
		t.Errorf("no %s was compared with sqlite", what)
	}
	return kinds
}

func checkSubquery(ctx context.Context, run SubqueryRunner, sources map[string]ref.Source, q string, db *SQLite, kinds map[string]int) error {
	s, err := parseSelect(q)
	if err != nil {
		return err
	}
	want, err := ref.EvaluateSubqueries(s, sources, time.Time{})
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
	if db == nil || strings.Contains(q, " LIMIT ") {
		return nil
	}
	if err := sameAsSQLite(db, q, got); err != nil {
		return err
	}
	kinds["SQLITE"]++
	return nil
}

// sameAsSQLite runs q (without ALLOW FULL SCAN) on db and compares its
// rows, in any order, with got, rkql's rows of q.
func sameAsSQLite(db *SQLite, q string, got []catalog.Row) error {
	rows, err := db.Query(strings.ReplaceAll(q, " ALLOW FULL SCAN", "") + ";")
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if len(rows) != len(got) {
		return fmt.Errorf("sqlite gives %d rows, rkql %d", len(rows), len(got))
	}
	var sq []catalog.Row
	for _, r := range rows {
		if len(got) == 0 || len(r) != len(got[0]) {
			return fmt.Errorf("sqlite gives %d columns", len(r))
		}
		row := make(catalog.Row, len(r))
		for i, v := range r {
			if row[i], err = fromSQL(v, got[0][i].Type); err != nil {
				return err
			}
		}
		sq = append(sq, row)
	}
	if err := ref.Compare(got, &ref.Result{Groups: [][]catalog.Row{sq}, Limit: -1}); err != nil {
		return fmt.Errorf("against sqlite: %w", err)
	}
	return nil
}

// subquery writes the i-th random SELECT with a subquery in its WHERE
// or its select list, and its kind: the shapes in turn, each with NOT
// and without in turn, so that 24 queries have them all.
func (g *joinGen) subquery(i int) (string, string) {
	pick := func(xs ...string) string { return xs[g.r.IntN(len(xs))] }
	not := (i/12)%2 == 1
	neg := map[bool]string{true: "NOT ", false: ""}[not]
	kind := ""
	var outer, cond, item string
	switch i % 12 {
	case 8: // correlated IN by a hash of the inner table, NULLs on both sides
		if g.r.IntN(2) == 0 {
			outer = "orders o"
			cond = fmt.Sprintf("o.amount %sIN (SELECT p.amount FROM orders p WHERE p.buyer = o.buyer AND %s ALLOW FULL SCAN)", neg, pick("p.status = "+g.lit("orders", "status"), "p.amount < "+g.lit("orders", "amount"), "p.seller <> "+g.lit("orders", "seller")))
		} else {
			outer = "sites s"
			cond = fmt.Sprintf("s.visits %sIN (SELECT t.visits FROM sites t WHERE t.owner = s.owner AND %s ALLOW FULL SCAN)", neg, pick("t.visits > "+g.lit("sites", "visits"), "t.domain LIKE 'www.%'", "(t.visits IS NULL OR t.visits < "+g.lit("sites", "visits")+")"))
		}
		kind = "CORRELATED " + neg + "IN"
	case 9: // correlated IN by the inner table's key, outer rows bound by an index: a lookup
		outer = "orders o"
		cond = fmt.Sprintf("o.buyer = %s AND o.amount %sIN (SELECT p.amount FROM orders p WHERE p.seller = o.seller%s)", g.lit("orders", "buyer"), neg, pick("", " AND p.status = "+g.lit("orders", "status")))
		kind = "LOOKUP " + neg + "IN"
	case 10: // a correlated scalar subquery in the WHERE
		outer = "orders o"
		cond = fmt.Sprintf("o.amount %s (SELECT %s(p.amount) FROM orders p WHERE p.seller = o.seller%s ALLOW FULL SCAN)", pick(">", "<", "=", ">="), pick("MAX", "MIN", "AVG"), pick("", " AND p.status = "+g.lit("orders", "status")))
		if not {
			cond = fmt.Sprintf("(SELECT COUNT(*) FROM sites s WHERE s.owner = o.buyer ALLOW FULL SCAN) %s %d", pick(">", "=", "<"), g.r.IntN(3))
		}
		kind = "CORRELATED SCALAR"
	case 11: // a correlated scalar subquery in the select list
		outer = "orders o"
		cond = "o.amount > " + g.lit("orders", "amount")
		item = pick(
			"(SELECT COUNT(*) FROM sites s WHERE s.owner = o.buyer ALLOW FULL SCAN)",
			"(SELECT SUM(s.visits) FROM sites s WHERE s.owner = o.buyer AND s.visits > "+g.lit("sites", "visits")+" ALLOW FULL SCAN)",
			"(SELECT MAX(p.amount) FROM orders p WHERE p.buyer = o.buyer ALLOW FULL SCAN)",
			"(SELECT COUNT(p.amount) + 1 FROM orders p WHERE p.seller = o.seller AND p.buyer = o.buyer ALLOW FULL SCAN)",
			"(SELECT p.status FROM orders p WHERE p.seller = o.seller AND p.ts = o.ts AND p.order_id = o.order_id ALLOW FULL SCAN)")
		kind = "ITEM SCALAR"
		if not { // bound outer rows and the inner table's key: a lookup
			cond = "o.buyer = " + g.lit("orders", "buyer")
			item = pick("(SELECT MAX(p.amount) FROM orders p WHERE p.seller = o.seller)", "(SELECT COUNT(*) FROM orders p WHERE p.seller = o.seller AND p.status = 'paid')")
			kind = "LOOKUP SCALAR"
		}
	case 7: // correlated EXISTS by the inner table's index key, outer rows bound by theirs: a lookup
		outer = "orders o"
		inner := ""
		if g.r.IntN(2) == 0 {
			inner = " AND s.visits > " + g.lit("sites", "visits")
		}
		cond = fmt.Sprintf("o.seller = %s AND %sEXISTS (SELECT 1 FROM sites s WHERE s.owner = o.buyer%s)", g.lit("orders", "seller"), neg, inner)
		kind = "LOOKUP " + neg + "EXISTS"
	case 0: // sellers that own a site: orders by its key
		outer = "orders o"
		inner := pick("s.visits > "+g.lit("sites", "visits"), "s.domain LIKE 'www.%'", "s.owner IS NULL", "s.visits < "+g.lit("sites", "visits"))
		cond = fmt.Sprintf("o.%s %sIN (SELECT s.owner FROM sites s WHERE %s ALLOW FULL SCAN)", pick("seller", "buyer"), neg, inner)
		kind = neg + "IN"
	case 1: // sites whose owner bought: an index's key list
		outer = "sites s"
		cond = fmt.Sprintf("s.owner %sIN (SELECT buyer FROM orders_by_buyer WHERE %s ALLOW FULL SCAN)", neg, pick("status = "+g.lit("orders", "status"), "amount > "+g.lit("orders", "amount"), "buyer = "+g.lit("orders", "buyer")))
		kind = neg + "IN"
	case 2: // a row value
		outer = "orders o"
		cond = fmt.Sprintf("(o.seller, o.order_id) %sIN (SELECT b.seller, b.order_id FROM orders_by_buyer b WHERE %s ALLOW FULL SCAN)", neg, pick("b.buyer = "+g.lit("orders", "buyer"), "b.status = "+g.lit("orders", "status"), "b.amount < "+g.lit("orders", "amount")))
		kind = "ROW IN"
	case 3: // correlated EXISTS by a hash of the inner table
		outer = "orders o"
		cond = fmt.Sprintf("%sEXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.order_id AND %s ALLOW FULL SCAN)", neg, pick("e.event = 'paid'", "e.user_id < 50", "e.ts IS NULL", "e.event <> 'refunded'"))
		kind = neg + "EXISTS"
	case 4: // correlated EXISTS by the inner table's index key
		outer = "orders o"
		cond = fmt.Sprintf("%sEXISTS (SELECT 1 FROM sites s WHERE o.buyer = s.owner AND s.visits > %s ALLOW FULL SCAN)", neg, g.lit("sites", "visits"))
		kind = neg + "EXISTS"
	case 5: // uncorrelated EXISTS
		outer = "sites s"
		cond = fmt.Sprintf("%sEXISTS (SELECT order_id FROM orders WHERE seller = %s AND status = %s)", neg, g.lit("orders", "seller"), g.lit("orders", "status"))
		kind = neg + "EXISTS"
	default: // a scalar subquery
		outer = "orders o"
		cond = fmt.Sprintf("o.amount %s (SELECT %s(amount) FROM orders WHERE seller = %s)", pick(">", "<", "="), pick("MAX", "MIN", "AVG"), g.lit("orders", "seller"))
		kind = "SCALAR"
	}
	var extra []string
	if g.r.IntN(3) == 0 {
		if outer == "orders o" {
			extra = append(extra, pick("o.status = "+g.lit("orders", "status"), "o.seller = "+g.lit("orders", "seller"), "o.amount < "+g.lit("orders", "amount")))
		} else {
			extra = append(extra, pick("s.visits > "+g.lit("sites", "visits"), "s.owner IS NULL"))
		}
	}
	op := pick(" AND ", " AND ", " OR ")
	if strings.HasPrefix(kind, "LOOKUP") {
		op = " AND "
	}
	where := strings.Join(append([]string{cond}, extra...), op)
	cols := "o.order_id, o.seller, o.amount"
	if outer == "sites s" {
		cols = "s.domain, s.owner, s.visits"
	}
	if item != "" {
		return fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s ALLOW FULL SCAN", cols, item, outer, where), kind
	}
	if g.r.IntN(6) == 0 {
		return fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE %s ALLOW FULL SCAN", outer, where), kind
	}
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s ALLOW FULL SCAN", cols, outer, where), kind
}
