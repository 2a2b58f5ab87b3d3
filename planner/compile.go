package planner

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// errAt returns a *parser.Error at pos; an operand of %w is its cause.
func errAt(pos parser.Pos, format string, args ...any) error {
	return parser.Errorf(pos, format, args...)
}

// TsColumn is the pseudo-column holding a row's newest cell timestamp.
const TsColumn = "_ts"

// compiler turns WHERE expressions into predicates over a table's rows.
type compiler struct {
	// ctx, when set, ends the compiling of a long list early: a
	// statement being planned is cancelled.
	ctx context.Context
	t   *catalog.Table
	// now is the clock of NOW(); nil means time.Now.
	now func() time.Time
}

// cancelled returns the error of the compiler's context, once it ends.
func (c *compiler) cancelled() error {
	if c.ctx == nil {
		return nil
	}
	return c.ctx.Err()
}

func (c *compiler) column(id parser.Pos, name string) (int, error) {
	if i, ok := c.t.Column(name); ok {
		if c.t.Columns[i].Hidden {
			n := c.t.Wide.Names
			return 0, errAt(id, "column %q of table %s is one of the tag pairs in the key: name them through %s, as %s['host'] = 'web01'",
				name, c.t.Name, c.t.Columns[n.Tags].Name, c.t.Columns[n.Tags].Name)
		}
		return i, nil
	}
	if name == TsColumn {
		return len(c.t.Columns), nil
	}
	return 0, errAt(id, "column %q does not exist in table %s (columns: %s)", name, c.t.Name, strings.Join(c.t.ColumnNames(), ", "))
}

func (c *compiler) colType(i int) catalog.Type {
	if i == len(c.t.Columns) {
		return catalog.TypeTimestamp
	}
	return c.t.Columns[i].Type
}

func (c *compiler) colName(i int) string {
	if i == len(c.t.Columns) {
		return TsColumn
	}
	return c.t.Columns[i].Name
}

func (c *compiler) pred(e parser.Expr) (expr.Expr, error) {
	if err := subqueryHere(e); err != nil {
		return nil, err
	}
	switch e := e.(type) {
	case *parser.BinaryExpr:
		switch e.Op {
		case parser.OpAnd, parser.OpOr:
			// A chain of one operator compiles into one flat node, in
			// time linear in its length.
			var terms []expr.Expr
			for _, x := range operands(e, e.Op) {
				p, err := c.pred(x)
				if err != nil {
					return nil, err
				}
				if e.Op == parser.OpAnd {
					terms = append(terms, expr.Conjuncts(p)...)
				} else {
					terms = append(terms, expr.Disjuncts(p)...)
				}
			}
			if e.Op == parser.OpAnd {
				return &expr.And{Terms: terms}, nil
			}
			return expr.NewOr(terms), nil
		}
		return c.cmp(e)
	case *parser.UnaryExpr:
		if e.Op != parser.OpNot {
			break
		}
		x, err := c.pred(e.X)
		if err != nil {
			return nil, err
		}
		return &expr.Not{X: x}, nil
	case *parser.BetweenExpr:
		if !c.isColumn(e.X) || readsColumn(e.Lo) || readsColumn(e.Hi) {
			return c.cond(e, c.whereScope())
		}
		return c.between(e)
	case *parser.InExpr:
		if tu, ok := e.X.(*parser.TupleExpr); ok {
			return c.rowIn(e, tu, c.cmp)
		}
		if !c.isColumn(e.X) || slices.ContainsFunc(e.List, readsColumn) {
			return c.cond(e, c.whereScope())
		}
		col, err := c.colRef(e.X)
		if err != nil {
			return nil, err
		}
		vals := make([]catalog.Value, 0, len(e.List))
		for _, x := range e.List {
			v, _, exact, err := c.bounds(col, x)
			if err != nil {
				return nil, err
			}
			if exact { // a value the column cannot hold equals no row
				vals = append(vals, v)
			}
		}
		return expr.NewIn(col, c.colName(col), vals, e.Not), nil
	case *parser.LikeExpr:
		if !c.isColumn(e.X) {
			return c.cond(e, c.whereScope())
		}
		col, err := c.colRef(e.X)
		if err != nil {
			return nil, err
		}
		if t := c.colType(col); t != catalog.TypeString && t != catalog.TypeBytes {
			return nil, errAt(e.X.Pos(), "LIKE needs a STRING column, and %s is %s", c.colName(col), t)
		}
		s, ok := e.Pattern.(*parser.StringLit)
		if !ok {
			return nil, errAt(e.Pattern.Pos(), "LIKE needs a string pattern such as 'abc%%'")
		}
		bytesCol := c.colType(col) == catalog.TypeBytes
		escape, err := likeEscape(e.Escape, bytesCol)
		if err != nil {
			return nil, err
		}
		l, err := expr.NewLikeEscape(col, c.colName(col), s.Val, escape, bytesCol, e.Not)
		if err != nil {
			return nil, errAt(e.Pattern.Pos(), "LIKE pattern %s ends with its escape character %s", s, e.Escape)
		}
		return l, nil
	case *parser.IsNullExpr:
		if !c.isColumn(e.X) {
			return c.cond(e, c.whereScope())
		}
		col, err := c.colRef(e.X)
		if err != nil {
			return nil, err
		}
		return &expr.IsNull{Col: col, Name: c.colName(col), Not: e.Not}, nil
	case *parser.BoolLit:
		return &expr.Const{V: expr.TriOf(e.Val)}, nil
	case *parser.CallExpr:
		if p := c.regexpMatch(e); p != nil {
			return p, nil
		}
	}
	return c.cond(e, c.whereScope())
}

