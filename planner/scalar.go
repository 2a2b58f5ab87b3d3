package planner

import (
	"math"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// KeyColumn is the pseudo-column holding a row's raw key, shown the way
// HBase's Bytes.toStringBinary shows it. It can only be selected.
const KeyColumn = "_key"

// scope resolves the names of an expression: the columns of a table's
// rows, or, above an aggregation, its groups and aggregates.
type scope interface {
	// column resolves a column reference.
	column(ref *parser.ColumnRef) (expr.Scalar, error)
	// aggregate resolves an aggregate call.
	aggregate(call *parser.CallExpr) (expr.Scalar, error)
	// whole resolves an expression as a whole (a GROUP BY expression);
	// ok is false when it is none.
	whole(e parser.Expr) (expr.Scalar, bool)
}

// tableScope names the columns of a table's logical rows.
type tableScope struct {
	c *compiler
	// what names the clause, for "aggregate functions are not allowed in
	// WHERE".
	what string
	// key allows the _key pseudo-column.
	key bool
}

func (s *tableScope) column(ref *parser.ColumnRef) (expr.Scalar, error) {
	if ref.Name == KeyColumn {
		if _, real := s.c.t.Column(KeyColumn); !real {
			if !s.key {
				return nil, errAt(ref.NamePos, "%s can only be selected, not used in %s", KeyColumn, s.what)
			}
			return &expr.Col{Index: keyIndex(s.c.t), Name: KeyColumn, T: catalog.TypeString}, nil
		}
	}
	i, err := s.c.column(ref.NamePos, ref.Name)
	if err != nil {
		return nil, err
	}
	return &expr.Col{Index: i, Name: s.c.colName(i), T: s.c.colType(i)}, nil
}

func (s *tableScope) aggregate(call *parser.CallExpr) (expr.Scalar, error) {
	return nil, errAt(call.NamePos, "aggregate function %s is not allowed in %s", call.Name, s.what)
}

func (s *tableScope) whole(parser.Expr) (expr.Scalar, bool) { return nil, false }

// keyIndex is the row index of the _key pseudo-column: after _ts.
func keyIndex(t *catalog.Table) int { return len(t.Columns) + 1 }

// aggregates are the aggregate functions.
var aggregates = map[string]AggFunc{"COUNT": AggCount, "SUM": AggSum, "MIN": AggMin, "MAX": AggMax, "AVG": AggAvg}

// scalar compiles e into a value in scope sc, folding every constant
// subexpression into a literal.
func (c *compiler) scalar(e parser.Expr, sc scope) (expr.Scalar, error) {
	if s, ok := sc.whole(e); ok {
		return s, nil
	}
	if err := subqueryHere(e); err != nil {
		return nil, err
	}
	switch e := e.(type) {
	case *parser.ColumnRef:
		return sc.column(e)
	case *parser.SubscriptExpr:
		return c.subscript(e, sc)
	case *parser.CallExpr:
		if _, agg := aggregates[e.Name]; agg {
			return sc.aggregate(e)
		}
		return c.call(e, sc)
	case *parser.BinaryExpr:
		return c.binary(e, sc)
	case *parser.UnaryExpr:
		if e.Op == parser.OpNeg {
			x, err := c.scalar(e.X, sc)
			if err != nil {
				return nil, err
			}
			if !numericType(x.Type()) {
				return nil, errAt(e.OpPos, "cannot negate %s, a %s", e.X, x.Type())
			}
			return c.fold(e.Pos(), &expr.Neg{X: x}, x)
		}
	case *parser.CaseExpr:
		return c.caseExpr(e, sc)
	case *parser.CastExpr:
		x, err := c.scalar(e.X, sc)
		if err != nil {
			return nil, err
		}
		t, ok := catalog.ParseType(e.Type)
		if !ok {
			return nil, errAt(e.Cast, "unknown type %s in CAST", e.Type)
		}
		return c.fold(e.Pos(), &expr.Cast{X: x, T: t}, x)
	case *parser.IntervalLit:
		return nil, errAt(e.Pos(), "an INTERVAL can only be added to or subtracted from a TIMESTAMP or DATE")
	}
	if v, ok, err := literalValue(e); ok || err != nil {
		return &expr.Lit{V: v}, err
	}
	// A condition used as a value: a BOOLEAN.
	cond, err := c.cond(e, sc)
	if err != nil {
		return nil, err
	}
	return c.foldCond(e.Pos(), &expr.Truth{C: cond})
}

// literalValue is the value of a literal; ok is false for anything else.
// A NULL has no type of its own (TypeInvalid) until it meets one.
func literalValue(e parser.Expr) (catalog.Value, bool, error) {
	switch e := e.(type) {
	case *parser.IntLit:
		return catalog.Bigint(e.Val), true, nil
	case *parser.FloatLit:
		return catalog.Double(e.Val), true, nil
	case *parser.StringLit:
		return catalog.String(e.Val), true, nil
	case *parser.BoolLit:
		return catalog.Bool(e.Val), true, nil
	case *parser.NullLit:
		return catalog.Null(catalog.TypeInvalid), true, nil
	case *parser.BytesLit:
		return catalog.Bytes(e.Val), true, nil
	case *parser.TimestampLit:
		return catalog.Timestamp(e.Val), true, nil
	case *parser.DateLit:
		return catalog.Date(e.Val), true, nil
	}
	return catalog.Value{}, false, nil
}

// fold evaluates s once when all its operands are literals.
func (c *compiler) fold(pos parser.Pos, s expr.Scalar, kids ...expr.Scalar) (expr.Scalar, error) {
	for _, k := range kids {
		if _, lit := k.(*expr.Lit); !lit {
			return s, nil
		}
	}
	v, err := s.Value(nil)
	if err != nil {
		return nil, errAt(pos, "%v", err)
	}
	return &expr.Lit{V: v}, nil
}

// foldCond folds a condition used as a value when it reads no column.
func (c *compiler) foldCond(pos parser.Pos, t *expr.Truth) (expr.Scalar, error) {
	if len(expr.Columns(t.C)) > 0 {
		return t, nil
	}
	return c.fold(pos, t)
}

func numericType(t catalog.Type) bool {
	return t == catalog.TypeBigint || t == catalog.TypeInt || t == catalog.TypeDouble || t == catalog.TypeInvalid
}

func timeType(t catalog.Type) bool {
	return t == catalog.TypeTimestamp || t == catalog.TypeDate
}

var arithOps = map[parser.BinaryOp]expr.ArithOp{
	parser.OpAdd: expr.Add, parser.OpSub: expr.Sub, parser.OpMul: expr.Mul, parser.OpDiv: expr.Div, parser.OpMod: expr.Mod,
}

func (c *compiler) binary(e *parser.BinaryExpr, sc scope) (expr.Scalar, error) {
	op, arith := arithOps[e.Op]
	if !arith && e.Op != parser.OpConcat {
		cond, err := c.cond(e, sc)
		if err != nil {
			return nil, err
		}
		return c.foldCond(e.Pos(), &expr.Truth{C: cond})
	}
	if iv, ok := e.RHS.(*parser.IntervalLit); ok && (e.Op == parser.OpAdd || e.Op == parser.OpSub) {
		return c.addInterval(e, e.LHS, iv, e.Op == parser.OpSub, sc)
	}
	if iv, ok := e.LHS.(*parser.IntervalLit); ok && e.Op == parser.OpAdd {
		return c.addInterval(e, e.RHS, iv, false, sc)
	}
	l, err := c.scalar(e.LHS, sc)
	if err != nil {
		return nil, err
	}
	r, err := c.scalar(e.RHS, sc)
	if err != nil {
		return nil, err
	}
	if e.Op == parser.OpConcat {
		return c.fold(e.Pos(), &expr.Concat{L: l, R: r}, l, r)
	}
	if !numericType(l.Type()) || !numericType(r.Type()) {
		return nil, errAt(e.OpPos, "%s needs numbers, and %s is %s and %s is %s", e.Op, e.LHS, typeName(l.Type()), e.RHS, typeName(r.Type()))
	}
	return c.fold(e.Pos(), &expr.Arith{Op: op, L: l, R: r}, l, r)
}

func typeName(t catalog.Type) string {
	if t == catalog.TypeInvalid {
		return "NULL"
	}
	return t.String()
}

// addInterval compiles x ± INTERVAL.
func (c *compiler) addInterval(e *parser.BinaryExpr, x parser.Expr, iv *parser.IntervalLit, minus bool, sc scope) (expr.Scalar, error) {
	s, err := c.scalar(x, sc)
	if err != nil {
		return nil, err
	}
	if !timeType(s.Type()) && s.Type() != catalog.TypeInvalid {
		return nil, errAt(e.OpPos, "an INTERVAL can only be added to or subtracted from a TIMESTAMP or DATE, and %s is %s", x, s.Type())
	}
	ms, _ := iv.Millis()
	text := iv.String()
	if minus {
		if ms == math.MinInt64 {
			return nil, errAt(iv.Pos(), "interval %s is out of range", iv)
		}
		ms, text = -ms, "-"+text
	}
	return c.fold(e.Pos(), &expr.AddMillis{X: s, Ms: ms, Text: text}, s)
}

func (c *compiler) caseExpr(e *parser.CaseExpr, sc scope) (expr.Scalar, error) {
	out := &expr.Case{}
	var operand expr.Scalar
	var err error
	if e.Operand != nil {
		if operand, err = c.scalar(e.Operand, sc); err != nil {
			return nil, err
		}
	}
	var types []catalog.Type
	for _, w := range e.Whens {
		var cond expr.Expr
		if operand != nil {
			v, err := c.scalar(w.Cond, sc)
			if err != nil {
				return nil, err
			}
			if cond, err = c.compare(w.Cond.Pos(), parser.OpEq, operand, v); err != nil {
				return nil, err
			}
		} else if cond, err = c.cond(w.Cond, sc); err != nil {
			return nil, err
		}
		res, err := c.scalar(w.Result, sc)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, expr.When{Cond: cond, Result: res})
		types = append(types, res.Type())
	}
	if e.Else != nil {
		if out.Else, err = c.scalar(e.Else, sc); err != nil {
			return nil, err
		}
		types = append(types, out.Else.Type())
	}
	t, ok := expr.CommonType(types)
	if !ok {
		return nil, errAt(e.Pos(), "the results of CASE have types that do not mix: %s", typeList(types))
	}
	out.T = t
	return out, nil
}

func typeList(ts []catalog.Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = typeName(t)
	}
	return strings.Join(parts, ", ")
}

// nowTime is the statement's NOW().
func (c *compiler) nowTime() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}
