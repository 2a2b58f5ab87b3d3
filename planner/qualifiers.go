package planner

import (
	"context"
	"fmt"
	"strings"
)

// qualifiers plans the qualifier ranges of a read of a wide family whose
// qualifier is a field: the conditions on that field, planned over the
// qualifier's one-field layout as key conditions are over a rowkey. A
// read whose conditions allow no qualifier reads nothing.
func (b *selectBuild) qualifiers(ctx context.Context) error {
	acc := b.sel.Access
	if acc == nil || b.cand.ix != nil || acc.Kind == EmptyResult {
		return nil
	}
	w := acc.Table.Wide
	if w == nil || w.Cells == nil {
		return nil
	}
	kp, err := planKeys(ctx, w.Cells.Table, b.cand.conj, b.pl.opts.Limits)
	if err != nil {
		return err
	}
	switch {
	case kp.empty:
		acc.Kind, acc.Ranges = EmptyResult, nil
	case !kp.full:
		acc.Qualifiers = kp.ranges
	}
	return nil
}

// QualifierText is how EXPLAIN shows an access's qualifier ranges: the
// family, the field, and each range or point as the field's values.
func (a *Access) QualifierText() string {
	w := a.Table.Wide
	parts := make([]string, 0, len(a.Qualifiers))
	for _, r := range a.Qualifiers {
		switch {
		case r.Point:
			parts = append(parts, strings.Join(r.From, ","))
		default:
			parts = append(parts, fmt.Sprintf("[%s] - [%s]", strings.Join(r.From, ","), strings.Join(r.To, ",")))
		}
	}
	return fmt.Sprintf("%s:%s IN %s", w.Family, a.Table.Columns[w.Qual].Name, strings.Join(parts, ", "))
}
