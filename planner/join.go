package planner

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// JoinBatch is how many rows of the left side one lookup of a lookup
// join serves: their keys become one read of the joined table (one
// multi-get when they bind its whole key).
const JoinBatch = 100

// JoinKind is how a JoinStep finds the rows of its table.
type JoinKind int

const (
	// LookupJoin reads the joined table by key: each batch of JoinBatch
	// left rows becomes one plan of the table whose WHERE binds the
	// join columns to the batch's values (a point lookup, prefix scans
	// or an index lookup).
	LookupJoin JoinKind = iota
	// HashJoin reads the joined table once, holds its rows in memory by
	// their join values, and probes them with each left row.
	HashJoin
)

// Join is a leaf that joins tables left-deep: the rows of First, then
// each step's table joined to the rows before it. Its rows hold the
// columns of every table side by side (Row gives the layout), those of a
// table a LEFT JOIN found no row of NULL.
type Join struct {
	First *Select
	// FirstCols are the positions in the joined row of First's outputs.
	FirstCols []int
	Steps     []*JoinStep
	// Row is the joined row with every value NULL: its width and types.
	Row catalog.Row
}

// JoinStep joins one table to the rows before it.
type JoinStep struct {
	Table *catalog.Table
	// Name is the table's alias, or its name when it has none.
	Name string
	// Outer is LEFT JOIN.
	Outer bool
	Kind  JoinKind
	// LeftKeys are the positions in the joined row of the values the
	// table's join columns must equal; RightKeys the positions of those
	// columns among Right's outputs. Both are empty for a join with no
	// equality of columns, a hash join of every pair.
	LeftKeys, RightKeys []int
	// On names the equalities, for EXPLAIN.
	On []string
	// Cols are the positions in the joined row of Right's outputs.
	Cols []int
	// Right is the read of the table: for a hash join the whole read,
	// for a lookup join the read of one batch as EXPLAIN shows it.
	Right *Select
	// Cond is the rest of the join's condition, tested on each joined
	// pair (a LEFT JOIN keeps a left row no pair of which holds); nil
	// when none.
	Cond expr.Expr
	// Batch is how many left rows one lookup serves.
	Batch int

	lookup func(ctx context.Context, keys [][]catalog.Value) (*Select, error)
}

// JoinRun is what a join step measured while it ran, for EXPLAIN
// ANALYZE.
type JoinRun struct {
	LeftRows  int64 // rows of the tables before it
	Batches   int64 // lookups (one read of the table each), or 1 for a hash join
	Keys      int64 // distinct join values looked up
	RightRows int64 // rows of the table read
	RPCs      int64 // the store's round trips of a lookup join's reads
	Rows      int64 // joined rows passed on
}

// Lookup plans the read of the rows of a lookup join's table whose join
// columns equal one of keys (each in RightKeys' order).
func (s *JoinStep) Lookup(ctx context.Context, keys [][]catalog.Value) (*Select, error) {
	return s.lookup(ctx, keys)
}

// Input returns nil: a join is a leaf; its sides are plans of their own.
func (*Join) Input() Node { return nil }
func (*Join) node()       {}

// joinTable is one table of a join.
type joinTable struct {
	t    *catalog.Table
	name string // alias, or name
	// at maps the table's column to its position in the joined row; -1
	// for a hidden column.
	at []int
	// used are the columns the statement reads, in table order.
	used []int
	pos  parser.Pos
	// derived is the SELECT of a derived table; nil for a catalog
	// table. t is then the table of its outputs.
	derived *parser.SelectStmt
}

// joinBuild is a join being planned.
type joinBuild struct {
	pl     *Planner
	s      *parser.SelectStmt
	tables []*joinTable
	cols   []catalog.Column
	// items are the select items with every x.* and * written out.
	items []parser.SelectItem
	err   error
}

