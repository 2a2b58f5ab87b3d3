package catalog

import (
	"errors"
	"fmt"
	"strings"
)

// phoenixType reads a column's or field's phoenix: key, defaulting to the
// Phoenix type of the column type, and checks that the column type holds
// it.
func (l *loader) phoenixType(name string, typ Type, given string, width int, cp []any) (PType, error) {
	p := PTypeOf(typ)
	if given != "" {
		var ok bool
		if p, ok = ParsePType(given); !ok {
			return p, l.errf(append(cp, "phoenix"), "%s: unknown Phoenix type %q", name, given)
		}
	}
	if !p.Holds(typ) {
		var names []string
		for _, t := range p.ColumnTypes() {
			names = append(names, t.String())
		}
		return p, l.errf(cp, "%s is %s, which cannot hold Phoenix's %s (want %s)", name, typ, p, strings.Join(names, " or "))
	}
	if p.NeedsWidth() && width <= 0 {
		return p, l.errf(cp, "%s: Phoenix's %s needs its width: width: N, as in %s(N)", name, p, p)
	}
	if !p.NeedsWidth() && width != 0 {
		return p, l.errf(cp, "%s: Phoenix's %s has no width to give", name, p)
	}
	return p, nil
}

// phoenixColumn finishes a column in the phoenix encoding.
func (l *loader) phoenixColumn(col Column, yc *yColumn, cp []any) (Column, error) {
	if yc.Unsigned {
		return Column{}, l.errf(cp, "column %q: write Phoenix's UNSIGNED_ types as phoenix: UNSIGNED_…, not unsigned", yc.Name)
	}
	p, err := l.phoenixType("column "+quote(yc.Name), col.Type, yc.Phoenix, yc.Width, cp)
	if err != nil {
		return Column{}, err
	}
	col.Encoding, col.Phoenix, col.Width = EncPhoenix, p, yc.Width
	return col, nil
}

// phoenixField finishes a key field in the phoenix encoding.
func (l *loader) phoenixField(c Component, y *yComponent, cp []any) (Component, error) {
	name := "field " + quote(y.Field)
	switch {
	case y.Reverse || y.Pad != nil || y.Align != "" || y.Unit != "" || y.Unsigned:
		return c, l.errf(cp, "%s: a phoenix field takes phoenix, order and width (CHAR, BINARY) only", name)
	}
	p, err := l.phoenixType(name, c.typ, y.Phoenix, y.Width, cp)
	if err != nil {
		return c, err
	}
	c.Enc, c.Phoenix = KeyPhoenix, p
	c.Width, _ = p.FixedWidth(y.Width)
	if p == PVarbinary && c.Desc {
		return c, l.errf(cp, "%s: a descending VARBINARY key field is not supported", name)
	}
	return c, nil
}

// phoenixLayout checks the order of a layout's phoenix fields and marks
// the last component: after a phoenix field come only phoenix fields (its
// separator is its own, and trailing NULLs are left out), and a
// VARBINARY ends the key, as Phoenix requires.
func (l *loader) phoenixLayout(key *Layout, path []any) error {
	n := len(key.Components)
	if n > 0 {
		key.Components[n-1].last = true
	}
	seen := false
	for i := range key.Components {
		c := &key.Components[i]
		cp := append(append([]any{}, path...), i)
		isP := c.Kind == KindField && c.Enc == KeyPhoenix
		if seen && !isP {
			return l.errf(cp, "only phoenix fields may follow a phoenix field in the rowkey")
		}
		seen = seen || isP
		if isP && c.Phoenix == PVarbinary && i != n-1 {
			return l.errf(cp, "field %q: a VARBINARY key field must be the last, as in Phoenix", c.Field)
		}
	}
	return nil
}

func quote(s string) string { return `"` + s + `"` }

// yPhoenix is a table's phoenix: block.
type yPhoenix struct {
	Table       string `yaml:"table"`
	EmptyColumn string `yaml:"empty_column"`
	Storage     string `yaml:"storage"`
	// GlobalIndexes names the table's Phoenix global indexes.
	GlobalIndexes []string `yaml:"global_indexes"`
	// IndexOf names the data table of a table that is a Phoenix index.
	IndexOf string `yaml:"index_of"`
	// Uncovered marks an index of Phoenix's CREATE UNCOVERED INDEX.
	Uncovered bool `yaml:"uncovered"`
}

// PhoenixSpec is the YAML shape of a table's phoenix: block.
type PhoenixSpec = yPhoenix

