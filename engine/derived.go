package engine

import (
	"context"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// A derived table, FROM (SELECT …) AS d or JOIN (SELECT …) AS d, is
// planned by the planner (planner/derived.go): its SELECT as a plan of
// its own, the query around it in the client over its rows. The engine
// answers first the subqueries in a derived table's SELECT, as it does
// those of any SELECT's WHERE, so that the planner sees constants.

// derivedFirst answers the subqueries in the SELECTs of st's derived
// tables, at any depth (in FROM, in JOIN, in the subqueries of its
// WHERE), and returns st with their answers in place and what ran. A
// statement without derived tables is returned as it is.
func (e *Engine) derivedFirst(ctx context.Context, st parser.Stmt) (parser.Stmt, []subqueryRun, error) {
	var runs []subqueryRun
	switch s := st.(type) {
	case *parser.SelectStmt:
		if !hasDerived(s) {
			return st, nil, nil
		}
		out, err := e.resolveDerived(ctx, s, &runs)
		return out, runs, err
	case *parser.ExplainStmt:
		sel, ok := s.Stmt.(*parser.SelectStmt)
		if !ok || !hasDerived(sel) {
			return st, nil, nil
		}
		out, err := e.resolveDerived(ctx, sel, &runs)
		if err != nil {
			return nil, nil, err
		}
		c := *s
		c.Stmt = out
		return &c, runs, nil
	}
	return st, nil, nil
}

// hasDerived reports whether s, or a subquery of its WHERE, reads a
// derived table.
func hasDerived(s *parser.SelectStmt) bool {
	if s == nil {
		return false
	}
	if s.Derived != nil {
		return true
	}
	for _, j := range s.Joins {
		if j.Derived != nil {
			return true
		}
	}
	found := false
	parser.Rewrite(s.Where, func(x parser.Expr) parser.Expr {
		if sub := subquerySelect(x); sub != nil && hasDerived(sub) {
			found = true
		}
		return x
	})
	return found
}

// subquerySelect is the SELECT of a subquery expression; nil for any
// other expression.
func subquerySelect(x parser.Expr) *parser.SelectStmt {
	switch x := x.(type) {
	case *parser.InExpr:
		return x.Sub
	case *parser.ExistsExpr:
		return x.Select
	case *parser.SubqueryExpr:
		return x.Select
	}
	return nil
}

// resolveDerived returns a copy of s in which the SELECT of each derived
// table has its subqueries answered, and so has each subquery's of its
// WHERE. s is not modified.
func (e *Engine) resolveDerived(ctx context.Context, s *parser.SelectStmt, runs *[]subqueryRun) (*parser.SelectStmt, error) {
	if !hasDerived(s) {
		return s, nil
	}
	c := *s
	inner := func(d *parser.SelectStmt) (*parser.SelectStmt, error) {
		d, err := e.resolveDerived(ctx, d, runs)
		if err != nil || !hasSubquery(d) {
			return d, err
		}
		r, rs, err := e.resolveSubqueries(ctx, d)
		*runs = append(*runs, rs...)
		return r, err
	}
	var err error
	if s.Derived != nil {
		if c.Derived, err = inner(s.Derived); err != nil {
			return nil, err
		}
	}
	if len(s.Joins) > 0 {
		c.Joins = append([]parser.Join(nil), s.Joins...)
		for i := range c.Joins {
			if c.Joins[i].Derived != nil {
				if c.Joins[i].Derived, err = inner(c.Joins[i].Derived); err != nil {
					return nil, err
				}
			}
		}
	}
	var failed error
	c.Where = parser.Rewrite(s.Where, func(x parser.Expr) parser.Expr {
		sub := subquerySelect(x)
		if failed != nil || sub == nil || !hasDerived(sub) {
			return x
		}
		r, err := e.resolveDerived(ctx, sub, runs)
		if err != nil {
			failed = err
			return x
		}
		switch x := x.(type) {
		case *parser.InExpr:
			y := *x
			y.Sub = r
			return &y
		case *parser.ExistsExpr:
			y := *x
			y.Select = r
			return &y
		case *parser.SubqueryExpr:
			y := *x
			y.Select = r
			return &y
		}
		return x
	})
	if failed != nil {
		return nil, failed
	}
	return &c, nil
}

// derivedColumns is the table of the columns derived table alias has,
// by name only, as far as they can be told from its SELECT and the
// catalog without planning it: what tells whether a subquery's column is
// its own or the outer query's.
func (e *Engine) derivedColumns(sub *parser.SelectStmt, alias string) *catalog.Table {
	var cols []catalog.Column
	add := func(name string) { cols = append(cols, catalog.Column{Name: name}) }
	tableCols := func(id parser.Ident, derived *parser.SelectStmt, as string) {
		var t *catalog.Table
		if derived != nil {
			t = e.derivedColumns(derived, as)
		} else {
			t, _ = e.cfg.Catalog.Table(id.Name)
		}
		if t == nil {
			return
		}
		for _, c := range t.Columns {
			if !c.Hidden {
				add(c.Name)
			}
		}
	}
	named := func(id parser.Ident, as string) string {
		if as != "" {
			return as
		}
		return id.Name
	}
	if sub.Star {
		tableCols(sub.Table, sub.Derived, sub.Alias)
		for _, j := range sub.Joins {
			tableCols(j.Table, j.Derived, j.Alias)
		}
	}
	for _, it := range sub.Items {
		switch x := it.Expr.(type) {
		case nil:
			if it.AllOf == named(sub.Table, sub.Alias) {
				tableCols(sub.Table, sub.Derived, sub.Alias)
			}
			for _, j := range sub.Joins {
				if it.AllOf == named(j.Table, j.Alias) {
					tableCols(j.Table, j.Derived, j.Alias)
				}
			}
		case *parser.ColumnRef:
			if it.Alias == "" {
				add(x.Name)
			}
		case *parser.CallExpr:
			if it.Alias == "" {
				add(strings.ToLower(x.Name))
			}
		}
		if it.Alias != "" {
			add(it.Alias)
		}
	}
	return catalog.Joined(alias, cols)
}

// readsDerived reports whether sel reads a derived table, itself or as
// a side of its join.
func readsDerived(sel *planner.Select) bool {
	if _, ok := planner.Find[*planner.Derived](sel.Root); ok {
		return true
	}
	if j, ok := planner.Find[*planner.Join](sel.Root); ok {
		if readsDerived(j.First) {
			return true
		}
		for _, st := range j.Steps {
			if st.Kind == planner.HashJoin && readsDerived(st.Right) {
				return true
			}
		}
	}
	return false
}
