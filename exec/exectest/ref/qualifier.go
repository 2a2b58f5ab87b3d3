package ref

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// This file is the reference's reading of families whose qualifiers are
// data, on its own terms:
//
//   - a MAP column that holds a family has one entry per qualifier of
//     the family, the qualifier read as the column's key codec says and
//     the value from the qualifier's newest cell; a row with no cell in
//     the family holds NULL;
//   - m[k] is the value of the entry whose key has k's text (a number
//     given as '42' or 42 names the same key), NULL when there is none;
//   - a wide family whose qualifier is a field gives one row per
//     qualifier (its newest cell), the field from the qualifier and the
//     value from the cell, and _ts the cell's timestamp; a cell that does
//     not decode is left out, as the engine skips it.

// refMaps fills r's MAP columns that hold a family from the cells of
// the stored row with key.
func refMaps(t *catalog.Table, key []byte, cells []Cell, r catalog.Row) error {
	for i, c := range t.Columns {
		if c.MapFamily == "" {
			continue
		}
		byQual := map[string]catalog.MapEntry{}
		var order []string
		for _, cell := range cells {
			if cell.Family != c.MapFamily {
				continue
			}
			if _, seen := byQual[cell.Qualifier]; seen {
				continue // an older version
			}
			k, err := c.MapKeys.Decode([]byte(cell.Qualifier))
			if err != nil {
				return fmt.Errorf("reference: row '%s' of %s: %w", catalog.ToStringBinary(key), t.Name, err)
			}
			mc := catalog.Column{Name: c.Name, Type: c.Map.Val, Encoding: c.Encoding}
			v, err := mc.DecodeCell(cell.Value)
			if err != nil {
				return fmt.Errorf("reference: row '%s' of %s: %w", catalog.ToStringBinary(key), t.Name, err)
			}
			byQual[cell.Qualifier] = catalog.MapEntry{Key: k, Val: v}
			order = append(order, cell.Qualifier)
		}
		if len(order) == 0 {
			continue
		}
		es := make([]catalog.MapEntry, 0, len(order))
		for _, q := range order {
			es = append(es, byQual[q])
		}
		r[i] = catalog.NewMap(es)
	}
	return nil
}

// refCellRows reads the rows of a wide family whose qualifier is a field.
func refCellRows(t *catalog.Table, cells []Cell, base catalog.Row) []catalog.Row {
	w := t.Wide
	var out []catalog.Row
	seen := map[string]bool{}
	for _, c := range cells {
		if c.Family != w.Family || seen[c.Qualifier] {
			continue
		}
		seen[c.Qualifier] = true
		q, err := w.Cells.Decode([]byte(c.Qualifier))
		if err != nil {
			continue
		}
		v, err := t.Columns[w.Value].DecodeCell(c.Value)
		if err != nil {
			continue
		}
		r := append(catalog.Row(nil), base...)
		r[w.Qual], r[w.Value] = q, v
		r[len(t.Columns)] = catalog.TimestampMillis(c.Timestamp)
		out = append(out, r)
	}
	return out
}

// subscriptType is the type of m[k]: the map's value type.
func (e *evaluator) subscriptType(x *parser.SubscriptExpr) catalog.Type {
	for _, c := range e.t.Columns {
		if c.Name == x.X.Name {
			return c.Map.Val
		}
	}
	return catalog.TypeString
}

// subscript evaluates m[k] by the text of the keys.
func (e *evaluator) subscript(x *parser.SubscriptExpr, r catalog.Row) (val, error) {
	m, err := e.operand(x.X, r)
	if err != nil {
		return val{}, err
	}
	k, err := e.operand(x.Key, r)
	if err != nil || m.k == kNull || k.k == kNull {
		return val{}, err
	}
	if m.k != kMap {
		return val{}, fmt.Errorf("reference: %s is no map", x.X.Name)
	}
	want := text(k, e.refType(x.Key))
	for _, en := range m.m.Entries {
		kt := en.Key.Type
		if text(fromValue(en.Key), kt) == want {
			return fromValue(en.Val), nil
		}
	}
	return val{}, nil
}