// regexpMatch compiles REGEXP_LIKE(column, 'pattern') over a STRING
// column into a column predicate a store may test itself; nil for any
// other call, which compiles as a computed condition (and reports its
// errors there).
func (c *compiler) regexpMatch(e *parser.CallExpr) *expr.RegexpMatch {
	if e.Name != "REGEXP_LIKE" || e.Distinct || len(e.Args) != 2 || !c.isColumn(e.Args[0]) {
		return nil
	}
	pat, ok := e.Args[1].(*parser.StringLit)
	if !ok {
		return nil
	}
	col, err := c.colRef(e.Args[0])
	if err != nil || c.colType(col) != catalog.TypeString {
		return nil
	}
	re, err := expr.CompileJavaRegex(pat.Val)
	if err != nil {
		return nil
	}
	return &expr.RegexpMatch{Col: col, Name: c.colName(col), Re: re}
}

// whereScope names the columns a WHERE clause reads.
func (c *compiler) whereScope() scope { return &tableScope{c: c, what: "WHERE"} }

// isColumn reports whether e is a reference to a column of the table or
// to _ts.
func (c *compiler) isColumn(e parser.Expr) bool {
	r, ok := e.(*parser.ColumnRef)
	if !ok {
		return false
	}
	_, real := c.t.Column(r.Name)
	return real || r.Name == TsColumn
}

// readsColumn reports whether e reads any column.
func readsColumn(e parser.Expr) bool {
	reads := false
	walkAST(e, func(x parser.Expr) {
		_, col := x.(*parser.ColumnRef)
		reads = reads || col
	})
	return reads
}

// rowIn compiles a row-value IN: (a, b) IN ((1, 2), (3, 4)) is
// (a = 1 AND b = 2) OR (a = 3 AND b = 4), whose branches the key planner
// can turn into points or prefix ranges. NOT IN negates the whole. eq
// compiles each equality.
func (c *compiler) rowIn(e *parser.InExpr, tu *parser.TupleExpr, eq func(*parser.BinaryExpr) (expr.Expr, error)) (expr.Expr, error) {
	var branches []expr.Expr
	for _, it := range e.List {
		if err := c.cancelled(); err != nil {
			return nil, err
		}
		row, ok := it.(*parser.TupleExpr)
		if !ok || len(row.Elems) != len(tu.Elems) {
			return nil, errAt(it.Pos(), "%s IN needs rows of %d values, not %s", tu, len(tu.Elems), it)
		}
		var terms []expr.Expr
		for i, x := range tu.Elems {
			p, err := eq(&parser.BinaryExpr{OpPos: row.Elems[i].Pos(), Op: parser.OpEq, LHS: x, RHS: row.Elems[i]})
			if err != nil {
				return nil, err
			}
			terms = append(terms, expr.Conjuncts(p)...)
		}
		branches = append(branches, expr.AndOf(terms))
	}
	var p expr.Expr = &expr.Or{Terms: branches}
	if len(branches) == 1 {
		p = branches[0]
	}
	if e.Not {
		return &expr.Not{X: p}, nil
	}
	return p, nil
}

