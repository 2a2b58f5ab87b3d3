package planner

import (
	"bytes"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// aggScope names the values of an Aggregate's rows: GROUP BY
// expressions, matched as written, and aggregate calls. A column outside
// both is an error.
type aggScope struct {
	c         *compiler
	table     *tableScope
	groupText []string
	node      *Aggregate
}

func (s *aggScope) whole(e parser.Expr) (expr.Scalar, bool) {
	text := e.String()
	for i, g := range s.groupText {
		if g == text {
			return &expr.Col{Index: i, Name: text, T: s.node.Groups[i].Type()}, true
		}
	}
	return nil, false
}

func (s *aggScope) column(ref *parser.ColumnRef) (expr.Scalar, error) {
	if _, err := s.table.column(ref); err != nil {
		return nil, err
	}
	return nil, errAt(ref.NamePos, "column %s must appear in GROUP BY or be used in an aggregate function", ref.Name)
}

func (s *aggScope) aggregate(call *parser.CallExpr) (expr.Scalar, error) {
	text := call.String()
	groups := len(s.node.Groups)
	for i, a := range s.node.Aggs {
		if a.Text == text {
			return &expr.Col{Index: groups + i, Name: text, T: a.Type}, nil
		}
	}
	a := AggCall{Func: aggregates[call.Name], Distinct: call.Distinct, Text: text, Type: catalog.TypeBigint}
	if !call.Star {
		if len(call.Args) != 1 {
			return nil, errAt(call.NamePos, "%s takes 1 argument, not %d", call.Name, len(call.Args))
		}
		arg, err := s.c.scalar(call.Args[0], &tableScope{c: s.c, what: "an aggregate function"})
		if err != nil {
			return nil, err
		}
		if err := noMap(call.Args[0], arg, "aggregated by "+call.Name); err != nil {
			return nil, err
		}
		a.Arg = arg
		at := arg.Type()
		switch a.Func {
		case AggSum, AggAvg:
			if !numericType(at) {
				return nil, errAt(call.Args[0].Pos(), "%s needs numbers, and %s is %s", call.Name, call.Args[0], at)
			}
			a.Type = catalog.TypeBigint
			if at == catalog.TypeDouble || a.Func == AggAvg {
				a.Type = catalog.TypeDouble
			}
		case AggMin, AggMax:
			a.Type = outputType(arg)
		}
	}
	s.node.Aggs = append(s.node.Aggs, a)
	return &expr.Col{Index: groups + len(s.node.Aggs) - 1, Name: text, T: a.Type}, nil
}

// aggShape plans a query that aggregates: the Aggregate node over the
// table's rows, HAVING over its rows, and a Project of the select list
// (and of ORDER BY terms) over them.
func (c *compiler) aggShape(sel *Select, s *parser.SelectStmt) (*shape, error) {
	if s.Star {
		return nil, errAt(s.Select, "SELECT * cannot be used with GROUP BY or aggregate functions; name the columns")
	}
	ts := &tableScope{c: c, what: "GROUP BY"}
	sc := &aggScope{c: c, table: ts, node: &Aggregate{Strategy: OneGroup}}
	for _, g := range s.GroupBy {
		g = c.groupTerm(g, s.Items)
		if hasAggCall(g) {
			return nil, errAt(g.Pos(), "aggregate functions are not allowed in GROUP BY")
		}
		x, err := c.scalar(g, ts)
		if err == nil {
			err = noMap(g, x, "grouped")
		}
		if err != nil {
			return nil, err
		}
		sc.node.Groups = append(sc.node.Groups, x)
		sc.node.GroupNames = append(sc.node.GroupNames, g.String())
		sc.groupText = append(sc.groupText, g.String())
	}
	if len(s.GroupBy) > 0 {
		sc.node.Strategy = HashAggregate
	}
	for _, it := range s.Items {
		x, err := c.scalar(it.Expr, sc)
		if err != nil {
			return nil, err
		}
		sel.Output = append(sel.Output, Output{Name: outputName(it), Type: outputType(x), Expr: typedNull(x)})
	}
	sh := &shape{agg: sc.node}
	if s.Having != nil {
		h, err := c.cond(s.Having, sc)
		if err != nil {
			return nil, err
		}
		sh.having = h
	}
	terms := make([]expr.Scalar, len(s.Order))
	for i, o := range s.Order {
		x, err := c.orderTerm(o.Expr, sel.Output, func(e parser.Expr) (expr.Scalar, error) { return c.scalar(e, sc) })
		if err != nil {
			return nil, err
		}
		if s.Distinct {
			if x, err = distinctTerm(x, sel.Output, o.Expr); err != nil {
				return nil, err
			}
		}
		terms[i] = x
	}
	sh.project, sh.sortKeys = projectOutputs(sel, terms, s.Order)
	if s.Distinct {
		sh.distinctOver(sel)
	}
	sh.cols = expr.ScalarColumns(sc.node.Groups...)
	for _, a := range sc.node.Aggs {
		if a.Arg != nil {
			sh.cols = append(sh.cols, expr.ScalarColumns(a.Arg)...)
		}
	}
	return sh, nil
}

// groupTerm resolves GROUP BY n and GROUP BY alias to the select item's
// expression; a name of the table's is its column first, as in SQL.
func (c *compiler) groupTerm(g parser.Expr, items []parser.SelectItem) parser.Expr {
	switch x := g.(type) {
	case *parser.IntLit:
		if x.Val >= 1 && x.Val <= int64(len(items)) {
			return items[x.Val-1].Expr
		}
	case *parser.ColumnRef:
		if _, col := c.t.Column(x.Name); col || x.Name == TsColumn {
			return g
		}
		for _, it := range items {
			if it.Alias == x.Name {
				return it.Expr
			}
		}
	}
	return g
}

// aggStrategy decides whether the aggregation can stream: when every
// GROUP BY term is a column and the rows of a group arrive together. They
// do when the key's leading components are the grouped columns, columns
// the WHERE clause pins to one value, hashes or buckets of those, and
// literals, and the ranges are read one after another in key order: equal
// values of those columns then make one contiguous stretch of keys.
func (pl *Planner) aggStrategy(ag *Aggregate, acc *Access, kp *keyPlan, conj []expr.Expr, toData []int) *MergeSort {
	if ag.Strategy == OneGroup {
		return nil
	}
	c := &compiler{t: acc.Table}
	pinned := map[int]bool{}
	if toData == nil {
		pinned = c.pinned(conj)
	}
	need := map[int]bool{}
	for _, g := range ag.Groups {
		col, ok := g.(*expr.Col)
		if !ok {
			return nil
		}
		if !pinned[col.Index] {
			need[col.Index] = true
		}
	}
	if len(need) == 0 || (!kp.points && sortedRanges(acc.Ranges) && contiguous(acc.Table, need, pinned, toData)) {
		ag.Strategy = StreamAggregate
	}
	return nil
}

// contiguous reports whether the leading components of t's key hold
// every column of need, with only literals, pinned columns and hashes or
// buckets of those before them. toData maps t's columns to the data
// table's, for an index.
func contiguous(t *catalog.Table, need, pinned map[int]bool, toData []int) bool {
	data := func(col int) int {
		if toData != nil {
			return toData[col]
		}
		return col
	}
	left := len(need)
	found := map[int]bool{}
	for i := range t.Key.Components {
		if left == 0 {
			return true
		}
		comp := &t.Key.Components[i]
		switch {
		case comp.Kind == catalog.KindLiteral:
		case comp.Derived():
			for _, in := range comp.InputColumns() {
				if d := data(in); !need[d] && !pinned[d] {
					return false
				}
			}
		case comp.Kind == catalog.KindField:
			d := data(comp.Column())
			switch {
			case need[d] && !found[d]:
				found[d] = true
				left--
			case !pinned[d] && !found[d]:
				return false
			}
		default:
			return false
		}
	}
	return left == 0
}

// sortedRanges reports whether ranges are in key order and apart, so
// that reading them one after another reads keys in order.
func sortedRanges(rs []KeyRange) bool {
	for i := 1; i < len(rs); i++ {
		if rs[i-1].Stop == nil || bytes.Compare(rs[i-1].Stop, rs[i].Start) > 0 {
			return false
		}
	}
	return true
}

// foldConstants replaces each subexpression of a condition that reads no
// column, and is more than a literal, with the literal of its value:
// ts > NOW() - INTERVAL '1' HOUR becomes ts > TIMESTAMP '…', which
// narrows the key as a literal does.
func (c *compiler) foldConstants(e parser.Expr) (parser.Expr, error) {
	var err error
	fold := func(x parser.Expr) parser.Expr {
		if err != nil || !foldable(x) {
			return x
		}
		var s expr.Scalar
		s, err = c.scalar(x, &tableScope{c: c, what: "WHERE"})
		if err != nil {
			return x
		}
		lit, ok := s.(*expr.Lit)
		if !ok {
			return x
		}
		return literalOf(lit.V, x.Pos())
	}
	// foldRow folds each value of a row value, or x itself.
	foldRow := func(x parser.Expr) parser.Expr {
		tu, ok := x.(*parser.TupleExpr)
		if !ok {
			return fold(x)
		}
		y := &parser.TupleExpr{Lparen: tu.Lparen}
		for _, e := range tu.Elems {
			y.Elems = append(y.Elems, fold(e))
		}
		return y
	}
	var walk func(x parser.Expr) parser.Expr
	walk = func(x parser.Expr) parser.Expr {
		switch x := x.(type) {
		case *parser.BinaryExpr:
			if x.Op == parser.OpAnd || x.Op == parser.OpOr {
				y := *x
				y.LHS, y.RHS = walk(x.LHS), walk(x.RHS)
				return &y
			}
			if _, cmp := cmpOps[x.Op]; cmp {
				y := *x
				y.LHS, y.RHS = fold(x.LHS), fold(x.RHS)
				return &y
			}
		case *parser.UnaryExpr:
			if x.Op == parser.OpNot {
				return &parser.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: walk(x.X)}
			}
		case *parser.BetweenExpr:
			return &parser.BetweenExpr{X: fold(x.X), Lo: fold(x.Lo), Hi: fold(x.Hi), Not: x.Not}
		case *parser.InExpr:
			y := &parser.InExpr{X: foldRow(x.X), Not: x.Not}
			for _, it := range x.List {
				y.List = append(y.List, foldRow(it))
			}
			return y
		}
		return x
	}
	out := walk(e)
	return out, err
}

