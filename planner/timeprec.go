package planner

import (
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// A TIMESTAMP column holds whole milliseconds and a DATE column whole
// days, but a literal may name a finer instant: TIMESTAMP '… .0005', or a
// time of day compared with a DATE. Rounding the literal to the column
// would change the answer (ts < '… .0005' must hold for '… .000'), so a
// comparison with such a literal is rewritten over the column's values
// just below and just above it, which gives exactly SQL's answer. A write
// of such a literal is refused rather than rounded.

// timeLiteral returns the instant a literal names: a TIMESTAMP or DATE
// literal, or a string that reads as a time.
func timeLiteral(e parser.Expr) (time.Time, bool) {
	switch x := e.(type) {
	case *parser.TimestampLit:
		return x.Val.UTC(), true
	case *parser.DateLit:
		return x.Val.UTC(), true
	case *parser.StringLit:
		return catalog.ParseTime(x.Val)
	}
	return time.Time{}, false
}

// bounds converts literal e for column col. exact reports whether the
// column can hold the literal's value; when it cannot, floor and ceil are
// the column's values just below and just above it. Otherwise both are
// the value.
func (c *compiler) bounds(col int, e parser.Expr) (floor, ceil catalog.Value, exact bool, err error) {
	v, err := c.value(col, e)
	if err != nil {
		return v, v, false, err
	}
	t := c.colType(col)
	if v.Null || t != catalog.TypeTimestamp && t != catalog.TypeDate {
		return v, v, true, nil
	}
	tm, ok := timeLiteral(e)
	if !ok || v.Time().Equal(tm) {
		return v, v, true, nil
	}
	// The conversion floors (to the millisecond, or to the day).
	ceil = v
	ceil.I++
	return v, ceil, false, nil
}

// exactValue converts a literal to be written into column col, refusing
// one the column cannot hold without rounding.
func (c *compiler) exactValue(col int, e parser.Expr) (catalog.Value, error) {
	v, _, exact, err := c.bounds(col, e)
	if err != nil || exact {
		return v, err
	}
	unit := "milliseconds"
	if c.colType(col) == catalog.TypeDate {
		unit = "days"
	}
	return v, errAt(e.Pos(), "column %s is %s, which holds whole %s, and %s is finer; write %s %s", c.colName(col), c.colType(col), unit, e, c.colType(col), v)
}

// cmpInexact is column op L, where L falls between the column's values
// floor and ceil = floor+1: no value of the column equals L.
func cmpInexact(col int, name string, op expr.CmpOp, floor, ceil catalog.Value) expr.Expr {
	cmp := func(op expr.CmpOp, v catalog.Value) expr.Expr { return &expr.Cmp{Col: col, Name: name, Op: op, Val: v} }
	switch op {
	case expr.Eq: // false, or unknown for NULL
		return &expr.And{Terms: []expr.Expr{cmp(expr.Gt, floor), cmp(expr.Lt, ceil)}}
	case expr.Ne: // true, or unknown for NULL
		return &expr.Or{Terms: []expr.Expr{cmp(expr.Le, floor), cmp(expr.Ge, ceil)}}
	case expr.Lt:
		return cmp(expr.Lt, ceil)
	case expr.Le:
		return cmp(expr.Le, floor)
	case expr.Gt:
		return cmp(expr.Gt, floor)
	}
	return cmp(expr.Ge, ceil)
}
