package ref

import (
	"fmt"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// EvaluateSubqueries answers a SELECT of one table (with or without an
// alias) whose WHERE holds subqueries, by nested loops: for every row of
// the table, each subquery's outer column references are replaced by the
// row's values and the subquery is evaluated over every row of its own
// table (EvaluateJoin); x IN (SELECT …) then becomes x IN (its rows) (an
// empty set FALSE, NOT IN TRUE), EXISTS TRUE or FALSE by whether it has a
// row, and a scalar subquery its value (NULL without a row, an error past
// one), and the WHERE is tested on the row with Evaluate's three-valued
// logic. The rest of the statement is evaluated over the rows that pass.
func EvaluateSubqueries(s *parser.SelectStmt, sources map[string]Source, now time.Time) (*Result, error) {
	s, sources, err := withDerived(s, sources, now)
	if err != nil {
		return nil, err
	}
	if len(s.Joins) > 0 {
		return nil, fmt.Errorf("reference: subqueries over a join are not modelled")
	}
	src, ok := sources[s.Table.Name]
	if !ok {
		return nil, fmt.Errorf("reference: no rows of table %s", s.Table.Name)
	}
	outerName := s.Table.Name
	if s.Alias != "" {
		outerName = s.Alias
	}
	cache := map[string]*Result{}
	var pass []catalog.Row
	for _, row := range src.Rows {
		where, err := answerSubqueries(s.Where, src.Table, outerName, row, sources, now, cache)
		if err != nil {
			return nil, err
		}
		test := &parser.SelectStmt{Star: true, Table: s.Table, Alias: s.Alias, Where: where, Limit: -1}
		one := map[string]Source{s.Table.Name: {Table: src.Table, Rows: []catalog.Row{row}}}
		res, err := EvaluateJoin(test, one, now)
		if err != nil {
			return nil, err
		}
		if res.Len() > 0 {
			pass = append(pass, row)
		}
	}
	rest := *s
	rest.Where = nil
	if !itemSubqueries(s) {
		return EvaluateJoin(&rest, map[string]Source{s.Table.Name: {Table: src.Table, Rows: pass}}, now)
	}
	// A subquery in the select list: each row's items with its answers,
	// the rows in no order.
	if len(s.GroupBy) > 0 || s.Having != nil || len(s.Order) > 0 || s.Limit >= 0 || s.Offset > 0 || s.Distinct {
		return nil, fmt.Errorf("reference: a select-list subquery with GROUP BY, HAVING, ORDER BY, DISTINCT, LIMIT or OFFSET is not modelled")
	}
	out := &Result{Groups: [][]catalog.Row{nil}, Limit: -1}
	for _, row := range pass {
		one := rest
		one.Items = nil
		for _, it := range s.Items {
			if it.Expr != nil {
				x, err := answerSubqueries(it.Expr, src.Table, outerName, row, sources, now, cache)
				if err != nil {
					return nil, err
				}
				it.Expr = x
			}
			one.Items = append(one.Items, it)
		}
		res, err := EvaluateJoin(&one, map[string]Source{s.Table.Name: {Table: src.Table, Rows: []catalog.Row{row}}}, now)
		if err != nil {
			return nil, err
		}
		out.Columns, out.Approx = res.Columns, res.Approx
		for _, g := range res.Groups {
			out.Groups[0] = append(out.Groups[0], g...)
		}
	}
	return out, nil
}

// itemSubqueries reports whether s's select list holds a subquery.
func itemSubqueries(s *parser.SelectStmt) bool {
	for _, it := range s.Items {
		if it.Expr != nil && parser.FirstSubquery(it.Expr) != nil {
			return true
		}
	}
	return false
}

// answerSubqueries replaces each subquery of x by its answer for the
// outer row.
func answerSubqueries(x parser.Expr, t *catalog.Table, outerName string, row catalog.Row, sources map[string]Source, now time.Time, cache map[string]*Result) (parser.Expr, error) {
	var failed error
	out := parser.Rewrite(x, func(e parser.Expr) parser.Expr {
		if failed != nil {
			return e
		}
		var sub *parser.SelectStmt
		switch e := e.(type) {
		case *parser.InExpr:
			sub = e.Sub
		case *parser.ExistsExpr:
			sub = e.Select
		case *parser.SubqueryExpr:
			sub = e.Select
		}
		if sub == nil {
			return e
		}
		bound := bindOuter(sub, t, outerName, row, sources)
		key := bound.String()
		res, ok := cache[key]
		if !ok {
			var err error
			if res, err = EvaluateJoin(bound, sources, now); err != nil {
				failed = err
				return e
			}
			cache[key] = res
		}
		var rows []catalog.Row
		for _, g := range res.Groups {
			rows = append(rows, g...)
		}
		rows = rows[min(int(res.Offset), len(rows)):]
		if res.Limit >= 0 && int64(len(rows)) > res.Limit {
			rows = rows[:res.Limit]
		}
		switch e := e.(type) {
		case *parser.InExpr:
			if len(rows) == 0 {
				return &parser.BoolLit{ValuePos: parser.NoPos, Val: e.Not}
			}
			c := *e
			c.Sub = nil
			for _, r := range rows {
				if len(r) == 1 {
					c.List = append(c.List, refLiteral(r[0]))
					continue
				}
				tu := &parser.TupleExpr{Lparen: parser.NoPos}
				for _, v := range r {
					tu.Elems = append(tu.Elems, refLiteral(v))
				}
				c.List = append(c.List, tu)
			}
			return &c
		case *parser.ExistsExpr:
			return &parser.BoolLit{ValuePos: parser.NoPos, Val: len(rows) > 0}
		default:
			if len(rows) > 1 {
				failed = fmt.Errorf("reference: a scalar subquery returned %d rows", len(rows))
				return e
			}
			if len(rows) == 0 {
				return &parser.NullLit{ValuePos: parser.NoPos}
			}
			if v := rows[0][0]; v.Null {
				// A NULL of the subquery's type, an aggregate's over
				// no row say.
				return &parser.CastExpr{Cast: parser.NoPos, X: &parser.NullLit{ValuePos: parser.NoPos}, Type: v.Type.String()}
			}
			return refLiteral(rows[0][0])
		}
	})
	return out, failed
}

// bindOuter copies sub with the outer row's value in place of each
// reference to the outer table: qualified by its name, or unqualified
// and no column of the subquery's own table.
func bindOuter(sub *parser.SelectStmt, t *catalog.Table, outerName string, row catalog.Row, sources map[string]Source) *parser.SelectStmt {
	innerNames := map[string]bool{sub.Table.Name: sub.Alias == ""}
	if sub.Alias != "" {
		innerNames[sub.Alias] = true
	}
	inner := sources[sub.Table.Name].Table
	bind := func(x parser.Expr) parser.Expr {
		return renameColumns(x, func(r *parser.ColumnRef) parser.Expr {
			outer := false
			if r.Table != "" {
				outer = r.Table == outerName && !innerNames[r.Table]
			} else if inner != nil {
				_, in := inner.Column(r.Name)
				_, out := t.Column(r.Name)
				outer = !in && out
			}
			if !outer {
				return r
			}
			i, ok := t.Column(r.Name)
			if !ok {
				return r
			}
			return refLiteral(row[i])
		})
	}
	c := *sub
	c.Where = bind(sub.Where)
	c.Items = nil
	for _, it := range sub.Items {
		it.Expr = bind(it.Expr)
		c.Items = append(c.Items, it)
	}
	return &c
}

// refLiteral is v as a literal.
func refLiteral(v catalog.Value) parser.Expr {
	if v.Null {
		return &parser.NullLit{ValuePos: parser.NoPos}
	}
	switch v.Type {
	case catalog.TypeString:
		return &parser.StringLit{ValuePos: parser.NoPos, Val: v.S}
	case catalog.TypeBigint, catalog.TypeInt:
		return &parser.IntLit{ValuePos: parser.NoPos, Val: v.I}
	case catalog.TypeDouble:
		return &parser.FloatLit{ValuePos: parser.NoPos, Val: v.F}
	case catalog.TypeBoolean:
		return &parser.BoolLit{ValuePos: parser.NoPos, Val: v.I != 0}
	case catalog.TypeBytes:
		return &parser.BytesLit{ValuePos: parser.NoPos, Val: v.B}
	case catalog.TypeTimestamp:
		return &parser.TimestampLit{ValuePos: parser.NoPos, Val: time.UnixMilli(v.I).UTC()}
	case catalog.TypeDate:
		return &parser.DateLit{ValuePos: parser.NoPos, Val: time.Unix(v.I*86400, 0).UTC()}
	}
	return &parser.StringLit{ValuePos: parser.NoPos, Val: v.Text()}
}
