package planner

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// maxOrDepth is how deep planKeysOr looks into ORs nested in the
// branches of an OR, and maxOrPlans how many key plans it makes at most
// for one access, however many ORs the WHERE clause holds.
const (
	maxOrDepth = 3
	maxOrPlans = 256
)

// planKeysOr plans the key ranges of t as planKeys does, and tries each
// OR among the conjuncts as a union: when every branch, with the other
// conjuncts, binds the key, the access reads the union of the branches'
// ranges, merged so that no row is read twice. The union is taken only
// when it fixes more of the key than the plan without it. Nothing of the
// WHERE clause is absorbed by a union: every row read is tested against
// all of it, so a row that two branches reach is returned once.
func planKeysOr(ctx context.Context, t *catalog.Table, conj []expr.Expr, lim Limits) (*keyPlan, error) {
	budget := maxOrPlans
	return planKeysOrDepth(ctx, t, conj, lim.withDefaults(), maxOrDepth, &budget)
}

func planKeysOrDepth(ctx context.Context, t *catalog.Table, conj []expr.Expr, lim Limits, depth int, budget *int) (*keyPlan, error) {
	*budget--
	best, err := planKeys(ctx, t, conj, lim)
	if err != nil || best.points || best.empty || depth == 0 || *budget <= 0 {
		return best, err
	}
	for i, p := range conj {
		or, ok := p.(*expr.Or)
		if !ok || len(or.Terms) < 2 {
			continue
		}
		rest := slices.Concat(conj[:i:i], conj[i+1:])
		u, err := unionOf(ctx, t, or, rest, lim, depth, budget)
		if err != nil {
			return nil, err
		}
		if u != nil && betterKeys(u, best) {
			best = u
		}
	}
	return best, nil
}

