package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
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
	// A lookup semi-join's outer values and its batched reads of them.
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
			y, run, err = e.inSubquery(ctx, x, outer)
		case *parser.ExistsExpr:
			y, run, err = e.existsSubquery(ctx, x, outer, s)
			if anti[x] {
				run.op, run.what = strings.Replace(run.op, "SEMI", "ANTI", 1), "NOT "+run.what
			}
		case *parser.SubqueryExpr:
			y, run, err = e.scalarSubquery(ctx, x, outer)
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
	add := func(id parser.Ident, alias string) {
		m := member{names: []string{id.Name}}
		if alias != "" {
			m.names = []string{alias}
		}
		m.table, _ = e.cfg.Catalog.Table(id.Name)
		out = append(out, m)
	}
	add(s.Table, s.Alias)
	for _, j := range s.Joins {
		add(j.Table, j.Alias)
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
	return &parser.Error{Pos: r.NamePos, Msg: fmt.Sprintf("the subquery reads %s of the outer query: a correlated subquery is supported only as [NOT] EXISTS whose WHERE ANDs equalities of its columns to outer columns with conditions on its own tables", r)}
}

// runSubquery plans and runs sub (its own subqueries first) and returns
// its rows, within the budget.
func (e *Engine) runSubquery(ctx context.Context, sub *parser.SelectStmt) ([]catalog.Row, error) {
	if hasSubquery(sub) {
		var err error
		if sub, _, err = e.resolveSubqueries(ctx, sub); err != nil {
			return nil, err
		}
	}
	p, err := e.pl.Plan(ctx, sub)
	if err != nil {
		return nil, err
	}
	sel, ok := p.(*planner.Select)
	if !ok || sel.Raw {
		return nil, &parser.Error{Pos: sub.Select, Msg: "a subquery must be a SELECT of catalog columns"}
	}
	// A subquery only reads: the store it opens first is opened to read.
	prev := e.reading
	e.reading = true
	res, err := e.query(ctx, sel)
	e.reading = prev
	if err != nil {
		return nil, err
	}
	defer res.Close()
	budget := e.cfg.SortBudget
	if budget <= 0 {
		budget = defaultSubqueryBudget
	}
	var rows []catalog.Row
	for {
		row, err := res.Rows.Next(ctx)
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		if len(rows) == budget {
			return nil, &parser.Error{Pos: sub.Select, Err: ErrSubqueryBudget,
				Msg: fmt.Sprintf("the subquery yields more than %d rows, the sort budget: narrow its WHERE or raise the budget", budget)}
		}
		rows = append(rows, append(catalog.Row(nil), row...))
	}
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
		var k strings.Builder
		elems := make([]parser.Expr, width)
		for i := 0; i < width; i++ {
			v := row[i]
			if v.Null {
				k.WriteString("\x00N")
			} else {
				fmt.Fprintf(&k, "\x00%d:%s", v.Type, v.String())
			}
			elems[i] = literal(v)
		}
		if seen[k.String()] {
			continue
		}
		seen[k.String()] = true
		if width == 1 {
			out = append(out, elems[0])
		} else {
			out = append(out, &parser.TupleExpr{Lparen: parser.NoPos, Elems: elems})
		}
	}
	return out
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

