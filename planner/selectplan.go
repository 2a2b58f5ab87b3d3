package planner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// selectPlan plans a SELECT in phases: compile the statement, choose the
// key ranges and the table or index that reads them, make the access,
// then build the tree of steps above it.
func (pl *Planner) selectPlan(ctx context.Context, s *parser.SelectStmt) (*Select, error) {
	if len(s.Joins) > 0 {
		return pl.joinPlan(ctx, s)
	}
	if s.Derived != nil {
		return pl.derivedPlan(ctx, s)
	}
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	if s, err = qualify(s, t); err != nil {
		return nil, err
	}
	at, err := asOf(s)
	if err != nil {
		return nil, err
	}
	if at != nil && s.Hint != nil && !s.Hint.NoIndex {
		return nil, errAt(s.Hint.HintPos, "USE INDEX cannot read as of a time: a change of an indexed value deletes the old index entry, and a delete hides it at every time; AS OF reads %s itself", t.Name)
	}
	pl = pl.pinNow()
	b := &selectBuild{pl: pl, s: s, c: &compiler{ctx: ctx, t: t, now: pl.opts.Now}, asOf: at}
	if err := b.compile(); err != nil {
		return nil, err
	}
	union, err := b.chooseRead(ctx)
	if err != nil || union != nil {
		return union, err
	}
	b.access()
	if err := b.qualifiers(ctx); err != nil {
		return nil, err
	}
	b.tree()
	if b.guarded && ReadBound(b.sel) == 0 {
		return nil, b.refuseFullScan(ctx)
	}
	return b.sel, nil
}

// pinNow returns the planner of one statement, which reads one NOW(),
// when it first needs it: the branches of a union, planned apart, see
// the instant the whole WHERE clause does.
func (pl *Planner) pinNow() *Planner {
	if pl.noUnion {
		return pl
	}
	now := time.Now
	if pl.opts.Now != nil {
		now = pl.opts.Now
	}
	pinned := *pl
	pinned.opts.Now = sync.OnceValue(now)
	return &pinned
}

// selectBuild is a SELECT being planned: what each phase of selectPlan
// leaves to the next.
type selectBuild struct {
	pl *Planner
	s  *parser.SelectStmt
	c  *compiler
	// Set by compile.
	sel   *Select
	sh    *shape
	where expr.Expr
	conj  []expr.Expr
	order []SortKey
	// Set by chooseRead: the columns the plan needs, the statement with
	// the hint the read obeys, and the table or index chosen.
	needed []int
	hinted *parser.SelectStmt
	cand   *candidate
	kp     *keyPlan
	// Set by access: the conjuncts the key does not prove, over the
	// table read and over the data table.
	residual, dataResidual []expr.Expr
	// guarded is set by chooseRead when the read of the whole table needs
	// ALLOW FULL SCAN unless its LIMIT bounds it.
	guarded bool
	// asOf is the time of the statement's AS OF; nil when absent.
	asOf *AsOf
}

// compile compiles the select list, the WHERE clause and the ORDER BY.
func (b *selectBuild) compile() error {
	s, c := b.s, b.c
	b.sel = &Select{Table: c.t, Limit: s.Limit, Raw: s.Raw}
	sh, err := c.shape(b.sel, s)
	if err != nil {
		return err
	}
	b.sh = sh
	if s.Where != nil {
		w, err := c.foldConstants(s.Where)
		if err != nil {
			return err
		}
		if b.where, err = c.pred(w); err != nil {
			return err
		}
	}
	b.conj = expr.Conjuncts(b.where)
	order, err := c.orderKeys(sh.order, b.conj)
	if err != nil {
		return err
	}
	b.sel.Order, b.order = order, order
	return nil
}

