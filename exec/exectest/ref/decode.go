package ref

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
)

// Cell is one stored cell as a plain scan returns it. The reference has
// its own type so that it depends on no store: the caller copies a
// store's cells into it.
type Cell struct {
	Family    string
	Qualifier string
	// Timestamp is the cell timestamp in milliseconds since the epoch.
	Timestamp int64
	Value     []byte
}

// Decoder reads the logical rows of a table's stored rows with the
// catalog's codec alone: each row holds the table's columns and then
// _ts, the newest timestamp among the stored row's cells. A key group's
// repetitions and a wide family's cells it reads with its own decoder
// (expand.go).
type Decoder struct {
	t    *catalog.Table
	cols map[[2]string]int // family and qualifier to the column they hold
}

// NewDecoder returns the decoder of t's stored rows.
func NewDecoder(t *catalog.Table) *Decoder {
	cols := map[[2]string]int{}
	for i, c := range t.Columns {
		if c.Family != "" {
			cols[[2]string{c.Family, c.Qualifier}] = i
		}
	}
	return &Decoder{t: t, cols: cols}
}

// Rows reads the logical rows of the stored row with key and cells, the
// cells sorted by family, then qualifier, then timestamp newest first:
// one row, or those of its group's repetitions and wide cells. A key or
// cell that does not decode is an error, except a wide cell that does
// not fit: it is left out as the engine skips it.
func (d *Decoder) Rows(key []byte, cells []Cell) ([]catalog.Row, error) {
	r, err := d.row(key, cells)
	if err != nil {
		return nil, err
	}
	if !Expands(d.t) {
		return []catalog.Row{r}, nil
	}
	return expandRow(d.t, key, cells, r)
}

// row builds one logical row. Cells come newest first within a column,
// so the first cell of a column is its value.
func (d *Decoder) row(key []byte, cells []Cell) (catalog.Row, error) {
	t := d.t
	n := len(t.Columns)
	r := make(catalog.Row, n+1)
	for i, c := range t.Columns {
		r[i] = catalog.Null(c.Type)
	}
	if err := t.DecodeKey(key, r, nil); err != nil {
		return nil, fmt.Errorf("key '%s' of %s: %w", catalog.ToStringBinary(key), t.Name, err)
	}
	seen := make([]bool, n)
	newest := int64(-1)
	for _, c := range cells {
		newest = max(newest, c.Timestamp)
		i, ok := d.cols[[2]string{c.Family, c.Qualifier}]
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		v, err := t.Columns[i].DecodeCell(c.Value)
		if err != nil {
			return nil, fmt.Errorf("row '%s' of %s: %w", catalog.ToStringBinary(key), t.Name, err)
		}
		r[i] = v
	}
	if err := refMaps(t, key, cells, r); err != nil {
		return nil, err
	}
	r[n] = catalog.Null(catalog.TypeTimestamp)
	if newest >= 0 {
		r[n] = catalog.TimestampMillis(newest)
	}
	return r, nil
}
