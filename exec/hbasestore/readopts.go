package hbasestore

import (
	"slices"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/filter"
)

// Caching of scans the client does not size otherwise.
const (
	// maxLimitCaching bounds the rows per RPC asked for a scan with a
	// limit: the limit itself, so that one RPC brings them all, up to this.
	maxLimitCaching = 5000
	// keysOnlyCaching is the rows per RPC of a keys-only scan, whose rows
	// are a key and an empty cell each.
	keysOnlyCaching = 1000
)

// readOptions translates what a Get and a Scan share: the versions, and
// one server filter that is the scan's ranges (a MultiRowRangeFilter),
// the pushed filter's conjuncts, then the projection. The filters that test column values come first in the
// MUST_PASS_ALL list so that each sees every cell of the row before the
// projection skips some.
func readOptions(o exec.ReadOptions) ([]hbase.Option, error) {
	opts := []hbase.Option{hbase.MaxVersions(max(o.Versions, 1))}
	var fs []filter.Filter
	if len(o.Ranges) > 0 {
		fs = append(fs, multiRowRange(o.Ranges))
	}
	var tested []int
	for _, c := range expr.Conjuncts(o.Filter) {
		sf, err := compile(o.Table, c)
		if err != nil {
			return nil, err // checkPushable let through what compile refuses
		}
		if sf.forward != nil && !o.Reverse {
			sf.f = sf.forward
		}
		fs = append(fs, sf.f)
		tested = append(tested, sf.cols...)
	}
	if o.Columns != nil {
		if p := projection(o, tested); p != nil {
			fs = append(fs, p)
		}
	}
	if o.Qualifiers != nil {
		f, _ := qualifierFilter(o.Qualifiers)
		fs = append(fs, f)
	}
	switch len(fs) {
	case 0:
	case 1:
		opts = append(opts, hbase.WithFilter(fs[0]))
	default:
		opts = append(opts, hbase.WithFilter(filter.And(fs...)))
	}
	return opts, nil
}

// multiRowRange keeps the rows of the ranges; the server seeks from one
// to the next.
func multiRowRange(rs []exec.Range) filter.Filter {
	m := filter.MultiRowRange{}
	for _, r := range rs {
		m.Ranges = append(m.Ranges, filter.RowRange{Start: r.Start, StartInclusive: true, Stop: r.Stop})
	}
	return m
}

// projection is the filter that returns every row with only the cells of
// the wanted columns: the read's Columns and the columns its filters
// test (which must be fetched for SingleColumnValueFilter to see them).
// A row lacking all of them comes with its first cell, its value
// stripped. With nothing wanted it is a keys-only read.
func projection(o exec.ReadOptions, tested []int) filter.Filter {
	var quals, fams []string
	for _, i := range append(slices.Clone(o.Columns), tested...) {
		if i >= 0 && i < len(o.Table.Columns) && o.Table.Columns[i].MapFamily != "" {
			if f := o.Table.Columns[i].MapFamily; !slices.Contains(fams, f) {
				fams = append(fams, f)
			}
			continue
		}
		if i < 0 || i >= len(o.Table.Columns) || o.Table.Columns[i].Family == "" {
			continue
		}
		if q := o.Table.Columns[i].Qualifier; !slices.Contains(quals, q) {
			quals = append(quals, q)
		}
	}
	if len(quals) == 0 && len(fams) == 0 {
		return filter.And(filter.FirstKeyOnly{}, filter.KeyOnly{})
	}
	// A wanted qualifier of another family travels too; the reader
	// ignores cells of columns it did not ask for. A MAP column's
	// family travels whole, and never as the stripped first cell.
	first := []filter.Filter{filter.FirstKeyOnly{}}
	var wanted []filter.Filter
	for _, f := range fams {
		first = append(first, filter.Family{Op: filter.NotEqual, Comparator: filter.Binary{Value: []byte(f)}})
		wanted = append(wanted, filter.Family{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(f)}})
	}
	for _, q := range quals {
		first = append(first, filter.Qualifier{Op: filter.NotEqual, Comparator: filter.Binary{Value: []byte(q)}})
		wanted = append(wanted, filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(q)}})
	}
	first = append(first, filter.KeyOnly{})
	return filter.Or(append([]filter.Filter{filter.And(first...)}, wanted...)...)
}

// scanOptions are a Scan's own: the limit as the read says, rows per RPC
// sized from it, and the servers' counters when stats are wanted.
func scanOptions(o exec.ReadOptions) []hbase.Option {
	var opts []hbase.Option
	switch {
	case o.Limit > 0:
		opts = append(opts, hbase.Limit(o.Limit), hbase.Caching(min(o.Limit, maxLimitCaching)))
	case o.KeysOnly():
		opts = append(opts, hbase.Caching(keysOnlyCaching))
	}
	if o.Stats != nil {
		opts = append(opts, hbase.TrackScanMetrics())
	}
	return opts
}
