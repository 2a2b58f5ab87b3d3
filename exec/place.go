package exec

import (
	"bytes"
	"context"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// PlaceOptions are the session's switches of placement. The zero value
// places with pushdown on.
type PlaceOptions struct {
	// NoPushdown asks the store only to read the ranges, and to stop at
	// a LIMIT that bounds the read of the whole table (planner.ReadBound),
	// a row limit being no filter: the switch that measures what pushdown
	// saves.
	NoPushdown bool
	// BlockCache says which reads skip the region servers' block cache,
	// on a store with Features.BlockCache, while pushdown is on.
	BlockCache BlockCache
	// Parallel is the most scanners a read over several regions runs
	// side by side (see placeParallel): 0 or 1 reads serially,
	// ParallelAuto one per region server.
	Parallel int
}

// Place returns sel placed on st: what the store takes of the plan's
// work, as its Pushdown accepts it (the part of the client filter above
// the access that the store can evaluate, a row limit when no filter is
// left to the client below the LIMIT, the column projection, and, for a
// store with Features.MultiRange, the reading of several ranges that are
// read one after another, not merged, by one scan) and, when st is an
// Aggregator, the aggregates it computes where the data lives (see
// placeAggregate). The placed plan records what the store takes and why
// it leaves the rest, so that EXPLAIN says SERVER only for what the
// store does.
//
// Place leaves sel as it is: placing one plan twice gives two placed
// plans. It may ask the store, once per table, what it can compute.
func Place(ctx context.Context, st Store, sel *planner.Select, opts PlaceOptions) (*placed.Plan, error) {
	if err := checkAsOf(sel, st.Pushdown()); err != nil {
		return nil, err
	}
	p := placed.New(sel)
	if err := placeDerived(ctx, p, st, sel, opts); err != nil {
		return nil, err
	}
	placeReads(p, sel, st.Pushdown(), !opts.NoPushdown, opts.BlockCache)
	if err := placeAggregate(ctx, p, st, !opts.NoPushdown); err != nil {
		return nil, err
	}
	if err := placeParallel(ctx, p, st, sel, opts.Parallel); err != nil {
		return nil, err
	}
	return p, nil
}

// placeReads places the reads of sel, a plan or a branch of its union,
// in p.
func placeReads(p *placed.Plan, sel *planner.Select, pd Pushdown, on bool, bc BlockCache) {
	if u, ok := planner.Find[*planner.Union](sel.Root); ok {
		// Each branch is placed as the plan it is; the WHERE clause
		// above the union stays in the client.
		for _, b := range u.Branches {
			placeReads(p, b, pd, on, bc)
		}
		return
	}
	if _, ok := planner.Find[*planner.Derived](sel.Root); ok {
		return // its SELECT is placed as a plan of its own (placeDerived)
	}
	if j, ok := planner.Find[*planner.Join](sel.Root); ok {
		// Each side is placed as the plan it is; a lookup join places
		// the read of each batch when it runs (see join.go).
		placeReads(p, j.First, pd, on, bc)
		for _, st := range j.Steps {
			placeReads(p, st.Right, pd, on, bc)
		}
		return
	}
	acc := sel.Access
	sc := &placed.Scan{Access: acc, Store: pd.StoreName(), Off: !on}
	// AS OF is what the read means, and checkAsOf made sure the store
	// does it; a bound of _ts only saves work.
	sc.Timed = acc.AsOf != nil || acc.TsFrom > 0 && on && pd.Features().Cells
	p.SetScan(sc)
	f := pd.Features()
	if on {
		defer placeBlockCache(sc, sel, bc, f)
	}
	if on && acc.Kind != planner.EmptyResult {
		placeQualifiers(sc, pd)
	}
	if !on {
		// A row limit is no filter: a LIMIT that bounds the read of the
		// whole table stays the store's, so that the read stops where
		// EXPLAIN says it does.
		if f.Limit && planner.ReadBound(sel) > 0 {
			sc.Limit = scanLimit(p, sel)
		}
		return
	}
	if acc.Kind == planner.EmptyResult || acc.Table.Expands() || catalog.PhoenixCellArray(acc.Table) {
		// A table whose stored rows give several logical rows (cells of
		// wide rows, repetitions of a key group) is read whole and
		// filtered, counted and limited in the client; so is a Phoenix
		// table whose columns are elements of one cell per family.
		return
	}
	if acc.Columns != nil {
		sc.KeysOnly = f.KeysOnly && len(acc.Columns) == 0
		sc.Projected = f.Projection && len(acc.Columns) > 0
		if sc.KeysOnly || sc.Projected {
			sc.Columns = acc.Columns
		}
	}
	if filter := accessFilter(sel); filter != nil {
		sp := pd.SplitFilter(acc.Table, filter.Cond, acc.Versions)
		sc.Filter, sc.Server, sc.Client = sp.Server, sp.How, sp.Why
		p.SetCond(filter, sp.Client)
	}
	if f.Limit {
		sc.Limit = scanLimit(p, sel)
	}
	sc.MultiRange = f.MultiRange && multiRange(sel)
}

// placeDerived places the SELECT of each derived table of sel, or of
// its join's sides, as a plan of its own (with its own pushdown, store
// aggregates and parallel reads), and records it in p.
func placeDerived(ctx context.Context, p *placed.Plan, st Store, sel *planner.Select, opts PlaceOptions) error {
	if d, ok := planner.Find[*planner.Derived](sel.Root); ok {
		ip, err := Place(ctx, st, d.Inner, opts)
		if err != nil {
			return err
		}
		p.SetDerived(d, ip)
		return nil
	}
	if j, ok := planner.Find[*planner.Join](sel.Root); ok {
		if err := placeDerived(ctx, p, st, j.First, opts); err != nil {
			return err
		}
		for _, s := range j.Steps {
			if s.Kind == planner.HashJoin {
				if err := placeDerived(ctx, p, st, s.Right, opts); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// accessFilter is the client filter just above the access or above the
// merge of its ranges; nil when there is none.
func accessFilter(sel *planner.Select) *planner.Filter {
	for _, n := range planner.Path(sel.Root)[1:] {
		if _, ok := n.(*planner.MergeSort); ok {
			continue
		}
		fl, _ := n.(*planner.Filter)
		return fl
	}
	return nil
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

// scanLimit is the row limit each range's scan may stop at: the LIMIT,
// when only a merge of the ranges stands between the access and it, once
// the filters the store evaluates whole are gone. Anything else (a client
// filter, a sort, a count, an index lookup) needs more rows than the
// LIMIT, so the store gets none.
func scanLimit(p *placed.Plan, sel *planner.Select) int64 {
	for _, n := range placedPath(p, sel)[1:] {
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

// placedPath lists the nodes of sel, p's plan or a branch of its union,
// from its leaf up to its root, without the filters the store evaluates
// whole.
func placedPath(p *placed.Plan, sel *planner.Select) []planner.Node {
	var out []planner.Node
	for _, n := range planner.Path(sel.Root) {
		if f, ok := n.(*planner.Filter); ok && p.Cond(f) == nil {
			continue
		}
		out = append(out, n)
	}
	return out
}
