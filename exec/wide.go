package exec

import (
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// expand turns one stored row of a table that Expands into its logical
// rows: one per repetition of the key's group, times one per cell of the
// wide family (in qualifier order). A cell that does not fit the wide
// layout makes the row malformed.
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
	var cells []*Cell
	if w := t.Wide; w != nil {
		for i := range sr.Cells {
			c := &sr.Cells[i]
			if c.Family != w.Family || (len(cells) > 0 && cells[len(cells)-1].Qualifier == c.Qualifier) {
				continue // an older version of the same point
			}
			cells = append(cells, c)
		}
	}
	out := make([]*Row, 0, len(reps)*max(len(cells), 1))
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
		for _, c := range cells {
			r := one()
			if err := t.Wide.Point(r.Vals, []byte(c.Qualifier), c.Value); err != nil {
				return nil, fmt.Errorf("table %s: key '%s': %w", t.Name, catalog.ToStringBinary(base.Key), err)
			}
			r.Vals[len(t.Columns)] = catalog.TimestampMillis(c.Timestamp)
			out = append(out, r)
		}
	}
	return out, nil
}
