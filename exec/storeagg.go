package exec

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// AggKind is an aggregate a store may compute where the data lives.
type AggKind uint8

// Aggregates a store may compute.
const (
	// AggCount counts the rows a read selects (COUNT(*)).
	AggCount AggKind = iota
	// AggSum, AggMin, AggMax and AggAvg are over the values of one
	// stored column, skipping rows without it (NULL).
	AggSum
	AggMin
	AggMax
	AggAvg
)

var aggNames = [...]string{AggCount: "COUNT", AggSum: "SUM", AggMin: "MIN", AggMax: "MAX", AggAvg: "AVG"}

func (k AggKind) String() string {
	if int(k) < len(aggNames) {
		return aggNames[k]
	}
	return fmt.Sprintf("AggKind(%d)", uint8(k))
}

// Aggregation is one aggregate over the rows a read selects. The column's
// type and encoding (Table.Columns[Column]) say how its cells are read; a
// store takes only those it can read exactly as the client decodes them.
type Aggregation struct {
	Kind AggKind
	// Column is the stored column aggregated, an index into the read's
	// Table.Columns; AggCount ignores it.
	Column int
}

// AggResult is an Aggregation's answer.
type AggResult struct {
	// Count is the number of rows counted (AggCount) or of values
	// averaged (AggAvg).
	Count int64
	// Value is the SUM, MIN, MAX or AVG, of the column's type (AVG is a
	// DOUBLE); NULL when no row held a value. Sum is AVG's sum.
	Value, Sum catalog.Value
}

// Aggregator is a Store that can compute aggregates where the data lives,
// so that only the answer travels.
type Aggregator interface {
	// CanAggregate says how the store computes agg over t's rows (for
	// EXPLAIN, e.g. the coprocessor that does), or "" when it cannot. It
	// may ask the cluster once per table and remember the answer.
	CanAggregate(ctx context.Context, t *catalog.Table, agg Aggregation) (string, error)
	// Aggregate computes agg over the rows of r that opts select, as
	// Scan would return them: Filter, Ranges and at most one version; no
	// Limit, Reverse or Columns. It fails with ErrNoAggregate when it
	// cannot, and the caller then reads the rows.
	Aggregate(ctx context.Context, table string, r Range, agg Aggregation, opts ReadOptions) (AggResult, error)
}

// ErrNoAggregate is returned by an Aggregator that cannot compute an
// aggregate, e.g. because the table no longer loads what computes it.
var ErrNoAggregate = errors.New("exec: the store cannot compute this aggregate")

// placeAggregate hands aggregates to the store when the store computes
// them where the data lives: a COUNT(*), or an aggregate into one row
// (no GROUP BY) of COUNT(*), SUM, MIN, MAX and AVG over stored columns,
// directly over the access (with no client filter, index lookup or sort
// between once the reads are placed), reading ranges of one version,
// with pushdown on. It records the store's answer in p, which EXPLAIN
// shows as SERVER AGGREGATE.
func placeAggregate(ctx context.Context, p *placed.Plan, st Store, on bool) error {
	ag, ok := st.(Aggregator)
	if !ok || !on {
		return nil
	}
	if cnt, acc, ok := serverCountable(p); ok {
		how, err := ag.CanAggregate(ctx, acc.Table, Aggregation{Kind: AggCount})
		if err != nil {
			return err
		}
		p.SetServer(cnt, how)
		untimed(acc, how)
		return nil
	}
	n, acc, aggs, ok := serverAggregable(p)
	if !ok {
		return nil
	}
	how := ""
	for _, a := range aggs {
		h, err := ag.CanAggregate(ctx, acc.Table, a)
		if err != nil || h == "" {
			return err
		}
		how = h
	}
	p.SetServer(n, how)
	untimed(acc, how)
	return nil
}

// untimed drops the time range of a bound of _ts from an access the
// store aggregates (how is not ""), which reads by its filter alone.
func untimed(acc *placed.Scan, how string) {
	if how != "" && acc.AsOf == nil {
		acc.Timed = false
	}
}