// joinPlan plans a SELECT with JOIN.
func (pl *Planner) joinPlan(ctx context.Context, s *parser.SelectStmt) (*Select, error) {
	switch {
	case s.AsOf != nil:
		return nil, errAt(s.AsOfPos, "AS OF cannot be used with JOIN yet: read each table as of the time apart")
	case s.Versions > 1:
		return nil, errAt(s.Select, "VERSIONS cannot be used with JOIN: a joined row holds one version of each table")
	case s.Raw:
		return nil, errAt(s.Select, "SELECT RAW cannot be used with JOIN")
	}
	if s.Derived != nil && s.Hint != nil {
		return nil, errAt(s.Hint.HintPos, "an index hint does not apply to a derived table: write it in its SELECT, after the table it reads")
	}
	b := &joinBuild{pl: pl.pinNow(), s: s}
	if err := b.addTable(ctx, s.Table, s.Alias, s.Derived); err != nil {
		return nil, err
	}
	for _, j := range s.Joins {
		if err := b.addTable(ctx, j.Table, j.Alias, j.Derived); err != nil {
			return nil, err
		}
	}
	if err := b.expandItems(); err != nil {
		return nil, err
	}
	b.markUsed()
	if b.err != nil {
		return nil, b.err
	}
	return b.plan(ctx)
}

func (b *joinBuild) addTable(ctx context.Context, id parser.Ident, alias string, derived *parser.SelectStmt) error {
	var t *catalog.Table
	var err error
	if derived != nil {
		t, _, err = b.pl.derivedTable(ctx, derived, alias, id.NamePos, b.s.AllowFullScan)
	} else {
		t, err = b.pl.table(id)
	}
	if err != nil {
		return err
	}
	name := id.Name
	if alias != "" {
		name = alias
	}
	for _, o := range b.tables {
		if o.name == name {
			return errAt(id.NamePos, "table name %s is used twice in FROM: give one of them an alias", name)
		}
	}
	jt := &joinTable{t: t, name: name, pos: id.NamePos, at: make([]int, len(t.Columns)), derived: derived}
	for i, c := range t.Columns {
		jt.at[i] = -1
		if c.Hidden {
			continue
		}
		jt.at[i] = len(b.cols)
		b.cols = append(b.cols, catalog.Column{Name: name + "." + c.Name, Type: c.Type, Map: c.Map})
	}
	b.tables = append(b.tables, jt)
	return nil
}

// tableOf finds the table a qualifier names: its alias, or its name.
func (b *joinBuild) tableOf(q string) int {
	for i, jt := range b.tables {
		if jt.name == q {
			return i
		}
	}
	for i, jt := range b.tables {
		if jt.t.Name == q {
			return i
		}
	}
	return -1
}

func (b *joinBuild) names() string {
	var out []string
	for _, jt := range b.tables {
		out = append(out, jt.name)
	}
	return strings.Join(out, ", ")
}

// resolve finds the table and column a name reads; aliases lists the
// select items' aliases, which an unqualified name may be instead.
func (b *joinBuild) resolve(r *parser.ColumnRef, aliases []string) (int, int, error) {
	if r.Table != "" {
		ti := b.tableOf(r.Table)
		if ti < 0 {
			return 0, 0, errAt(r.NamePos, "unknown table or alias %s in %s.%s (the statement reads %s)", r.Table, r.Table, r.Name, b.names())
		}
		jt := b.tables[ti]
		if ci, ok := jt.t.Column(r.Name); ok && jt.at[ci] >= 0 {
			return ti, ci, nil
		}
		return 0, 0, errAt(r.NamePos, "column %q does not exist in table %s (columns: %s)", r.Name, jt.t.Name, strings.Join(jt.t.ColumnNames(), ", "))
	}
	found, fi, fc := 0, -1, -1
	var in []string
	for i, jt := range b.tables {
		if ci, ok := jt.t.Column(r.Name); ok && jt.at[ci] >= 0 {
			found, fi, fc = found+1, i, ci
			in = append(in, jt.name)
		}
	}
	switch {
	case found == 1:
		return fi, fc, nil
	case found > 1:
		return 0, 0, errAt(r.NamePos, "column %s is ambiguous: it is in %s; qualify it, as %s.%s", r.Name, strings.Join(in, " and "), in[0], r.Name)
	case slices.Contains(aliases, r.Name):
		return -1, -1, nil
	}
	return 0, 0, errAt(r.NamePos, "column %q does not exist in tables %s", r.Name, b.names())
}

// rewrite copies e with each column name resolved: onto the joined row
// (to == -1), or, for a condition on table to alone, onto that table's
// own names. Names that are select aliases stay.
func (b *joinBuild) rewrite(e parser.Expr, to int, aliases []string) parser.Expr {
	return mapAST(e, func(r *parser.ColumnRef) parser.Expr {
		ti, ci, err := b.resolve(r, aliases)
		if err != nil {
			if b.err == nil {
				b.err = err
			}
			return r
		}
		if ti < 0 {
			return r
		}
		if to >= 0 {
			return &parser.ColumnRef{NamePos: r.NamePos, Name: b.tables[ti].t.Columns[ci].Name}
		}
		return &parser.ColumnRef{NamePos: r.NamePos, Name: b.cols[b.tables[ti].at[ci]].Name}
	})
}

