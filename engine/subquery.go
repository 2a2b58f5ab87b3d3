package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Subqueries in the WHERE of a SELECT are answered before the SELECT is
// planned: each one's SELECT runs first, and its answer takes its place
// as constants, so that the planner sees an ordinary condition and plans
// it by the keys (a key IN list is a multi-get).
//
//   - x [NOT] IN (SELECT c …), and (a, b) [NOT] IN (SELECT c, d …): the
//     distinct rows of the subquery become the IN list, NULLs included,
//     so that NOT IN keeps SQL's meaning (never true over a set with a
//     NULL). An empty set is FALSE (NOT IN: TRUE).
//   - EXISTS (SELECT …) uncorrelated: TRUE or FALSE, from one row.
//   - EXISTS (SELECT … WHERE i.k = o.k AND …) correlated by equalities
//     of the subquery's columns to the outer ones, ANDed with conditions
//     on the subquery's tables alone: the subquery runs once with the
//     equalities taken out and the inner sides selected, and the
//     condition becomes (o.k, …) IN (those rows, without NULLs) AND
//     o.k IS NOT NULL …, which is exactly EXISTS (and NOT of it exactly
//     NOT EXISTS) in three-valued logic.
//   - (SELECT …) as a value, uncorrelated: its one value (NULL with no
//     row, an error with more than one).
//   - x [NOT] IN (SELECT c … WHERE i.k = o.k AND …), correlated as
//     EXISTS is: the rows (i.k…, c) of the subquery for all the outer
//     rows at once, and the condition (o.k…, x) IN (those rows) AND
//     o.k IS NOT NULL …, SQL's IN for each outer row (correlatedIn).
//   - (SELECT v … WHERE i.k = o.k AND …) as a value, correlated so: the
//     subquery's value for each distinct i.k… (grouped by it when v
//     aggregates), and a CASE of the outer row's o.k… over them, the
//     value of v over no row when none matches (correlatedScalar).
//
// A correlated subquery's rows are read by the outer rows' values when
// its table's key or an index is bound by them and the outer read is
// bound by its own conditions (a lookup join, in batches); else by one
// read of the subquery without its equalities (correlatedRead). Outer
// columns anywhere else in a subquery (another comparison, under an OR,
// in its select list) are refused.
//
// The rows a subquery yields are held within the sort budget
// (Config.SortBudget); past it the statement fails.

// ErrSubqueryBudget is returned when a subquery yields more rows than the
// budget.
var ErrSubqueryBudget = errors.New("subquery budget exceeded")

// defaultSubqueryBudget is the rows a subquery may yield when the sort
// budget is 0, as a hash join's.
const defaultSubqueryBudget = 1_000_000

// subqueryRun is what EXPLAIN shows of one subquery run first.
type subqueryRun struct {
	op    string // CLIENT SEMI JOIN, CLIENT ANTI JOIN, CLIENT SCALAR SUBQUERY
	what  string // the condition, as written
	query string // the SELECT that ran
	rows  int    // rows it returned
	vals  int    // distinct values put in place
	took  time.Duration
	// For a correlated subquery: the titles of its inner read's plan
	// steps, the figures of its reads, and for a lookup join the values
	// a read looks up and the reads.
	plan   []string
	stats  *runStats
	lookup bool
	// outer is how many outer values a lookup reads, batch its batched
	// reads of them.
	outer int
	batch *semiBatch
}

// hasSubquery reports whether s's WHERE or select list holds a
// subquery.
func hasSubquery(s *parser.SelectStmt) bool {
	if s == nil {
		return false
	}
	for _, it := range s.Items {
		if it.Expr != nil && parser.FirstSubquery(it.Expr) != nil {
			return true
		}
	}
	return s.Where != nil && parser.FirstSubquery(s.Where) != nil
}