// phoenixTable reads a table's phoenix: block.
func (l *loader) phoenixTable(t *Table, y *yPhoenix, path []any) (*PhoenixTable, error) {
	p := &PhoenixTable{Name: y.Table, IndexOf: y.IndexOf, Uncovered: y.Uncovered}
	if y.Uncovered && y.IndexOf == "" {
		return nil, l.errf(append(path, "uncovered"), "table %q: uncovered is for a Phoenix index (index_of: S.T)", t.Name)
	}
	for i, ix := range y.GlobalIndexes {
		if ix == "" {
			return nil, l.errf(append(path, "global_indexes", i), "table %q: a global index's name is empty", t.Name)
		}
		p.GlobalIndexes = append(p.GlobalIndexes, ix)
	}
	if y.Table == "" {
		return nil, l.errf(path, "table %q: phoenix: needs table:, the table's name in Phoenix (SCHEMA.TABLE)", t.Name)
	}
	switch strings.ToLower(y.Storage) {
	case "", "one_cell_per_column":
		p.Storage = PhoenixOneCellPerColumn
	case "single_cell_array_with_offsets":
		p.Storage = PhoenixSingleCellArray
	default:
		return nil, l.errf(append(path, "storage"), "table %q: unknown Phoenix storage scheme %q (want one_cell_per_column or single_cell_array_with_offsets)", t.Name, y.Storage)
	}
	if y.EmptyColumn != "" {
		cp := append(path, "empty_column")
		fq, err := l.bytes(cp, y.EmptyColumn)
		if err != nil {
			return nil, l.errf(cp, "table %q: empty_column %q: %v", t.Name, y.EmptyColumn, err)
		}
		fam, qual, ok := strings.Cut(string(fq), ":")
		if !ok || fam == "" || qual == "" {
			return nil, l.errf(cp, "table %q: empty_column %q is not family:qualifier", t.Name, y.EmptyColumn)
		}
		if _, ok := t.Family(fam); !ok {
			return nil, l.errf(cp, "table %q: empty_column %q: no family %q (families: %s)", t.Name, y.EmptyColumn, fam, familyNames(t))
		}
		for _, c := range t.Columns {
			if c.Family == fam && c.Qualifier == qual {
				return nil, l.errf(cp, "table %q: empty_column %q is column %q's cell", t.Name, y.EmptyColumn, c.Name)
			}
		}
		p.EmptyFamily, p.EmptyQualifier = fam, qual
	}
	return p, nil
}

// linkPhoenixIndexes makes each Phoenix global index that the catalog
// describes (index_of: S.T) an index of its data table's entry (phoenix:
// table: S.T), so that queries of the table may read it. The index's key
// is its indexed columns, then the data table's key columns; its cells
// are the columns it covers. The linked copy is the index's entry with
// the data table's column types, which the index's Phoenix types must
// hold (Phoenix keeps a nullable number as a DECIMAL); an index that
// does not fit is left unlinked, with a warning.
func (l *loader) linkPhoenixIndexes(c *Catalog, y *yCatalog) {
	data := map[string]*Table{}
	for _, t := range c.Tables {
		if t.Phoenix != nil && t.Phoenix.IndexOf == "" && t.IndexOf == nil {
			data[t.Phoenix.Name] = t
		}
	}
	for i, it := range c.Tables {
		if it.Phoenix == nil || it.Phoenix.IndexOf == "" {
			continue
		}
		t, ok := data[it.Phoenix.IndexOf]
		if !ok {
			continue
		}
		path := []any{"tables", i}
		ix, why := l.phoenixIndex(t, it, &y.Tables[i], path)
		if ix == nil {
			l.warnf(path, "table %q is Phoenix's index %s of %s, but queries of %s cannot read it: %s", it.Name, it.Phoenix.Name, t.Name, t.Name, why)
			continue
		}
		if !containsString(t.Phoenix.GlobalIndexes, it.Phoenix.Name) {
			t.Phoenix.GlobalIndexes = append(t.Phoenix.GlobalIndexes, it.Phoenix.Name)
		}
		t.PhoenixIndexes = append(t.PhoenixIndexes, ix)
	}
}

// phoenixIndex builds the index of data table t that Phoenix index entry
// it describes, or says why it cannot.
func (l *loader) phoenixIndex(t, it *Table, y *yTable, path []any) (*Index, string) {
	cp := *y
	cp.Columns = append([]yColumn(nil), y.Columns...)
	for i := range cp.Columns {
		yc := &cp.Columns[i]
		d, ok := t.Column(yc.Name)
		if !ok {
			return nil, fmt.Sprintf("its column %s is no column of %s", yc.Name, t.Name)
		}
		dc := t.Columns[d]
		if dc.MapFamily != "" || dc.Type == TypeMap {
			return nil, fmt.Sprintf("column %s of %s is a MAP", dc.Name, t.Name)
		}
		yc.Type = dc.Type.String()
	}
	// Build it with a loader of its own: an error is a reason not to link
	// it, not a fault of the catalog.
	sub := &loader{root: l.root, src: l.src}
	ixt, err := sub.table(&cp, path)
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) {
			return nil, le.Msg
		}
		return nil, err.Error()
	}
	for _, c := range t.Key.Components {
		switch c.Kind {
		case KindField:
			if _, ok := ixt.Column(c.Field); !ok {
				return nil, fmt.Sprintf("it does not hold key column %s of %s", c.Field, t.Name)
			}
		case KindSalt, KindLiteral:
		default:
			return nil, fmt.Sprintf("the key of %s is not Phoenix's", t.Name)
		}
	}
	for _, c := range ixt.Columns {
		d, _ := t.Column(c.Name)
		if c.KeyField && !t.Columns[d].KeyField && t.Columns[d].Family == "" {
			return nil, fmt.Sprintf("column %s of %s is not stored", c.Name, t.Name)
		}
	}
	ixt.IndexOf = t
	return &Index{Name: it.Name, Physical: it.Physical, Table: ixt, Phoenix: true}, ""
}
