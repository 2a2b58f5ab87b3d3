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
	if tr := o.TimeRange; tr != nil {
		opts = append(opts, hbase.TimeRange(tr.From, tr.To))
	}
	opts = append(opts, blockCache(o)...)
	if sel := o.Cells; sel != nil {
		opts = append(opts, cellOptions(sel)...)
		if sel.Families == nil && sel.Qualifiers != nil {
			fs = append(fs, qualifiers(sel.Qualifiers))
		}
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

// blockCache turns the servers' block cache off for a read that asks,
// and leaves their default (on) otherwise.
func blockCache(o exec.ReadOptions) []hbase.Option {
	if o.NoBlockCache {
		return []hbase.Option{hbase.BlockCache(false)}
	}
	return nil
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
	var quals []string
	// A MAP column's cells: its whole family, or, read by entries, the
	// entries' cells; never as the stripped first cell (notFirst).
	var maps, notFirst []filter.Filter
	for _, i := range append(slices.Clone(o.Columns), tested...) {
		if i >= 0 && i < len(o.Table.Columns) && o.Table.Columns[i].MapFamily != "" {
			m, n := mapProjection(o.Table.Columns[i].MapFamily, o.Entries[i], o.Entries != nil && o.Entries[i] != nil)
			maps, notFirst = append(maps, m...), append(notFirst, n...)
			continue
		}
		if i < 0 || i >= len(o.Table.Columns) || o.Table.Columns[i].Family == "" {
			continue
		}
		if q := o.Table.Columns[i].Qualifier; !slices.Contains(quals, q) {
			quals = append(quals, q)
		}
	}
	if len(quals) == 0 && len(maps) == 0 {
		return filter.And(filter.FirstKeyOnly{}, filter.KeyOnly{})
	}
	// A wanted qualifier of another family travels too; the reader
	// ignores cells of columns it did not ask for.
	first := append([]filter.Filter{filter.FirstKeyOnly{}}, notFirst...)
	wanted := maps
	for _, q := range quals {
		first = append(first, filter.Qualifier{Op: filter.NotEqual, Comparator: filter.Binary{Value: []byte(q)}})
		wanted = append(wanted, filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(q)}})
	}
	first = append(first, filter.KeyOnly{})
	return filter.Or(append([]filter.Filter{filter.And(first...)}, wanted...)...)
}

// mapProjection is what a projection keeps of a MAP column over family
// f: the whole family, or, when byEntries, the cells of qualifiers qs
// alone. notFirst keeps those cells from being the stripped first cell
// of a row, which would read as an entry of no value; by entries, a
// row whose only cells are other entries still comes, as its stripped
// first cell, which no m['k'] of the read names.
func mapProjection(f string, qs [][]byte, byEntries bool) (keep, notFirst []filter.Filter) {
	fam := func(op filter.CompareOp) filter.Filter {
		return filter.Family{Op: op, Comparator: filter.Binary{Value: []byte(f)}}
	}
	if !byEntries {
		return []filter.Filter{fam(filter.Equal)}, []filter.Filter{fam(filter.NotEqual)}
	}
	for _, q := range qs {
		keep = append(keep, filter.And(fam(filter.Equal), filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: q}}))
		notFirst = append(notFirst, filter.Or(fam(filter.NotEqual), filter.Qualifier{Op: filter.NotEqual, Comparator: filter.Binary{Value: q}}))
	}
	return keep, notFirst
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

// cellOptions are the families and columns of a raw read, as the Java
// client's addFamily and addColumn send them.
func cellOptions(sel *exec.CellSelect) []hbase.Option {
	if sel.Families == nil {
		return nil
	}
	if sel.Qualifiers == nil {
		return []hbase.Option{hbase.Families(sel.Families...)}
	}
	opts := make([]hbase.Option, len(sel.Families))
	for i, f := range sel.Families {
		opts[i] = hbase.Columns(f, sel.Qualifiers...)
	}
	return opts
}

// qualifiers keeps the cells of the qualifiers qs in every family: a
// QualifierFilter, or several ORed.
func qualifiers(qs []string) filter.Filter {
	fs := make([]filter.Filter, len(qs))
	for i, q := range qs {
		fs[i] = filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(q)}}
	}
	if len(fs) == 1 {
		return fs[0]
	}
	return filter.Or(fs...)
}