// resolveSubqueries returns s with the subqueries of its WHERE answered,
// and what was run. s is not modified.
func (e *Engine) resolveSubqueries(ctx context.Context, s *parser.SelectStmt) (*parser.SelectStmt, []subqueryRun, error) {
	var runs []subqueryRun
	var failed error
	outer := e.members(s)
	// The EXISTS under a NOT are anti-joins.
	anti := map[*parser.ExistsExpr]bool{}
	parser.Rewrite(s.Where, func(x parser.Expr) parser.Expr {
		if u, ok := x.(*parser.UnaryExpr); ok && u.Op == parser.OpNot {
			if ex, ok := u.X.(*parser.ExistsExpr); ok {
				anti[ex] = true
			}
		}
		return x
	})
	answer := func(x parser.Expr) parser.Expr {
		if failed != nil {
			return x
		}
		var y parser.Expr
		var run subqueryRun
		var err error
		switch x := x.(type) {
		case *parser.InExpr:
			if x.Sub == nil {
				return x
			}
			y, run, err = e.inSubquery(ctx, x, outer, s)
		case *parser.ExistsExpr:
			y, run, err = e.existsSubquery(ctx, x, outer, s)
			if anti[x] {
				run.op, run.what = strings.Replace(run.op, "SEMI", "ANTI", 1), "NOT "+run.what
			}
		case *parser.SubqueryExpr:
			y, run, err = e.scalarSubquery(ctx, x, outer, s)
		default:
			return x
		}
		if err != nil {
			failed = err
			return x
		}
		runs = append(runs, run)
		return y
	}
	c := *s
	c.Where = parser.Rewrite(s.Where, answer)
	// A subquery in the select list is a constant column, named by the
	// expression as written unless the item has an alias.
	c.Items = nil
	for _, it := range s.Items {
		if it.Expr != nil && parser.FirstSubquery(it.Expr) != nil {
			if it.Alias == "" {
				it.Alias = it.Expr.String()
			}
			it.Expr = parser.Rewrite(it.Expr, answer)
		}
		c.Items = append(c.Items, it)
	}
	if failed != nil {
		return nil, nil, failed
	}
	return &c, runs, nil
}

// member is one table a SELECT reads, by the name it is known by.
type member struct {
	names []string // its alias, or its name
	table *catalog.Table
}

func (e *Engine) members(s *parser.SelectStmt) []member {
	var out []member
	add := func(id parser.Ident, alias string, derived *parser.SelectStmt) {
		m := member{names: []string{id.Name}}
		if alias != "" {
			m.names = []string{alias}
		}
		m.table, _ = e.cfg.Catalog.Table(id.Name)
		if derived != nil {
			m.table = e.derivedColumns(derived, alias)
		}
		out = append(out, m)
	}
	add(s.Table, s.Alias, s.Derived)
	for _, j := range s.Joins {
		add(j.Table, j.Alias, j.Derived)
	}
	return out
}

