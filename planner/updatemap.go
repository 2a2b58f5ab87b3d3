package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// mapAssignment plans m[key] = value, or m = NULL, of a MAP column that
// holds a family. Each entry may be set once; the whole map only alone.
func mapAssignment(t *catalog.Table, col int, a parser.Assignment, seen map[int]bool, entries map[string]bool) (Assignment, error) {
	c := &t.Columns[col]
	pos := a.Column.NamePos
	if c.MapFamily == "" {
		return Assignment{}, errAt(pos, "%s is a MAP that no family holds: UPDATE cannot write it", c.Name)
	}
	if a.Key == nil {
		if _, null := a.Value.(*parser.NullLit); !null {
			return Assignment{}, errAt(a.Value.Pos(), "%s is a MAP: set one entry (%s['key'] = value), or the whole map to NULL, which deletes every entry", c.Name, c.Name)
		}
		if seen[col] || len(entries) > 0 && anyEntryOf(entries, c.Name) {
			return Assignment{}, errAt(pos, "column %s is set twice", c.Name)
		}
		seen[col] = true
		return Assignment{Column: col, Value: constant{catalog.Null(catalog.TypeMap)}, Source: a.Value.String()}, nil
	}
	if seen[col] {
		return Assignment{}, errAt(pos, "column %s is set twice", c.Name)
	}
	k, err := Convert(c.Map.Key, c.Name+" key", a.Key)
	if err != nil {
		return Assignment{}, err
	}
	if k.Null {
		return Assignment{}, errAt(a.Key.Pos(), "a map key cannot be NULL")
	}
	if _, err := c.MapKeys.Encode(k); err != nil {
		return Assignment{}, errAt(a.Key.Pos(), "%s key %s: %v", c.Name, k, err)
	}
	id := c.Name + "\x00" + k.String()
	if entries[id] {
		return Assignment{}, errAt(a.Key.Pos(), "%s[%s] is set twice", c.Name, k)
	}
	entries[id] = true
	v, err := Convert(c.Map.Val, c.Name+"["+k.String()+"]", a.Value)
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Column: col, Key: constant{k}, Value: constant{v}, Source: a.Value.String()}, nil
}

// anyEntryOf reports whether an entry of map m is among entries.
func anyEntryOf(entries map[string]bool, m string) bool {
	for id := range entries {
		if len(id) > len(m) && id[:len(m)+1] == m+"\x00" {
			return true
		}
	}
	return false
}

// wideCell checks that an INSERT of row can write its wide cell.
func wideCell(t *catalog.Table, row catalog.Row) error {
	if t.Wide.Cells != nil {
		_, _, err := t.Wide.FieldRowCell(t, row)
		return err
	}
	_, _, _, err := t.Wide.RowCell(row)
	return err
}