// foldable reports whether x reads no column and is more than a literal.
func foldable(x parser.Expr) bool {
	if _, ok, _ := literalValue(x); ok {
		return false
	}
	switch x := x.(type) {
	case *parser.UnaryExpr:
		if _, ok, _ := literalValue(x.X); ok && x.Op == parser.OpNeg {
			return false
		}
	case *parser.IntervalLit:
		return false
	}
	reads := false
	walkAST(x, func(y parser.Expr) {
		switch y := y.(type) {
		case *parser.ColumnRef:
			reads = true
		case *parser.CallExpr:
			_, agg := aggregates[y.Name]
			reads = reads || agg
		}
	})
	return !reads
}

// literalOf is the literal of v.
func literalOf(v catalog.Value, pos parser.Pos) parser.Expr {
	if v.Null {
		return &parser.NullLit{ValuePos: pos}
	}
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt:
		return &parser.IntLit{ValuePos: pos, Val: v.I}
	case catalog.TypeDouble:
		return &parser.FloatLit{ValuePos: pos, Val: v.F}
	case catalog.TypeBoolean:
		return &parser.BoolLit{ValuePos: pos, Val: v.I != 0}
	case catalog.TypeTimestamp:
		return &parser.TimestampLit{ValuePos: pos, Val: v.Time()}
	case catalog.TypeDate:
		return &parser.DateLit{ValuePos: pos, Val: v.Time()}
	case catalog.TypeBytes:
		return &parser.BytesLit{ValuePos: pos, Val: v.B}
	}
	return &parser.StringLit{ValuePos: pos, Val: strings.Clone(v.S)}
}