// likeEscape checks LIKE's ESCAPE: one character, one byte over BYTES;
// "" when absent.
func likeEscape(e parser.Expr, bytesCol bool) (string, error) {
	if e == nil {
		return "", nil
	}
	s, ok := e.(*parser.StringLit)
	if !ok || utf8.RuneCountInString(s.Val) != 1 || (bytesCol && len(s.Val) != 1) {
		what := "one character"
		if bytesCol {
			what = "one byte"
		}
		return "", errAt(e.Pos(), "ESCAPE needs a string of %s, not %s", what, e)
	}
	return s.Val, nil
}

// operands lists the operands of a chain of binary operator op, left to
// right, without recursing into the chain: a WHERE clause of many ANDs is
// a deep tree.
func operands(e *parser.BinaryExpr, op parser.BinaryOp) []parser.Expr {
	var out []parser.Expr
	stack := []parser.Expr{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b, ok := x.(*parser.BinaryExpr); ok && b.Op == op {
			stack = append(stack, b.RHS, b.LHS)
			continue
		}
		out = append(out, x)
	}
	return out
}

func (c *compiler) colRef(e parser.Expr) (int, error) {
	r, ok := e.(*parser.ColumnRef)
	if !ok {
		return 0, errAt(e.Pos(), "expected a column name, found %s", e)
	}
	return c.column(r.NamePos, r.Name)
}

var flipOp = map[parser.BinaryOp]expr.CmpOp{parser.OpEq: expr.Eq, parser.OpNe: expr.Ne, parser.OpLt: expr.Gt, parser.OpLe: expr.Ge, parser.OpGt: expr.Lt, parser.OpGe: expr.Le}
var sameOp = map[parser.BinaryOp]expr.CmpOp{parser.OpEq: expr.Eq, parser.OpNe: expr.Ne, parser.OpLt: expr.Lt, parser.OpLe: expr.Le, parser.OpGt: expr.Gt, parser.OpGe: expr.Ge}

// cmp compiles a comparison. A column against a value is a predicate
// of that column, which can narrow the key; anything else compares
// computed values.
func (c *compiler) cmp(e *parser.BinaryExpr) (expr.Expr, error) {
	if _, ok := sameOp[e.Op]; !ok {
		return c.cond(e, c.whereScope())
	}
	lok := c.isColumn(e.LHS) && !readsColumn(e.RHS)
	rok := c.isColumn(e.RHS) && !readsColumn(e.LHS)
	op := sameOp[e.Op]
	colExpr, valExpr := e.LHS, e.RHS
	switch {
	case lok:
	case rok:
		op = flipOp[e.Op]
		colExpr, valExpr = e.RHS, e.LHS
	default:
		return c.cond(e, c.whereScope())
	}
	col, err := c.colRef(colExpr)
	if err != nil {
		return nil, err
	}
	if _, null := valExpr.(*parser.NullLit); null {
		return &expr.Const{V: expr.Unknown}, nil
	}
	floor, ceil, exact, err := c.bounds(col, valExpr)
	if err != nil {
		return nil, err
	}
	if !exact {
		return cmpInexact(col, c.colName(col), op, floor, ceil), nil
	}
	return &expr.Cmp{Col: col, Name: c.colName(col), Op: op, Val: floor}, nil
}

// between compiles x [NOT] BETWEEN lo AND hi. A NULL bound makes its
// half unknown, as x >= NULL is; a bound the column cannot hold moves to
// the column's nearest value inside the range.
func (c *compiler) between(e *parser.BetweenExpr) (expr.Expr, error) {
	col, err := c.colRef(e.X)
	if err != nil {
		return nil, err
	}
	lo, loUp, loExact, err := c.bounds(col, e.Lo)
	if err != nil {
		return nil, err
	}
	hi, _, _, err := c.bounds(col, e.Hi)
	if err != nil {
		return nil, err
	}
	if !loExact {
		lo = loUp
	}
	name := c.colName(col)
	if !lo.Null && !hi.Null {
		return &expr.Between{Col: col, Name: name, Lo: lo, Hi: hi, Not: e.Not}, nil
	}
	half := func(op expr.CmpOp, v catalog.Value) expr.Expr {
		if v.Null {
			return &expr.Const{V: expr.Unknown}
		}
		return &expr.Cmp{Col: col, Name: name, Op: op, Val: v}
	}
	if e.Not { // x < lo OR x > hi
		return &expr.Or{Terms: []expr.Expr{half(expr.Lt, lo), half(expr.Gt, hi)}}, nil
	}
	return &expr.And{Terms: []expr.Expr{half(expr.Ge, lo), half(expr.Le, hi)}}, nil
}