// storeAggs are the store aggregations that compute an aggregate call:
// a BIGINT SUM or AVG also asks for MIN and MAX, which bound what the
// regions' partial sums can reach (see bigSumFits).
func storeAggs(t *catalog.Table, c planner.AggCall) ([]Aggregation, bool) {
	if c.Distinct {
		return nil, false
	}
	if c.Func == planner.AggCount && c.Arg == nil {
		return []Aggregation{{Kind: AggCount}}, true
	}
	col, ok := c.Arg.(*expr.Col)
	if !ok || col.Index < 0 || col.Index >= len(t.Columns) || t.Columns[col.Index].Family == "" {
		return nil, false
	}
	switch c.Func {
	case planner.AggSum, planner.AggAvg:
		if t.Columns[col.Index].Type == catalog.TypeDouble {
			kind := AggSum
			if c.Func == planner.AggAvg {
				kind = AggAvg
			}
			return []Aggregation{{Kind: kind, Column: col.Index}}, true
		}
		// An integer sum comes with its count (AVG's), MIN and MAX.
		return []Aggregation{{Kind: AggAvg, Column: col.Index}, {Kind: AggMin, Column: col.Index}, {Kind: AggMax, Column: col.Index}}, true
	case planner.AggMin:
		return []Aggregation{{Kind: AggMin, Column: col.Index}}, true
	case planner.AggMax:
		return []Aggregation{{Kind: AggMax, Column: col.Index}}, true
	}
	return nil, false
}

// serverAggregable returns the plan's Aggregate, its access and the
// store aggregations it needs when it aggregates the access's rows
// directly into one row.
func serverAggregable(p *placed.Plan) (*planner.Aggregate, *placed.Scan, []Aggregation, bool) {
	n, ok := planner.Find[*planner.Aggregate](p.Select().Root)
	if !ok || n.Strategy != planner.OneGroup || len(n.Groups) > 0 || len(n.Aggs) == 0 {
		return nil, nil, nil, false
	}
	acc, ok := directAccess(p, n)
	if !ok {
		return nil, nil, nil, false
	}
	var all []Aggregation
	for _, c := range n.Aggs {
		as, ok := storeAggs(acc.Table, c)
		if !ok {
			return nil, nil, nil, false
		}
		all = append(all, as...)
	}
	return n, acc, all, true
}

// directAccess returns the read of n's rows when it is the plan's one
// access, right below n once placed, with pushdown on and reading ranges,
// not points, of one version and no limit, of a table whose stored rows
// are its rows (not one that Expands): what a store's aggregate over
// ranges can replace.
func directAccess(p *placed.Plan, n planner.Node) (*placed.Scan, bool) {
	a, ok := p.Input(n).(*planner.Access)
	if !ok || a != p.Select().Access {
		return nil, false
	}
	acc := p.Scan(a)
	if acc.Off || acc.Table.Expands() || catalog.PhoenixCellArray(acc.Table) {
		return nil, false
	}
	switch acc.Kind {
	case planner.EmptyResult, planner.PointLookup:
		return nil, false
	}
	for _, r := range acc.Ranges {
		if r.Point {
			return nil, false
		}
	}
	return acc, acc.Versions <= 1 && acc.Limit == 0 && len(acc.Ranges) > 0 && acc.AsOf == nil
}

// serverCountable returns the plan's Count and its access when it counts
// the access's rows directly: the only shape a store's count can replace.
func serverCountable(p *placed.Plan) (*planner.Count, *placed.Scan, bool) {
	cnt, ok := p.Root().(*planner.Count)
	if !ok {
		return nil, nil, false
	}
	acc, ok := directAccess(p, cnt)
	return cnt, acc, ok
}

// storeAggregate asks the store for agg over acc's ranges and combines
// the answers; ok is false when the store could not compute it after all.
func (x *Executor) storeAggregate(ctx context.Context, acc *placed.Scan, agg Aggregation, stats *Stats) (res AggResult, ok bool, err error) {
	ag, isAg := x.Store.(Aggregator)
	if !isAg {
		return res, false, nil
	}
	opts := ReadOptions{Versions: acc.Versions, Stats: stats, Table: acc.Table, Columns: acc.Columns, Filter: acc.Filter, NoBlockCache: acc.NoBlockCache}
	var ranges []Range
	if acc.MultiRange {
		for _, r := range acc.Ranges {
			opts.Ranges = append(opts.Ranges, Range{Start: r.Start, Stop: r.Stop})
		}
		ranges = []Range{{Start: acc.Ranges[0].Start, Stop: acc.Ranges[len(acc.Ranges)-1].Stop}}
	} else {
		for _, r := range acc.Ranges {
			ranges = append(ranges, Range{Start: r.Start, Stop: r.Stop})
		}
	}
	typ := catalog.TypeBigint
	if agg.Kind != AggCount {
		typ = acc.Table.Columns[agg.Column].Type
	}
	res = AggResult{Value: catalog.Null(typ), Sum: catalog.Null(typ)}
	for _, r := range ranges {
		part, err := ag.Aggregate(ctx, acc.Table.Physical, r, agg, opts)
		if errors.Is(err, ErrNoAggregate) {
			return res, false, nil
		}
		if err != nil {
			return res, false, err
		}
		res = combine(agg.Kind, res, part)
	}
	return res, true, nil
}