func (e *Engine) inSubquery(ctx context.Context, x *parser.InExpr, outer []member) (parser.Expr, subqueryRun, error) {
	sub := x.Sub
	if r := correlated(sub, e.members(sub), outer); r != nil {
		return nil, subqueryRun{}, correlatedError(r)
	}
	n := width(x.X)
	if err := subColumns(sub, n); err != nil {
		return nil, subqueryRun{}, err
	}
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

func (e *Engine) scalarSubquery(ctx context.Context, x *parser.SubqueryExpr, outer []member) (parser.Expr, subqueryRun, error) {
	sub := x.Select
	if r := correlated(sub, e.members(sub), outer); r != nil {
		return nil, subqueryRun{}, &parser.Error{Pos: r.NamePos, Msg: fmt.Sprintf("the subquery reads %s of the outer query: a scalar subquery must not be correlated", r)}
	}
	if err := subColumns(sub, 1); err != nil {
		return nil, subqueryRun{}, err
	}
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

func (e *Engine) existsSubquery(ctx context.Context, x *parser.ExistsExpr, outer []member, s *parser.SelectStmt) (parser.Expr, subqueryRun, error) {
	sub := *x.Select
	inner := e.members(&sub)
	// Split the WHERE into the equalities that correlate it and the rest.
	var outerSide, innerSide []parser.Expr
	var rest []parser.Expr
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
	sub.Where = andAll(rest)
	if r := correlated(&sub, inner, outer); r != nil {
		return nil, subqueryRun{}, correlatedError(r)
	}
	start := time.Now()
	if len(innerSide) == 0 {
		// Uncorrelated: one row answers it.
		sub.Limit = 1
		rows, err := e.runSubquery(ctx, &sub)
		if err != nil {
			return nil, subqueryRun{}, err
		}
		return &parser.BoolLit{ValuePos: parser.NoPos, Val: len(rows) > 0},
			subqueryRun{op: "CLIENT SEMI JOIN", what: x.String(), query: sub.String(), rows: len(rows), vals: len(rows), took: time.Since(start)}, nil
	}
	if y, run, ok, err := e.lookupSemiJoin(ctx, x, &sub, innerSide, outerSide, s); err != nil || ok {
		return y, run, err
	}
	// Correlated by equalities: the inner sides of the rows that pass
	// the rest, without NULLs (which equal nothing).
	sub.Star, sub.Items, sub.Distinct = false, nil, true
	sub.GroupBy, sub.Having, sub.Order, sub.Limit, sub.Offset = nil, nil, nil, -1, 0
	if len(x.Select.GroupBy) > 0 || x.Select.Having != nil || x.Select.Limit >= 0 || x.Select.Offset > 0 {
		return nil, subqueryRun{}, &parser.Error{Pos: x.ExistsPos, Msg: "a correlated EXISTS cannot have GROUP BY, HAVING, LIMIT or OFFSET"}
	}
	var conds []parser.Expr
	for _, in := range innerSide {
		sub.Items = append(sub.Items, parser.SelectItem{Expr: in})
		conds = append(conds, &parser.IsNullExpr{X: in, Not: true})
	}
	if sub.Where != nil {
		conds = append([]parser.Expr{sub.Where}, conds...)
	}
	sub.Where = andAll(conds)
	rows, err := e.runSubquery(ctx, &sub)
	if err != nil {
		return nil, subqueryRun{}, err
	}
	var lhs parser.Expr
	if len(outerSide) == 1 {
		lhs = outerSide[0]
	} else {
		lhs = &parser.TupleExpr{Lparen: parser.NoPos, Elems: outerSide}
	}
	list := distinctList(rows, len(outerSide))
	terms := []parser.Expr{inList(lhs, list, false)}
	for _, o := range outerSide {
		terms = append(terms, &parser.IsNullExpr{X: o, Not: true})
	}
	return andAll(terms),
		subqueryRun{op: "CLIENT SEMI JOIN", what: x.String(), query: sub.String(), rows: len(rows), vals: len(list), took: time.Since(start)}, nil
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
		attrs = append(attrs, r.batchAttrs(analyze)...)
		if analyze {
			attrs = append(attrs, planner.Attr{Label: "TIME", Value: r.took.Round(time.Microsecond).String()})
		}
		out = append(out, planner.Step{Op: r.op, Title: title, Attrs: attrs})
	}
	return out
}

// lookupSemiJoin answers a correlated [NOT] EXISTS that is a conjunct of
// s's WHERE by the keys of both tables, when the subquery alone would
// read its whole table but the outer conditions bind the outer read:
// the outer rows' distinct correlated values are read first (s's other
// conjuncts), then the subquery's rows for just those values (its
// equalities bound to them, which its planner plans by its key or an
// index: a multi-get or prefix scans), and the condition becomes
// (outer…) IN (the values found) as in the hash form. ok is false when
// the plan does not apply; the hash form then runs.
func (e *Engine) lookupSemiJoin(ctx context.Context, x *parser.ExistsExpr, sub *parser.SelectStmt, innerSide, outerSide []parser.Expr, s *parser.SelectStmt) (parser.Expr, subqueryRun, bool, error) {
	none := subqueryRun{}
	if len(s.Joins) > 0 || len(x.Select.GroupBy) > 0 || x.Select.Having != nil || x.Select.Limit >= 0 || x.Select.Offset > 0 {
		return nil, none, false, nil
	}
	var others []parser.Expr
	mine := false
	for _, t := range conjuncts(s.Where) {
		if t == parser.Expr(x) {
			mine = true
			continue
		}
		if u, ok := t.(*parser.UnaryExpr); ok && u.Op == parser.OpNot && u.X == parser.Expr(x) {
			mine = true
			continue
		}
		if parser.FirstSubquery(t) != nil {
			return nil, none, false, nil
		}
		others = append(others, t)
	}
	if !mine || len(others) == 0 {
		return nil, none, false, nil
	}
	notNull := func(xs []parser.Expr) []parser.Expr {
		var out []parser.Expr
		for _, x := range xs {
			out = append(out, &parser.IsNullExpr{X: x, Not: true})
		}
		return out
	}
	inner := func(extra ...parser.Expr) *parser.SelectStmt {
		q := *sub
		q.Star, q.Items, q.Distinct, q.AllowFullScan = false, nil, true, false
		q.GroupBy, q.Having, q.Order, q.Limit, q.Offset = nil, nil, nil, -1, 0
		for _, in := range innerSide {
			q.Items = append(q.Items, parser.SelectItem{Expr: in})
		}
		var conds []parser.Expr
		if sub.Where != nil {
			conds = append(conds, sub.Where)
		}
		q.Where = andAll(append(append(conds, notNull(innerSide)...), extra...))
		return &q
	}
	// Only when the subquery alone would read its whole table.
	if _, err := e.pl.Plan(ctx, inner()); err == nil || !errors.Is(err, planner.ErrFullScan) {
		return nil, none, false, nil
	}
	first := &parser.SelectStmt{Select: s.Select, Distinct: true, Table: s.Table, Alias: s.Alias, AsOf: s.AsOf, AsOfPos: s.AsOfPos,
		Hint: s.Hint, Where: andAll(append(others, notNull(outerSide)...)), Limit: -1}
	for _, o := range outerSide {
		first.Items = append(first.Items, parser.SelectItem{Expr: o})
	}
	if _, err := e.pl.Plan(ctx, first); err != nil {
		return nil, none, false, nil
	}
	start := time.Now()
	keys, err := e.runSubquery(ctx, first)
	if err != nil {
		return nil, none, true, err
	}
	var lhs, ilhs parser.Expr = outerSide[0], innerSide[0]
	if len(outerSide) > 1 {
		lhs = &parser.TupleExpr{Lparen: parser.NoPos, Elems: outerSide}
		ilhs = &parser.TupleExpr{Lparen: parser.NoPos, Elems: innerSide}
	}
	probe := distinctList(keys, len(outerSide))
	found, batch, ok, err := e.semiLookups(ctx, probe, func(vals []parser.Expr) *parser.SelectStmt {
		return inner(&parser.InExpr{X: ilhs, List: vals})
	})
	if err != nil || !ok {
		return nil, none, ok, err
	}
	list := distinctList(found, len(outerSide))
	terms := append([]parser.Expr{inList(lhs, list, false)}, notNull(outerSide)...)
	shown := inner(&parser.InExpr{X: ilhs, List: []parser.Expr{&parser.ColumnRef{NamePos: parser.NoPos, Name: fmt.Sprintf("<%d outer values>", len(probe))}}})
	return andAll(terms), subqueryRun{op: "CLIENT LOOKUP SEMI JOIN", what: x.String(),
		query: first.String() + "; then " + shown.String(), rows: len(found), vals: len(list), took: time.Since(start),
		outer: len(probe), batch: &batch}, true, nil
}
