package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// Lint judges table layouts: the tables named, or every table.
type Lint struct{ Tables []*catalog.Table }

// ShowCreate prints the CREATE TABLE and CREATE INDEX statements that
// make a table and its indexes again, and the HBase shell statements that
// make their HBase tables.
type ShowCreate struct{ Table *catalog.Table }

// Simulate draws a write stream's keys and counts them per region; nothing
// is written.
type Simulate struct {
	Table   *catalog.Table
	Rows    int64
	With    []SimField
	Compare *catalog.Table
}

// SimField is how SIMULATE draws one key field: Kind is sequence, now,
// uniform or zipf; uniform and zipf draw from [Lo, Hi).
type SimField struct {
	Column string
	Kind   string
	Lo, Hi int64
}

// Advise ranks key designs for the queries of a workload file.
type Advise struct{ File string }

func (*Lint) plan()       {}
func (*ShowCreate) plan() {}
func (*Simulate) plan()   {}
func (*Advise) plan()     {}

// designPlan plans the statements that judge a layout; ok is false for any
// other statement.
func (pl *Planner) designPlan(stmt parser.Stmt) (p Plan, ok bool, err error) {
	switch s := stmt.(type) {
	case *parser.LintStmt:
		if s.Table == nil {
			return &Lint{Tables: pl.cat.Tables}, true, nil
		}
		t, err := pl.table(*s.Table)
		return &Lint{Tables: []*catalog.Table{t}}, true, err
	case *parser.ShowCreateStmt:
		t, err := pl.table(s.Table)
		return &ShowCreate{Table: t}, true, err
	case *parser.SimulateStmt:
		p, err := pl.simulate(s)
		return p, true, err
	case *parser.AdviseStmt:
		return &Advise{File: s.File}, true, nil
	}
	return nil, false, nil
}

func (pl *Planner) simulate(s *parser.SimulateStmt) (Plan, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	sim := &Simulate{Table: t, Rows: s.Rows}
	if s.Compare != nil {
		if sim.Compare, err = pl.table(*s.Compare); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, g := range s.With {
		for _, tb := range []*catalog.Table{sim.Table, sim.Compare} {
			if tb == nil {
				continue
			}
			i, ok := tb.Column(g.Column.Name)
			if !ok {
				return nil, errAt(g.Column.NamePos, "table %s has no column %s", tb.Name, g.Column.Name)
			}
			if !tb.Columns[i].KeyField {
				return nil, errAt(g.Column.NamePos, "%s is not in %s's rowkey, so it cannot move a write", g.Column.Name, tb.Name)
			}
		}
		if seen[g.Column.Name] {
			return nil, errAt(g.Column.NamePos, "%s is given twice", g.Column.Name)
		}
		seen[g.Column.Name] = true
		f := SimField{Column: g.Column.Name, Kind: g.Kind}
		switch {
		case len(g.Args) == 1:
			f.Hi = g.Args[0]
		case len(g.Args) == 2:
			f.Lo, f.Hi = g.Args[0], g.Args[1]
		}
		if len(g.Args) > 0 && f.Hi <= f.Lo {
			return nil, errAt(g.Column.NamePos, "%s draws from no values", g.Column.Name)
		}
		sim.With = append(sim.With, f)
	}
	return sim, nil
}
