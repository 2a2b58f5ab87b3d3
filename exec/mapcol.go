package exec

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
)

// mapCells sets the MAP columns of r that hold a whole family: one entry
// per qualifier of the family, from its newest cell written at or before
// asOf. A row with no cell in the family holds NULL. A cell whose
// qualifier or value the column cannot read fails the row, as a stored
// column's cell does.
func (d *decoder) mapCells(r *Row, sr *StoreRow, asOf int64) error {
	for _, i := range d.maps {
		c := &d.t.Columns[i]
		cell := c.MapCell()
		var entries []catalog.MapEntry
		last, any := "", false
		for _, sc := range sr.Cells {
			if sc.Family != c.MapFamily || sc.Timestamp > asOf || (any && sc.Qualifier == last) {
				continue
			}
			last, any = sc.Qualifier, true
			k, err := c.MapKeys.Decode([]byte(sc.Qualifier))
			if err != nil {
				return fmt.Errorf("table %s, row '%s': column %s: %w", d.t.Name, catalog.ToStringBinary(sr.Key), c.Name, err)
			}
			v, err := cell.DecodeCell(sc.Value)
			if err != nil {
				return fmt.Errorf("table %s, row '%s': %w of key %s", d.t.Name, catalog.ToStringBinary(sr.Key), err, k)
			}
			entries = append(entries, catalog.MapEntry{Key: k, Val: v})
		}
		if any {
			r.Vals[i] = catalog.NewMap(entries)
		}
	}
	return nil
}
