package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// shape is what a SELECT computes above its read: the select list, an
// aggregation, HAVING, a projection for a sort, OFFSET and LIMIT.
type shape struct {
	// count is SELECT COUNT(*) alone: the Count node.
	count bool
	// order lists ORDER BY over the table's columns, when the read or a
	// sort of table rows serves it (no project).
	order []SortKey
	// agg, having, project and sortKeys are set for a query that groups
	// or sorts by computed values; their inputs are set by top.
	agg      *Aggregate
	having   expr.Expr
	project  *Project
	sortKeys []SortKey
	// cols are the table columns the shape reads.
	cols []int
	// key is set when the select list reads _key.
	key bool
	// distinctRows is SELECT DISTINCT of table columns: a Distinct node
	// over the table's rows, below any sort, which a loose scan may
	// serve. distinct is SELECT DISTINCT of computed values or of
	// aggregates: a Distinct node over the Project's rows.
	distinctRows bool
	distinct     *Distinct
}

// hashNote says that a hash aggregation holds its groups in memory.
func (sh *shape) hashNote() []string {
	if sh.agg == nil || sh.agg.Strategy != HashAggregate {
		return nil
	}
	return []string{fmt.Sprintf("the key order does not group GROUP BY %s, so the client holds every group in memory.", strings.Join(sh.agg.GroupNames, ", "))}
}

// distinctOver makes the Distinct node over the Project's rows: every
// one of them is an output, since under DISTINCT each ORDER BY term is.
func (sh *shape) distinctOver(sel *Select) {
	sh.distinct = &Distinct{}
	for i, o := range sel.Output {
		sh.distinct.Cols = append(sh.distinct.Cols, i)
		sh.distinct.Names = append(sh.distinct.Names, o.Name)
	}
}

// top builds the nodes above the read.
func (sh *shape) top(root Node, s *parser.SelectStmt) Node {
	if sh.count {
		root = &Count{In: root}
	}
	if sh.agg != nil {
		sh.agg.In = root
		root = sh.agg
	}
	if sh.having != nil {
		root = &Filter{Cond: sh.having, In: root}
	}
	lim := &Limit{N: s.Limit, Offset: s.Offset}
	if sh.project != nil {
		sh.project.In = root
		root = sh.project
		if sh.distinct != nil {
			sh.distinct.In = root
			root = sh.distinct
		}
		if len(sh.sortKeys) > 0 {
			root = &Sort{Keys: sh.sortKeys, Limit: lim.Want(), In: root}
		}
	}
	if s.Limit != NoLimit || s.Offset > 0 {
		lim.In = root
		root = lim
	}
	return root
}

// isAggregate reports whether the statement aggregates.
func isAggregate(s *parser.SelectStmt) bool {
	if len(s.GroupBy) > 0 || s.Having != nil {
		return true
	}
	for _, it := range s.Items {
		if hasAggCall(it.Expr) {
			return true
		}
	}
	for _, o := range s.Order {
		if hasAggCall(o.Expr) {
			return true
		}
	}
	return false
}

// hasAggCall reports whether e calls an aggregate function.
func hasAggCall(e parser.Expr) bool {
	found := false
	walkAST(e, func(x parser.Expr) {
		if call, ok := x.(*parser.CallExpr); ok {
			if _, agg := aggregates[call.Name]; agg {
				found = true
			}
		}
	})
	return found
}

