package ref

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// TSColumn is the pseudo-column holding a row's newest cell timestamp.
const TSColumn = "_ts"

// Result is the reference answer to a SELECT. Groups hold the projected
// result rows in ORDER BY order: the rows of one group tie on every
// ORDER BY term, so a correct result may return them in any order (with
// no ORDER BY there is one group). Offset and Limit are OFFSET (0 for
// none) and LIMIT (-1 for none): a correct result is then rows Offset …
// Offset+Limit-1 of some such ordering. Approx marks the columns whose
// DOUBLE values are sums that depend on the order rows are added in:
// they compare to 10 significant digits.
type Result struct {
	Columns []string
	Groups  [][]catalog.Row
	Limit   int64
	Offset  int64
	Approx  []bool
}

// Len is the number of rows a correct result holds.
func (r *Result) Len() int {
	n := 0
	for _, g := range r.Groups {
		n += len(g)
	}
	n = max(n-int(r.Offset), 0)
	if r.Limit >= 0 && int64(n) > r.Limit {
		n = int(r.Limit)
	}
	return n
}

// Evaluate answers s over rows by brute force, with its own SQL
// semantics: three-valued logic, comparisons, BETWEEN, IN (of values or
// of row values), LIKE (with ESCAPE), IS NULL, expressions (expr.go),
// GROUP BY, HAVING and aggregates (agg.go), DISTINCT, ORDER BY (NULL
// first ascending, last descending) by term, alias or position, OFFSET
// and LIMIT. Each row holds t's columns and then the _ts pseudo-column.
// Evaluate refuses VERSIONS above 1, which it does not model.
func Evaluate(t *catalog.Table, s *parser.SelectStmt, rows []catalog.Row) (*Result, error) {
	return EvaluateAt(t, s, rows, time.Time{})
}