// hasColumn reports whether a member named qual (any, when "") has the
// column name.
func hasColumn(ms []member, qual, name string) bool {
	for _, m := range ms {
		if qual != "" && !containsString(m.names, qual) {
			continue
		}
		if m.table == nil {
			return qual != ""
		}
		if _, ok := m.table.Column(name); ok || name == planner.TsColumn || name == "_key" {
			return true
		}
	}
	return false
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// outerRef reports whether r, in a subquery whose tables are inner, names
// a column of the outer SELECT's tables: qualified by an outer name that
// no inner table has, or unqualified and a column of no inner table but
// of an outer one.
func outerRef(r *parser.ColumnRef, inner, outer []member) bool {
	if hasColumn(inner, r.Table, r.Name) {
		return false
	}
	return hasColumn(outer, r.Table, r.Name)
}

// correlated returns the first column reference of sub that is the outer
// query's, or nil.
func correlated(sub *parser.SelectStmt, inner, outer []member) *parser.ColumnRef {
	var found *parser.ColumnRef
	look := func(x parser.Expr) {
		parser.Rewrite(x, func(y parser.Expr) parser.Expr {
			if r, ok := y.(*parser.ColumnRef); ok && found == nil && outerRef(r, inner, outer) {
				found = r
			}
			if sx, ok := y.(*parser.SubscriptExpr); ok && found == nil && outerRef(sx.X, inner, outer) {
				found = sx.X
			}
			return y
		})
	}
	for _, it := range sub.Items {
		look(it.Expr)
	}
	look(sub.Where)
	look(sub.Having)
	for _, g := range sub.GroupBy {
		look(g)
	}
	for _, o := range sub.Order {
		look(o.Expr)
	}
	for _, j := range sub.Joins {
		look(j.On)
	}
	return found
}

func correlatedError(r *parser.ColumnRef) error {
	return &parser.Error{Pos: r.NamePos, Msg: fmt.Sprintf("the subquery reads %s of the outer query other than in an equality of its WHERE: a correlated subquery is supported only when its WHERE ANDs equalities of its columns to outer columns (inner = outer) with conditions on its own tables (not an outer column under OR, in another comparison or in its select list)", r)}
}

// splitCorrelation splits sub's WHERE into the equalities of an inner
// column to an outer one that correlate it, returned as their inner and
// outer sides, and the rest, the WHERE of the copy of sub returned.
func splitCorrelation(sub *parser.SelectStmt, inner, outer []member) (*parser.SelectStmt, []parser.Expr, []parser.Expr) {
	c := *sub
	var innerSide, outerSide, rest []parser.Expr
	for _, t := range conjuncts(sub.Where) {
		if b, ok := t.(*parser.BinaryExpr); ok && b.Op == parser.OpEq {
			l, lok := b.LHS.(*parser.ColumnRef)
			r, rok := b.RHS.(*parser.ColumnRef)
			if lok && rok {
				lo, ro := outerRef(l, inner, outer), outerRef(r, inner, outer)
				if lo && !ro {
					l, r = r, l
					lo, ro = ro, lo
				}
				if ro && !lo {
					innerSide = append(innerSide, l)
					outerSide = append(outerSide, r)
					continue
				}
			}
		}
		rest = append(rest, t)
	}
	c.Where = andAll(rest)
	return &c, innerSide, outerSide
}

// noTrimmings refuses a correlated subquery with clauses that act on its
// whole answer rather than on each outer row's.
func noTrimmings(sub *parser.SelectStmt, pos parser.Pos, what string, order bool) error {
	if len(sub.GroupBy) > 0 || sub.Having != nil || sub.Limit >= 0 || sub.Offset > 0 || (order && (len(sub.Order) > 0 || sub.Distinct)) {
		clauses := "GROUP BY, HAVING, LIMIT or OFFSET"
		if order {
			clauses = "DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT or OFFSET"
		}
		return &parser.Error{Pos: pos, Msg: fmt.Sprintf("a correlated %s cannot have %s", what, clauses)}
	}
	return nil
}

// runStats are the figures of the reads a subquery made.
type runStats struct {
	rpcs, read, received int64
}

func (r *runStats) add(st *exec.Stats) {
	if st == nil {
		return
	}
	r.rpcs += st.RPCs.Load()
	r.read += st.RowsRead.Load()
	r.received += st.RowsReceived.Load()
}

// runSubquery plans and runs sub (its own subqueries first) and returns
// its rows, within the budget.
func (e *Engine) runSubquery(ctx context.Context, sub *parser.SelectStmt) ([]catalog.Row, error) {
	rows, _, err := e.runSubqueryPlan(ctx, sub, nil)
	return rows, err
}

// runSubqueryPlan is runSubquery that, given st, adds the figures of
// its reads to st and returns the titles of its plan's steps.
func (e *Engine) runSubqueryPlan(ctx context.Context, sub *parser.SelectStmt, st *runStats) ([]catalog.Row, []string, error) {
	if hasSubquery(sub) {
		var err error
		if sub, _, err = e.resolveSubqueries(ctx, sub); err != nil {
			return nil, nil, err
		}
	}
	p, err := e.pl.Plan(ctx, sub)
	if err != nil {
		return nil, nil, err
	}
	sel, ok := p.(*planner.Select)
	if !ok || sel.Raw {
		return nil, nil, &parser.Error{Pos: sub.Select, Msg: "a subquery must be a SELECT of catalog columns"}
	}
	var plan []string
	if st != nil {
		for _, step := range sel.Explain(planner.ExplainEnv{}, nil).Steps {
			plan = append(plan, step.Title)
		}
	}
	// A subquery only reads: the store it opens first is opened to read.
	prev := e.reading
	e.reading = true
	res, err := e.query(ctx, sel)
	e.reading = prev
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	budget := e.subqueryBudget()
	var rows []catalog.Row
	for {
		row, err := res.Rows.Next(ctx)
		if err == io.EOF {
			if st != nil {
				st.add(res.Stats)
			}
			return rows, plan, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(rows) == budget {
			return nil, nil, budgetError(sub, budget)
		}
		rows = append(rows, append(catalog.Row(nil), row...))
	}
}

// subqueryBudget is the rows a subquery may yield.
func (e *Engine) subqueryBudget() int {
	if e.cfg.SortBudget > 0 {
		return e.cfg.SortBudget
	}
	return defaultSubqueryBudget
}

func budgetError(sub *parser.SelectStmt, budget int) error {
	return &parser.Error{Pos: sub.Select, Err: ErrSubqueryBudget,
		Msg: fmt.Sprintf("the subquery yields more than %d rows, the sort budget: narrow its WHERE or raise the budget", budget)}
}

// literal is v as an expression the planner reads back as v.
func literal(v catalog.Value) parser.Expr {
	if v.Null {
		return &parser.NullLit{ValuePos: parser.NoPos}
	}
	switch v.Type {
	case catalog.TypeString:
		return &parser.StringLit{ValuePos: parser.NoPos, Val: v.S}
	case catalog.TypeBigint, catalog.TypeInt:
		return &parser.IntLit{ValuePos: parser.NoPos, Val: v.I}
	case catalog.TypeDouble:
		return &parser.FloatLit{ValuePos: parser.NoPos, Val: v.F}
	case catalog.TypeBoolean:
		return &parser.BoolLit{ValuePos: parser.NoPos, Val: v.I != 0}
	case catalog.TypeBytes:
		return &parser.BytesLit{ValuePos: parser.NoPos, Val: v.B}
	case catalog.TypeTimestamp:
		return &parser.TimestampLit{ValuePos: parser.NoPos, Val: v.Time()}
	case catalog.TypeDate:
		return &parser.DateLit{ValuePos: parser.NoPos, Val: v.Time()}
	}
	return &parser.StringLit{ValuePos: parser.NoPos, Val: v.Text()}
}

// distinctList is rows as IN-list elements, each distinct row once: a
// value, or a row value for a subquery of several columns.
func distinctList(rows []catalog.Row, width int) []parser.Expr {
	seen := map[string]bool{}
	var out []parser.Expr
	for _, row := range rows {
		k := valuesKey(row[:width])
		if seen[k] {
			continue
		}
		seen[k] = true
		elems := literals(row[:width])
		if width == 1 {
			out = append(out, elems[0])
		} else {
			out = append(out, &parser.TupleExpr{Lparen: parser.NoPos, Elems: elems})
		}
	}
	return out
}

// valuesKey is vs as a map key: equal for equal values of one type,
// NULLs included.
func valuesKey(vs []catalog.Value) string {
	var k strings.Builder
	for _, v := range vs {
		if v.Null {
			k.WriteString("\x00N")
		} else {
			fmt.Fprintf(&k, "\x00%d:%s", v.Type, v.String())
		}
	}
	return k.String()
}

// width is the number of values x stands for: a row value's elements,
// else 1.
func width(x parser.Expr) int {
	if tu, ok := x.(*parser.TupleExpr); ok {
		return len(tu.Elems)
	}
	return 1
}

// subColumns checks that sub selects n columns.
func subColumns(sub *parser.SelectStmt, n int) error {
	if sub.Star || len(sub.Items) != n || sub.Items[0].AllOf != "" {
		return &parser.Error{Pos: sub.Select, Msg: fmt.Sprintf("the subquery must select %d column%s, one for each value compared", n, map[bool]string{true: "", false: "s"}[n == 1])}
	}
	return nil
}

// inList is x [NOT] IN (list). Over an empty list NOT IN is TRUE, and
// IN is FALSE, written col IN () AND FALSE when x is (or starts with) a
// column, so that the planner reads no row for it.
func inList(x parser.Expr, list []parser.Expr, not bool) parser.Expr {
	if len(list) == 0 {
		f := &parser.BoolLit{ValuePos: parser.NoPos, Val: not}
		first := x
		if tu, ok := x.(*parser.TupleExpr); ok {
			first = tu.Elems[0]
		}
		if _, col := first.(*parser.ColumnRef); col && !not {
			return &parser.BinaryExpr{OpPos: parser.NoPos, Op: parser.OpAnd, LHS: &parser.InExpr{X: first}, RHS: f}
		}
		return f
	}
	return &parser.InExpr{X: x, List: list, Not: not}
}

func (e *Engine) inSubquery(ctx context.Context, x *parser.InExpr, outer []member, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	n := width(x.X)
	if err := subColumns(x.Sub, n); err != nil {
		return nil, subqueryRun{}, err
	}
	inner := e.members(x.Sub)
	sub, innerSide, outerSide := splitCorrelation(x.Sub, inner, outer)
	if r := correlated(sub, inner, outer); r != nil {
		return nil, subqueryRun{}, correlatedError(r)
	}
	if len(innerSide) > 0 {
		return e.correlatedIn(ctx, x, sub, innerSide, outerSide, s)
	}
	sub = x.Sub
	start := time.Now()
	rows, err := e.runSubquery(ctx, sub)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	list := distinctList(rows, n)
	run := subqueryRun{op: "CLIENT SEMI JOIN", what: x.String(), query: sub.String(), rows: len(rows), vals: len(list), took: time.Since(start)}
	if x.Not {
		run.op = "CLIENT ANTI JOIN"
	}
	return inList(x.X, list, x.Not), run, nil
}

// correlatedIn answers x [NOT] IN (SELECT c … WHERE i.k = o.k AND …):
// the subquery's rows (i.k…, c) for all outer rows at once, NULL c
// included, and the condition becomes
//
//	(o.k…, x) IN (those rows) AND o.k IS NOT NULL …
//
// and NOT of it for NOT IN. For an outer row with no inner row (o.k
// NULL, or no row of its values) that is FALSE (NOT IN: TRUE); else
// its branches are those of its own rows, o.k = i.k being TRUE there
// and FALSE elsewhere, so that it is x = c OR … over its rows: TRUE on
// a match, NULL when x or one c is NULL, FALSE otherwise, SQL's IN.
func (e *Engine) correlatedIn(ctx context.Context, x *parser.InExpr, sub *parser.SelectStmt, innerSide, outerSide []parser.Expr, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	if err := noTrimmings(x.Sub, x.Sub.Select, "IN subquery", false); err != nil {
		return nil, subqueryRun{}, err
	}
	var items []parser.Expr
	for _, it := range x.Sub.Items {
		items = append(items, it.Expr)
	}
	rows, run, err := e.correlatedRead(ctx, sub, x.Sub, innerSide, outerSide, innerShape{items: items, distinct: true}, s)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	lhs := append([]parser.Expr(nil), outerSide...)
	if tu, ok := x.X.(*parser.TupleExpr); ok {
		lhs = append(lhs, tu.Elems...)
	} else {
		lhs = append(lhs, x.X)
	}
	list := distinctList(rows, len(lhs))
	var y parser.Expr = andAll(append([]parser.Expr{inList(&parser.TupleExpr{Lparen: parser.NoPos, Elems: lhs}, list, false)}, notNull(outerSide)...))
	run.op, run.what, run.vals = run.op+"SEMI JOIN", x.String(), len(list)
	if x.Not {
		y = &parser.UnaryExpr{OpPos: parser.NoPos, Op: parser.OpNot, X: y}
		run.op = strings.Replace(run.op, "SEMI", "ANTI", 1)
	}
	return y, run, nil
}

func (e *Engine) scalarSubquery(ctx context.Context, x *parser.SubqueryExpr, outer []member, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	if err := subColumns(x.Select, 1); err != nil {
		return nil, subqueryRun{}, err
	}
	inner := e.members(x.Select)
	sub, innerSide, outerSide := splitCorrelation(x.Select, inner, outer)
	if r := correlated(sub, inner, outer); r != nil {
		return nil, subqueryRun{}, correlatedError(r)
	}
	if len(innerSide) > 0 {
		return e.correlatedScalar(ctx, x, sub, innerSide, outerSide, s)
	}
	sub = x.Select
	start := time.Now()
	rows, err := e.runSubquery(ctx, sub)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	if len(rows) > 1 {
		return nil, subqueryRun{}, &parser.Error{Pos: x.Lparen, Msg: fmt.Sprintf("the scalar subquery returned %d rows; it must return at most one", len(rows))}
	}
	var y parser.Expr = &parser.NullLit{ValuePos: parser.NoPos}
	if len(rows) == 1 {
		y = literal(rows[0][0])
	}
	return y, subqueryRun{op: "CLIENT SCALAR SUBQUERY", what: x.String(), query: sub.String(), rows: len(rows), vals: len(rows), took: time.Since(start)}, nil
}

// correlatedScalar answers (SELECT v … WHERE i.k = o.k AND …) as a
// value: the subquery's rows for all outer rows at once, grouped by
// i.k… (by the store's GROUP BY when v aggregates), give each group's
// value, and the subquery becomes
//
//	CASE WHEN o.k = k1 … THEN v1 WHEN … ELSE e END
//
// where e is v over no row: NULL, or for an aggregate v itself with
// COUNT 0 and the other aggregates NULL. A group of more than one row
// that an outer row reads is an error.
func (e *Engine) correlatedScalar(ctx context.Context, x *parser.SubqueryExpr, sub *parser.SelectStmt, innerSide, outerSide []parser.Expr, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	if err := noTrimmings(x.Select, x.Select.Select, "scalar subquery", true); err != nil {
		return nil, subqueryRun{}, err
	}
	item := x.Select.Items[0].Expr
	agg := hasAggregate(item)
	rows, run, err := e.correlatedRead(ctx, sub, x.Select, innerSide, outerSide, innerShape{items: []parser.Expr{item}, group: agg}, s)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	m := len(outerSide)
	type group struct {
		key []catalog.Value
		val catalog.Value
		n   int
	}
	groups := map[string]*group{}
	var order []*group
	for _, row := range rows {
		k := valuesKey(row[:m])
		g := groups[k]
		if g == nil {
			g = &group{key: row[:m]}
			groups[k] = g
			order = append(order, g)
		}
		g.n++
		g.val = row[m]
	}
	var dups []parser.Expr
	for _, g := range order {
		if g.n > 1 {
			dups = append(dups, tupleOf(literals(g.key)))
		}
	}
	if len(dups) > 0 {
		used := run.lookup
		if !used {
			if used, err = e.outerReads(ctx, s, outerSide, dups); err != nil {
				return nil, subqueryRun{}, err
			}
		}
		if used {
			return nil, subqueryRun{}, &parser.Error{Pos: x.Lparen, Msg: "more than one row returned by a subquery used as an expression, for one outer row"}
		}
	}
	var els parser.Expr = &parser.NullLit{ValuePos: parser.NoPos}
	if agg {
		els = overNoRow(item)
	}
	c := &parser.CaseExpr{Case: parser.NoPos, Else: els}
	for _, g := range order {
		if g.n > 1 {
			continue // no outer row reads it
		}
		var eqs []parser.Expr
		for i, o := range outerSide {
			eqs = append(eqs, &parser.BinaryExpr{OpPos: parser.NoPos, Op: parser.OpEq, LHS: o, RHS: literal(g.key[i])})
		}
		c.Whens = append(c.Whens, parser.When{Cond: andAll(eqs), Result: literal(g.val)})
	}
	run.op, run.what, run.vals = run.op+"SCALAR SUBQUERY PER GROUP", x.String(), len(c.Whens)
	if len(c.Whens) == 0 {
		return els, run, nil
	}
	return c, run, nil
}

// aggregateNames are the aggregate functions.
var aggregateNames = map[string]bool{"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true}

// hasAggregate reports whether x calls an aggregate function.
func hasAggregate(x parser.Expr) bool {
	found := false
	parser.Rewrite(x, func(y parser.Expr) parser.Expr {
		if c, ok := y.(*parser.CallExpr); ok && aggregateNames[strings.ToUpper(c.Name)] {
			found = true
		}
		return y
	})
	return found
}

// overNoRow is the aggregate x over no row: its COUNTs 0, its other
// aggregates NULL.
func overNoRow(x parser.Expr) parser.Expr {
	return parser.Rewrite(x, func(y parser.Expr) parser.Expr {
		if c, ok := y.(*parser.CallExpr); ok && aggregateNames[strings.ToUpper(c.Name)] {
			if strings.EqualFold(c.Name, "COUNT") {
				return &parser.IntLit{ValuePos: parser.NoPos, Val: 0}
			}
			return &parser.NullLit{ValuePos: parser.NoPos}
		}
		return y
	})
}

// outerReads reports whether a row of s's tables that passes the
// conjuncts of its WHERE without a subquery has its outerSide values
// among keys.
func (e *Engine) outerReads(ctx context.Context, s *parser.SelectStmt, outerSide, keys []parser.Expr) (bool, error) {
	var conds []parser.Expr
	for _, t := range conjuncts(s.Where) {
		if parser.FirstSubquery(t) == nil {
			conds = append(conds, t)
		}
	}
	conds = append(conds, &parser.InExpr{X: tupleOf(outerSide), List: keys})
	q := &parser.SelectStmt{Select: s.Select, Items: []parser.SelectItem{{Expr: &parser.IntLit{ValuePos: parser.NoPos, Val: 1}}},
		Table: s.Table, Derived: s.Derived, Alias: s.Alias, Joins: s.Joins, AsOf: s.AsOf, AsOfPos: s.AsOfPos, Hint: s.Hint,
		Where: andAll(conds), Limit: 1, AllowFullScan: true}
	rows, err := e.runSubquery(ctx, q)
	return len(rows) > 0, err
}

func (e *Engine) existsSubquery(ctx context.Context, x *parser.ExistsExpr, outer []member, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	inner := e.members(x.Select)
	sub, innerSide, outerSide := splitCorrelation(x.Select, inner, outer)
	if r := correlated(sub, inner, outer); r != nil {
		return nil, subqueryRun{}, correlatedError(r)
	}
	if len(innerSide) == 0 {
		// Uncorrelated: one row answers it.
		start := time.Now()
		sub.Limit = 1
		rows, err := e.runSubquery(ctx, sub)
		if err != nil {
			return nil, subqueryRun{}, err
		}
		return &parser.BoolLit{ValuePos: parser.NoPos, Val: len(rows) > 0},
			subqueryRun{op: "CLIENT SEMI JOIN", what: x.String(), query: sub.String(), rows: len(rows), vals: len(rows), took: time.Since(start)}, nil
	}
	// Correlated by equalities: the inner sides of the rows that pass
	// the rest, without NULLs (which equal nothing).
	if err := noTrimmings(x.Select, x.ExistsPos, "EXISTS", false); err != nil {
		return nil, subqueryRun{}, err
	}
	rows, run, err := e.correlatedRead(ctx, sub, x.Select, innerSide, outerSide, innerShape{distinct: true}, s)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	list := distinctList(rows, len(outerSide))
	terms := append([]parser.Expr{inList(tupleOf(outerSide), list, false)}, notNull(outerSide)...)
	run.op, run.what, run.vals = run.op+"SEMI JOIN", x.String(), len(list)
	return andAll(terms), run, nil
}

// tupleOf is xs as a row value, or xs[0] alone.
func tupleOf(xs []parser.Expr) parser.Expr {
	if len(xs) == 1 {
		return xs[0]
	}
	return &parser.TupleExpr{Lparen: parser.NoPos, Elems: xs}
}

func literals(vs []catalog.Value) []parser.Expr {
	out := make([]parser.Expr, len(vs))
	for i, v := range vs {
		out[i] = literal(v)
	}
	return out
}

func notNull(xs []parser.Expr) []parser.Expr {
	var out []parser.Expr
	for _, x := range xs {
		out = append(out, &parser.IsNullExpr{X: x, Not: true})
	}
	return out
}

// conjuncts splits x at its top-level ANDs.
func conjuncts(x parser.Expr) []parser.Expr {
	if x == nil {
		return nil
	}
	if b, ok := x.(*parser.BinaryExpr); ok && b.Op == parser.OpAnd {
		return append(conjuncts(b.LHS), conjuncts(b.RHS)...)
	}
	return []parser.Expr{x}
}

// andAll is the AND of xs, nil when there are none.
func andAll(xs []parser.Expr) parser.Expr {
	var out parser.Expr
	for _, x := range xs {
		if out == nil {
			out = x
			continue
		}
		out = &parser.BinaryExpr{OpPos: parser.NoPos, Op: parser.OpAnd, LHS: out, RHS: x}
	}
	return out
}

// subqueriesFirst answers the subqueries of a SELECT's WHERE, or of an
// EXPLAIN's SELECT, and returns the statement with their answers in
// place. Any other statement is returned as it is (the planner refuses
// a subquery in it).
func (e *Engine) subqueriesFirst(ctx context.Context, st parser.Stmt) (parser.Stmt, []subqueryRun, error) {
	switch s := st.(type) {
	case *parser.SelectStmt:
		if !hasSubquery(s) {
			return st, nil, nil
		}
		return e.resolveSubqueries(ctx, s)
	case *parser.ExplainStmt:
		sel, ok := s.Stmt.(*parser.SelectStmt)
		if !ok || !hasSubquery(sel) {
			return st, nil, nil
		}
		r, runs, err := e.resolveSubqueries(ctx, sel)
		if err != nil {
			return nil, nil, err
		}
		c := *s
		c.Stmt = r
		return &c, runs, nil
	}
	return st, nil, nil
}

// subquerySteps are the EXPLAIN steps of the subqueries run first. The
// subquery ran to plan the statement, so its rows are measured even
// without ANALYZE; its time is shown with ANALYZE only.
func subquerySteps(runs []subqueryRun, analyze bool) []planner.Step {
	var out []planner.Step
	for _, r := range runs {
		title := r.op + " (SUBQUERY RUN FIRST, ITS ROWS AS CONSTANTS): " + r.what
		attrs := []planner.Attr{
			{Label: "SUBQUERY", Value: r.query},
			{Label: "ROWS", Value: int64(r.rows)},
			{Label: "DISTINCT VALUES", Value: int64(r.vals)},
		}
		if r.plan != nil {
			attrs = append(attrs, planner.Attr{Label: "INNER PLAN", Value: r.plan})
		}
		attrs = append(attrs, r.batchAttrs(analyze)...)
		if analyze {
			attrs = append(attrs, planner.Attr{Label: "TIME", Value: r.took.Round(time.Microsecond).String()})
			if r.stats != nil {
				attrs = append(attrs, planner.Attr{Label: "STORE CALLS", Value: r.stats.rpcs},
					planner.Attr{Label: "ROWS RECEIVED", Value: r.stats.received},
					planner.Attr{Label: "ROWS READ", Value: r.stats.read})
			}
		}
		out = append(out, planner.Step{Op: r.op, Title: title, Attrs: attrs})
	}
	return out
}

// innerShape is what the inner read of a correlated subquery selects
// after its correlated columns.
type innerShape struct {
	items    []parser.Expr
	distinct bool // each row once
	group    bool // grouped by the correlated columns: items aggregate
}

// correlatedRead reads a correlated subquery's rows for all the outer
// rows at once: its inner sides, then sh's items, of its rows that pass
// the rest of its WHERE (sub's) and whose inner sides are not NULL
// (NULL equals nothing). orig is the subquery as written in s.
//
// When the subquery alone would read its whole table but the outer
// read, by the conjuncts of s's WHERE without a subquery, is bound (or
// may read its whole table, when the subquery may not), the outer
// rows' distinct correlated values are read first, then the inner rows of
// just those values, planner.JoinBatch values a read, each an IN list of
// the inner sides that the planner plans by its key or an index (a
// multi-get or prefix scans): a lookup join. Otherwise the subquery
// runs once without the equalities, its rows matched by value: a hash
// join. The run's op is "CLIENT " or "CLIENT LOOKUP ", for the caller to
// end.
func (e *Engine) correlatedRead(ctx context.Context, sub, orig *parser.SelectStmt, innerSide, outerSide []parser.Expr, sh innerShape, s *parser.SelectStmt) ([]catalog.Row, subqueryRun, error) {
	build := func(extra ...parser.Expr) *parser.SelectStmt {
		q := *sub
		q.Star, q.Items, q.Distinct = false, nil, sh.distinct
		q.GroupBy, q.Having, q.Order, q.Limit, q.Offset = nil, nil, nil, -1, 0
		for _, in := range innerSide {
			q.Items = append(q.Items, parser.SelectItem{Expr: in})
		}
		for _, it := range sh.items {
			q.Items = append(q.Items, parser.SelectItem{Expr: it})
		}
		if sh.group {
			q.GroupBy = append([]parser.Expr(nil), innerSide...)
		}
		var conds []parser.Expr
		if sub.Where != nil {
			conds = append(conds, sub.Where)
		}
		q.Where = andAll(append(append(conds, notNull(innerSide)...), extra...))
		return &q
	}
	start := time.Now()
	if rows, run, ok, err := e.lookupRead(ctx, build, orig, innerSide, outerSide, s); err != nil || ok {
		run.took = time.Since(start)
		return rows, run, err
	}
	var st runStats
	q := build()
	rows, plan, err := e.runSubqueryPlan(ctx, q, &st)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	return rows, subqueryRun{op: "CLIENT ", query: q.String(), rows: len(rows), took: time.Since(start), plan: plan, stats: &st}, nil
}

// lookupRead is correlatedRead's lookup join; ok is false when it does
// not apply.
func (e *Engine) lookupRead(ctx context.Context, build func(...parser.Expr) *parser.SelectStmt, orig *parser.SelectStmt, innerSide, outerSide []parser.Expr, s *parser.SelectStmt) ([]catalog.Row, subqueryRun, bool, error) {
	none := subqueryRun{}
	if len(s.Joins) > 0 {
		return nil, none, false, nil
	}
	var others []parser.Expr
	// The outer rows that read the subquery pass the conjuncts without
	// one; their values (a superset, when another conjunct has a
	// subquery) are looked up.
	for _, t := range conjuncts(s.Where) {
		if parser.FirstSubquery(t) == nil {
			others = append(others, t)
		}
	}
	inner := func(extra ...parser.Expr) *parser.SelectStmt {
		q := build(extra...)
		q.AllowFullScan = false
		return q
	}
	// Only when the subquery alone would read its whole table.
	if _, err := e.pl.Plan(ctx, inner()); err == nil || !errors.Is(err, planner.ErrFullScan) {
		return nil, none, false, nil
	}
	first := &parser.SelectStmt{Select: s.Select, Distinct: true, Table: s.Table, Derived: s.Derived, Alias: s.Alias, AsOf: s.AsOf, AsOfPos: s.AsOfPos,
		Hint: s.Hint, Where: andAll(append(others, notNull(outerSide)...)), Limit: -1}
	for _, o := range outerSide {
		first.Items = append(first.Items, parser.SelectItem{Expr: o})
	}
	if _, err := e.pl.Plan(ctx, first); err != nil {
		// The outer read is not bound either: the hash join when the
		// subquery may read its whole table, else the lookup join when
		// the outer query may read its own.
		if !errors.Is(err, planner.ErrFullScan) || orig.AllowFullScan || !s.AllowFullScan {
			return nil, none, false, nil
		}
		first.AllowFullScan = true
		if _, err := e.pl.Plan(ctx, first); err != nil {
			return nil, none, false, nil
		}
	}
	var st runStats
	keys, _, err := e.runSubqueryPlan(ctx, first, &st)
	if err != nil {
		return nil, none, true, err
	}
	ilhs := tupleOf(innerSide)
	probe := distinctList(keys, len(outerSide))
	found, batch, ok, err := e.semiLookups(ctx, probe, &st, func(vals []parser.Expr) *parser.SelectStmt {
		return inner(&parser.InExpr{X: ilhs, List: vals})
	})
	if err != nil || !ok {
		return nil, none, ok, err
	}
	shown := inner(&parser.InExpr{X: ilhs, List: []parser.Expr{&parser.ColumnRef{NamePos: parser.NoPos, Name: fmt.Sprintf("<%d outer values>", len(probe))}}})
	return found, subqueryRun{op: "CLIENT LOOKUP ", query: first.String() + "; then " + shown.String(), rows: len(found),
		plan: batch.plan, stats: &st, lookup: true, outer: len(probe), batch: &batch}, true, nil
}
