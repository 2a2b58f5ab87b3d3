package ref

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The reference's aggregation: rows are grouped by the values of the
// GROUP BY terms (NULLs together, -0 with 0, NaN with NaN), and each
// aggregate is computed over a group's rows on its own terms:
// COUNT(*) counts rows; COUNT(x) counts non-NULL values (distinct ones
// with DISTINCT); SUM adds them exactly over integers and as doubles in
// row order otherwise, NULL over none (an integer SUM fails only when
// its total does not fit a BIGINT); AVG divides the sum by the count,
// over integers exactly and rounded once;
// MIN and MAX keep the least and greatest (NaN above every number).

var refAggregates = map[string]bool{"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true}

// aggregate evaluates an aggregate call over the group being evaluated;
// ok is false for any other call.
func (e *evaluator) aggregate(x *parser.CallExpr) (val, bool, error) {
	if !refAggregates[x.Name] {
		return val{}, false, nil
	}
	if e.group == nil {
		return val{}, true, fmt.Errorf("reference: %s outside an aggregation", x.Name)
	}
	if x.Star {
		return val{k: kNum, isInt: true, i: int64(len(e.group))}, true, nil
	}
	var vals []val
	seen := map[string]bool{}
	for _, r := range e.group {
		v, err := e.operand(x.Args[0], r)
		if err != nil {
			return val{}, true, err
		}
		if v.k == kNull {
			continue
		}
		if x.Distinct {
			k := valKey(v)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		vals = append(vals, v)
	}
	switch x.Name {
	case "COUNT":
		return val{k: kNum, isInt: true, i: int64(len(vals))}, true, nil
	case "MIN", "MAX":
		if len(vals) == 0 {
			return val{}, true, nil
		}
		best := vals[0]
		for _, v := range vals[1:] {
			c := sortCompare(v, best)
			if x.Name == "MIN" && c < 0 || x.Name == "MAX" && c > 0 {
				best = v
			}
		}
		return zeroed(best), true, nil
	}
	if len(vals) == 0 {
		return val{}, true, nil
	}
	if v, ok, err := intSumOrMean(x.Name, vals); ok {
		return v, true, err
	}
	sum := val{k: kNum, isInt: true}
	for _, v := range vals {
		var err error
		if sum, err = arith(parser.OpAdd, sum, v); err != nil {
			return val{}, true, err
		}
	}
	if x.Name == "AVG" {
		return val{k: kNum, f: asFloat(sum) / float64(len(vals))}, true, nil
	}
	return sum, true, nil
}

// intSumOrMean computes SUM or AVG of integers as a big.Int, so that only
// a total that does not fit a BIGINT is an overflow, and AVG is the exact
// quotient rounded to the nearest double; ok is false when some value is
// not an integer.
func intSumOrMean(name string, vals []val) (val, bool, error) {
	sum := new(big.Int)
	for _, v := range vals {
		if v.k != kNum || !v.isInt {
			return val{}, false, nil
		}
		sum.Add(sum, big.NewInt(v.i))
	}
	if name == "AVG" {
		f, _ := new(big.Rat).SetFrac(sum, big.NewInt(int64(len(vals)))).Float64()
		return val{k: kNum, f: f}, true, nil
	}
	if !sum.IsInt64() {
		return val{}, true, errRefOverflow
	}
	return val{k: kNum, isInt: true, i: sum.Int64()}, true, nil
}

// valKey is a grouping key of one value.
func valKey(v val) string {
	switch {
	case v.k == kNull:
		return "null"
	case v.k == kNum && !v.isInt && math.IsNaN(v.f):
		return "nan"
	case v.k == kNum && !v.isInt && v.f == 0:
		return "n0"
	case v.k == kNum && v.isInt:
		return "i" + strconv.FormatInt(v.i, 10)
	case v.k == kNum:
		return "f" + strconv.FormatFloat(v.f, 'g', -1, 64)
	case v.k == kStr:
		return "s" + v.s
	case v.k == kBytes:
		return "b" + string(v.b)
	}
	return fmt.Sprintf("%d:%d", v.k, v.i)
}

// isAggregateQuery reports whether s groups or aggregates.
func isAggregateQuery(s *parser.SelectStmt) bool {
	if len(s.GroupBy) > 0 || s.Having != nil {
		return true
	}
	found := false
	check := func(x parser.Expr) bool {
		c, ok := x.(*parser.CallExpr)
		return ok && refAggregates[c.Name]
	}
	for _, it := range s.Items {
		found = found || AnyExpr(it.Expr, check)
	}
	for _, o := range s.Order {
		found = found || AnyExpr(o.Expr, check)
	}
	return found
}

// outRow is one result row with its ORDER BY values.
type outRow struct {
	vals catalog.Row
	keys []val
}

// groupRows evaluates an aggregating query over the matching rows.
func (e *evaluator) groupRows(s *parser.SelectStmt, match []catalog.Row, res *Result) ([]outRow, error) {
	terms := make([]parser.Expr, len(s.GroupBy))
	for i, g := range s.GroupBy {
		terms[i] = g
		switch x := g.(type) {
		case *parser.IntLit:
			terms[i] = s.Items[x.Val-1].Expr
		case *parser.ColumnRef:
			if _, err := e.column(x.Name); err != nil {
				for _, it := range s.Items {
					if it.Alias == x.Name {
						terms[i] = it.Expr
					}
				}
			}
		}
	}
	var order []string
	groups := map[string][]catalog.Row{}
	for _, r := range match {
		k := ""
		for _, g := range terms {
			v, err := e.operand(g, r)
			if err != nil {
				return nil, err
			}
			k += valKey(v) + "\x00"
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	if len(s.GroupBy) == 0 && len(order) == 0 {
		order, groups[""] = []string{""}, []catalog.Row{}
	}
	e.itemColumns(s, res)
	for _, it := range s.Items {
		c, ok := it.Expr.(*parser.CallExpr)
		res.Approx = append(res.Approx, ok && (c.Name == "SUM" || c.Name == "AVG") && !c.Star && e.refType(c.Args[0]) == catalog.TypeDouble)
	}
	var out []outRow
	for _, k := range order {
		e.group = groups[k]
		var first catalog.Row
		if len(e.group) > 0 {
			first = e.group[0]
		}
		if s.Having != nil {
			keep, err := e.holds(s.Having, first)
			if err != nil {
				return nil, err
			}
			if !keep {
				continue
			}
		}
		o, err := e.outRow(s, first)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	e.group = nil
	return out, nil
}

// itemColumns names the result's columns.
func (e *evaluator) itemColumns(s *parser.SelectStmt, res *Result) {
	if s.Star {
		for _, c := range e.t.Columns {
			res.Columns = append(res.Columns, c.Name)
		}
	}
	for _, it := range s.Items {
		res.Columns = append(res.Columns, it.String())
	}
}

// outRow evaluates the select list and the ORDER BY terms over row r (in
// a group, its first row).
func (e *evaluator) outRow(s *parser.SelectStmt, r catalog.Row) (outRow, error) {
	var o outRow
	if s.Star {
		o.vals = append(o.vals, r[:len(e.t.Columns)]...)
	}
	for _, it := range s.Items {
		if c, ok := it.Expr.(*parser.ColumnRef); ok && e.group == nil {
			i, err := e.column(c.Name)
			if err != nil {
				return o, err
			}
			o.vals = append(o.vals, r[i])
			continue
		}
		v, err := e.operand(it.Expr, r)
		if err != nil {
			return o, err
		}
		o.vals = append(o.vals, toValue(v, e.refType(it.Expr)))
	}
	for _, t := range s.Order {
		v, err := e.orderValue(s, t.Expr, o.vals, r)
		if err != nil {
			return o, err
		}
		o.keys = append(o.keys, v)
	}
	return o, nil
}

// orderValue is an ORDER BY term's value: by position, by an output's
// name, or the expression over r.
func (e *evaluator) orderValue(s *parser.SelectStmt, x parser.Expr, outs catalog.Row, r catalog.Row) (val, error) {
	names := e.outputNames(s)
	switch x := x.(type) {
	case *parser.IntLit:
		return fromValue(outs[x.Val-1]), nil
	case *parser.ColumnRef:
		if i := slices.Index(names, x.Name); i >= 0 {
			return fromValue(outs[i]), nil
		}
	}
	return e.operand(x, r)
}

// outputNames names the result's columns as ORDER BY may: an alias, a
// column's name, a function's name in lower case, or the item's text.
func (e *evaluator) outputNames(s *parser.SelectStmt) []string {
	names := slices.Clone(e.starNames(s))
	for _, it := range s.Items {
		name := it.Alias
		if name == "" {
			switch c := it.Expr.(type) {
			case *parser.ColumnRef:
				name = c.Name
			case *parser.CallExpr:
				name = lower(c.Name)
			default:
				name = it.Expr.String()
			}
		}
		names = append(names, name)
	}
	return names
}

func (e *evaluator) starNames(s *parser.SelectStmt) []string {
	if !s.Star {
		return nil
	}
	var out []string
	for _, c := range e.t.Columns {
		out = append(out, c.Name)
	}
	return out
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// zeroed makes a DOUBLE zero +0: the zeros are one value, so an
// aggregate cannot show which one it met first.
func zeroed(v val) val {
	if v.k == kNum && !v.isInt && v.f == 0 {
		v.f = 0
	}
	return v
}
