package exec

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
)

// Row is a decoded row on its way through a plan: the logical values (with
// the _ts pseudo-column last), the physical key and where each key
// component starts in it.
type Row struct {
	Vals catalog.Row
	Key  []byte
	Offs []int
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
	seen := make([]bool, n)
	var fq []byte
	for _, c := range sr.Cells {
		if c.Timestamp > newest {
			newest = c.Timestamp
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
	return &Row{Vals: vals, Key: sr.Key, Offs: offs}, nil
}
