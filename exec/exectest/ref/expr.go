package ref

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// This file is the reference's own reading of expressions: arithmetic,
// ||, functions, CASE, CAST, intervals, and the result type of each. It
// restates the SQL rules rkql documents and shares no code with the
// planner or with package expr:
//
//   - integer arithmetic is exact over BIGINT and an overflow is an
//     error; with a DOUBLE operand it is IEEE double arithmetic; a zero
//     divisor gives NULL; NULL operands give NULL;
//   - x || y joins the text forms; NULL when either is NULL;
//   - SUBSTR counts characters from 1; LENGTH counts characters (of
//     BYTES, bytes); the functions are in func.go;
//   - CASE and COALESCE give the common type of their results.

// errRefOverflow is the reference's integer overflow.
var errRefOverflow = errors.New("reference: integer overflow")

// refType is the SQL type of an expression's value.
func (e *evaluator) refType(x parser.Expr) catalog.Type {
	switch x := x.(type) {
	case *parser.ColumnRef:
		if x.Name == TSColumn {
			return catalog.TypeTimestamp
		}
		for _, c := range e.t.Columns {
			if c.Name == x.Name {
				return c.Type
			}
		}
	case *parser.IntLit:
		return catalog.TypeBigint
	case *parser.FloatLit:
		return catalog.TypeDouble
	case *parser.StringLit:
		return catalog.TypeString
	case *parser.TimestampLit:
		return catalog.TypeTimestamp
	case *parser.DateLit:
		return catalog.TypeDate
	case *parser.BoolLit:
		return catalog.TypeBoolean
	case *parser.BytesLit:
		return catalog.TypeBytes
	case *parser.UnaryExpr:
		if x.Op == parser.OpNeg {
			return numType(e.refType(x.X), catalog.TypeBigint)
		}
		return catalog.TypeBoolean
	case *parser.BinaryExpr:
		switch x.Op {
		case parser.OpConcat:
			return catalog.TypeString
		case parser.OpAdd, parser.OpSub, parser.OpMul, parser.OpDiv, parser.OpMod:
			if _, iv := x.RHS.(*parser.IntervalLit); iv {
				return catalog.TypeTimestamp
			}
			if _, iv := x.LHS.(*parser.IntervalLit); iv {
				return catalog.TypeTimestamp
			}
			return numType(e.refType(x.LHS), e.refType(x.RHS))
		}
		return catalog.TypeBoolean
	case *parser.CastExpr:
		t, _ := catalog.ParseType(x.Type)
		return t
	case *parser.CaseExpr:
		var ts []catalog.Type
		for _, w := range x.Whens {
			ts = append(ts, e.refType(w.Result))
		}
		if x.Else != nil {
			ts = append(ts, e.refType(x.Else))
		}
		return mixTypes(ts)
	case *parser.CallExpr:
		return e.callType(x)
	case *parser.SubscriptExpr:
		return e.subscriptType(x)
	}
	if _, null := x.(*parser.NullLit); null {
		return catalog.TypeInvalid
	}
	return catalog.TypeBoolean
}

func (e *evaluator) callType(x *parser.CallExpr) catalog.Type {
	switch x.Name {
	case "COUNT":
		return catalog.TypeBigint
	case "AVG":
		return catalog.TypeDouble
	case "SUM":
		return numType(e.refType(x.Args[0]), catalog.TypeBigint)
	case "MIN", "MAX":
		return e.refType(x.Args[0])
	}
	if f, ok := refFuncs[x.Name]; ok {
		return f.typ(e, x)
	}
	return catalog.TypeString
}

// numType is DOUBLE when either is, else BIGINT.
func numType(a, b catalog.Type) catalog.Type {
	if a == catalog.TypeDouble || b == catalog.TypeDouble {
		return catalog.TypeDouble
	}
	return catalog.TypeBigint
}

// mixTypes is the type CASE and COALESCE results share.
func mixTypes(ts []catalog.Type) catalog.Type {
	out := catalog.TypeInvalid
	for _, t := range ts {
		switch {
		case t == catalog.TypeInvalid || t == out:
		case out == catalog.TypeInvalid:
			out = t
		case isNum(t) && isNum(out):
			out = numType(t, out)
		default:
			out = catalog.TypeTimestamp
		}
	}
	if out == catalog.TypeInvalid {
		return catalog.TypeString
	}
	return out
}

