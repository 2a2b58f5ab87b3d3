package hbasestore

import (
	"errors"
	"fmt"
	"math"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase/filter"
)

// Java's Bytes.toBytes writes an integer in two's complement: as unsigned
// bytes, 0..MAX sort first and MIN..-1 after them. An ordered comparison
// on such a column is still exact on the server once the values it holds
// for are split at zero: each part is one range of bytes.

// interval is the closed range of integers [lo, hi].
type interval struct{ lo, hi int64 }

// signedOrder reports whether c holds two's complement integers whose
// ordered comparisons compileSigned takes.
func signedOrder(c *catalog.Column) bool {
	if c.Encoding != catalog.EncBinary {
		return false
	}
	switch c.Type {
	case catalog.TypeBigint, catalog.TypeTimestamp, catalog.TypeInt, catalog.TypeDate:
		return true
	}
	return false
}

// domain is the range of values c's cells hold.
func domain(c *catalog.Column) interval {
	if c.Type == catalog.TypeInt || c.Type == catalog.TypeDate {
		return interval{math.MinInt32, math.MaxInt32}
	}
	return interval{math.MinInt64, math.MaxInt64}
}

// orderedIntervals are the values of column c for which an ordered
// comparison or a [NOT] BETWEEN is TRUE, clipped to c's domain.
func orderedIntervals(c *catalog.Column, e expr.Expr) ([]interval, error) {
	d := domain(c)
	num := func(v catalog.Value) (int64, error) {
		if v.Null {
			return 0, errNullCompare
		}
		if !integral(v.Type) || v.Type == catalog.TypeBoolean {
			return 0, fmt.Errorf("%s is %s and %s is %s", c.Name, c.Type, v, v.Type)
		}
		return v.I, nil
	}
	var out []interval
	switch p := e.(type) {
	case *expr.Cmp:
		v, err := num(p.Val)
		if err != nil {
			return nil, err
		}
		switch p.Op {
		case expr.Lt:
			if v != math.MinInt64 {
				out = append(out, interval{d.lo, v - 1})
			}
		case expr.Le:
			out = append(out, interval{d.lo, v})
		case expr.Gt:
			if v != math.MaxInt64 {
				out = append(out, interval{v + 1, d.hi})
			}
		case expr.Ge:
			out = append(out, interval{v, d.hi})
		default:
			return nil, errors.New("not an ordered comparison")
		}
	case *expr.Between:
		lo, err := num(p.Lo)
		if err != nil {
			return nil, err
		}
		hi, err := num(p.Hi)
		if err != nil {
			return nil, err
		}
		if !p.Not {
			out = append(out, interval{lo, hi})
			break
		}
		if lo != math.MinInt64 {
			out = append(out, interval{d.lo, lo - 1})
		}
		if hi != math.MaxInt64 {
			out = append(out, interval{hi + 1, d.hi})
		}
	}
	var clipped []interval
	for _, iv := range out {
		iv = interval{max(iv.lo, d.lo), min(iv.hi, d.hi)}
		if iv.lo <= iv.hi {
			clipped = append(clipped, iv)
		}
	}
	if len(clipped) == 0 {
		return nil, errors.New("no value of the column satisfies it")
	}
	return clipped, nil
}

// compileSigned translates an ordered comparison on a two's complement
// column into ranges of bytes: each interval of values, split at zero,
// is a MUST_PASS_ALL of two SingleColumnValueFilters, and the ranges a
// MUST_PASS_ONE.
func compileSigned(c *catalog.Column, col int, e expr.Expr,
	scv func(filter.CompareOp, filter.Comparator, bool) filter.Filter,
	how func(op, val string, ifMissing bool) string) (serverFilter, error) {
	ivs, err := orderedIntervals(c, e)
	if err != nil {
		return serverFilter{}, fmt.Errorf("%s: %w", e, err)
	}
	var fs []filter.Filter
	var hows []string
	for _, iv := range ivs {
		parts := []interval{iv}
		if iv.lo < 0 && iv.hi >= 0 {
			parts = []interval{{iv.lo, -1}, {0, iv.hi}}
		}
		for _, p := range parts {
			lo := c.EncodeCell(catalog.Value{Type: c.Type, I: p.lo})
			hi := c.EncodeCell(catalog.Value{Type: c.Type, I: p.hi})
			f, h := list(filter.MustPassAll,
				[]filter.Filter{scv(filter.GreaterOrEqual, filter.Binary{Value: lo}, true), scv(filter.LessOrEqual, filter.Binary{Value: hi}, true)},
				[]string{how(">=", fmt.Sprintf("%d", p.lo), true), how("<=", fmt.Sprintf("%d", p.hi), true)})
			fs, hows = append(fs, f), append(hows, h)
		}
	}
	out := serverFilter{cols: []int{col}}
	out.f, out.how = list(filter.MustPassOne, fs, hows)
	return out, nil
}
