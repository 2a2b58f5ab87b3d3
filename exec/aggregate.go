package exec

import (
	"context"
	"errors"
	"fmt"

	"github.com/rkql/rkql/catalog"
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

// PlaceAggregate hands a COUNT(*) to the store when the store counts
// the rows itself: the plan must be a count directly over the access
// (after Place, with no client filter, index lookup or sort between),
// reading ranges of one version, and pushdown must be on. It records the
// store's answer in Count.Server, which EXPLAIN shows as SERVER
// AGGREGATE COUNT. Call it after Place.
func PlaceAggregate(ctx context.Context, sel *planner.Select, st Store, on bool) error {
	cnt, ok := serverCountable(sel)
	if !ok || !on {
		return nil
	}
	ag, ok := st.(Aggregator)
	if !ok {
		return nil
	}
	how, err := ag.CanAggregate(ctx, sel.Access.Table, Aggregation{Kind: AggCount})
	if err != nil {
		return err
	}
	cnt.Server = how
	return nil
}

// serverCountable returns the plan's Count when it counts the access's
// rows directly: the only shape a store's count can replace.
func serverCountable(sel *planner.Select) (*planner.Count, bool) {
	cnt, ok := sel.Root.(*planner.Count)
	if !ok {
		return nil, false
	}
	acc, ok := cnt.In.(*planner.Access)
	if !ok || acc != sel.Access || acc.Placement == nil || acc.Placement.Off || acc.Table.Expands() {
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
	return cnt, acc.Versions <= 1 && acc.Limit == 0 && len(acc.Ranges) > 0
}

// serverCount asks the store for the number of rows of cnt's access;
// ok is false when the store could not count them after all.
func (x *Executor) serverCount(ctx context.Context, acc *planner.Access, stats *Stats) (n int64, ok bool, err error) {
	ag, isAg := x.Store.(Aggregator)
	if !isAg {
		return 0, false, nil
	}
	opts := ReadOptions{Versions: acc.Versions, Stats: stats, Table: acc.Table, Columns: readColumns(acc), Filter: acc.Filter}
	agg := Aggregation{Kind: AggCount}
	var ranges []Range
	if p := acc.Placement; p != nil && p.MultiRange {
		for _, r := range acc.Ranges {
			opts.Ranges = append(opts.Ranges, Range{Start: r.Start, Stop: r.Stop})
		}
		ranges = []Range{{Start: acc.Ranges[0].Start, Stop: acc.Ranges[len(acc.Ranges)-1].Stop}}
	} else {
		for _, r := range acc.Ranges {
			ranges = append(ranges, Range{Start: r.Start, Stop: r.Stop})
		}
	}
	for _, r := range ranges {
		res, err := ag.Aggregate(ctx, acc.Table.Physical, r, agg, opts)
		if errors.Is(err, ErrNoAggregate) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		n += res.Count
	}
	return n, true, nil
}
