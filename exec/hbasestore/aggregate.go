package hbasestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/filter"
)

var _ exec.Aggregator = (*Store)(nil)

// aggregateHow is how EXPLAIN names the store's aggregation.
const aggregateHow = "coprocessor " + hbase.AggregateClass

// CanAggregate says whether the region servers compute agg over t: when
// the table's descriptor names AggregateImplementation among its
// coprocessors (read once per table and remembered, until a region
// answers that it does not serve it), and, for SUM, MIN, MAX and AVG,
// when the column holds 8-byte binary BIGINT or DOUBLE values, the only
// cells the endpoint's interpreters read as the client decodes them.
func (s *Store) CanAggregate(ctx context.Context, t *catalog.Table, agg exec.Aggregation) (string, error) {
	if _, err := interpreter(t, agg); err != nil {
		return "", nil
	}
	s.mu.Lock()
	has, known := s.mu.endpoints[t.Physical]
	s.mu.Unlock()
	if !known {
		spec, err := s.c.Admin().DescribeTable(ctx, t.Physical)
		if errors.Is(err, hbase.ErrTableNotFound) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("read the descriptor of %s: %w", t.Physical, mapErr(err))
		}
		has = slices.Contains(spec.Coprocessors, hbase.AggregateClass)
		s.mu.Lock()
		if s.mu.endpoints == nil {
			s.mu.endpoints = map[string]bool{}
		}
		s.mu.endpoints[t.Physical] = has
		s.mu.Unlock()
	}
	if !has {
		return "", nil
	}
	return aggregateHow, nil
}

// forgetEndpoint drops what CanAggregate remembers of a table.
func (s *Store) forgetEndpoint(table string) {
	s.mu.Lock()
	delete(s.mu.endpoints, table)
	s.mu.Unlock()
}

// interpreter is the endpoint's reader of agg's column: COUNT reads none.
func interpreter(t *catalog.Table, agg exec.Aggregation) (hbase.Interpreter, error) {
	if agg.Kind == exec.AggCount {
		return hbase.LongInterpreter, nil
	}
	if t == nil || agg.Column < 0 || agg.Column >= len(t.Columns) || t.Columns[agg.Column].Family == "" {
		return 0, fmt.Errorf("%s: not a stored column", agg.Kind)
	}
	c := t.Columns[agg.Column]
	switch {
	case c.Encoding != catalog.EncBinary:
		return 0, fmt.Errorf("%s(%s): the column is text, and the endpoint reads 8-byte binary values", agg.Kind, c.Name)
	case c.Type == catalog.TypeBigint:
		return hbase.LongInterpreter, nil
	case c.Type == catalog.TypeDouble:
		return hbase.DoubleInterpreter, nil
	}
	return 0, fmt.Errorf("%s(%s): the endpoint reads BIGINT and DOUBLE, not %s", agg.Kind, c.Name, c.Type)
}

// Aggregate computes agg over the rows of r that opts select, in the
// region servers, through the aggregation endpoint. AVG is the endpoint's
// SUM divided by its row count over the same scan (its own AVG count is
// not exact). A table whose regions do not serve the endpoint gives
// exec.ErrNoAggregate.
func (s *Store) Aggregate(ctx context.Context, table string, r exec.Range, agg exec.Aggregation, opts exec.ReadOptions) (exec.AggResult, error) {
	if err := checkPushable(opts); err != nil {
		return exec.AggResult{}, err
	}
	if opts.Limit > 0 || opts.Reverse || opts.Versions > 1 {
		return exec.AggResult{}, fmt.Errorf("a limit, reverse or several versions in an aggregate: %w", exec.ErrNoAggregate)
	}
	in, err := interpreter(opts.Table, agg)
	if err != nil {
		return exec.AggResult{}, fmt.Errorf("%w: %w", exec.ErrNoAggregate, err)
	}
	if opts.Ranges != nil {
		opts.Ranges = nonEmpty(opts.Ranges)
	}
	if (opts.Ranges != nil && len(opts.Ranges) == 0) || (len(r.Start) > 0 && len(r.Stop) > 0 && bytes.Compare(r.Start, r.Stop) >= 0) {
		return emptyAggregate(opts.Table, agg), nil
	}
	var hopts []hbase.Option
	if agg.Kind == exec.AggCount {
		hopts, err = readOptions(opts)
	} else {
		hopts, err = columnOptions(opts, agg.Column)
		hopts = append(hopts, blockCache(opts)...)
	}
	if err != nil {
		return exec.AggResult{}, err
	}
	scan, err := hbase.NewScan(table, r.Start, r.Stop, hopts...)
	if err != nil {
		return exec.AggResult{}, err
	}
	var aopts []hbase.AggregateOption
	if len(opts.Ranges) > 0 {
		krs := make([]hbase.KeyRange, len(opts.Ranges))
		for i, kr := range opts.Ranges {
			krs[i] = hbase.KeyRange{Start: kr.Start, Stop: kr.Stop}
		}
		aopts = append(aopts, hbase.InRanges(krs...))
	}
	run := func(fn hbase.AggregateFunc) (hbase.AggregateResult, error) {
		a, err := hbase.NewAggregate(fn, in, scan, aopts...)
		if err != nil {
			return hbase.AggregateResult{}, err
		}
		res, st, err := s.c.Aggregate(ctx, a)
		if stats := opts.Stats; stats != nil {
			stats.RPCs.Add(int64(st.RPCs))
			stats.Bytes.Add(st.Bytes)
			stats.Regions.Add(int64(st.Regions))
		}
		if errors.Is(err, hbase.ErrNoEndpoint) {
			s.forgetEndpoint(table)
			return res, fmt.Errorf("%w: %w", exec.ErrNoAggregate, err)
		}
		return res, mapErr(err)
	}
	return aggregateWith(opts.Table, agg, run)
}