func isNum(t catalog.Type) bool {
	return t == catalog.TypeBigint || t == catalog.TypeInt || t == catalog.TypeDouble
}

// toValue makes a reference value a stored value of type t.
func toValue(v val, t catalog.Type) catalog.Value {
	if v.k == kNull {
		if t == catalog.TypeInvalid {
			t = catalog.TypeString
		}
		return catalog.Value{Type: t, Null: true}
	}
	switch t {
	case catalog.TypeDouble:
		f := v.f
		if v.isInt {
			f = float64(v.i)
		}
		return catalog.Double(f)
	case catalog.TypeBigint, catalog.TypeInt, catalog.TypeBoolean:
		return catalog.Value{Type: t, I: v.i}
	case catalog.TypeTimestamp:
		return catalog.TimestampMillis(v.i)
	case catalog.TypeDate:
		return catalog.DateDays(int64(math.Floor(float64(v.i) / 86_400_000)))
	case catalog.TypeBytes:
		return catalog.Bytes(v.b)
	case catalog.TypeMap:
		return catalog.Value{Type: t, M: v.m}
	}
	return catalog.String(v.s)
}

// text is a value's text form, as || and CAST … AS STRING make it.
func text(v val, t catalog.Type) string {
	switch v.k {
	case kStr:
		return v.s
	case kBytes:
		return catalog.ToStringBinary(v.b)
	case kBool:
		if v.i != 0 {
			return "TRUE"
		}
		return "FALSE"
	case kTime:
		if t == catalog.TypeDate {
			return time.UnixMilli(v.i).UTC().Format("2006-01-02")
		}
		return time.UnixMilli(v.i).UTC().Format("2006-01-02 15:04:05.000")
	case kNum:
		if v.isInt {
			return strconv.FormatInt(v.i, 10)
		}
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	}
	return ""
}

// arith computes a op b over numbers.
func arith(op parser.BinaryOp, a, b val) (val, error) {
	if a.k == kNull || b.k == kNull {
		return val{}, nil
	}
	if a.k != kNum || b.k != kNum {
		return val{}, fmt.Errorf("reference: %s over a %s and a %s", op, kindNames[a.k], kindNames[b.k])
	}
	if a.isInt && b.isInt {
		x, y := a.i, b.i
		var r int64
		switch op {
		case parser.OpAdd:
			r = x + y
			if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
				return val{}, errRefOverflow
			}
		case parser.OpSub:
			r = x - y
			if (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0) {
				return val{}, errRefOverflow
			}
		case parser.OpMul:
			if x != 0 && y != 0 {
				r = x * y
				if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
					return val{}, errRefOverflow
				}
			}
		case parser.OpDiv, parser.OpMod:
			if y == 0 {
				return val{}, nil
			}
			if x == math.MinInt64 && y == -1 {
				if op == parser.OpMod {
					return val{k: kNum, isInt: true}, nil
				}
				return val{}, errRefOverflow
			}
			r = x / y
			if op == parser.OpMod {
				r = x - (x/y)*y
			}
		}
		return val{k: kNum, isInt: true, i: r}, nil
	}
	x, y := asFloat(a), asFloat(b)
	switch op {
	case parser.OpAdd:
		return val{k: kNum, f: x + y}, nil
	case parser.OpSub:
		return val{k: kNum, f: x - y}, nil
	case parser.OpMul:
		return val{k: kNum, f: x * y}, nil
	}
	if y == 0 {
		return val{}, nil
	}
	if op == parser.OpDiv {
		return val{k: kNum, f: x / y}, nil
	}
	return val{k: kNum, f: math.Mod(x, y)}, nil
}

func asFloat(v val) float64 {
	if v.isInt {
		return float64(v.i)
	}
	return v.f
}

// interval is an interval's length in ms.
func interval(iv *parser.IntervalLit) int64 {
	per := map[string]int64{"SECOND": 1000, "MINUTE": 60 * 1000, "HOUR": 3600 * 1000, "DAY": 24 * 3600 * 1000}[iv.Unit]
	return iv.N * per
}

