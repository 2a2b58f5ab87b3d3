package exectest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/planner"
)

// JoinTables are the example tables RunJoins loads: orders with its two
// index tables (seed 000's three tables), sites with its index, and
// order_events, whose random key suffix leaves only hash joins.
var JoinTables = []string{"orders", "sites", "order_events"}

// RunJoins is the differential suite of joins: rows of orders, sites and
// order_events whose join columns share values (a site's owner is a
// buyer, an event's order an order), random joins over them and the
// index tables (inner and LEFT, by the whole key, a key prefix, an index
// key or none, chains of three, with WHERE, ON conditions beyond the
// equalities, GROUP BY, ORDER BY and LIMIT), each planned result with
// pushdown on and off equal to ref.EvaluateJoin's nested loops over
// every row of each table as ScanAll reads it, and, for the queries that
// are sqlite's SQL too, to sqlite3's answer over the same rows. o.Load
// writes rows; nil means exec.Executor.Insert.
func RunJoins(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options) {
	ctx := context.Background()
	o.Rows = cmp.Or(o.Rows, 400)
	o.Queries = cmp.Or(o.Queries, 300)
	o.Seed = diffSeed(o.Seed)
	x := &exec.Executor{Store: st}
	load := o.Load
	if load == nil {
		load = func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error {
			return x.Insert(ctx, t, rows, 0, nil)
		}
	}
	r := rand.New(rand.NewPCG(o.Seed, 29))
	orders, sources := loadJoinTables(t, x, cat, o, r, load)
	pl := planner.New(cat, o.Planner)
	db := joinSQLite(t, sources)
	g := &joinGen{r: r, orders: orders, cat: cat}
	kinds := map[string]int{}
	for i := 0; i < o.Queries; i++ {
		q := g.query()
		if err := checkJoin(ctx, x, pl, sources, q, kinds, db); err != nil {
			t.Errorf("join query %d: %s\n  %v", i, q, err)
			if i > 20 {
				return
			}
		}
	}
	t.Logf("%d join queries, plans %v", o.Queries, kinds)
	if db != nil && kinds["SQLITE"] == 0 {
		t.Error("no join query was compared with sqlite")
	}
	for _, k := range []string{"LOOKUP", "HASH", "LEFT"} {
		if kinds[k] == 0 {
			t.Errorf("no join query was planned as %s", k)
		}
	}
}

// loadJoinTables writes the rows of JoinTables, whose join columns share
// values, and returns the orders and every table's rows as ScanAll reads
// them, its index tables' included.
func loadJoinTables(t *testing.T, x *exec.Executor, cat *catalog.Catalog, o Options, r *rand.Rand, load func(context.Context, *catalog.Table, []catalog.Row) error) ([]catalog.Row, map[string]ref.Source) {
	ctx := context.Background()
	st := x.Store
	tables := map[string]*catalog.Table{}
	for _, n := range JoinTables {
		tb, ok := cat.Table(n)
		if !ok {
			t.Fatalf("no table %s", n)
		}
		tables[n] = tb
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	orders := examples.Rows(tables["orders"], o.Rows, o.Seed)
	col := func(tb *catalog.Table, name string) int {
		i, ok := tb.Column(name)
		if !ok {
			t.Fatalf("no column %s in %s", name, tb.Name)
		}
		return i
	}
	pick := func(c int) catalog.Value { return orders[r.IntN(len(orders))][c] }
	sites := examples.Rows(tables["sites"], o.Rows/2, o.Seed)
	for _, s := range sites {
		if !s[col(tables["sites"], "owner")].Null {
			s[col(tables["sites"], "owner")] = pick(col(tables["orders"], "buyer"))
		}
	}
	events := examples.Rows(tables["order_events"], o.Rows, o.Seed)
	for _, e := range events {
		e[col(tables["order_events"], "order_id")] = pick(col(tables["orders"], "order_id"))
	}
	for n, rows := range map[string][]catalog.Row{"orders": orders, "sites": sites, "order_events": events} {
		if err := load(ctx, tables[n], rows); err != nil {
			t.Fatal(err)
		}
	}
	sources := map[string]ref.Source{}
	for _, n := range JoinTables {
		all, err := ScanAll(ctx, st, tables[n])
		if err != nil {
			t.Fatal(err)
		}
		sources[n] = ref.Source{Table: tables[n], Rows: all}
		// An index table holds its data table's rows, in its own
		// columns, but those that leave a field of its key NULL: the
		// reference takes them from the data rows.
		for _, ix := range tables[n].Indexes {
			var rows []catalog.Row
		rows:
			for _, dr := range all {
				row := make(catalog.Row, len(ix.Table.Columns)+1)
				for i, c := range ix.Table.Columns {
					row[i] = dr[col(tables[n], c.Name)]
					if c.KeyField && row[i].Null {
						continue rows // a row with no key of the index has no entry
					}
				}
				row[len(ix.Table.Columns)] = catalog.Null(catalog.TypeTimestamp)
				rows = append(rows, row)
			}
			sources[ix.Table.Name] = ref.Source{Table: ix.Table, Rows: rows}
		}
	}
	return orders, sources
}

// checkJoin runs q planned, with pushdown on and off, and compares each
// result with the reference.
func checkJoin(ctx context.Context, x *exec.Executor, pl *planner.Planner, sources map[string]ref.Source, q string, kinds map[string]int, db *SQLite) error {
	s, err := parseSelect(q)
	if err != nil {
		return err
	}
	want, err := ref.EvaluateJoin(s, sources, time.Time{})
	if err != nil {
		return err
	}
	for _, on := range []bool{true, false} {
		sel, err := Plan(pl, q)
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		if on {
			if j, ok := planner.Find[*planner.Join](sel.Root); ok {
				for _, st := range j.Steps {
					kinds[[...]string{"LOOKUP", "HASH"}[st.Kind]]++
					if st.Outer {
						kinds["LEFT"]++
					}
					if st.Right.IndexLookup() != nil {
						kinds["INDEX"]++
					}
				}
			}
		}
		p, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{NoPushdown: !on})
		if err != nil {
			return fmt.Errorf("place: %w", err)
		}
		got, err := DrainPlaced(ctx, x, p, nil)
		if err != nil {
			return fmt.Errorf("run (pushdown %v): %w", on, err)
		}
		if err := ref.Compare(got, want); err != nil {
			return fmt.Errorf("pushdown %v: %w\n%s", on, err, p.Explain(planner.ExplainEnv{}, nil).Text())
		}
		if on && db != nil {
			if err := sqliteJoin(db, q, sel, got, kinds); err != nil {
				return err
			}
		}
	}
	return nil
}