// combine adds one range's answer to the answers so far. Sums are added
// exactly as the regions' are: a BIGINT sum is checked by bigSumFits.
func combine(kind AggKind, acc, part AggResult) AggResult {
	acc.Count += part.Count
	add := func(a, b catalog.Value) catalog.Value {
		switch {
		case b.Null:
			return a
		case a.Null:
			return b
		case a.Type == catalog.TypeDouble:
			return catalog.Double(a.F + b.F)
		}
		return catalog.Value{Type: a.Type, I: a.I + b.I}
	}
	switch kind {
	case AggSum:
		acc.Value = add(acc.Value, part.Value)
	case AggAvg:
		acc.Sum = add(acc.Sum, part.Sum)
	case AggMin, AggMax:
		if !part.Value.Null && (acc.Value.Null ||
			(kind == AggMin) == (catalog.Compare(part.Value, acc.Value) < 0)) {
			acc.Value = part.Value
		}
	}
	return acc
}

// bigSumFits reports whether n integers between lo and hi sum without
// overflowing 64 bits in any order: the regions add them in Java longs,
// which wrap silently, so a sum is trusted only when no partial sum can
// wrap.
func bigSumFits(n int64, lo, hi catalog.Value) bool {
	if n == 0 || lo.Null || hi.Null {
		return true
	}
	m := max(absInt(lo.I), absInt(hi.I))
	return m == 0 || n <= math.MaxInt64/m
}

func absInt(v int64) int64 {
	if v == math.MinInt64 {
		return math.MaxInt64
	}
	return max(v, -v)
}

// serverAggregate computes an Aggregate's one row from the store's
// answers; ok is false when the store could not compute every aggregate,
// or when a BIGINT sum could have wrapped in a region, and the rows must
// be read instead.
func (x *Executor) serverAggregate(ctx context.Context, acc *placed.Scan, n *planner.Aggregate, stats *Stats) (catalog.Row, bool, error) {
	row := make(catalog.Row, 0, len(n.Aggs))
	for i := range n.Aggs {
		c := &n.Aggs[i]
		aggs, ok := storeAggs(acc.Table, *c)
		if !ok {
			return nil, false, nil
		}
		res := make([]AggResult, len(aggs))
		for j, a := range aggs {
			r, ok, err := x.storeAggregate(ctx, acc, a, stats)
			if err != nil || !ok {
				return nil, false, err
			}
			res[j] = r
		}
		r := res[0]
		if len(aggs) == 3 && !bigSumFits(r.Count, res[1].Value, res[2].Value) {
			return nil, false, nil
		}
		v, err := storeState(c, aggs[0].Kind, r).Result()
		if err != nil {
			return nil, false, err
		}
		row = append(row, v)
	}
	return row, true, nil
}

// storeState is the state of aggregate call c from the store's answer r
// to the first of its store aggregations, of kind kind.
func storeState(c *planner.AggCall, kind AggKind, r AggResult) *AggState {
	st := newAggState(c)
	switch {
	case c.Func == planner.AggCount:
		st.Count = r.Count
	case kind == AggAvg:
		// AVG, or an integer SUM read from AVG's sum.
		if r.Count > 0 {
			st.Count = r.Count
			if r.Sum.Type == catalog.TypeDouble {
				st.SumF = r.Sum.F
			} else {
				st.SumI.Add(r.Sum.I)
			}
		}
	default:
		st.Add(r.Value)
	}
	return st
}

// serverCount asks the store for the number of rows of cnt's access;
// ok is false when the store could not count them after all.
func (x *Executor) serverCount(ctx context.Context, acc *placed.Scan, stats *Stats) (n int64, ok bool, err error) {
	res, ok, err := x.storeAggregate(ctx, acc, Aggregation{Kind: AggCount}, stats)
	return res.Count, ok, err
}