// tablesOf lists the tables e reads, in order.
func (b *joinBuild) tablesOf(e parser.Expr) []int {
	var out []int
	walkAST(e, func(x parser.Expr) {
		if r, ok := x.(*parser.ColumnRef); ok {
			if ti, _, err := b.resolve(r, nil); err == nil && ti >= 0 && !slices.Contains(out, ti) {
				out = append(out, ti)
			}
		}
	})
	slices.Sort(out)
	return out
}

// expandItems writes out * and x.* as the columns they stand for.
func (b *joinBuild) expandItems() error {
	s := b.s
	all := func(jt *joinTable, pos parser.Pos) {
		for ci, c := range jt.t.Columns {
			if jt.at[ci] >= 0 {
				b.items = append(b.items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: pos, Table: jt.name, Name: c.Name}})
			}
		}
	}
	if s.Star {
		if isAggregate(s) {
			return errAt(s.Select, "SELECT * cannot be used with GROUP BY or aggregate functions; name the columns")
		}
		for _, jt := range b.tables {
			all(jt, s.Select)
		}
	}
	for _, it := range s.Items {
		if it.AllOf == "" {
			b.items = append(b.items, it)
			continue
		}
		ti := b.tableOf(it.AllOf)
		if ti < 0 {
			return errAt(it.AllOfPos, "unknown table or alias %s in %s.* (the statement reads %s)", it.AllOf, it.AllOf, b.names())
		}
		all(b.tables[ti], it.AllOfPos)
	}
	return nil
}

// aliases are the select items' aliases.
func (b *joinBuild) aliases() []string {
	var out []string
	for _, it := range b.items {
		if it.Alias != "" {
			out = append(out, it.Alias)
		}
	}
	return out
}

// markUsed records the columns of each table the statement reads.
func (b *joinBuild) markUsed() {
	al := b.aliases()
	mark := func(e parser.Expr, aliases []string) {
		walkAST(e, func(x parser.Expr) {
			r, ok := x.(*parser.ColumnRef)
			if !ok {
				return
			}
			ti, ci, err := b.resolve(r, aliases)
			if err != nil {
				if b.err == nil {
					b.err = err
				}
				return
			}
			if ti >= 0 && !slices.Contains(b.tables[ti].used, ci) {
				b.tables[ti].used = append(b.tables[ti].used, ci)
			}
		})
	}
	for _, it := range b.items {
		mark(it.Expr, nil)
	}
	mark(b.s.Where, nil)
	for _, j := range b.s.Joins {
		mark(j.On, nil)
	}
	mark(b.s.Having, al)
	for _, g := range b.s.GroupBy {
		mark(g, al)
	}
	for _, o := range b.s.Order {
		mark(o.Expr, al)
	}
	for _, jt := range b.tables {
		if len(jt.used) == 0 {
			// Nothing of it is read but that its rows exist: its first
			// column stands for it.
			for ci := range jt.t.Columns {
				if jt.at[ci] >= 0 {
					jt.used = []int{ci}
					break
				}
			}
		}
		slices.Sort(jt.used)
	}
}

// conjuncts splits e at its ANDs.
func astConjuncts(e parser.Expr) []parser.Expr {
	if e == nil {
		return nil
	}
	if be, ok := e.(*parser.BinaryExpr); ok && be.Op == parser.OpAnd {
		return append(astConjuncts(be.LHS), astConjuncts(be.RHS)...)
	}
	return []parser.Expr{e}
}