// walkAST calls fn on e and every expression below it.
func walkAST(e parser.Expr, fn func(parser.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch e := e.(type) {
	case *parser.BinaryExpr:
		walkAST(e.LHS, fn)
		walkAST(e.RHS, fn)
	case *parser.UnaryExpr:
		walkAST(e.X, fn)
	case *parser.BetweenExpr:
		walkAST(e.X, fn)
		walkAST(e.Lo, fn)
		walkAST(e.Hi, fn)
	case *parser.InExpr:
		walkAST(e.X, fn)
		for _, x := range e.List {
			walkAST(x, fn)
		}
	case *parser.LikeExpr:
		walkAST(e.X, fn)
		walkAST(e.Pattern, fn)
		walkAST(e.Escape, fn)
	case *parser.TupleExpr:
		for _, x := range e.Elems {
			walkAST(x, fn)
		}
	case *parser.IsNullExpr:
		walkAST(e.X, fn)
	case *parser.CallExpr:
		for _, x := range e.Args {
			walkAST(x, fn)
		}
	case *parser.CastExpr:
		walkAST(e.X, fn)
	case *parser.SubscriptExpr:
		walkAST(e.X, fn)
		walkAST(e.Key, fn)
	case *parser.CaseExpr:
		walkAST(e.Operand, fn)
		for _, w := range e.Whens {
			walkAST(w.Cond, fn)
			walkAST(w.Result, fn)
		}
		walkAST(e.Else, fn)
	}
}

// outputName is a select item's column name: its alias, a column's name,
// a function's name in lower case (as COUNT(*) is "count"), or the
// expression's text.
func outputName(it parser.SelectItem) string {
	if it.Alias != "" {
		return it.Alias
	}
	switch e := it.Expr.(type) {
	case *parser.ColumnRef:
		return e.Name
	case *parser.CallExpr:
		return strings.ToLower(e.Name)
	}
	return it.Expr.String()
}

// shape resolves the select list, GROUP BY, HAVING and ORDER BY.
func (c *compiler) shape(sel *Select, s *parser.SelectStmt) (*shape, error) {
	sh := &shape{}
	if len(s.Items) == 1 && !s.Star && len(s.GroupBy) == 0 && s.Having == nil && !slices.ContainsFunc(s.Order, func(o parser.OrderItem) bool { return hasAggCall(o.Expr) }) {
		if call, ok := s.Items[0].Expr.(*parser.CallExpr); ok && call.Name == "COUNT" && call.Star {
			// COUNT(*) alone: the Count node, which counts keys.
			sh.count = true
			sel.Output = []Output{{Name: outputName(s.Items[0]), Type: catalog.TypeBigint, Expr: &expr.Col{Index: 0, Name: "COUNT(*)", T: catalog.TypeBigint}}}
			return sh, nil
		}
	}
	if isAggregate(s) {
		return c.aggShape(sel, s)
	}
	sc := &tableScope{c: c, what: "the select list", key: true}
	if s.Star {
		for i, col := range c.t.Columns {
			if col.Hidden {
				continue
			}
			sel.Output = append(sel.Output, Output{Name: col.Name, Type: col.Type, Expr: &expr.Col{Index: i, Name: col.Name, T: col.Type}})
		}
	}
	for _, it := range s.Items {
		x, err := c.scalar(it.Expr, sc)
		if err != nil {
			return nil, err
		}
		sel.Output = append(sel.Output, Output{Name: outputName(it), Type: outputType(x), Expr: typedNull(x)})
	}
	computed := false
	for _, o := range sel.Output {
		for _, col := range expr.ScalarColumns(o.Expr) {
			sh.key = sh.key || col == keyIndex(c.t)
		}
		computed = computed || o.Col() < 0
	}
	// DISTINCT of computed values compares them after a projection.
	if err := c.plainOrder(sh, sel, s, sc, s.Distinct && computed); err != nil {
		return nil, err
	}
	if s.Distinct {
		for _, o := range sel.Output {
			if o.Expr.Type() == catalog.TypeMap {
				return nil, errAt(s.Select, "%s is a MAP, which DISTINCT cannot compare: select its entries, such as %s['key']", o.Name, o.Name)
			}
		}
	}
	switch {
	case !s.Distinct:
	case sh.project != nil:
		sh.distinctOver(sel)
	default:
		sh.distinctRows = true
	}
	return sh, nil
}

// typedNull gives a bare NULL the type STRING.
func typedNull(x expr.Scalar) expr.Scalar {
	if x.Type() == catalog.TypeInvalid {
		return &expr.Lit{V: catalog.Null(catalog.TypeString)}
	}
	return x
}

// outputType is a result column's type: STRING for a bare NULL.
func outputType(x expr.Scalar) catalog.Type {
	if x.Type() == catalog.TypeInvalid {
		return catalog.TypeString
	}
	return x.Type()
}

// plainOrder resolves ORDER BY of a query that does not aggregate: over
// the table's columns when every term is one (by name, by the alias of a
// column, or by the position of one), otherwise, or when project is set,
// by a projection sorted in the client.
func (c *compiler) plainOrder(sh *shape, sel *Select, s *parser.SelectStmt, sc scope, project bool) error {
	terms := make([]expr.Scalar, len(s.Order))
	computed := project
	for i, o := range s.Order {
		x, err := c.orderTerm(o.Expr, sel.Output, func(e parser.Expr) (expr.Scalar, error) { return c.scalar(e, sc) })
		if err != nil {
			return err
		}
		if s.Distinct {
			if x, err = distinctTerm(x, sel.Output, o.Expr); err != nil {
				return err
			}
		}
		terms[i] = x
		col, isCol := x.(*expr.Col)
		computed = computed || !isCol || col.Index == keyIndex(c.t)
	}
	if !computed {
		for i, x := range terms {
			col := x.(*expr.Col)
			sh.order = append(sh.order, SortKey{Col: col.Index, Name: col.Name, Desc: s.Order[i].Desc})
		}
		return nil
	}
	sh.project, sh.sortKeys = projectOutputs(sel, terms, s.Order)
	sh.cols = append(sh.cols, expr.ScalarColumns(sh.project.Exprs...)...)
	return nil
}

// distinctTerm returns the output an ORDER BY term of SELECT DISTINCT
// sorts by. SQL asks that it be one: a row of the result stands for many
// rows, which may disagree on anything else. A column matches an output
// of that column, any other term an output written the same.
func distinctTerm(x expr.Scalar, outs []Output, e parser.Expr) (expr.Scalar, error) {
	col, isCol := x.(*expr.Col)
	for _, o := range outs {
		if oc, ok := o.Expr.(*expr.Col); ok && isCol && oc.Index == col.Index || o.Expr == x || o.Expr.String() == x.String() {
			return o.Expr, nil
		}
	}
	return nil, errAt(e.Pos(), "for SELECT DISTINCT, ORDER BY %s must be in the select list", e)
}

// orderTerm resolves one ORDER BY term: a position in the select list,
// an output's name (before a column's), or an expression.
func (c *compiler) orderTerm(e parser.Expr, outs []Output, compile func(parser.Expr) (expr.Scalar, error)) (expr.Scalar, error) {
	x, err := c.orderTermOf(e, outs, compile)
	if err == nil {
		err = noMap(e, x, "sorted")
	}
	return x, err
}

func (c *compiler) orderTermOf(e parser.Expr, outs []Output, compile func(parser.Expr) (expr.Scalar, error)) (expr.Scalar, error) {
	switch x := e.(type) {
	case *parser.IntLit:
		if x.Val < 1 || x.Val > int64(len(outs)) {
			return nil, errAt(x.Pos(), "ORDER BY %d is not a position in the select list (1 to %d)", x.Val, len(outs))
		}
		return outs[x.Val-1].Expr, nil
	case *parser.ColumnRef:
		// An output's name comes before a column's, as in SQL.
		for _, o := range outs {
			if o.Name == x.Name {
				return o.Expr, nil
			}
		}
	}
	return compile(e)
}

// projectOutputs turns the outputs into a Project that also computes the
// sort terms not among them, makes the outputs read its columns, and
// returns the sort keys over its rows.
func projectOutputs(sel *Select, terms []expr.Scalar, order []parser.OrderItem) (*Project, []SortKey) {
	p := &Project{Shown: len(sel.Output)}
	for i, o := range sel.Output {
		p.Exprs = append(p.Exprs, o.Expr)
		p.Names = append(p.Names, o.Name)
		sel.Output[i].Expr = &expr.Col{Index: i, Name: o.Name, T: o.Type}
	}
	var keys []SortKey
	for i, t := range terms {
		at := slices.Index(p.Exprs, t)
		if at < 0 {
			at = len(p.Exprs)
			p.Exprs = append(p.Exprs, t)
			p.Names = append(p.Names, order[i].Expr.String())
		}
		keys = append(keys, SortKey{Col: at, Name: p.Names[at], Desc: order[i].Desc})
	}
	return p, keys
}
