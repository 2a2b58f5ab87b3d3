package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// A derived table, FROM (SELECT …) AS d, is planned in two parts: its
// SELECT is planned on its own against the catalog, as any statement is
// (by its keys, its indexes, the store's aggregates), and the query
// around it runs in the client over the rows that plan yields, as over
// the rows of a join: a table made of the SELECT's outputs, which has no
// rowkey, so its WHERE is a client filter and it is never the side of a
// join read by key.
//
// Its columns are the SELECT's outputs, named as its result names them:
// an item's alias, a column's name, a function's name in lower case
// (count, sum). Any other expression needs an alias, and two columns of
// one name are refused, since the query around could not tell them
// apart.

// Derived is a leaf that yields the rows of a derived table: the
// outputs of Inner, its SELECT's plan, one value per column of Cols.
type Derived struct {
	// Name is the derived table's alias.
	Name string
	// Query is its SELECT, as written.
	Query string
	Inner *Select
	Cols  []catalog.Column
}

// Input returns nil: a derived table is a leaf; its SELECT is a plan of
// its own.
func (*Derived) Input() Node { return nil }
func (*Derived) node()       {}

// DerivedRun is what a derived table measured while it ran, for EXPLAIN
// ANALYZE.
type DerivedRun struct {
	Rows int64 // rows its SELECT yielded
}

// DerivedPlacing is a Placing that also has the placement of each
// derived table's SELECT, placed as a plan of its own, and what it
// measured.
type DerivedPlacing interface {
	// DerivedPlaced is the placing of d.Inner; nil when it was not
	// placed.
	DerivedPlaced(d *Derived) Placing
	// DerivedRun is what d measured; nil before any run.
	DerivedRun(d *Derived) *DerivedRun
}

// derivedTable plans the SELECT of derived table alias and returns the
// table of its outputs. The ALLOW FULL SCAN of the query around it
// (allowFull) is its SELECT's too.
func (pl *Planner) derivedTable(ctx context.Context, sub *parser.SelectStmt, alias string, at parser.Pos, allowFull bool) (*catalog.Table, *Select, error) {
	if allowFull && !sub.AllowFullScan {
		c := *sub
		c.AllowFullScan = true
		sub = &c
	}
	if err := uncorrelated(sub, alias); err != nil {
		return nil, nil, err
	}
	for _, it := range sub.Items {
		if it.Expr == nil || it.Alias != "" {
			continue
		}
		switch it.Expr.(type) {
		case *parser.ColumnRef, *parser.CallExpr:
			continue
		}
		return nil, nil, errAt(it.Expr.Pos(), "column %s of derived table %s has no name: give it an alias, as %s AS x", it.Expr, alias, it.Expr)
	}
	inner, err := pl.selectPlan(ctx, sub)
	if err != nil {
		return nil, nil, err
	}
	if inner.Raw {
		return nil, nil, errAt(sub.Select, "a derived table cannot be SELECT RAW")
	}
	cols := make([]catalog.Column, len(inner.Output))
	for i, o := range inner.Output {
		for _, p := range inner.Output[:i] {
			if p.Name == o.Name {
				return nil, nil, errAt(at, "derived table %s has two columns named %s: give one of them another alias", alias, o.Name)
			}
		}
		if o.Type == catalog.TypeMap {
			return nil, nil, errAt(at, "derived table %s cannot hold MAP column %s: select its entries, as %s['key'] AS x", alias, o.Name, o.Name)
		}
		cols[i] = catalog.Column{Name: o.Name, Type: o.Type}
	}
	return catalog.Joined(alias, cols), inner, nil
}

// fromNames are the names the FROM of s gives its tables: each alias or
// table name.
func fromNames(s *parser.SelectStmt) []string {
	var out []string
	add := func(id parser.Ident, alias string, derived bool) {
		if alias != "" {
			out = append(out, alias)
		}
		if !derived {
			out = append(out, id.Name)
		}
	}
	add(s.Table, s.Alias, s.Derived != nil)
	for _, j := range s.Joins {
		add(j.Table, j.Alias, j.Derived != nil)
	}
	return out
}