// betterKeys reports whether a reads less of the table than b: not a full
// scan, then points, then more leading key bytes fixed, then fewer
// ranges.
func betterKeys(a, b *keyPlan) bool {
	ra := [4]int{boolInt(!a.full), boolInt(a.points || a.empty), boundBytes(a), -len(a.ranges)}
	rb := [4]int{boolInt(!b.full), boolInt(b.points || b.empty), boundBytes(b), -len(b.ranges)}
	for i := range ra {
		if ra[i] != rb[i] {
			return ra[i] > rb[i]
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unionOf plans each branch of or with the other conjuncts rest, and
// returns the union of their ranges, or nil when a branch would read the
// whole table.
func unionOf(ctx context.Context, t *catalog.Table, or *expr.Or, rest []expr.Expr, lim Limits, depth int, budget *int) (*keyPlan, error) {
	var branches []*keyPlan
	for _, b := range or.Terms {
		if *budget <= 0 {
			return nil, nil
		}
		kp, err := planKeysOrDepth(ctx, t, slices.Concat(rest, expr.Conjuncts(b)), lim, depth-1, budget)
		if err != nil {
			return nil, err
		}
		if kp.full {
			return nil, nil
		}
		if !kp.empty {
			branches = append(branches, kp)
		}
	}
	u := &keyPlan{ways: 1, absorbed: map[expr.Expr]bool{}, skip: true, union: len(or.Terms)}
	if len(branches) == 0 {
		u.empty = true
		return u, nil
	}
	u.points = true
	for _, kp := range branches {
		u.points = u.points && kp.points
		for _, n := range kp.notes {
			if !slices.Contains(u.notes, n) {
				u.notes = append(u.notes, n)
			}
		}
	}
	for _, kp := range branches {
		for _, r := range kp.ranges {
			if r.Point && !u.points {
				// A point among ranges is the range of its key alone.
				r = KeyRange{Start: r.Start, Stop: append(bytes.Clone(r.Start), 0), From: r.From, To: r.To}
			}
			u.ranges = append(u.ranges, r)
		}
	}
	u.ranges = mergeRanges(u.ranges)
	if len(u.ranges) > lim.MaxKeys && !(u.points && len(u.ranges) <= lim.MaxPoints) {
		u.capUnion(lim.MaxKeys)
	}
	return u, nil
}

// capUnion replaces more ranges than max by the one range from the least
// start to the greatest stop, as an IN list too long is scanned.
func (kp *keyPlan) capUnion(max int) {
	first, last := kp.ranges[0], kp.ranges[len(kp.ranges)-1]
	stop := last.Stop
	if last.Point {
		stop = append(bytes.Clone(last.Start), 0)
	}
	for _, r := range kp.ranges {
		if !r.Point && r.Stop == nil {
			stop = nil
		}
	}
	kp.notes = append(kp.notes, fmt.Sprintf("the OR's branches make %d key ranges, more than %d, so the range from the least to the greatest is scanned and filtered.", len(kp.ranges), max))
	kp.ranges = []KeyRange{{Start: first.Start, Stop: stop, From: first.From, To: last.To}}
	kp.points, kp.capped = false, true
}

// unionBranches plans each branch of an OR among the top-level conjuncts
// of s's WHERE clause as a query of its own (with the other conjuncts),
// each reading whole data rows: the plans of a union of different
// accesses, for an OR that no one access serves. It returns nil when no
// OR has branches that each avoid a full scan. The data table's key must
// be made of its fields alone (no random component), so that the values
// of its key fields tell its rows apart. SELECT RAW *, which reads again
// the rows of its one access, is not split.
func (pl *Planner) unionBranches(ctx context.Context, s *parser.SelectStmt, t *catalog.Table, ts bool) []*Select {
	if s.Where == nil || s.Versions > 1 || s.Hint != nil || s.Raw || pl.noUnion {
		return nil
	}
	for _, c := range t.Key.Components {
		if c.Kind == catalog.KindRandom {
			return nil
		}
	}
	ands := []parser.Expr{s.Where}
	if b, ok := s.Where.(*parser.BinaryExpr); ok && b.Op == parser.OpAnd {
		ands = operands(b, parser.OpAnd)
	}
	for i, x := range ands {
		or, ok := x.(*parser.BinaryExpr)
		if !ok || or.Op != parser.OpOr {
			continue
		}
		if subs := pl.planBranches(ctx, s, t, ands, i, operands(or, parser.OpOr), ts); subs != nil {
			return subs
		}
	}
	return nil
}

func (pl *Planner) planBranches(ctx context.Context, s *parser.SelectStmt, t *catalog.Table, ands []parser.Expr, at int, branches []parser.Expr, ts bool) []*Select {
	var items []parser.SelectItem
	for _, c := range t.Columns {
		items = append(items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: parser.NoPos, Name: c.Name}})
	}
	if ts {
		// An index entry's _ts is not its data row's: asking for _ts
		// makes every branch read data rows.
		items = append(items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: parser.NoPos, Name: TsColumn}})
	}
	var subs []*Select
	bp := *pl
	bp.noUnion = true
	for _, br := range branches {
		where := br
		for j, y := range ands {
			if j != at {
				where = &parser.BinaryExpr{OpPos: parser.NoPos, Op: parser.OpAnd, LHS: where, RHS: y}
			}
		}
		st := &parser.SelectStmt{Select: s.Select, Items: items, Table: s.Table, Where: where, Limit: NoLimit}
		if ctx.Err() != nil {
			return nil // the caller returns the context's error
		}
		sub, err := bp.selectPlan(ctx, st)
		if err != nil || sub.Access == nil || sub.Access.Kind == FullScan {
			return nil
		}
		subs = append(subs, sub)
	}
	return subs
}

// unionSelect finishes the plan of a union: the whole WHERE clause, then
// what the statement computes above its rows (DISTINCT, ORDER BY, COUNT,
// aggregates and LIMIT), all in the client.
func (pl *Planner) unionSelect(s *parser.SelectStmt, sel *Select, sh *shape, subs []*Select, where expr.Expr, order []SortKey) *Select {
	u := &Union{Branches: subs, Key: sel.Table.KeyColumns()}
	sel.Notes = nil // they were about the full scan the union replaces
	var root Node = &Filter{Cond: where, In: u}
	if sh.distinctRows {
		root = pl.distinct(sel, root, nil, true)
	}
	if len(order) > 0 {
		lim := &Limit{N: s.Limit, Offset: s.Offset}
		sorter := &Sort{Keys: order, Limit: lim.Want(), In: root}
		for _, o := range sel.Output {
			sorter.Keep = append(sorter.Keep, expr.ScalarColumns(o.Expr)...)
		}
		for _, k := range order {
			sorter.Keep = append(sorter.Keep, k.Col)
		}
		root = sorter
	}
	sel.Root = sh.top(root, s)
	sel.Notes = append(sel.Notes, fmt.Sprintf("no one access serves the OR, but each of its %d branches has its own; their rows are read one branch after another, each data row once, and the whole WHERE clause is tested on them.", len(subs)))
	sel.Notes = append(sel.Notes, sh.hashNote()...)
	return sel
}
