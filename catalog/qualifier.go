package catalog

import (
	"fmt"
)

// Qualifiers is the codec of a family whose qualifiers are data: each
// qualifier is one field's value, in any encoding a rowkey field may have
// (text, decimal, sortable, java, with width, pad and order).
//
// Table is a table of its own whose key is that one field: its Columns
// are the owning table's (so that conditions over the owning table's
// rows plan qualifier ranges as key ranges), or, for a MAP column, one
// column of the map's key type. Col is the field's column in Table.
type Qualifiers struct {
	Table *Table
	Col   int
}

// Encode writes the qualifier of v.
func (q *Qualifiers) Encode(v Value) ([]byte, error) {
	if v.Null {
		return nil, fmt.Errorf("a qualifier cannot be NULL")
	}
	row := q.Table.NewRow()
	row[q.Col] = v
	b, err := q.Table.EncodeKey(row, nil)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("a qualifier of no bytes cannot be written")
	}
	return b, nil
}

// Decode reads the value a qualifier holds. It fails on bytes that the
// encoding could not have written.
func (q *Qualifiers) Decode(b []byte) (Value, error) {
	row := q.Table.NewRow()
	if err := q.Table.DecodeKey(b, row, nil); err != nil {
		return Value{}, fmt.Errorf("qualifier '%s': %w", ToStringBinary(b), err)
	}
	return row[q.Col], nil
}

// String is the qualifier's layout in the key notation.
func (q *Qualifiers) String() string { return q.Table.Key.String() }

// yQualifier is the YAML of a wide family's qualifier: OpenTSDB's
// offsets (format, width, shift) or a field (field and its encoding).
type yQualifier struct {
	Format   string  `yaml:"format"`
	Width    int     `yaml:"width"`
	Shift    uint    `yaml:"shift"`
	Field    string  `yaml:"field"`
	Encoding string  `yaml:"encoding"`
	Order    string  `yaml:"order"`
	Pad      *string `yaml:"pad"`
	Align    string  `yaml:"align"`
	Unsigned bool    `yaml:"unsigned"`
	Reverse  bool    `yaml:"reverse"`
}

func (y *yQualifier) component(field string) yComponent {
	return yComponent{Field: field, Encoding: y.Encoding, Width: y.Width, Order: y.Order, Pad: y.Pad, Align: y.Align, Unsigned: y.Unsigned, Reverse: y.Reverse}
}

// qualifiers builds the codec of a qualifier that holds column col of
// cols, as y describes it.
func (l *loader) qualifiers(name string, cols []Column, col int, y *yQualifier, path []any) (*Qualifiers, error) {
	if y.Format != "" || y.Shift != 0 {
		return nil, l.errf(path, "a qualifier that holds a field takes no format or shift")
	}
	qt := &Table{Name: name, Physical: name, Columns: append([]Column(nil), cols...), colByName: map[string]int{}}
	for i, c := range qt.Columns {
		qt.Columns[i].KeyField = false
		qt.colByName[c.Name] = i
	}
	key, err := l.layout(qt, []yComponent{y.component(qt.Columns[col].Name)}, path)
	if err != nil {
		return nil, err
	}
	if c := &key.Components[0]; c.Kind != KindField {
		return nil, l.errf(path, "a qualifier holds one field")
	}
	qt.Key = key
	return &Qualifiers{Table: qt, Col: col}, nil
}

