package exec

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// cellsSkipped is the error of a stored row some of whose wide cells do
// not fit the layout: decodeVersions returns the rows of the cells that do
// alongside it, and each error counts as one malformed row.
type cellsSkipped struct{ errs []error }

func (e *cellsSkipped) Error() string {
	return fmt.Sprintf("%d cells skipped (first: %v)", len(e.errs), e.errs[0])
}

// decoded counts in s what decodeVersions skipped and says whether its
// rows are to be used: a row that does not fit is skipped whole, a wide
// row's cells that do not fit one by one.
func (s *Stats) decoded(err error) bool { return s.decodedAt(err, 0) }

// decodedAt is decoded for the part of a parallel read that is order
// (from 1) in key order; 0 is a serial read.
func (s *Stats) decodedAt(err error, order int) bool {
	var cs *cellsSkipped
	if errors.As(err, &cs) {
		for _, e := range cs.errs {
			s.malformedIn(e, order)
		}
		return true
	}
	if err != nil {
		s.malformedIn(err, order)
		return false
	}
	return true
}

// malformedIn counts a malformed row of a serial read (order 0) or of a
// part of a parallel one.
func (s *Stats) malformedIn(err error, order int) {
	if order == 0 {
		s.malformed(err)
		return
	}
	s.malformedAt(err, order)
}

// widePoint is one point of a wide row and the timestamp of its cell.
type widePoint struct {
	catalog.WidePoint
	stamp int64
}

// points returns the points of sr's wide family, with an error for each
// cell that does not fit. Older versions of a cell are ignored. With the
// OpenTSDB format the points are in time order and a time held by several
// cells (a compacted cell beside the points it replaced) gives one point,
// from the newest cell, as OpenTSDB's compaction keeps it; otherwise they
// are in qualifier order.
func (d *decoder) points(base *Row, sr *StoreRow) ([]widePoint, []error) {
	t, w := d.t, d.t.Wide
	var pts []widePoint
	var errs []error
	var buf []catalog.WidePoint
	for i := range sr.Cells {
		c := &sr.Cells[i]
		if c.Family != w.Family || (i > 0 && sr.Cells[i-1].Family == c.Family && sr.Cells[i-1].Qualifier == c.Qualifier) {
			continue // an older version of the same cell
		}
		var err error
		if buf, err = w.Points(buf[:0], []byte(c.Qualifier), c.Value); err != nil {
			errs = append(errs, fmt.Errorf("table %s: key '%s': %w", t.Name, catalog.ToStringBinary(base.Key), err))
			continue
		}
		for _, p := range buf {
			pts = append(pts, widePoint{p, c.Timestamp})
		}
	}
	if w.OpenTSDB {
		slices.SortStableFunc(pts, func(a, b widePoint) int {
			return cmp.Or(cmp.Compare(a.Millis, b.Millis), cmp.Compare(b.stamp, a.stamp))
		})
		pts = slices.CompactFunc(pts, func(a, b widePoint) bool { return a.Millis == b.Millis })
	}
	return pts, errs
}

// expand turns one stored row of a table that Expands into its logical
// rows: one per repetition of the key's group, times one per point of the
// wide family. Cells that do not fit the wide layout are left out and
// reported in a *cellsSkipped with the rows of the rest.
func (d *decoder) expand(base *Row, sr *StoreRow) ([]*Row, error) {
	t := d.t
	reps, err := t.Repeats(base.Key, base.Offs)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Name, err)
	}
	var gcols []int
	if reps != nil {
		gcols = t.Key.Components[len(t.Key.Components)-1].GroupColumns()
	} else {
		reps = [][]catalog.Value{nil}
	}
	if t.Wide != nil && t.Wide.Cells != nil {
		return d.fieldCells(base, sr)
	}
	var pts []widePoint
	var errs []error
	if t.Wide != nil {
		pts, errs = d.points(base, sr)
	}
	if t.Collects() {
		return d.collect(base, reps, pts, errs)
	}
	out := make([]*Row, 0, len(reps)*max(len(pts), 1))
	for _, rep := range reps {
		one := func() *Row {
			r := &Row{Vals: slices.Clone(base.Vals), Key: base.Key, Offs: base.Offs}
			for j, col := range gcols {
				r.Vals[col] = rep[j]
			}
			return r
		}
		if t.Wide == nil {
			out = append(out, one())
			continue
		}
		for _, p := range pts {
			r := one()
			t.Wide.Set(r.Vals, p.WidePoint)
			r.Vals[len(t.Columns)] = catalog.TimestampMillis(p.stamp)
			out = append(out, r)
		}
	}
	if len(errs) > 0 {
		return out, &cellsSkipped{errs}
	}
	return out, nil
}

// fieldCells turns a stored row of a wide family whose qualifier is a
// field into its logical rows: one per qualifier, from its newest cell,
// in qualifier order, with _ts that cell's timestamp. A cell whose
// qualifier or value does not fit is left out and reported in a
// *cellsSkipped with the rows of the rest.
func (d *decoder) fieldCells(base *Row, sr *StoreRow) ([]*Row, error) {
	t, w := d.t, d.t.Wide
	var out []*Row
	var errs []error
	for i := range sr.Cells {
		c := &sr.Cells[i]
		if c.Family != w.Family || (i > 0 && sr.Cells[i-1].Family == c.Family && sr.Cells[i-1].Qualifier == c.Qualifier) {
			continue // another family, or an older version of the same cell
		}
		r := &Row{Vals: slices.Clone(base.Vals), Key: base.Key, Offs: base.Offs}
		if err := w.FieldCell(t, r.Vals, []byte(c.Qualifier), c.Value); err != nil {
			errs = append(errs, fmt.Errorf("table %s: key '%s': %w", t.Name, catalog.ToStringBinary(base.Key), err))
			continue
		}
		r.Vals[len(t.Columns)] = catalog.TimestampMillis(c.Timestamp)
		out = append(out, r)
	}
	if len(errs) > 0 {
		return out, &cellsSkipped{errs}
	}
	return out, nil
}

// collect gives the rows of an OpenTSDB table that shows its uids by
// name: one per point, with the metric's name and every tag pair in one
// column, the group's own columns NULL.
func (d *decoder) collect(base *Row, reps [][]catalog.Value, pts []widePoint, errs []error) ([]*Row, error) {
	t, n := d.t, d.t.Wide.Names
	metric, tags, err := d.tsdbNames(base, reps)
	if err != nil {
		return nil, err
	}
	out := make([]*Row, 0, len(pts))
	for _, p := range pts {
		r := &Row{Vals: slices.Clone(base.Vals), Key: base.Key, Offs: base.Offs}
		r.Vals[n.TagK], r.Vals[n.TagV] = catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeBigint)
		r.Vals[n.Metric], r.Vals[n.Tags] = catalog.String(metric), tags
		t.Wide.Set(r.Vals, p.WidePoint)
		r.Vals[len(t.Columns)] = catalog.TimestampMillis(p.stamp)
		out = append(out, r)
	}
	if len(errs) > 0 {
		return out, &cellsSkipped{errs}
	}
	return out, nil
}