// aggregateWith runs the endpoint calls agg needs and turns their answer
// into the column's type.
func aggregateWith(t *catalog.Table, agg exec.Aggregation, run func(hbase.AggregateFunc) (hbase.AggregateResult, error)) (exec.AggResult, error) {
	out := emptyAggregate(t, agg)
	fn := map[exec.AggKind]hbase.AggregateFunc{exec.AggCount: hbase.RowCount, exec.AggSum: hbase.Sum,
		exec.AggMin: hbase.Min, exec.AggMax: hbase.Max, exec.AggAvg: hbase.Sum}[agg.Kind]
	type counted struct {
		res hbase.AggregateResult
		err error
	}
	var rows chan counted
	if agg.Kind == exec.AggAvg {
		// AVG's row count runs beside its sum.
		rows = make(chan counted, 1)
		go func() {
			n, err := run(hbase.RowCount)
			rows <- counted{n, err}
		}()
	}
	res, err := run(fn)
	if rows != nil {
		n := <-rows
		if err == nil {
			err = n.err
		}
		res.Rows = n.res.Rows
	}
	if err != nil {
		return out, err
	}
	switch agg.Kind {
	case exec.AggCount:
		out.Count = res.Rows
		return out, nil
	case exec.AggAvg:
		n := res
		if !res.Valid || n.Rows == 0 {
			return out, nil
		}
		out.Count, out.Sum = n.Rows, value(t.Columns[agg.Column].Type, res)
		sum := res.Double
		if t.Columns[agg.Column].Type == catalog.TypeBigint {
			sum = float64(res.Long)
		}
		out.Value = catalog.Double(sum / float64(n.Rows))
		return out, nil
	}
	if res.Valid {
		out.Value = value(t.Columns[agg.Column].Type, res)
	}
	return out, nil
}

// emptyAggregate is agg over no rows: a zero count, NULL values.
func emptyAggregate(t *catalog.Table, agg exec.Aggregation) exec.AggResult {
	if agg.Kind == exec.AggCount {
		return exec.AggResult{}
	}
	typ := t.Columns[agg.Column].Type
	out := exec.AggResult{Value: catalog.Null(typ), Sum: catalog.Null(typ)}
	if agg.Kind == exec.AggAvg {
		out.Value = catalog.Null(catalog.TypeDouble)
	}
	return out
}

func value(typ catalog.Type, res hbase.AggregateResult) catalog.Value {
	if typ == catalog.TypeDouble {
		return catalog.Double(res.Double)
	}
	return catalog.Bigint(res.Long)
}

// columnOptions are the scan options of SUM, MIN, MAX and AVG over
// column col: the families of col and of the columns the filter tests
// (a region's filter never sees a family the scan leaves out), the
// ranges and the filter, and last a filter that keeps only col's cells,
// since the endpoint's interpreters read every 8-byte cell they are
// given.
func columnOptions(o exec.ReadOptions, col int) ([]hbase.Option, error) {
	t := o.Table
	c := t.Columns[col]
	fams := []string{c.Family}
	var fs []filter.Filter
	if len(o.Ranges) > 0 {
		fs = append(fs, multiRowRange(o.Ranges))
	}
	for _, cj := range expr.Conjuncts(o.Filter) {
		sf, err := compile(t, cj)
		if err != nil {
			return nil, err
		}
		if sf.forward != nil {
			sf.f = sf.forward
		}
		fs = append(fs, sf.f)
		for _, i := range sf.cols {
			if f := t.Columns[i].Family; f != "" && !slices.Contains(fams, f) {
				fams = append(fams, f)
			}
		}
	}
	fs = append(fs,
		filter.Family{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(c.Family)}},
		filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(c.Qualifier)}})
	return []hbase.Option{hbase.MaxVersions(1), hbase.Families(fams...), hbase.WithFilter(filter.And(fs...))}, nil
}
