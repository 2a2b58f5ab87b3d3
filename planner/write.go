package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The plans of DELETE and UPDATE, and their EXPLAIN: each finds its rows
// as SELECT * with the same WHERE would, then writes them with their
// index entries.

// indexWrite refuses a write to an index table unless the statement says
// it means it (ALLOW INDEX WRITE): an index's entries follow its data
// table's rows, and an entry edited by hand makes queries through the
// index disagree with the table.
func indexWrite(t *catalog.Table, at parser.Pos, verb string, allowed bool) error {
	if t.IndexOf == nil || allowed {
		return nil
	}
	return errAt(at, "%s is an index of %s, kept in step with its rows: %s %s instead (CHECK INDEX %s REPAIR mends the index; ALLOW INDEX WRITE writes it directly)", t.Name, t.IndexOf.Name, verb, t.IndexOf.Name, t.Name)
}

// expandWrite refuses a DELETE or UPDATE of a table whose stored rows
// give several rows each (Table.Expands: a key group, wide rows). Both
// write whole stored rows: a DELETE of one point would remove every
// point and tag pair of its stored row, and an UPDATE writes the row
// back as an INSERT does, with one tag pair, as a new stored row.
//
// A wide family whose qualifier is a field is written cell by cell: a
// DELETE removes each row's cell, an UPDATE writes it again, so both are
// planned unless the key also ends in a group.
func expandWrite(t *catalog.Table, at parser.Pos, verb string) error {
	n := len(t.Key.Components)
	group := n > 0 && t.Key.Components[n-1].Kind == catalog.KindGroup
	if !t.Expands() || t.Wide != nil && t.Wide.Cells != nil && !group {
		return nil
	}
	var what []string
	if t.Wide != nil {
		what = append(what, "each cell of family "+t.Wide.Family+" is a row")
	}
	if n := len(t.Key.Components); t.Key.Components[n-1].Kind == catalog.KindGroup && !t.Collects() {
		what = append(what, "each repetition of "+t.Key.Components[n-1].String()+" is a row")
	}
	why := "DELETE removes whole stored rows, so it would remove rows its WHERE does not select"
	if verb == "UPDATE" {
		why = "UPDATE writes each row back as INSERT does, as a stored row of its own, so it would add rows instead of changing them"
	}
	return errAt(at, "%s of %s is not supported: %s; %s", verb, t.Name, strings.Join(what, " and "), why)
}

func (pl *Planner) deletePlan(ctx context.Context, s *parser.DeleteStmt) (*Delete, error) {
	t, err := pl.writeTable(s.Table)
	if err != nil {
		return nil, err
	}
	if err := indexWrite(t, s.Table.NamePos, "DELETE FROM", s.AllowIndexWrite); err != nil {
		return nil, err
	}
	if err := expandWrite(t, s.Table.NamePos, "DELETE"); err != nil {
		return nil, err
	}
	find, err := pl.selectPlan(ctx, &parser.SelectStmt{Select: s.Delete, Star: true, Table: s.Table, Where: s.Where, Limit: -1, AllowFullScan: s.AllowFullScan})
	if err != nil {
		return nil, err
	}
	for _, ix := range find.IndexLookups() {
		// A DELETE goes at each row's newest cell time, which only
		// the data row has: an index's copy is never enough.
		ix.Covered = false
	}
	return &Delete{Table: find.Table, Find: find}, nil
}

// explainWrite plans EXPLAIN of a DELETE or UPDATE: the plan of the read
// that finds the rows, with a last step that writes them.
func (pl *Planner) explainWrite(ctx context.Context, s *parser.ExplainStmt) (*Explain, error) {
	if s.Analyze {
		return nil, errAt(s.Explain, "EXPLAIN ANALYZE would run the %s: leave out ANALYZE to see its plan", strings.SplitN(s.Stmt.String(), " ", 2)[0])
	}
	ex := &Explain{JSON: strings.EqualFold(s.Format, "JSON"), Verbose: s.Verbose}
	switch in := s.Stmt.(type) {
	case *parser.DeleteStmt:
		d, err := pl.deletePlan(ctx, in)
		if err != nil {
			return nil, err
		}
		ex.Select, ex.Write = d.Find, writeStep("DELETE", d.Table, nil)
	case *parser.UpdateStmt:
		u, err := pl.updatePlan(ctx, in)
		if err != nil {
			return nil, err
		}
		ex.Select, ex.Write = u.Find, writeStep("UPDATE", u.Table, u.Set)
		switch {
		case u.Counters:
			ex.Write.Op, ex.Write.Title, ex.Atomic = "SERVER INCREMENT", "SERVER INCREMENT OF EACH ROW OF "+u.Table.Name, true
			ex.Write.Attrs = append(ex.Write.Attrs, Attr{Label: "ROWS", Value: "only rows that exist, tested by the store in the same step; a row without the cell counts from 0"})
			if _, ok := u.Find.PointKey(); ok {
				ex.NoRead = true
				ex.Write.Title = "SERVER INCREMENT OF ONE ROW OF " + u.Table.Name + " IF IT EXISTS"
			}
		case u.Check != nil:
			ex.Select = u.CheckFind
			ex.Write.Op, ex.Write.Title, ex.Atomic = "SERVER CHECK AND MUTATE", "SERVER CHECK AND MUTATE ROW OF "+u.Table.Name, true
			ex.Write.Attrs = append(ex.Write.Attrs, Attr{Label: "IF", Value: u.Check.Source})
		}
	case *parser.InsertStmt:
		ins, err := pl.insert(ctx, in)
		if err != nil {
			return nil, err
		}
		if ins.Source == nil {
			return nil, errAt(s.Stmt.Pos(), "EXPLAIN takes a SELECT, DELETE, UPDATE or INSERT … SELECT")
		}
		verb := insertVerb(in)
		ex.Select, ex.Write = ins.Source, writeStep(verb, ins.Table, nil)
		ex.Write.Title = "CLIENT " + verb + " THE ROWS INTO " + ins.Table.Name
		var cols []string
		for _, c := range ins.Columns {
			cols = append(cols, ins.Table.Columns[c].Name)
		}
		ex.Write.Attrs = append([]Attr{
			{Label: "COLUMNS", Value: strings.Join(cols, ", ")},
			{Label: "BATCHES", Value: fmt.Sprintf("%d rows a write, streamed as the query returns them; a row's key is encoded as an INSERT's", InsertBatch)},
		}, ex.Write.Attrs...)
	}
	return ex, nil
}

// writeStep is the last EXPLAIN step of a DELETE or UPDATE.
func writeStep(verb string, t *catalog.Table, set []Assignment) *Step {
	st := &Step{Op: "CLIENT " + verb, Title: "CLIENT " + verb + " ROWS OF " + t.Name}
	if len(set) > 0 {
		var cols []string
		for _, a := range set {
			cols = append(cols, t.Columns[a.Column].Name+" = "+a.Source)
		}
		st.Attrs = append(st.Attrs, Attr{Label: "SET", Value: cols})
	}
	var ixs []string
	for _, ix := range t.Indexes {
		ixs = append(ixs, ix.Name)
	}
	if len(ixs) > 0 {
		st.Attrs = append(st.Attrs, Attr{Label: "INDEXES", Value: "entries kept in step in " + strings.Join(ixs, ", ")})
	}
	if verb == "DELETE" {
		st.Attrs = append(st.Attrs, Attr{Label: "ASKS", Value: "the rows are counted first; the shell asks before deleting (--yes in a script)"})
	}
	return st
}