// joinSQLite loads every table of sources into sqlite3, or returns nil
// when there is none (which fails under CI or RKQL_REQUIRE_HBASE=1).
func joinSQLite(t *testing.T, sources map[string]ref.Source) *SQLite {
	db, err := OpenSQLite()
	if errors.Is(err, ErrNoSQLite) && os.Getenv("CI") == "" && os.Getenv("RKQL_REQUIRE_HBASE") != "1" {
		t.Logf("no sqlite oracle: %v", err)
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, src := range sources {
		ins, err := insertSQL(src.Table, src.Rows)
		if err == nil {
			err = db.Exec(createSQL(src.Table) + "\n" + ins)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// sqliteJoin compares got, the rows of q, with sqlite's answer to it, as
// a multiset. The queries RunJoins writes are sqlite's SQL but for ALLOW
// FULL SCAN; those with SELECT * (whose columns sqlite also gives each
// table's _ts) or LIMIT (whose ties the orders may break apart) are left
// out.
func sqliteJoin(db *SQLite, q string, sel *planner.Select, got []catalog.Row, kinds map[string]int) error {
	if strings.Contains(q, "SELECT *") || strings.Contains(q, " LIMIT ") {
		return nil
	}
	rows, err := db.Query(strings.TrimSuffix(q, " ALLOW FULL SCAN") + ";")
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	var want []catalog.Row
	for _, r := range rows {
		if len(r) != len(sel.Output) {
			return fmt.Errorf("sqlite gives %d columns, rkql %d", len(r), len(sel.Output))
		}
		row := make(catalog.Row, len(r))
		for i, v := range r {
			if row[i], err = fromSQL(v, sel.Output[i].Type); err != nil {
				return err
			}
		}
		want = append(want, row)
	}
	kinds["SQLITE"]++
	if err := ref.Compare(got, &ref.Result{Groups: [][]catalog.Row{want}, Limit: -1}); err != nil {
		return fmt.Errorf("against sqlite: %w", err)
	}
	return nil
}

// joinGen writes random joins over the tables RunJoins loads.
type joinGen struct {
	r      *rand.Rand
	orders []catalog.Row
	cat    *catalog.Catalog
}

// joinShape is a FROM clause and the conditions and columns that suit
// it.
type joinShape struct {
	from  string
	conds []string // WHERE atoms
	cols  []string // qualified columns to select or order by
	group []string // columns with few values, to group by
}

func (g *joinGen) lit(table, name string) string {
	tb, _ := g.cat.Table(table)
	c, _ := tb.Column(name)
	if table == "orders" {
		return Literal(g.orders[g.r.IntN(len(g.orders))][c])
	}
	return Literal(examples.DomainOf(tb, c)(g.r))
}

func (g *joinGen) join() string {
	if g.r.IntN(3) == 0 {
		return "LEFT JOIN"
	}
	return "JOIN"
}

func (g *joinGen) shape() joinShape {
	ord := []string{"o.seller", "o.buyer", "o.order_id", "o.ts", "o.amount", "o.status"}
	switch g.r.IntN(6) {
	case 0: // the whole key of orders: a multi-get per batch
		extra := ""
		if g.r.IntN(3) == 0 {
			extra = " AND o.amount > " + g.lit("orders", "amount")
		}
		return joinShape{
			from:  "orders_by_buyer b " + g.join() + " orders o ON o.seller = b.seller AND o.ts = b.ts AND o.order_id = b.order_id" + extra,
			conds: []string{"b.buyer = " + g.lit("orders", "buyer"), "o.status = " + g.lit("orders", "status"), "b.amount < " + g.lit("orders", "amount"), "o.status IS NULL", "b.seller IN (" + g.lit("orders", "seller") + ", " + g.lit("orders", "seller") + ")"},
			cols:  append([]string{"b.buyer", "b.order_id"}, ord...), group: []string{"o.status", "b.buyer"},
		}
	case 1: // an index key of sites
		return joinShape{
			from:  "orders o " + g.join() + " sites s ON s.owner = o.buyer",
			conds: []string{"o.seller = " + g.lit("orders", "seller"), "s.visits > " + g.lit("sites", "visits"), "s.domain IS NULL", "o.amount < " + g.lit("orders", "amount")},
			cols:  append([]string{"s.domain", "s.owner", "s.visits"}, ord...), group: []string{"o.status", "s.owner"},
		}
	case 2: // a key prefix of the index table
		return joinShape{
			from:  "sites s " + g.join() + " orders_by_buyer b ON b.buyer = s.owner",
			conds: []string{"s.domain LIKE 'site1%'", "b.status = " + g.lit("orders", "status"), "s.visits < " + g.lit("sites", "visits"), "b.order_id IS NULL"},
			cols:  []string{"s.domain", "s.owner", "s.visits", "b.buyer", "b.order_id", "b.amount", "b.status"}, group: []string{"b.status"},
		}
	case 3: // no key: a hash join
		return joinShape{
			from:  "orders o " + g.join() + " order_events e ON e.order_id = o.order_id",
			conds: []string{"o.seller = " + g.lit("orders", "seller"), "e.event = 'paid'", "e.user_id < 50", "e.ts IS NULL", "o.status <> e.event"},
			cols:  append([]string{"e.user_id", "e.event", "e.ts"}, ord...), group: []string{"e.event", "o.status"},
		}
	case 4: // three tables
		return joinShape{
			from:  "orders_by_id i JOIN orders o ON o.seller = i.seller AND o.ts = i.ts AND o.order_id = i.order_id " + g.join() + " sites s ON s.owner = o.buyer AND s.visits > 100",
			conds: []string{"i.order_id < " + g.lit("orders", "order_id"), "o.status = " + g.lit("orders", "status"), "s.domain IS NULL", "s.visits < o.amount * 1000"},
			cols:  append([]string{"i.order_id", "s.domain", "s.visits"}, ord...), group: []string{"o.status"},
		}
	}
	// a condition that is no equality: every pair
	return joinShape{
		from:  "sites s " + g.join() + " order_events e ON e.user_id = s.visits % 200 AND e.event <> 'refunded'",
		conds: []string{"s.domain LIKE 'www.%'", "e.event = 'paid'", "e.order_id > 5000"},
		cols:  []string{"s.domain", "s.owner", "s.visits", "e.user_id", "e.order_id", "e.event"}, group: []string{"e.event"},
	}
}

func (g *joinGen) query() string {
	sh := g.shape()
	var where []string
	for _, c := range sh.conds {
		if g.r.IntN(3) == 0 {
			where = append(where, c)
		}
	}
	w := ""
	if len(where) > 0 {
		op := " AND "
		if g.r.IntN(5) == 0 {
			op = " OR "
		}
		w = " WHERE " + strings.Join(where, op)
	}
	if g.r.IntN(5) == 0 {
		grp := sh.group[g.r.IntN(len(sh.group))]
		return fmt.Sprintf("SELECT %s, COUNT(*), MAX(%s) FROM %s%s GROUP BY %s ORDER BY %s ALLOW FULL SCAN", grp, sh.cols[g.r.IntN(len(sh.cols))], sh.from, w, grp, grp)
	}
	if g.r.IntN(8) == 0 {
		return fmt.Sprintf("SELECT COUNT(*) FROM %s%s ALLOW FULL SCAN", sh.from, w)
	}
	var items []string
	for _, c := range sh.cols {
		if g.r.IntN(2) == 0 {
			items = append(items, c)
		}
	}
	if len(items) == 0 {
		items = []string{"*"}
	}
	tail := ""
	if g.r.IntN(3) == 0 && items[0] != "*" {
		tail = " ORDER BY " + items[0]
		if g.r.IntN(2) == 0 {
			tail += " DESC"
		}
		if g.r.IntN(2) == 0 {
			tail += fmt.Sprintf(" LIMIT %d", 1+g.r.IntN(20))
		}
	}
	return fmt.Sprintf("SELECT %s FROM %s%s%s ALLOW FULL SCAN", strings.Join(items, ", "), sh.from, w, tail)
}
