package exec

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// Row is a decoded row on its way through a plan: the logical values (with
// the _ts pseudo-column last), the physical key and where each key
// component starts in it.
type Row struct {
	Vals catalog.Row
	Key  []byte
	Offs []int
	// Verified is set on an index entry whose status cell says the write
	// that made it completed.
	Verified bool
}

// decoder turns store rows into logical rows for one table.
type decoder struct {
	t *catalog.Table
	// cols maps "family:qualifier" to the column index.
	cols map[string]int
}

func newDecoder(t *catalog.Table) *decoder {
	d := &decoder{t: t, cols: map[string]int{}}
	for i, c := range t.Columns {
		if c.Family != "" {
			d.cols[c.Family+":"+c.Qualifier] = i
		}
	}
	return d
}

// decode builds the logical row of sr. Cells hold the newest version
// first; only the first cell of each column is used.
func (d *decoder) decode(sr *StoreRow) (*Row, error) {
	n := len(d.t.Columns)
	vals := make(catalog.Row, n+1)
	for i, c := range d.t.Columns {
		vals[i] = catalog.Null(c.Type)
	}
	offs := make([]int, len(d.t.Key.Components)+1)
	if err := d.t.DecodeKey(sr.Key, vals, offs); err != nil {
		return nil, fmt.Errorf("table %s: %w", d.t.Name, err)
	}
	var newest int64
	verified := false
	seen := make([]bool, n)
	var fq []byte
	for _, c := range sr.Cells {
		if c.Timestamp > newest {
			newest = c.Timestamp
		}
		if c.Qualifier == StatusQualifier {
			verified = len(c.Value) == 1 && c.Value[0] == statusVerified
			continue
		}
		fq = append(append(append(fq[:0], c.Family...), ':'), c.Qualifier...)
		i, ok := d.cols[string(fq)]
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		v, err := d.t.Columns[i].DecodeCell(c.Value)
		if err != nil {
			return nil, fmt.Errorf("table %s, row '%s': %w", d.t.Name, catalog.ToStringBinary(sr.Key), err)
		}
		vals[i] = v
	}
	vals[n] = catalog.TimestampMillis(newest)
	return &Row{Vals: vals, Key: sr.Key, Offs: offs, Verified: verified}, nil
}

// decodeVersions returns the row as it stood at each of its newest n
// distinct cell timestamps, newest first: each column holds its newest
// value written at or before that timestamp, and _ts is the timestamp.
func (d *decoder) decodeVersions(sr *StoreRow, n int) ([]*Row, error) {
	base, err := d.decode(sr)
	if err != nil || n <= 1 {
		return []*Row{base}, err
	}
	var stamps []int64
	for _, c := range sr.Cells {
		if !slices.Contains(stamps, c.Timestamp) {
			stamps = append(stamps, c.Timestamp)
		}
	}
	slices.SortFunc(stamps, func(a, b int64) int { return cmp.Compare(b, a) })
	if len(stamps) > n {
		stamps = stamps[:n]
	}
	nc := len(d.t.Columns)
	out := make([]*Row, 0, len(stamps))
	var fq []byte
	for _, ts := range stamps {
		vals := slices.Clone(base.Vals)
		for _, i := range d.stored() {
			vals[i] = catalog.Null(d.t.Columns[i].Type)
		}
		seen := make([]bool, nc)
		for _, c := range sr.Cells {
			if c.Timestamp > ts {
				continue
			}
			fq = append(append(append(fq[:0], c.Family...), ':'), c.Qualifier...)
			i, ok := d.cols[string(fq)]
			if !ok || seen[i] {
				continue
			}
			seen[i] = true
			if vals[i], err = d.t.Columns[i].DecodeCell(c.Value); err != nil {
				return nil, err
			}
		}
		vals[nc] = catalog.TimestampMillis(ts)
		out = append(out, &Row{Vals: vals, Key: base.Key, Offs: base.Offs})
	}
	return out, nil
}

// stored lists the columns read from cells rather than the key.
func (d *decoder) stored() []int {
	out := make([]int, 0, len(d.cols))
	for _, i := range d.cols {
		if !d.t.Columns[i].KeyField {
			out = append(out, i)
		}
	}
	return out
}