// EvaluateAt is Evaluate of a statement whose NOW() is now; Evaluate
// refuses NOW().
func EvaluateAt(t *catalog.Table, s *parser.SelectStmt, rows []catalog.Row, now time.Time) (*Result, error) {
	if s.Versions > 1 {
		return nil, fmt.Errorf("reference: VERSIONS %d is not modelled", s.Versions)
	}
	e := &evaluator{t: t, now: now}
	var match []catalog.Row
	for _, r := range rows {
		if len(r) != len(t.Columns)+1 {
			return nil, fmt.Errorf("reference: row has %d values, want %d", len(r), len(t.Columns)+1)
		}
		if s.Where != nil {
			keep, err := e.holds(s.Where, r)
			if err != nil {
				return nil, err
			}
			if !keep {
				continue
			}
		}
		match = append(match, r)
	}
	res := &Result{Limit: s.Limit, Offset: s.Offset}
	var outs []outRow
	if isAggregateQuery(s) {
		var err error
		if outs, err = e.groupRows(s, match, res); err != nil {
			return nil, err
		}
	} else {
		e.itemColumns(s, res)
		for _, r := range match {
			o, err := e.outRow(s, r)
			if err != nil {
				return nil, err
			}
			outs = append(outs, o)
		}
	}
	order := func(a, b outRow) int {
		for i, it := range s.Order {
			c := sortCompare(a.keys[i], b.keys[i])
			if it.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
	if s.Distinct {
		if err := e.distinctOrder(s); err != nil {
			return nil, err
		}
		outs = distinctRows(outs)
	}
	slices.SortStableFunc(outs, order)
	var g []catalog.Row
	for i, o := range outs {
		if i > 0 && order(outs[i-1], o) != 0 {
			res.Groups = append(res.Groups, g)
			g = nil
		}
		g = append(g, o.vals)
	}
	if len(g) > 0 {
		res.Groups = append(res.Groups, g)
	}
	return res, nil
}

type evaluator struct {
	t *catalog.Table
	// now is the statement's NOW(); zero when not given.
	now time.Time
	// group holds the rows of the group being evaluated, when the query
	// aggregates.
	group []catalog.Row
}

// distinctOrder checks that each ORDER BY term of a SELECT DISTINCT is
// a result column: by position, by an output's name, or written as a
// select item is. A result row stands for many rows, which may disagree
// on anything else.
func (e *evaluator) distinctOrder(s *parser.SelectStmt) error {
	names := e.outputNames(s)
	var texts []string
	for _, it := range s.Items {
		texts = append(texts, it.Expr.String())
	}
	for _, o := range s.Order {
		switch x := o.Expr.(type) {
		case *parser.IntLit:
			continue
		case *parser.ColumnRef:
			if slices.Contains(names, x.Name) {
				continue
			}
		}
		if !slices.Contains(texts, o.Expr.String()) {
			return fmt.Errorf("reference: DISTINCT with ORDER BY %s, which is not selected", o.Expr)
		}
	}
	return nil
}

// distinctRows keeps the first of the result rows that agree on every
// value, in their order: SQL's DISTINCT, under which NULL is not
// distinct from NULL, -0 is 0 and NaN is NaN. Under DISTINCT each ORDER
// BY term is a result column, so rows that agree sort alike.
func distinctRows(outs []outRow) []outRow {
	var kept []outRow
	seen := map[string]bool{}
	for _, o := range outs {
		var k strings.Builder
		for _, v := range o.vals {
			k.WriteString(distinctText(fromValue(v)))
			k.WriteByte(0)
		}
		if !seen[k.String()] {
			seen[k.String()] = true
			kept = append(kept, o)
		}
	}
	return kept
}

// distinctText renders v so that two values of one column render alike
// when DISTINCT takes them for one: NULL as NULL, -0 as 0, every NaN
// alike.
func distinctText(v val) string {
	switch {
	case v.k == kNull:
		return "null"
	case v.k == kNum && !v.isInt && v.f == 0:
		return "num 0"
	case v.k == kNum && !v.isInt && math.IsNaN(v.f):
		return "num nan"
	}
	return fmt.Sprintf("%d %t %d %b %q %x", v.k, v.isInt, v.i, v.f, v.s, v.b)
}

// column resolves a name: a table column, or _ts after the last one.
func (e *evaluator) column(name string) (int, error) {
	for i, c := range e.t.Columns {
		if c.Name == name {
			return i, nil
		}
	}
	if name == TSColumn {
		return len(e.t.Columns), nil
	}
	return 0, fmt.Errorf("reference: no column %s in %s", name, e.t.Name)
}

// leaf evaluates a condition over row r that is not an AND, an OR or a
// NOT (see possible).
func (e *evaluator) leaf(x parser.Expr, r catalog.Row) (tri, error) {
	switch x := x.(type) {
	case *parser.BinaryExpr:
		a, err := e.operand(x.LHS, r)
		if err != nil {
			return 0, err
		}
		b, err := e.operand(x.RHS, r)
		if err != nil {
			return 0, err
		}
		return compareOp(x.Op, a, b)
	case *parser.BetweenExpr:
		return e.between(x, r)
	case *parser.InExpr:
		return e.in(x, r)
	case *parser.LikeExpr:
		return e.like(x, r)
	case *parser.IsNullExpr:
		v, err := e.operand(x.X, r)
		return truth((v.k == kNull) != x.Not), err
	case *parser.BoolLit:
		return truth(x.Val), nil
	case *parser.NullLit:
		return triUnknown, nil
	case *parser.ColumnRef:
		v, err := e.operand(x, r)
		if err != nil {
			return 0, err
		}
		switch v.k {
		case kNull:
			return triUnknown, nil
		case kBool:
			return truth(v.i != 0), nil
		}
	}
	return 0, fmt.Errorf("reference: %s is not a condition", x)
}

// compareOp applies a comparison operator: UNKNOWN when either side is
// NULL.
func compareOp(op parser.BinaryOp, a, b val) (tri, error) {
	if a.k == kNull || b.k == kNull {
		return triUnknown, nil
	}
	c, err := compareVals(a, b)
	if err != nil {
		return 0, fmt.Errorf("reference: %w", err)
	}
	switch op {
	case parser.OpEq:
		return truth(c == 0), nil
	case parser.OpNe:
		return truth(c != 0), nil
	case parser.OpLt:
		return truth(c < 0), nil
	case parser.OpLe:
		return truth(c <= 0), nil
	case parser.OpGt:
		return truth(c > 0), nil
	case parser.OpGe:
		return truth(c >= 0), nil
	}
	return 0, fmt.Errorf("reference: operator %d is not a comparison", op)
}

// between is x >= lo AND x <= hi, negated by NOT.
func (e *evaluator) between(x *parser.BetweenExpr, r catalog.Row) (tri, error) {
	v, err := e.operand(x.X, r)
	if err != nil {
		return 0, err
	}
	lo, err := e.operand(x.Lo, r)
	if err != nil {
		return 0, err
	}
	hi, err := e.operand(x.Hi, r)
	if err != nil {
		return 0, err
	}
	a, err := compareOp(parser.OpGe, v, lo)
	if err != nil {
		return 0, err
	}
	b, err := compareOp(parser.OpLe, v, hi)
	if err != nil {
		return 0, err
	}
	if x.Not {
		return not3(and3(a, b)), nil
	}
	return and3(a, b), nil
}

// in is x = v1 OR x = v2 …, negated by NOT: so a NULL in the list makes
// a miss UNKNOWN, and NOT IN with a NULL is never true.
func (e *evaluator) in(x *parser.InExpr, r catalog.Row) (tri, error) {
	if tu, ok := x.X.(*parser.TupleExpr); ok {
		return e.rowIn(x, tu, r)
	}
	v, err := e.operand(x.X, r)
	if err != nil {
		return 0, err
	}
	out := triFalse
	for _, it := range x.List {
		w, err := e.operand(it, r)
		if err != nil {
			return 0, err
		}
		c, err := compareOp(parser.OpEq, v, w)
		if err != nil {
			return 0, err
		}
		out = or3(out, c)
	}
	if x.Not {
		return not3(out), nil
	}
	return out, nil
}

// rowIn is a row-value IN: (a, b) = (1, 2) is a = 1 AND b = 2, and the
// list is an OR of such equalities, negated by NOT.
func (e *evaluator) rowIn(x *parser.InExpr, tu *parser.TupleExpr, r catalog.Row) (tri, error) {
	out := triFalse
	for _, it := range x.List {
		row, ok := it.(*parser.TupleExpr)
		if !ok || len(row.Elems) != len(tu.Elems) {
			return 0, fmt.Errorf("reference: %s is not a row of %d values", it, len(tu.Elems))
		}
		eq := triTrue
		for i := range tu.Elems {
			a, err := e.operand(tu.Elems[i], r)
			if err != nil {
				return 0, err
			}
			b, err := e.operand(row.Elems[i], r)
			if err != nil {
				return 0, err
			}
			c, err := compareOp(parser.OpEq, a, b)
			if err != nil {
				return 0, err
			}
			eq = and3(eq, c)
		}
		out = or3(out, eq)
	}
	if x.Not {
		return not3(out), nil
	}
	return out, nil
}

func (e *evaluator) like(x *parser.LikeExpr, r catalog.Row) (tri, error) {
	v, err := e.operand(x.X, r)
	if err != nil {
		return 0, err
	}
	p, err := e.operand(x.Pattern, r)
	if err != nil {
		return 0, err
	}
	if v.k == kNull || p.k == kNull {
		return triUnknown, nil
	}
	if p.k != kStr {
		return 0, fmt.Errorf("reference: LIKE needs a string pattern, not a %s", kindNames[p.k])
	}
	escape := ""
	if x.Escape != nil {
		esc, err := e.operand(x.Escape, r)
		if err != nil {
			return 0, err
		}
		if esc.k != kStr {
			return 0, fmt.Errorf("reference: ESCAPE needs a string")
		}
		escape = esc.s
	}
	var m bool
	switch v.k {
	case kStr:
		m, err = likeText(v.s, p.s, escape)
	case kBytes:
		m, err = likeBytes(v.b, p.s, escape)
	default:
		return 0, fmt.Errorf("reference: LIKE over a %s", kindNames[v.k])
	}
	if err != nil {
		return 0, err
	}
	return truth(m != x.Not), nil
}

// operand evaluates a value: a column of r, a literal, or a negated
// number.
func (e *evaluator) operand(x parser.Expr, r catalog.Row) (val, error) {
	switch x := x.(type) {
	case *parser.ColumnRef:
		c, err := e.column(x.Name)
		if err != nil || r == nil {
			return val{}, err
		}
		if e.group != nil {
			// A group's value, which is one of its rows'.
			return zeroed(fromValue(r[c])), nil
		}
		return fromValue(r[c]), nil
	case *parser.NullLit:
		return val{}, nil
	case *parser.IntLit:
		return val{k: kNum, isInt: true, i: x.Val}, nil
	case *parser.FloatLit:
		return val{k: kNum, f: x.Val}, nil
	case *parser.StringLit:
		return val{k: kStr, s: x.Val}, nil
	case *parser.BytesLit:
		return val{k: kBytes, b: x.Val}, nil
	case *parser.BoolLit:
		return val{k: kBool, i: map[bool]int64{false: 0, true: 1}[x.Val]}, nil
	case *parser.TimestampLit:
		return val{k: kTime, i: x.Val.UnixMilli()}, nil
	case *parser.DateLit:
		return val{k: kTime, i: x.Val.UnixMilli()}, nil
	case *parser.SubscriptExpr:
		return e.subscript(x, r)
	case *parser.UnaryExpr:
		if x.Op != parser.OpNeg {
			break
		}
		v, err := e.operand(x.X, r)
		switch {
		case err != nil || v.k == kNull:
			return v, err
		case v.k != kNum:
			return val{}, fmt.Errorf("reference: cannot negate a %s", kindNames[v.k])
		case v.isInt:
			// -(-2^63) does not fit; SQL reports an overflow.
			if v.i == -1<<63 {
				return val{}, fmt.Errorf("reference: integer overflow negating %d", v.i)
			}
			v.i = -v.i
		default:
			v.f = -v.f
		}
		return v, nil
	}
	return e.exprValue(x, r)
}