// plan routes each condition to the read it narrows, plans the reads and
// compiles the statement over the joined row.
func (b *joinBuild) plan(ctx context.Context) (*Select, error) {
	s := b.s
	n := len(b.tables)
	side := make([][]parser.Expr, n) // conditions on one table's rows
	on := make([][]parser.Expr, n)   // conditions of step i's pairs
	var post []parser.Expr           // conditions on the joined rows
	for i, j := range s.Joins {
		for _, c := range astConjuncts(j.On) {
			ts := b.tablesOf(c)
			if hasAggCall(c) {
				return nil, errAt(c.Pos(), "aggregate functions are not allowed in ON")
			}
			if len(ts) > 0 && ts[len(ts)-1] > i+1 {
				return nil, errAt(c.Pos(), "the ON of the JOIN of %s names %s, which is joined after it", b.tables[i+1].name, b.tables[ts[len(ts)-1]].name)
			}
			switch {
			case len(ts) == 1 && ts[0] == i+1:
				side[i+1] = append(side[i+1], c)
			case !j.Left && (len(ts) == 0 || len(ts) == 1 && ts[0] == 0):
				// An inner join drops every row of the first table the
				// condition fails on: its read may drop them first.
				side[0] = append(side[0], c)
			default:
				on[i+1] = append(on[i+1], c)
			}
		}
	}
	for _, c := range astConjuncts(s.Where) {
		ts := b.tablesOf(c)
		last := 0
		if len(ts) > 0 {
			last = ts[len(ts)-1]
		}
		switch {
		case last == 0:
			side[0] = append(side[0], c)
		case !s.Joins[last-1].Left && len(ts) == 1:
			side[last] = append(side[last], c)
		case !s.Joins[last-1].Left:
			on[last] = append(on[last], c)
		default:
			post = append(post, c)
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	j := &Join{}
	for _, c := range b.cols {
		j.Row = append(j.Row, catalog.Null(c.Type))
	}
	j.Row = append(j.Row, catalog.Null(catalog.TypeTimestamp))
	jc := catalog.Joined(b.tables[0].t.Name, b.cols)
	c := &compiler{ctx: ctx, t: jc, now: b.pl.opts.Now}
	first, err := b.sidePlan(ctx, 0, side[0], s.Hint)
	if err != nil {
		return nil, err
	}
	j.First, j.FirstCols = first, b.positions(0)
	for i := 1; i < n; i++ {
		st, err := b.step(ctx, c, i, side[i], on[i])
		if err != nil {
			return nil, err
		}
		j.Steps = append(j.Steps, st)
	}
	return b.top(ctx, c, jc, j, post)
}

// positions are the joined-row positions of table i's read columns.
func (b *joinBuild) positions(i int) []int {
	jt := b.tables[i]
	out := make([]int, len(jt.used))
	for k, ci := range jt.used {
		out[k] = jt.at[ci]
	}
	return out
}

// sideStmt is the SELECT of table i's used columns under conds.
func (b *joinBuild) sideStmt(i int, conds []parser.Expr, hint *parser.IndexHint) *parser.SelectStmt {
	jt := b.tables[i]
	st := &parser.SelectStmt{Select: b.s.Select, Table: parser.Ident{NamePos: jt.pos, Name: jt.t.Name}, Hint: hint, Limit: NoLimit, AllowFullScan: b.s.AllowFullScan}
	if jt.derived != nil {
		st.Table.Name, st.Derived, st.Alias, st.Hint = "", jt.derived, jt.name, nil
	}
	for _, ci := range jt.used {
		st.Items = append(st.Items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: jt.pos, Name: jt.t.Columns[ci].Name}})
	}
	var ws []parser.Expr
	for _, c := range conds {
		ws = append(ws, b.rewrite(c, i, nil))
	}
	if len(ws) > 0 {
		st.Where = andOf(ws)
	}
	return st
}

func (b *joinBuild) sidePlan(ctx context.Context, i int, conds []parser.Expr, hint *parser.IndexHint) (*Select, error) {
	st := b.sideStmt(i, conds, hint)
	if b.err != nil {
		return nil, b.err
	}
	sel, err := b.pl.selectPlan(ctx, st)
	if err != nil {
		return nil, err
	}
	return sel, nil
}

