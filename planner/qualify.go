package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// qualify checks the qualified names of a one-table SELECT (o.seller,
// o.*) against the table's name and alias, and returns the statement with
// each x.* item written out. A SELECT with JOIN is planned by joinPlan.
func qualify(s *parser.SelectStmt, t *catalog.Table) (*parser.SelectStmt, error) {
	known := func(name string) bool { return name == s.Table.Name || name == s.Alias }
	var bad *parser.ColumnRef
	check := func(e parser.Expr) {
		walkAST(e, func(x parser.Expr) {
			if r, ok := x.(*parser.ColumnRef); ok && r.Table != "" && !known(r.Table) && bad == nil {
				bad = r
			}
		})
	}
	for _, it := range s.Items {
		check(it.Expr)
	}
	check(s.Where)
	check(s.Having)
	for _, g := range s.GroupBy {
		check(g)
	}
	for _, o := range s.Order {
		check(o.Expr)
	}
	if bad != nil {
		return nil, errAt(bad.NamePos, "unknown table or alias %s in %s.%s (the statement reads %s)", bad.Table, bad.Table, bad.Name, fromName(s))
	}
	star := false
	for _, it := range s.Items {
		if it.AllOf != "" {
			star = true
			if !known(it.AllOf) {
				return nil, errAt(it.AllOfPos, "unknown table or alias %s in %s.* (the statement reads %s)", it.AllOf, it.AllOf, fromName(s))
			}
		}
	}
	if !star {
		return s, nil
	}
	out := *s
	out.Items = nil
	for i, it := range s.Items {
		if it.AllOf == "" {
			out.Items = append(out.Items, it)
			continue
		}
		if i == 0 && !s.Star {
			out.Star = true
			continue
		}
		for _, c := range t.Columns {
			if !c.Hidden {
				out.Items = append(out.Items, parser.SelectItem{Expr: &parser.ColumnRef{NamePos: it.AllOfPos, Name: c.Name}})
			}
		}
	}
	return &out, nil
}

// fromName is the table a SELECT reads, with its alias.
func fromName(s *parser.SelectStmt) string {
	if s.Alias != "" {
		return s.Table.Name + " " + s.Alias
	}
	return s.Table.Name
}