// cellRows reads a wide family whose qualifier is a field: each cell of
// the family is a row, its qualifier the field, its value the value
// column, read in that column's encoding.
func (l *loader) cellRows(t *Table, y *yWide, w *Wide, path []any) error {
	qi, ok := t.colByName[y.Qualifier.Field]
	if !ok {
		return l.errf(path, "wide: qualifier field %q is not a column of table %q", y.Qualifier.Field, t.Name)
	}
	vi, ok := t.colByName[y.Value]
	if !ok {
		return l.errf(path, "wide: value %q is not a column of table %q", y.Value, t.Name)
	}
	if qi == vi {
		return l.errf(path, "wide: column %q cannot be both the qualifier and the value", y.Value)
	}
	if y.Offset != "" || y.Integer != "" || y.Time != "" || y.Base != "" {
		return l.errf(path, "wide: a qualifier that holds a field takes a value alone (no offset, integer, time or base)")
	}
	if y.UIDs != "" || y.Metric != "" || y.MetricUID != "" || y.Tags != "" {
		return l.errf(path, "wide: uids, metric, metric_uid and tags need qualifier format opentsdb, not a qualifier that holds a field")
	}
	if t.Columns[vi].Type == TypeMap || t.Columns[qi].Type == TypeMap {
		return l.errf(path, "wide: the qualifier and the value cannot be MAPs")
	}
	q, err := l.qualifiers(t.Name+"."+y.Qualifier.Field, t.Columns, qi, &y.Qualifier, append(path, "qualifier"))
	if err != nil {
		return err
	}
	for _, i := range []int{qi, vi} {
		if c := &t.Columns[i]; c.KeyField || c.Family != "" {
			return l.errf(path, "wide: column %q comes from the cell, so it can be neither a key field nor mapped", c.Name)
		}
		t.Columns[i].FromCell = true
	}
	w.Cells, w.Qual, w.Value = q, qi, vi
	w.Offset, w.Integer, w.Time, w.Base = -1, -1, -1, -1
	t.Wide = w
	return nil
}

// mapFamily reads a MAP column that holds a whole family: each cell a
// key (its qualifier, read as the qualifier spec says) and a value (read
// in the column's encoding).
func (l *loader) mapFamily(t *Table, col *Column, yc *yColumn, cp []any) error {
	if col.Type != TypeMap {
		return l.errf(append(cp, "family"), "column %q: only a MAP column holds a whole family (type: \"MAP<STRING, STRING>\")", col.Name)
	}
	if yc.Column != "" {
		return l.errf(cp, "column %q: give family (the whole family) or column (one cell), not both", col.Name)
	}
	if _, ok := t.Family(yc.Family); !ok {
		return l.errf(append(cp, "family"), "column %q: table %q has no family %q (families: %s)", col.Name, t.Name, yc.Family, familyNames(t))
	}
	for _, other := range t.Columns {
		if other.Family == yc.Family || other.MapFamily == yc.Family {
			return l.errf(append(cp, "family"), "column %q: family %q already holds column %q; a map holds its family alone", col.Name, yc.Family, other.Name)
		}
	}
	y := yc.Qualifier
	if y == nil {
		y = &yQualifier{}
	}
	if y.Field != "" {
		return l.errf(append(cp, "qualifier"), "column %q: a map's qualifier is its key: give its encoding, not a field", col.Name)
	}
	keyCol := Column{Name: col.Name, Type: col.Map.Key}
	q, err := l.qualifiers(t.Name+"."+col.Name, []Column{keyCol}, 0, y, append(cp, "qualifier"))
	if err != nil {
		return err
	}
	col.MapFamily, col.MapKeys = yc.Family, q
	return nil
}

// MapCell is the cell form of a MAP column's values: a Column of the
// map's value type in the map column's encoding, whose EncodeCell and
// DecodeCell write and read one entry's value.
func (c *Column) MapCell() Column {
	return Column{Name: c.Name, Type: c.Map.Val, Encoding: c.Encoding}
}

// FieldCell reads one cell of a wide family whose qualifier is a field
// into row: the field from the qualifier, the value column from the
// value in its encoding.
func (w *Wide) FieldCell(t *Table, row Row, qual, val []byte) error {
	q, err := w.Cells.Decode(qual)
	if err != nil {
		return err
	}
	v, err := t.Columns[w.Value].DecodeCell(val)
	if err != nil {
		return fmt.Errorf("qualifier '%s': %w", ToStringBinary(qual), err)
	}
	row[w.Qual], row[w.Value] = q, v
	return nil
}

// FieldRowCell is the cell of a row of a wide family whose qualifier is
// a field: its qualifier, and its value, nil when the row's value is NULL
// (which deletes the cell). The field must be set.
func (w *Wide) FieldRowCell(t *Table, row Row) (qual, val []byte, err error) {
	if row[w.Qual].Null {
		return nil, nil, fmt.Errorf("%s is the qualifier of family %s: it must be given", t.Columns[w.Qual].Name, w.Family)
	}
	if qual, err = w.Cells.Encode(row[w.Qual]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", t.Columns[w.Qual].Name, err)
	}
	if row[w.Value].Null {
		return qual, nil, nil
	}
	return qual, t.Columns[w.Value].EncodeCell(row[w.Value]), nil
}
