package planner

import "github.com/rkql/rkql/parser"

// subqueryHere refuses a subquery that reached the compiler. The engine
// runs the subqueries of a SELECT's WHERE before planning it and puts
// their answers in their place (engine/subquery.go), so one that is
// left is in a place that has none.
func subqueryHere(e parser.Expr) error {
	switch e := e.(type) {
	case *parser.SubqueryExpr, *parser.ExistsExpr:
		return errAt(e.Pos(), "a subquery is supported only in the WHERE or the select list of a SELECT")
	case *parser.InExpr:
		if e.Sub != nil {
			return errAt(e.Sub.Select, "a subquery is supported only in the WHERE or the select list of a SELECT")
		}
	}
	return nil
}

// refuseSubqueries refuses a statement that still holds a subquery: the
// engine answers those of a SELECT's WHERE and select list before
// planning, so any that is left is one it does not run (in a DELETE, an
// UPDATE, an INSERT, a JOIN's ON, GROUP BY, HAVING or ORDER BY). A planner used without the engine
// refuses them all.
func refuseSubqueries(stmt parser.Stmt) error {
	var exprs []parser.Expr
	sel := func(s *parser.SelectStmt) {
		if s == nil {
			return
		}
		exprs = append(exprs, s.Where, s.Having, s.AsOf)
		for _, it := range s.Items {
			exprs = append(exprs, it.Expr)
		}
		for _, j := range s.Joins {
			exprs = append(exprs, j.On)
		}
		exprs = append(exprs, s.GroupBy...)
		for _, o := range s.Order {
			exprs = append(exprs, o.Expr)
		}
	}
	var derived func(s *parser.SelectStmt)
	derived = func(s *parser.SelectStmt) {
		if s == nil {
			return
		}
		sel(s)
		derived(s.Derived)
		for _, j := range s.Joins {
			derived(j.Derived)
		}
	}
	switch s := stmt.(type) {
	case *parser.SelectStmt:
		derived(s)
	case *parser.ExplainStmt:
		return refuseSubqueries(s.Stmt)
	case *parser.DeleteStmt:
		exprs = append(exprs, s.Where)
	case *parser.UpdateStmt:
		exprs = append(exprs, s.Where)
		for _, a := range s.Set {
			exprs = append(exprs, a.Key, a.Value)
		}
	case *parser.InsertStmt:
		derived(s.Query)
		for _, r := range s.Rows {
			exprs = append(exprs, r...)
		}
		exprs = append(exprs, s.Timestamp)
	}
	for _, x := range exprs {
		if x == nil {
			continue
		}
		if q := parser.FirstSubquery(x); q != nil {
			return subqueryHere(q)
		}
	}
	return nil
}