// uncorrelated refuses a derived table's SELECT that names a table it
// does not read: one of the query around it, which a derived table
// cannot read (it is planned on its own).
func uncorrelated(sub *parser.SelectStmt, alias string) error {
	names := fromNames(sub)
	var bad *parser.ColumnRef
	look := func(e parser.Expr) {
		walkAST(e, func(x parser.Expr) {
			if r, ok := x.(*parser.ColumnRef); ok && bad == nil && r.Table != "" && !slices.Contains(names, r.Table) {
				bad = r
			}
		})
	}
	for _, it := range sub.Items {
		look(it.Expr)
		if it.AllOf != "" && !slices.Contains(names, it.AllOf) {
			return errAt(it.AllOfPos, "unknown table or alias %s in %s.* (the SELECT of derived table %s reads %s)", it.AllOf, it.AllOf, alias, strings.Join(names, ", "))
		}
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
	if bad != nil {
		return errAt(bad.NamePos, "derived table %s reads %s, but its SELECT reads no table %s: a derived table cannot refer to the query around it (it is planned on its own, not correlated)", alias, bad, bad.Table)
	}
	return nil
}

// derivedPlan plans a SELECT from a derived table: the derived table's
// plan, and the statement's steps in the client over its rows.
func (pl *Planner) derivedPlan(ctx context.Context, s *parser.SelectStmt) (*Select, error) {
	switch {
	case s.Hint != nil:
		return nil, errAt(s.Hint.HintPos, "an index hint does not apply to a derived table: write it in its SELECT, after the table it reads")
	case s.Versions > 0:
		return nil, errAt(s.Select, "VERSIONS does not apply to a derived table: write it in its SELECT")
	case s.Raw:
		return nil, errAt(s.Select, "SELECT RAW cannot read a derived table")
	}
	pl = pl.pinNow()
	sub, where, pushed := pl.pushInto(s)
	sub = pl.pruneStar(sub, s, where)
	dt, inner, err := pl.derivedTable(ctx, sub, s.Alias, s.Table.NamePos, s.AllowFullScan)
	if err != nil {
		return nil, err
	}
	js := *s
	js.Derived, js.Alias, js.AllowFullScan, js.Where = nil, "", true, where
	js.Table = parser.Ident{NamePos: s.Table.NamePos, Name: s.Alias}
	if err := noPseudo(&js, dt); err != nil {
		return nil, err
	}
	q, err := qualify(&js, dt)
	if err != nil {
		return nil, err
	}
	sb := &selectBuild{pl: pl, s: q, c: &compiler{ctx: ctx, t: dt, now: pl.opts.Now}}
	if err := sb.compile(); err != nil {
		return nil, err
	}
	sel := sb.sel
	sel.Table = inner.Table
	d := &Derived{Name: s.Alias, Query: sub.String(), Inner: inner, Cols: dt.Columns}
	sel.Root = sb.clientTop(d)
	if len(pushed) > 0 {
		sel.Notes = append(sel.Notes, fmt.Sprintf("%s of the WHERE %s tested in the SELECT of %s, before its rows leave it, where %s its read.",
			strings.Join(pushed, " AND "), map[bool]string{true: "is", false: "are"}[len(pushed) == 1], s.Alias, map[bool]string{true: "it may narrow", false: "they may narrow"}[len(pushed) == 1]))
	}
	sel.Notes = append(sel.Notes, sb.sh.hashNote()...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return sel, nil
}

// noPseudo refuses _ts and _key of a derived table that does not select
// them: its rows are no table's rows.
func noPseudo(s *parser.SelectStmt, dt *catalog.Table) error {
	var bad *parser.ColumnRef
	look := func(e parser.Expr) {
		walkAST(e, func(x parser.Expr) {
			if r, ok := x.(*parser.ColumnRef); ok && bad == nil && (r.Name == TsColumn || r.Name == KeyColumn) {
				if _, ok := dt.Column(r.Name); !ok {
					bad = r
				}
			}
		})
	}
	for _, it := range s.Items {
		look(it.Expr)
	}
	look(s.Where)
	look(s.Having)
	for _, g := range s.GroupBy {
		look(g)
	}
	for _, o := range s.Order {
		look(o.Expr)
	}
	if bad != nil {
		return errAt(bad.NamePos, "derived table %s has no %s: select it in its SELECT, as %s AS x (columns: %s)", dt.Name, bad.Name, bad.Name, strings.Join(dt.ColumnNames(), ", "))
	}
	return nil
}

// clientTop builds the client steps of a statement compiled over the
// rows of a leaf that is no read of a table (a join, a derived table):
// the WHERE's filter, the sort, DISTINCT, then what the statement
// computes on top.
func (sb *selectBuild) clientTop(leaf Node) Node {
	s, sel, sh := sb.s, sb.sel, sb.sh
	root := leaf
	if sb.where != nil {
		root = &Filter{Cond: sb.where, In: root}
	}
	var sorter *Sort
	if sh.agg == nil && len(sb.order) > 0 && !sh.count {
		limit := s.Limit
		if limit != NoLimit {
			limit += s.Offset
		}
		sorter = &Sort{Keys: sb.order, Limit: limit}
	}
	if sh.distinctRows {
		d := &Distinct{In: root}
		for _, o := range sel.Output {
			d.Cols = append(d.Cols, o.Col())
			d.Names = append(d.Names, o.Name)
		}
		root = d
	}
	if sorter != nil {
		sorter.In = root
		for _, o := range sel.Output {
			sorter.Keep = append(sorter.Keep, expr.ScalarColumns(o.Expr)...)
		}
		for _, k := range sorter.Keys {
			sorter.Keep = append(sorter.Keep, k.Col)
		}
		root = sorter
	}
	return sh.top(root, s)
}

// derivedOf returns the derived table at the leaf of sel, if any.
func derivedOf(sel *Select) (*Derived, bool) {
	if sel == nil {
		return nil, false
	}
	return Find[*Derived](sel.Root)
}

// explainDerived builds the model of a plan whose leaf is a derived
// table: its SELECT's steps, each titled with its name, then the
// derived table's node and the steps above it.
func (s *Select) explainDerived(d *Derived, env ExplainEnv, an *Analysis, pl Placing) *Explained {
	e := &Explained{}
	var inner Placing = unplaced{}
	var run *DerivedRun
	if dp, ok := pl.(DerivedPlacing); ok {
		if p := dp.DerivedPlaced(d); p != nil {
			inner = p
		}
		run = dp.DerivedRun(d)
	}
	ie := d.Inner.ExplainPlaced(env, nil, inner)
	for _, st := range ie.Steps {
		st.Title = fmt.Sprintf("DERIVED TABLE %s: %s", d.Name, st.Title)
		st.Attrs = append([]Attr{{Label: "derived table", Value: d.Name, Detail: true}}, st.Attrs...)
		e.Steps = append(e.Steps, st)
	}
	var cols []string
	for _, c := range d.Cols {
		cols = append(cols, c.Name+" "+c.Type.String())
	}
	st := Step{Op: "CLIENT DERIVED TABLE", Title: fmt.Sprintf("CLIENT DERIVED TABLE %s (%s)", d.Name, strings.Join(names2(d.Cols), ", ")),
		Attrs: []Attr{
			{Label: "QUERY", Value: d.Query},
			{Label: "COLUMNS", Value: strings.Join(cols, ", ")},
			{Label: "ROWS", Value: "the rows of its SELECT, streamed to the steps above; they have no rowkey, so every step above runs in the client"},
			{Label: "name", Value: d.Name, Detail: true},
		}}
	if run != nil {
		st.Attrs = append(st.Attrs, Attr{Label: "ANALYZE", Value: fmt.Sprintf("rows of %s %d", d.Name, run.Rows)},
			Attr{Label: "derived rows", Value: run.Rows, Detail: true})
	}
	e.Steps = append(e.Steps, st)
	for _, n := range Path(s.Root)[1:] {
		e.Steps = append(e.Steps, explainNode(n, pl)...)
	}
	e.Plan = append(e.Plan, Attr{Label: "COST", Value: d.Name + ": " + costOf(ie)})
	var notes []string
	for _, n := range d.Inner.Notes {
		notes = append(notes, d.Name+": "+n)
	}
	if notes = append(notes, s.Notes...); len(notes) > 0 {
		e.Plan = append(e.Plan, Attr{Label: "NOTE", Value: notes})
	}
	if an != nil {
		e.Plan = append(e.Plan, analysisAttrs(an, len(d.Inner.IndexLookups()) > 0)...)
	}
	return e
}

func names2(cols []catalog.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// pushInto moves the conjuncts of s's WHERE that read only columns of
// its derived table into the derived table's SELECT, where that is
// exact: a SELECT that neither aggregates nor drops nor limits rows
// (no GROUP BY, HAVING, aggregate, DISTINCT, LIMIT, OFFSET, VERSIONS),
// each of whose rows is one output row, so that a condition on an
// output is the same condition on the expression it selects, tested
// before the projection. It returns the derived table's SELECT, the
// WHERE left to the client, and the conjuncts moved, as written.
func (pl *Planner) pushInto(s *parser.SelectStmt) (*parser.SelectStmt, parser.Expr, []string) {
	sub := s.Derived
	if s.Where == nil || sub.Distinct || sub.Raw || sub.Limit != NoLimit || sub.Offset > 0 || sub.Versions > 1 || isAggregate(sub) {
		return sub, s.Where, nil
	}
	cols := map[string]parser.Expr{}
	star := sub.Star
	for _, it := range sub.Items {
		star = star || it.AllOf != ""
	}
	if star {
		if len(sub.Joins) > 0 || sub.Derived != nil {
			return sub, s.Where, nil
		}
		t, ok := pl.cat.Table(sub.Table.Name)
		if !ok {
			return sub, s.Where, nil
		}
		for _, c := range t.Columns {
			if !c.Hidden {
				cols[c.Name] = &parser.ColumnRef{NamePos: sub.Table.NamePos, Name: c.Name}
			}
		}
	}
	for _, it := range sub.Items {
		if it.Expr == nil {
			continue
		}
		name := it.Alias
		if name == "" {
			switch x := it.Expr.(type) {
			case *parser.ColumnRef:
				name = x.Name
			case *parser.CallExpr:
				name = strings.ToLower(x.Name)
			}
		}
		if _, dup := cols[name]; dup || name == "" {
			// Refused by derivedTable, or unnamed: nothing is moved.
			return sub, s.Where, nil
		}
		cols[name] = it.Expr
	}
	var keep, moved []parser.Expr
	var pushed []string
	for _, c := range astConjuncts(s.Where) {
		ok := !hasAggCall(c) && parser.FirstSubquery(c) == nil
		walkAST(c, func(x parser.Expr) {
			if r, isRef := x.(*parser.ColumnRef); isRef {
				_, known := cols[r.Name]
				ok = ok && known && (r.Table == "" || r.Table == s.Alias)
			}
		})
		if !ok {
			keep = append(keep, c)
			continue
		}
		moved = append(moved, mapAST(c, func(r *parser.ColumnRef) parser.Expr { return cols[r.Name] }))
		pushed = append(pushed, c.String())
	}
	if len(moved) == 0 {
		return sub, s.Where, nil
	}
	c := *sub
	if sub.Where != nil {
		moved = append([]parser.Expr{sub.Where}, moved...)
	}
	c.Where = andOf(moved)
	var where parser.Expr
	if len(keep) > 0 {
		where = andOf(keep)
	}
	return &c, where, pushed
}

// pruneStar writes out the * of a derived table's SELECT of one catalog
// table as the columns the statement around it reads, so that the read
// fetches only those: when the statement reads neither * nor d.*, and
// the SELECT has no DISTINCT (which compares whole rows) and no ORDER BY
// by position. where is the WHERE left to the statement.
func (pl *Planner) pruneStar(sub, s *parser.SelectStmt, where parser.Expr) *parser.SelectStmt {
	if !sub.Star || sub.Distinct || len(sub.Joins) > 0 || sub.Derived != nil || s.Star {
		return sub
	}
	for _, o := range sub.Order {
		if _, pos := o.Expr.(*parser.IntLit); pos {
			return sub
		}
	}
	t, ok := pl.cat.Table(sub.Table.Name)
	if !ok {
		return sub
	}
	used := map[string]bool{}
	look := func(e parser.Expr) {
		walkAST(e, func(x parser.Expr) {
			if r, ok := x.(*parser.ColumnRef); ok && (r.Table == "" || r.Table == s.Alias) {
				used[r.Name] = true
			}
		})
	}
	for _, it := range s.Items {
		if it.AllOf != "" {
			return sub
		}
		look(it.Expr)
	}
	look(where)
	look(s.Having)
	for _, g := range s.GroupBy {
		look(g)
	}
	for _, o := range s.Order {
		look(o.Expr)
	}
	for _, it := range sub.Items {
		if it.AllOf != "" {
			return sub
		}
	}
	// A name of no column stays an error against every column.
	known := map[string]bool{}
	for _, col := range t.Columns {
		known[col.Name] = !col.Hidden
	}
	for _, it := range s.Items {
		if it.Alias != "" {
			known[it.Alias] = true // ORDER BY or HAVING may name it
		}
	}
	for _, it := range sub.Items {
		switch r, ok := it.Expr.(*parser.ColumnRef); {
		case it.Alias != "":
			known[it.Alias] = true
		case ok:
			known[r.Name] = true
		}
	}
	for n := range used {
		if !known[n] {
			return sub
		}
	}
	c := *sub
	c.Star, c.Items = false, nil
	for _, col := range t.Columns {
		if !col.Hidden && (used[col.Name] || len(c.Items) == 0 && len(used) == 0) {
			c.Items = append(c.Items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: sub.Select, Name: col.Name}})
		}
	}
	c.Items = append(c.Items, sub.Items...)
	if len(c.Items) == 0 {
		return sub
	}
	return &c
}