// call evaluates a scalar function.
func (e *evaluator) call(x *parser.CallExpr, r catalog.Row) (val, error) {
	if agg, ok, err := e.aggregate(x); ok || err != nil {
		return agg, err
	}
	args := make([]val, len(x.Args))
	for i, a := range x.Args {
		v, err := e.operand(a, r)
		if err != nil {
			return val{}, err
		}
		args[i] = v
	}
	f, ok := refFuncs[x.Name]
	if !ok {
		return val{}, fmt.Errorf("reference: function %s is not modelled", x.Name)
	}
	for _, a := range args {
		if a.k == kNull && !f.takesNull {
			return val{}, nil
		}
	}
	return f.eval(e, x, args)
}

// cast evaluates CAST(x AS t) for the conversions the reference models:
// numbers to numbers and anything to STRING.
func (e *evaluator) cast(x *parser.CastExpr, r catalog.Row) (val, error) {
	v, err := e.operand(x.X, r)
	if err != nil || v.k == kNull {
		return v, err
	}
	t, _ := catalog.ParseType(x.Type)
	switch {
	case t == catalog.TypeString:
		return val{k: kStr, s: text(v, e.refType(x.X))}, nil
	case t == catalog.TypeDouble && v.k == kNum:
		return val{k: kNum, f: asFloat(v)}, nil
	case (t == catalog.TypeBigint || t == catalog.TypeInt) && v.k == kNum:
		if v.isInt {
			return v, nil
		}
		return val{k: kNum, isInt: true, i: int64(math.Round(v.f))}, nil
	}
	return val{}, fmt.Errorf("reference: CAST of a %s AS %s is not modelled", kindNames[v.k], t)
}

// caseValue evaluates CASE.
func (e *evaluator) caseValue(x *parser.CaseExpr, r catalog.Row) (val, error) {
	for _, w := range x.Whens {
		var hit bool
		if x.Operand != nil {
			a, err := e.operand(x.Operand, r)
			if err != nil {
				return val{}, err
			}
			b, err := e.operand(w.Cond, r)
			if err != nil {
				return val{}, err
			}
			t, err := compareOp(parser.OpEq, a, b)
			if err != nil {
				return val{}, err
			}
			hit = t == triTrue
		} else {
			var err error
			if hit, err = e.holds(w.Cond, r); err != nil {
				return val{}, err
			}
		}
		if hit {
			return e.operand(w.Result, r)
		}
	}
	if x.Else == nil {
		return val{}, nil
	}
	return e.operand(x.Else, r)
}

// exprValue evaluates the expressions operand does not: arithmetic,
// ||, ± INTERVAL, calls, CASE and CAST, and conditions as values.
func (e *evaluator) exprValue(x parser.Expr, r catalog.Row) (val, error) {
	switch x := x.(type) {
	case *parser.BinaryExpr:
		if iv, ok := x.RHS.(*parser.IntervalLit); ok && (x.Op == parser.OpAdd || x.Op == parser.OpSub) {
			v, err := e.operand(x.LHS, r)
			if err != nil || v.k == kNull {
				return v, err
			}
			ms := interval(iv)
			if x.Op == parser.OpSub {
				ms = -ms
			}
			return val{k: kTime, i: v.i + ms}, nil
		}
		if _, arithmetic := map[parser.BinaryOp]bool{parser.OpAdd: true, parser.OpSub: true, parser.OpMul: true, parser.OpDiv: true, parser.OpMod: true, parser.OpConcat: true}[x.Op]; !arithmetic {
			break
		}
		a, err := e.operand(x.LHS, r)
		if err != nil {
			return val{}, err
		}
		b, err := e.operand(x.RHS, r)
		if err != nil {
			return val{}, err
		}
		if x.Op == parser.OpConcat {
			if a.k == kNull || b.k == kNull {
				return val{}, nil
			}
			return val{k: kStr, s: text(a, e.refType(x.LHS)) + text(b, e.refType(x.RHS))}, nil
		}
		return arith(x.Op, a, b)
	case *parser.CallExpr:
		return e.call(x, r)
	case *parser.CaseExpr:
		return e.caseValue(x, r)
	case *parser.CastExpr:
		return e.cast(x, r)
	}
	t, err := e.pred(x, r)
	if err != nil {
		return val{}, err
	}
	switch t {
	case triTrue:
		return val{k: kBool, i: 1}, nil
	case triFalse:
		return val{k: kBool}, nil
	}
	return val{}, nil
}

// Type is the SQL type the reference gives x's value in a statement over
// t.
func Type(t *catalog.Table, x parser.Expr) catalog.Type { return (&evaluator{t: t}).refType(x) }
