package exec

import (
	"bytes"

	"github.com/rkql/rkql/planner"
)

// Place hands a store the work its Pushdown accepts: the part of the
// client filter above the plan's access that the store can evaluate, a
// row limit when no filter is left to the client below the LIMIT, the
// column projection, and, for a store with Features.MultiRange, the
// reading of several ranges that are read one after another, not
// merged, by one scan. It rewrites the plan in place and records in
// the access's Placement what it moved and why it kept the rest, so that
// EXPLAIN says SERVER only for what the store does. With on false, the
// store is asked only to read the ranges: the switch that measures what
// pushdown saves.
//
// Place must be called once, before the plan runs or is explained.
func Place(sel *planner.Select, p Pushdown, on bool) {
	if u, ok := planner.Find[*planner.Union](sel.Root); ok {
		// Each branch is placed as the plan it is; the WHERE clause
		// above the union stays in the client.
		for _, b := range u.Branches {
			Place(b, p, on)
		}
		return
	}
	acc := sel.Access
	pl := &planner.Placement{Store: p.StoreName(), Off: !on}
	acc.Placement = pl
	if !on || acc.Kind == planner.EmptyResult || acc.Table.Expands() {
		// A table whose stored rows give several logical rows (cells of
		// wide rows, repetitions of a key group) is read whole and
		// filtered, counted and limited in the client.
		acc.Columns = nil
		return
	}
	f := p.Features()
	if acc.Columns != nil {
		pl.KeysOnly = f.KeysOnly && len(acc.Columns) == 0
		pl.Projected = f.Projection && len(acc.Columns) > 0
		if !pl.KeysOnly && !pl.Projected {
			acc.Columns = nil
		}
	}
	// The client filter, if any, sits just above the access or above the
	// merge of its ranges.
	path := planner.Path(sel.Root)
	var filter *planner.Filter
	var parent planner.Node // the node above the filter
	for i, n := range path[1:] {
		if _, ok := n.(*planner.MergeSort); ok {
			continue
		}
		if fl, ok := n.(*planner.Filter); ok {
			filter = fl
			if i+2 < len(path) {
				parent = path[i+2]
			}
		}
		break
	}
	if filter != nil {
		sp := p.SplitFilter(acc.Table, filter.Cond, acc.Versions)
		acc.Filter, pl.Server, pl.Client = sp.Server, sp.How, sp.Why
		if sp.Client == nil {
			unlink(sel, filter, parent)
		} else {
			filter.Cond = sp.Client
		}
	}
	if f.Limit {
		acc.Limit = scanLimit(sel)
	}
	pl.MultiRange = f.MultiRange && multiRange(sel)
}

// multiRange reports whether the access's ranges can be read by one scan:
// several ranges, read forward one after another, not merged.
func multiRange(sel *planner.Select) bool {
	acc := sel.Access
	if acc.Kind == planner.PointLookup || acc.Reverse || acc.Loose > 0 || len(acc.Ranges) < 2 {
		return false
	}
	for i, r := range acc.Ranges {
		if r.Point {
			return false
		}
		// In key order, apart: then the one scan returns the rows in
		// the order the ranges are read one after another.
		if i > 0 && (acc.Ranges[i-1].Stop == nil || bytes.Compare(acc.Ranges[i-1].Stop, r.Start) > 0) {
			return false
		}
	}
	path := planner.Path(sel.Root)
	if len(path) > 1 {
		if _, merged := path[1].(*planner.MergeSort); merged {
			return false
		}
	}
	return true
}

// unlink removes filter from the tree; parent is the node above it, or
// nil when it is the root.
func unlink(sel *planner.Select, filter *planner.Filter, parent planner.Node) {
	switch p := parent.(type) {
	case nil:
		sel.Root = filter.In
	case *planner.IndexLookup:
		p.In = filter.In
	case *planner.Sort:
		p.In = filter.In
	case *planner.Distinct:
		p.In = filter.In
	case *planner.Count:
		p.In = filter.In
	case *planner.Limit:
		p.In = filter.In
	case *planner.Aggregate:
		p.In = filter.In
	case *planner.Project:
		p.In = filter.In
	default:
		panic("exec: a client filter under an unexpected node")
	}
}

// scanLimit is the row limit each range's scan may stop at: the LIMIT,
// when only a merge of the ranges stands between the access and it.
// Anything else (a client filter, a sort, a count, an index lookup)
// needs more rows than the LIMIT, so the store gets none.
func scanLimit(sel *planner.Select) int64 {
	for _, n := range planner.Path(sel.Root)[1:] {
		switch n := n.(type) {
		case *planner.MergeSort:
			continue
		case *planner.Limit:
			if n.N > 0 {
				return n.Want()
			}
		}
		return 0
	}
	return 0
}
