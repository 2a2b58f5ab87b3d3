package planner

import (
	"context"
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// Update writes new values into the rows a SELECT * with the same WHERE
// finds, with their index entries moved.
type Update struct {
	Table *catalog.Table
	Find  *Select
	Set   []Assignment
	// Counters is true when every assignment is SET n = n + k: the
	// store adds each Delta to its cell in each row Find selects
	// (exec.CellAtomic's Increment), with no read of the old value.
	Counters bool
	// Check, when set, makes the UPDATE one compare-and-put of the one
	// row CheckFind reads (its WHERE less the Check term): the store
	// writes the row only when Check holds (exec.CellAtomic's
	// CheckAndPut). Find is then the whole WHERE, for EXPLAIN.
	Check     *Check
	CheckFind *Select
}

func (*Update) plan() {}

// Assignment is one column = value of an UPDATE. Value computes the new
// value from the row as read; today every value is a literal (or NULL,
// which deletes the column), and computed expressions join as other
// expr.Scalar implementations.
type Assignment struct {
	Column int
	// Key, for a MAP column that holds a family, is the entry m[Key] =
	// Value sets (a NULL Value deletes it); nil sets the column, and a
	// MAP column can only be set to NULL, which deletes every entry.
	Key   expr.Scalar
	Value expr.Scalar
	// Source is the value as the statement wrote it.
	Source string
	// Delta is k of a counter's SET n = n + k (-k for n - k); Value is
	// nil then.
	Delta int64
}

// constant is a literal as an expr.Scalar.
type constant struct{ v catalog.Value }

var _ expr.Scalar = constant{}

func (c constant) Value(catalog.Row) (catalog.Value, error) { return c.v, nil }
func (c constant) Type() catalog.Type                       { return c.v.Type }
func (c constant) String() string                           { return c.v.String() }

func (pl *Planner) updatePlan(ctx context.Context, s *parser.UpdateStmt) (*Update, error) {
	t, err := pl.writeTable(s.Table)
	if err != nil {
		return nil, err
	}
	if err := indexWrite(t, s.Table.NamePos, "UPDATE", s.AllowIndexWrite); err != nil {
		return nil, err
	}
	if err := expandWrite(t, s.Table.NamePos, "UPDATE"); err != nil {
		return nil, err
	}
	for _, c := range t.Key.Components {
		if c.Kind == catalog.KindRandom {
			return nil, errAt(s.Table.NamePos, "UPDATE of %s cannot write its rows again: their keys end in a random number (%s), so a row's key cannot be computed from its fields", t.Name, c.String())
		}
	}
	c := &compiler{t: t}
	u := &Update{Table: t}
	seen := map[int]bool{}
	counters := 0
	entries := map[string]bool{}
	for _, a := range s.Set {
		col, err := c.column(a.Column.NamePos, a.Column.Name)
		if err != nil {
			return nil, err
		}
		if col < len(t.Columns) && t.Columns[col].Type == catalog.TypeMap {
			as, err := mapAssignment(t, col, a, seen, entries)
			if err != nil {
				return nil, err
			}
			u.Set = append(u.Set, as)
			continue
		}
		if a.Key != nil {
			return nil, errAt(a.Column.NamePos, "%s is a %s, not a MAP: only a MAP column takes [key]", a.Column.Name, c.colType(col))
		}
		switch {
		case col == len(t.Columns):
			return nil, errAt(a.Column.NamePos, "%s cannot be set", TsColumn)
		case seen[col]:
			return nil, errAt(a.Column.NamePos, "column %s is set twice", a.Column.Name)
		case t.Columns[col].KeyField || isHashInput(t, col):
			return nil, errAt(a.Column.NamePos, "%s is part of the key of %s: a new value would move the row; DELETE it and INSERT it again", a.Column.Name, t.Name)
		case t.Wide != nil && t.Wide.Cells != nil && col == t.Wide.Qual:
			return nil, errAt(a.Column.NamePos, "%s is the qualifier of %s's cells: a new value would move the cell; DELETE it and INSERT it again", a.Column.Name, t.Name)
		}
		seen[col] = true
		if k, ok := counterDelta(a.Column.Name, a.Value); ok {
			if err := counterColumn(t, col, a.Column.NamePos); err != nil {
				return nil, err
			}
			u.Set = append(u.Set, Assignment{Column: col, Delta: k, Source: a.Value.String()})
			counters++
			continue
		}
		v, err := c.exactValue(col, a.Value)
		if err != nil {
			return nil, err
		}
		u.Set = append(u.Set, Assignment{Column: col, Value: constant{v}, Source: a.Value.String()})
	}
	if counters > 0 && counters < len(u.Set) {
		return nil, errAt(s.Set[0].Column.NamePos, "an UPDATE that adds to a counter (SET n = n + k) sets only counters: each is a server increment, and no other value can be written with it; set the other columns in an UPDATE of their own")
	}
	u.Counters = counters > 0
	if !u.Counters {
		if u.Check, u.CheckFind, err = pl.checkPlan(ctx, s, u, c); err != nil {
			return nil, err
		}
	}
	find, err := pl.selectPlan(ctx, &parser.SelectStmt{Select: s.Update, Star: true, Table: s.Table, Where: s.Where, Limit: -1, AllowFullScan: s.AllowFullScan})
	if err != nil {
		return nil, err
	}
	for _, ix := range find.IndexLookups() {
		// The write needs every column of the row as it is: read the
		// data row, never the index's copy.
		ix.Covered = false
	}
	u.Find = find
	return u, nil
}
