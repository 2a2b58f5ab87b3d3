package exec

import (
	"context"
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// build opens the iterator of node n of p. want is how many rows the
// nodes above will take at most, or NoLimit: a hint for batch sizes.
func (x *Executor) build(ctx context.Context, p *placed.Plan, n planner.Node, stats *Stats, want int64) (rowIter, error) {
	switch n := n.(type) {
	case *planner.Access:
		return x.buildAccess(ctx, p.Scan(n), nil, stats)
	case *planner.MergeSort:
		acc := p.Scan(n.In)
		it, err := x.merge(ctx, acc, n, stats)
		if err == nil && acc.KeyText {
			return &keyTextIter{in: it}, nil
		}
		return it, err
	case *planner.Filter:
		cond := p.Cond(n)
		if cond == nil {
			return x.build(ctx, p, p.Input(n), stats, want)
		}
		if acc, ok := p.Input(n).(*planner.Access); ok && len(p.Scan(acc).Parts) > 0 {
			// A parallel read filters in its workers.
			pr := &partRead{x: x, acc: p.Scan(acc), stats: stats, cond: cond}
			var it rowIter = &orderedIter{pr: pr}
			if pr.acc.Unordered {
				it = &unorderedIter{pr: pr}
			}
			if acc.KeyText {
				it = &keyTextIter{in: it}
			}
			return it, nil
		}
		if acc, ok := p.Input(n).(*planner.Access); ok && acc.Loose > 0 {
			// A loose scan must skip a prefix only once a row of it has
			// passed the filter.
			return x.buildAccess(ctx, p.Scan(acc), cond, stats)
		}
		in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
		return &filterIter{in: in, cond: cond}, err
	case *planner.IndexLookup:
		in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
		if err != nil {
			return nil, err
		}
		return x.lookup(in, n, stats, want), nil
	case *planner.Union:
		return x.union(p, n, stats), nil
	case *planner.Join:
		return x.join(ctx, p, n, stats)
	case *planner.Derived:
		return x.derived(ctx, p, n, stats)
	case *planner.Distinct:
		in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
		if err != nil {
			return nil, err
		}
		return x.distinct(in, n), nil
	case *planner.Sort:
		in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
		if err != nil {
			return nil, err
		}
		return x.sort(ctx, in, n)
	case *planner.Count:
		return x.buildCount(ctx, p, n, stats)
	case *planner.Limit:
		in, err := x.build(ctx, p, p.Input(n), stats, n.Want())
		return &limitIter{in: in, n: n.N, skip: n.Offset}, err
	case *planner.Aggregate:
		return x.buildAggregate(ctx, p, n, stats)
	case *planner.Project:
		in, err := x.build(ctx, p, p.Input(n), stats, want)
		return &projectIter{in: in, n: n}, err
	}
	return nil, fmt.Errorf("exec: cannot run plan node %T", n)
}

// buildAccess opens the read of acc; cond, for a loose scan, is the
// client filter its rows must pass before it skips their prefix.
func (x *Executor) buildAccess(ctx context.Context, acc *placed.Scan, cond expr.Expr, stats *Stats) (rowIter, error) {
	var it rowIter
	var err error
	if acc.Loose > 0 {
		it = x.loose(ctx, acc, cond, stats)
	} else {
		it, err = x.access(ctx, acc, stats)
	}
	if err == nil && acc.KeyText {
		it = &keyTextIter{in: it}
	}
	return it, err
}

// buildCount opens a count: the store's, the keys' or the rows'.
func (x *Executor) buildCount(ctx context.Context, p *placed.Plan, n *planner.Count, stats *Stats) (rowIter, error) {
	a, direct := p.Input(n).(*planner.Access)
	if direct && p.Server(n) != "" {
		cnt, ok, err := x.serverCount(ctx, p.Scan(a), stats)
		if err != nil {
			return nil, err
		}
		if ok {
			return &sliceIter{rows: []*Row{{Vals: catalog.Row{catalog.Bigint(cnt)}}}}, nil
		}
		p.SetServer(n, "") // the store cannot count after all: read the keys
	}
	if pr := x.partsInput(p, n, stats); pr != nil {
		pr.keysOnly = pr.cond == nil && countsKeys(pr.acc)
		return &partialAggIter{pr: pr}, nil
	}
	if acc := p.Scan(a); direct && countsKeys(acc) {
		if ks, ok := x.Store.(KeyScanner); ok && acc.Limit == 0 && !acc.MultiRange {
			return &keyCountIter{ks: ks, acc: acc, stats: stats}, nil
		}
		// Only the number of rows is wanted: each key is checked
		// against the layout, and no row is built.
		return &countIter{in: &concatIter{x: x, acc: acc, stats: stats, dec: newDecoder(acc.Table, []int{}), keysOnly: true}}, nil
	}
	in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
	return &countIter{in: in}, err
}

// buildAggregate opens an aggregate: the store's, or the client's.
func (x *Executor) buildAggregate(ctx context.Context, p *placed.Plan, n *planner.Aggregate, stats *Stats) (rowIter, error) {
	if a, direct := p.Input(n).(*planner.Access); direct && p.Server(n) != "" {
		row, ok, err := x.serverAggregate(ctx, p.Scan(a), n, stats)
		if err != nil {
			return nil, err
		}
		if ok {
			return &sliceIter{rows: []*Row{{Vals: row}}}, nil
		}
		p.SetServer(n, "") // the store cannot compute them after all: read the rows
	}
	if pr := x.partsInput(p, n, stats); pr != nil && n.Strategy != planner.StreamAggregate {
		return &partialAggIter{pr: pr, agg: x.aggregate(nil, n)}, nil
	}
	in, err := x.build(ctx, p, p.Input(n), stats, planner.NoLimit)
	if err != nil {
		return nil, err
	}
	return x.aggregate(in, n), nil
}

// partsInput is the parallel read n consumes directly, or through a
// client filter, which its workers then apply; nil when n reads no
// parallel read.
func (x *Executor) partsInput(p *placed.Plan, n planner.Node, stats *Stats) *partRead {
	in := p.Input(n)
	var cond expr.Expr
	if f, ok := in.(*planner.Filter); ok {
		cond, in = p.Cond(f), p.Input(f)
	}
	a, ok := in.(*planner.Access)
	if !ok || len(p.Scan(a).Parts) == 0 || a.KeyText {
		return nil
	}
	return &partRead{x: x, acc: p.Scan(a), stats: stats, cond: cond}
}