// value converts a literal to the type of column col.
func (c *compiler) value(col int, e parser.Expr) (catalog.Value, error) {
	return Convert(c.colType(col), c.colName(col), e)
}

// Convert turns a literal into a value of type t for the named column. A
// string literal is parsed as the column's type.
func Convert(t catalog.Type, name string, e parser.Expr) (catalog.Value, error) {
	neg, whole := false, e
	if u, ok := e.(*parser.UnaryExpr); ok && u.Op == parser.OpNeg {
		neg, e = true, u.X
	}
	bad := func(what string) (catalog.Value, error) {
		return catalog.Value{}, errAt(e.Pos(), "column %s is %s, and %s is %s", name, t, e, what)
	}
	switch x := e.(type) {
	case *parser.NullLit:
		return catalog.Null(t), nil
	case *parser.IntLit:
		n := x.Val
		if neg && n == math.MinInt64 {
			// -(-9223372036854775808) is a number, but no int64.
			return negMinInt64(t, name, whole)
		}
		if neg {
			n = -n
		}
		switch t {
		case catalog.TypeBigint, catalog.TypeTimestamp:
			return catalog.Value{Type: t, I: n}, nil
		case catalog.TypeInt:
			if n < math.MinInt32 || n > math.MaxInt32 {
				return catalog.Value{}, errAt(e.Pos(), "%d is out of range for INT column %s", n, name)
			}
			return catalog.Value{Type: t, I: n}, nil
		case catalog.TypeDouble:
			return catalog.Double(float64(n)), nil
		}
		return bad("a number")
	case *parser.FloatLit:
		f := x.Val
		if neg {
			f = -f
		}
		if t == catalog.TypeDouble {
			return catalog.Double(f), nil
		}
		return bad("a decimal number")
	case *parser.BoolLit:
		if t == catalog.TypeBoolean && !neg {
			return catalog.Bool(x.Val), nil
		}
		return bad("a boolean")
	case *parser.BytesLit:
		if t == catalog.TypeBytes && !neg {
			return catalog.Bytes(x.Val), nil
		}
		return bad("bytes")
	case *parser.TimestampLit:
		switch t {
		case catalog.TypeTimestamp:
			return catalog.Timestamp(x.Val), nil
		case catalog.TypeDate:
			return catalog.Date(x.Val), nil
		}
		return bad("a timestamp")
	case *parser.DateLit:
		switch t {
		case catalog.TypeTimestamp:
			return catalog.Timestamp(x.Val), nil
		case catalog.TypeDate:
			return catalog.Date(x.Val), nil
		}
		return bad("a date")
	case *parser.StringLit:
		if neg {
			return bad("a string")
		}
		return parseAs(t, name, x)
	}
	return catalog.Value{}, errAt(e.Pos(), "expected a value for column %s, found %s", name, e)
}

// negMinInt64 converts e, the negation of the smallest int64, to type t.
func negMinInt64(t catalog.Type, name string, e parser.Expr) (catalog.Value, error) {
	switch t {
	case catalog.TypeDouble:
		return catalog.Double(-float64(math.MinInt64)), nil
	case catalog.TypeBigint, catalog.TypeTimestamp, catalog.TypeInt:
		return catalog.Value{}, errAt(e.Pos(), "%s is out of range for %s column %s", e, t, name)
	}
	return catalog.Value{}, errAt(e.Pos(), "column %s is %s, and %s is a number", name, t, e)
}

// parseAs converts a string literal to type t, as catalog.ParseText reads
// text.
func parseAs(t catalog.Type, name string, x *parser.StringLit) (catalog.Value, error) {
	v, err := catalog.ParseText(t, x.Val)
	if err != nil {
		return catalog.Value{}, errAt(x.Pos(), "column %s is %s, and %v", name, t, err)
	}
	return v, nil
}