// chooseRead plans the key ranges of the table and of each index and
// picks the read. It returns the plan of a union instead when no one
// read serves an OR but each of its branches has its own.
func (b *selectBuild) chooseRead(ctx context.Context) (*Select, error) {
	pl, s, sh, t := b.pl, b.s, b.sh, b.c.t
	uids, uidNotes, err := pl.uidConds(ctx, t, b.conj)
	if err != nil {
		return nil, errAt(s.Table.NamePos, "%v", err)
	}
	b.sel.Notes = append(b.sel.Notes, uidNotes...)
	kp, err := planKeysOr(ctx, t, slices.Concat(b.conj, uids), pl.opts.Limits)
	if err != nil {
		return nil, keysErr(s.Table.NamePos, err)
	}
	b.needed = append(neededColumns(b.sel, sh.count || sh.project != nil, b.conj, b.order), sh.cols...)
	b.hinted = s
	if b.asOf != nil && len(t.Indexes) > 0 && s.Hint == nil {
		b.sel.Notes = append(b.sel.Notes, "AS OF reads "+t.Name+" itself, no index: a change of an indexed value deletes the old entry, and a delete hides it at every time")
	}
	if sh.key || b.asOf != nil {
		// An index entry's key is not the row's: _key reads the data
		// table; so does AS OF (see the note above).
		noIx := *s
		noIx.Hint = &parser.IndexHint{HintPos: s.Table.NamePos, NoIndex: true}
		b.hinted = &noIx
	}
	data := &candidate{t: t, kp: kp, conj: b.conj, orig: b.conj, covered: true}
	cand, why, err := pl.chooseIndex(ctx, b.hinted, t, data, b.needed)
	if err != nil {
		return nil, err
	}
	b.sel.Notes = append(b.sel.Notes, why...)
	b.cand, b.kp = cand, cand.kp
	if b.kp.full {
		if subs := pl.unionBranches(ctx, b.hinted, t, slices.Contains(b.needed, t.TsIndex())); subs != nil {
			return pl.unionSelect(s, b.sel, sh, subs, b.where, b.order), nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A LIMIT may bound the read: the plan's tree tells (ReadBound).
	b.guarded = b.kp.full && !(pl.opts.AllowFullScan || s.AllowFullScan)
	return nil, nil
}

// refuseFullScan is the error of a read of the whole table the statement
// does not allow.
func (b *selectBuild) refuseFullScan(ctx context.Context) error {
	t := b.c.t
	unbounded := ""
	if b.sel != nil && b.sel.Root != nil {
		unbounded = limitUnbounded(b.sel)
	}
	msg := fullScanMessage(t, unbounded)
	if ix := unbuiltServing(ctx, t, b.conj, b.needed, b.pl.opts.Limits); ix != nil && (b.hinted.Hint == nil || !b.hinted.Hint.NoIndex) {
		msg = fmt.Sprintf("query on %s would read the whole table (FULL SCAN)%s: index %s would serve it, but it is not built (BUILD INDEX %s ON %s fills it); or add ALLOW FULL SCAN to read the table anyway", t.Name, unbounded, ix.Name, ix.Name, t.Name)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return fullScanRefused(b.s.Table.NamePos, msg)
}

// access makes the plan's read of the chosen table or index, and sets
// aside the conjuncts its key does not prove.
func (b *selectBuild) access() {
	kp, cand, s := b.kp, b.cand, b.s
	acc := &Access{Table: cand.t, Ranges: kp.ranges, Ways: kp.ways, Versions: s.Versions, KeyText: b.sh.key, Union: kp.union, AsOf: b.asOf}
	for i, p := range cand.conj {
		if !kp.absorbed[p] {
			b.residual = append(b.residual, p)
			b.dataResidual = append(b.dataResidual, cand.orig[i])
		}
	}
	acc.Kind = kp.kind()
	if acc.Kind == EmptyResult {
		acc.Ranges = nil
	}
	if cand.ix == nil && s.Versions <= 1 {
		acc.Columns = storedColumns(b.c.t, b.needed)
		entries := mapEntries(b.c.t, s)
		if acc.Columns == nil && len(entries) > 0 && !slices.Contains(b.needed, b.c.t.TsIndex()) {
			// Every column, but a map only by some entries: still a
			// projection.
			acc.Columns = []int{}
			for i, c := range b.c.t.Columns {
				if !c.KeyField {
					acc.Columns = append(acc.Columns, i)
				}
			}
		}
		for col, qs := range entries {
			if slices.Contains(acc.Columns, col) {
				if acc.Entries == nil {
					acc.Entries = map[int][][]byte{}
				}
				acc.Entries[col] = qs
			}
		}
	}
	if cand.ix == nil && acc.Kind != EmptyResult && !s.Raw {
		var note string
		if acc.TsFrom, note = tsFrom(b.c.t, b.conj, b.needed, s.Versions); note != "" {
			b.sel.Notes = append(b.sel.Notes, note)
		}
	}
	b.sel.Access = acc
	b.sel.Notes = append(b.sel.Notes, kp.notes...)
}

// kind is how an access reads the ranges of kp.
func (kp *keyPlan) kind() AccessKind {
	switch {
	case kp.empty:
		return EmptyResult
	case kp.full:
		return FullScan
	case kp.points:
		return PointLookup
	case len(kp.ranges) > 1 && (kp.skip || kp.ways == 1):
		return SkipScan
	}
	return RangeScan
}

// tree builds the steps above the access: the order (a merge of sorted
// ranges or a client sort) or the aggregation, the filter, the index
// lookup, DISTINCT, the sort, then what the statement computes on top.
func (b *selectBuild) tree() {
	pl, s, sel, sh, acc := b.pl, b.s, b.sel, b.sh, b.sel.Access
	var merge *MergeSort
	var sorter *Sort
	if sh.agg != nil {
		merge = pl.aggStrategy(sh.agg, acc, b.kp, b.conj, b.cand.toData)
	} else {
		limit := sel.Limit
		if limit != NoLimit {
			limit += s.Offset
		}
		merge, sorter = pl.order(acc, b.kp, b.order, b.cand.toData, sh.count, limit)
	}
	root := b.read(merge)
	if sh.distinctRows {
		root = pl.distinct(sel, root, merge, b.cand.ix != nil)
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
	sel.Root = sh.top(root, s)
	sel.Notes = append(sel.Notes, notes(sel, b.kp, sorter)...)
	sel.Notes = append(sel.Notes, sh.hashNote()...)
}

// read is the access with what reads its rows: the merge of its ranges,
// the filter of the conjuncts its key does not prove, and the lookup of
// the data rows of an index's entries.
func (b *selectBuild) read(merge *MergeSort) Node {
	var root Node = b.sel.Access
	if merge != nil {
		merge.In = b.sel.Access
		root = merge
	}
	cand := b.cand
	if f := expr.AndOf(b.residual); f != nil && cand.ttl == nil {
		// An index copying a family with a TTL may hold values its data
		// row no longer has: its conditions are tested on the data rows
		// the lookup reads (IndexLookup.Filter), never on the copies.
		root = &Filter{Cond: f, In: root}
	}
	if cand.ix == nil {
		return root
	}
	var dataOnly []expr.Expr
	for _, p := range b.conj {
		if !slices.Contains(cand.orig, p) {
			dataOnly = append(dataOnly, p)
		}
	}
	return &IndexLookup{Index: cand.ix, Data: b.c.t, Covered: cand.covered, ToData: cand.toData,
		Filter: expr.AndOf(append(b.dataResidual, dataOnly...)), DataOnly: expr.AndOf(dataOnly), In: root}
}