// step plans the join of table i: its equalities with the tables before
// it, then a lookup when they (with the conditions on the table alone)
// narrow its read, otherwise a hash join of one read of it.
func (b *joinBuild) step(ctx context.Context, c *compiler, i int, side, on []parser.Expr) (*JoinStep, error) {
	jt := b.tables[i]
	jn := b.s.Joins[i-1]
	st := &JoinStep{Table: jt.t, Name: jt.name, Outer: jn.Left, Cols: b.positions(i), Batch: JoinBatch}
	var keyCols []int // table i's columns, in LeftKeys' order
	var rest []parser.Expr
	for _, cond := range on {
		if lc, rc, ok := b.equality(cond, i); ok {
			if !slices.Contains(keyCols, rc) {
				keyCols = append(keyCols, rc)
				st.LeftKeys = append(st.LeftKeys, lc)
				st.RightKeys = append(st.RightKeys, slices.Index(jt.used, rc))
				st.On = append(st.On, cond.String())
				continue
			}
		}
		rest = append(rest, cond)
	}
	if len(rest) > 0 {
		var ws []parser.Expr
		for _, r := range rest {
			ws = append(ws, b.rewrite(r, -1, nil))
		}
		if b.err != nil {
			return nil, b.err
		}
		w, err := c.foldConstants(andOf(ws))
		if err != nil {
			return nil, err
		}
		if st.Cond, err = c.pred(w); err != nil {
			return nil, err
		}
	}
	base := b.sideStmt(i, side, nil)
	if b.err != nil {
		return nil, b.err
	}
	batch := func(ctx context.Context, keys [][]catalog.Value) (*Select, error) {
		q := *base
		q.AllowFullScan = false
		in := keysIn(jt, keyCols, keys, jt.pos)
		if q.Where != nil {
			q.Where = &parser.BinaryExpr{Op: parser.OpAnd, LHS: in, RHS: q.Where}
		} else {
			q.Where = in
		}
		return b.pl.selectPlan(ctx, &q)
	}
	if len(keyCols) > 0 && jt.derived == nil {
		// A derived table has no rowkey: it is never read by key.
		var probe []catalog.Value
		for _, kc := range keyCols {
			probe = append(probe, probeValue(jt.t.Columns[kc].Type))
		}
		tmpl, err := batch(ctx, [][]catalog.Value{probe})
		if err == nil && b.narrows(ctx, tmpl, base) {
			st.Kind, st.Right, st.lookup = LookupJoin, tmpl, batch
			if direct := pointBatch(tmpl, keyCols); direct != nil {
				st.lookup = func(ctx context.Context, keys [][]catalog.Value) (*Select, error) {
					if sel, ok := direct(keys); ok {
						return sel, nil
					}
					return batch(ctx, keys)
				}
			}
			return st, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	st.Kind = HashJoin
	right, err := b.pl.selectPlan(ctx, base)
	if err != nil {
		return nil, err
	}
	st.Right = right
	return st, nil
}

// pointBatch returns, for a lookup whose plan of one key is a point
// lookup of the data table that the join columns alone bind (every key
// field, and no random component), a faster way to the plan of a batch:
// the same plan over the batch's keys, encoded as the catalog writes
// them, with no planning. It returns nil for any other plan, and its
// function reports false for a batch it cannot encode, which is then
// planned as usual.
func pointBatch(tmpl *Select, keyCols []int) func(keys [][]catalog.Value) (*Select, bool) {
	acc := tmpl.Access
	if acc == nil || acc.Kind != PointLookup || acc.Union > 0 || tmpl.IndexLookup() != nil || len(acc.Ranges) != 1 {
		return nil
	}
	t := acc.Table
	for _, c := range t.Key.Components {
		if c.Kind == catalog.KindRandom {
			return nil
		}
	}
	kc := t.KeyColumns()
	if len(kc) != len(keyCols) {
		return nil
	}
	for _, c := range kc {
		if !slices.Contains(keyCols, c) {
			return nil
		}
	}
	path := Path(tmpl.Root)
	for _, n := range path[1:] {
		if _, ok := n.(*Filter); !ok {
			return nil
		}
	}
	return func(keys [][]catalog.Value) (*Select, bool) {
		a := *acc
		a.Ranges = nil
		seen := map[string]bool{}
		row := t.NewRow()
		for _, k := range keys {
			for i, c := range keyCols {
				if k[i].Null || k[i].Type != t.Columns[c].Type {
					return nil, false
				}
				row[c] = k[i]
			}
			key, err := t.EncodeKey(row, nil)
			if err != nil || len(key) == 0 {
				return nil, false
			}
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			a.Ranges = append(a.Ranges, KeyRange{Start: key, Point: true})
		}
		slices.SortFunc(a.Ranges, func(x, y KeyRange) int { return bytes.Compare(x.Start, y.Start) })
		sel := *tmpl
		sel.Access = &a
		var root Node = &a
		for _, n := range path[1:] {
			f := *n.(*Filter)
			f.In = root
			root = &f
		}
		sel.Root = root
		return &sel, true
	}
}

// narrows reports whether the read of one join value, probe, reads the
// table by the join columns: by key, not whole, and by other ranges or
// another index than the read of the table's own conditions, base.
func (b *joinBuild) narrows(ctx context.Context, probe *Select, base *parser.SelectStmt) bool {
	pa := probe.Access
	if pa == nil || pa.Kind == FullScan || pa.Kind == EmptyResult {
		return false // a union of OR branches, or no read at all
	}
	all := *base
	all.AllowFullScan = true
	bs, err := b.pl.selectPlan(ctx, &all)
	if err != nil || bs.Access == nil {
		return err == nil
	}
	ba := bs.Access
	if ba.Kind == FullScan || ba.Table != pa.Table || len(ba.Ranges) != len(pa.Ranges) {
		return true
	}
	for i, r := range pa.Ranges {
		if !bytes.Equal(r.Start, ba.Ranges[i].Start) || !bytes.Equal(r.Stop, ba.Ranges[i].Stop) {
			return true
		}
	}
	return false
}

// equality reports whether cond is col = col between a column of table i
// and one of a table before it, of one type that compares by its bytes
// (DOUBLE's -0 and NaN stay conditions): the left column's joined-row
// position and table i's column.
func (b *joinBuild) equality(cond parser.Expr, i int) (int, int, bool) {
	be, ok := cond.(*parser.BinaryExpr)
	if !ok || be.Op != parser.OpEq {
		return 0, 0, false
	}
	l, lok := be.LHS.(*parser.ColumnRef)
	r, rok := be.RHS.(*parser.ColumnRef)
	if !lok || !rok {
		return 0, 0, false
	}
	lt, lc, err1 := b.resolve(l, nil)
	rt, rc, err2 := b.resolve(r, nil)
	if err1 != nil || err2 != nil || lt < 0 || rt < 0 {
		return 0, 0, false
	}
	if lt == i {
		lt, lc, rt, rc = rt, rc, lt, lc
	}
	if rt != i || lt >= i {
		return 0, 0, false
	}
	ltyp, rtyp := b.tables[lt].t.Columns[lc].Type, b.tables[rt].t.Columns[rc].Type
	switch {
	case ltyp != rtyp, ltyp == catalog.TypeDouble, ltyp == catalog.TypeMap:
		return 0, 0, false
	}
	return b.tables[lt].at[lc], rc, true
}

// keysIn is the condition that table jt's columns cols equal one of keys:
// col IN (…) for one column, (a, b) IN ((…), (…)) for more.
func keysIn(jt *joinTable, cols []int, keys [][]catalog.Value, pos parser.Pos) parser.Expr {
	ref := func(ci int) parser.Expr { return &parser.ColumnRef{NamePos: pos, Name: jt.t.Columns[ci].Name} }
	if len(cols) == 1 {
		in := &parser.InExpr{X: ref(cols[0])}
		for _, k := range keys {
			in.List = append(in.List, literalOf(k[0], pos))
		}
		return in
	}
	tu := &parser.TupleExpr{Lparen: pos}
	for _, ci := range cols {
		tu.Elems = append(tu.Elems, ref(ci))
	}
	in := &parser.InExpr{X: tu}
	for _, k := range keys {
		row := &parser.TupleExpr{Lparen: pos}
		for _, v := range k {
			row.Elems = append(row.Elems, literalOf(v, pos))
		}
		in.List = append(in.List, row)
	}
	return in
}

// probeValue is a value of type t that stands for a join value while the
// join is planned: the plan of a lookup of it shows how every batch
// reads.
func probeValue(t catalog.Type) catalog.Value {
	switch t {
	case catalog.TypeBigint:
		return catalog.Bigint(1)
	case catalog.TypeInt:
		return catalog.Int(1)
	case catalog.TypeBoolean:
		return catalog.Bool(true)
	case catalog.TypeTimestamp:
		return catalog.TimestampMillis(1)
	case catalog.TypeDate:
		return catalog.DateDays(1)
	case catalog.TypeBytes:
		return catalog.Bytes([]byte{'1'})
	}
	return catalog.String("1")
}

// top compiles the statement over the joined row and builds the steps
// above the join: the conditions left, the aggregation or the sort,
// DISTINCT, the projection and the limit.
func (b *joinBuild) top(ctx context.Context, c *compiler, jc *catalog.Table, j *Join, post []parser.Expr) (*Select, error) {
	s := b.s
	al := b.aliases()
	js := &parser.SelectStmt{Select: s.Select, Distinct: s.Distinct, Table: parser.Ident{NamePos: s.Table.NamePos, Name: jc.Name},
		Limit: s.Limit, Offset: s.Offset, AllowFullScan: true}
	for _, it := range b.items {
		js.Items = append(js.Items, parser.SelectItem{Expr: b.rewrite(it.Expr, -1, nil), Alias: it.Alias})
	}
	var ws []parser.Expr
	for _, p := range post {
		ws = append(ws, b.rewrite(p, -1, nil))
	}
	if len(ws) > 0 {
		js.Where = andOf(ws)
	}
	if s.Having != nil {
		js.Having = b.rewrite(s.Having, -1, al)
	}
	for _, g := range s.GroupBy {
		js.GroupBy = append(js.GroupBy, b.rewrite(g, -1, al))
	}
	for _, o := range s.Order {
		o.Expr = b.rewrite(o.Expr, -1, al)
		js.Order = append(js.Order, o)
	}
	if b.err != nil {
		return nil, b.err
	}
	sb := &selectBuild{pl: b.pl, s: js, c: c}
	if err := sb.compile(); err != nil {
		return nil, err
	}
	sel, sh := sb.sel, sb.sh
	sel.Table = j.First.Table
	// A column is named as the query names it, without its table.
	if len(sel.Output) == len(b.items) {
		for i, it := range b.items {
			if r, ok := it.Expr.(*parser.ColumnRef); ok && it.Alias == "" {
				sel.Output[i].Name = r.Name
			}
		}
	}
	sel.Root = sb.clientTop(j)
	for i, st := range j.Steps {
		switch {
		case st.Kind == HashJoin && b.tables[i+1].derived != nil:
			sel.Notes = append(sel.Notes, fmt.Sprintf("%s is a derived table, which has no rowkey, so the client reads it once and holds its rows in memory (HASH JOIN).", st.Name))
		case st.Kind == HashJoin:
			sel.Notes = append(sel.Notes, fmt.Sprintf("nothing binds the key of %s to the rows before it, so the client reads it once and holds its rows in memory (HASH JOIN).", st.Table.Name))
		}
	}
	sel.Notes = append(sel.Notes, sh.hashNote()...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return sel, nil
}

// mapAST copies e with fn's expression in place of each column name.
func mapAST(e parser.Expr, fn func(*parser.ColumnRef) parser.Expr) parser.Expr {
	if e == nil {
		return nil
	}
	m := func(x parser.Expr) parser.Expr { return mapAST(x, fn) }
	ms := func(xs []parser.Expr) []parser.Expr {
		if xs == nil {
			return nil
		}
		out := make([]parser.Expr, len(xs))
		for i, x := range xs {
			out[i] = m(x)
		}
		return out
	}
	switch e := e.(type) {
	case *parser.ColumnRef:
		return fn(e)
	case *parser.BinaryExpr:
		c := *e
		c.LHS, c.RHS = m(e.LHS), m(e.RHS)
		return &c
	case *parser.UnaryExpr:
		c := *e
		c.X = m(e.X)
		return &c
	case *parser.BetweenExpr:
		c := *e
		c.X, c.Lo, c.Hi = m(e.X), m(e.Lo), m(e.Hi)
		return &c
	case *parser.InExpr:
		c := *e
		c.X, c.List = m(e.X), ms(e.List)
		return &c
	case *parser.LikeExpr:
		c := *e
		c.X, c.Pattern, c.Escape = m(e.X), m(e.Pattern), m(e.Escape)
		return &c
	case *parser.TupleExpr:
		c := *e
		c.Elems = ms(e.Elems)
		return &c
	case *parser.IsNullExpr:
		c := *e
		c.X = m(e.X)
		return &c
	case *parser.CallExpr:
		c := *e
		c.Args = ms(e.Args)
		return &c
	case *parser.CastExpr:
		c := *e
		c.X = m(e.X)
		return &c
	case *parser.SubscriptExpr:
		c := *e
		c.Key = m(e.Key)
		if r, ok := m(e.X).(*parser.ColumnRef); ok {
			c.X = r
		}
		return &c
	case *parser.CaseExpr:
		c := *e
		c.Operand, c.Else = m(e.Operand), m(e.Else)
		c.Whens = slices.Clone(e.Whens)
		for i := range c.Whens {
			c.Whens[i].Cond, c.Whens[i].Result = m(e.Whens[i].Cond), m(e.Whens[i].Result)
		}
		return &c
	}
	return e
}
