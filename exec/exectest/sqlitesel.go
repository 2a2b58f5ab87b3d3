package exectest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// call renders a function call.
func (tr *sqlTr) call(x *parser.CallExpr) (string, error) {
	if x.Star {
		return "count(*)", nil
	}
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		s, err := tr.expr(a)
		if err != nil {
			return "", err
		}
		args[i] = s
	}
	switch x.Name {
	case "COUNT", "MIN", "MAX", "SUM", "AVG":
		if len(args) != 1 {
			return "", skip("functions")
		}
		d := ""
		if x.Distinct {
			d = "DISTINCT "
		}
		if t := tr.sqlType(x.Args[0]); (x.Name == "SUM" || x.Name == "AVG") && t != catalog.TypeDouble {
			return exactSum(x.Name, d+args[0]), nil
		}
		return strings.ToLower(x.Name) + "(" + d + args[0] + ")", nil
	case "UPPER":
		return replaceChain("upper("+args[0]+")", tr.upper), nil
	case "LOWER":
		return replaceChain("lower("+args[0]+")", tr.lower), nil
	case "LENGTH":
		return "length(" + args[0] + ")", nil
	case "REPLACE", "TRIM", "LTRIM", "RTRIM":
		return strings.ToLower(x.Name) + "(" + strings.Join(args, ", ") + ")", nil
	case "ABS":
		if tr.condNull && tr.inCond {
			// the least integer overflows abs(); as NULL, as the
			// oracle reads an overflow within a condition
			return "(CASE WHEN " + args[0] + " = -9223372036854775808 THEN NULL ELSE abs(" + args[0] + ") END)", nil
		}
		return "abs(" + args[0] + ")", nil
	case "MOD":
		if tr.sqlType(x.Args[0]) == catalog.TypeDouble || tr.sqlType(x.Args[1]) == catalog.TypeDouble {
			return "", skip("functions")
		}
		return "(" + args[0] + " % " + args[1] + ")", nil
	case "COALESCE":
		want := tr.common(x.Args...)
		s, err := tr.list(want, ", ", x.Args...)
		if err != nil {
			return "", err
		}
		return "coalesce(" + s + ")", nil
	case "CONCAT":
		for _, a := range x.Args {
			if tr.sqlType(a) != catalog.TypeString {
				return "", skip("text-form")
			}
		}
		// rkql's CONCAT is NULL when an argument is, as || is.
		return "(" + strings.Join(args, " || ") + ")", nil
	case "SUBSTR":
		return tr.substr(x, args)
	case "DATE_TRUNC":
		return tr.dateTrunc(x)
	}
	return "", skip("functions")
}

// exactSum is SUM or AVG of integers added exactly, as rkql adds them:
// a SUM whose total does not fit a BIGINT fails, an AVG never does.
func exactSum(name, arg string) string {
	sum := "decimal_sum(" + arg + ")"
	if name == "AVG" {
		return "(CAST(" + sum + " AS REAL) / count(" + arg + "))"
	}
	return "(CASE WHEN count(" + arg + ") = 0 THEN NULL WHEN decimal_cmp(" + sum + ", '9223372036854775807') > 0 OR decimal_cmp(" + sum +
		", '-9223372036854775808') < 0 THEN abs(-9223372036854775808) ELSE CAST(" + sum + " AS INTEGER) END)"
}

// replaceChain wraps e in a replace() for each pair.
func replaceChain(e string, pairs [][2]string) string {
	for _, p := range pairs {
		e = "replace(" + e + ", '" + p[0] + "', '" + p[1] + "')"
	}
	return e
}

// substr renders SUBSTR(s, start[, n]) with rkql's reading of a start
// below 1: the positions before the string count, and hold nothing.
func (tr *sqlTr) substr(x *parser.CallExpr, args []string) (string, error) {
	if len(args) < 2 || len(args) > 3 {
		return "", skip("functions")
	}
	start, ok := intLit(x.Args[1])
	if !ok {
		return "", skip("functions")
	}
	if start >= 1 {
		return "substr(" + strings.Join(args, ", ") + ")", nil
	}
	if len(args) == 2 {
		return "substr(" + args[0] + ", 1)", nil
	}
	n, ok := intLit(x.Args[2])
	if !ok {
		return "", skip("functions")
	}
	return fmt.Sprintf("substr(%s, 1, %d)", args[0], max(n+start-1, 0)), nil
}

// intLit reads an integer literal, negated or not.
func intLit(e parser.Expr) (int64, bool) {
	if u, ok := e.(*parser.UnaryExpr); ok && u.Op == parser.OpNeg {
		n, ok := intLit(u.X)
		return -n, ok
	}
	n, ok := e.(*parser.IntLit)
	if !ok {
		return 0, false
	}
	return n.Val, true
}

// dateTrunc renders DATE_TRUNC(unit, t) as floor arithmetic on ms.
func (tr *sqlTr) dateTrunc(x *parser.CallExpr) (string, error) {
	u, ok := x.Args[0].(*parser.StringLit)
	per := map[string]int64{"minute": 60_000, "hour": 3_600_000, "day": 86_400_000}[strings.ToLower(u.Val)]
	if !ok || per == 0 || len(x.Args) != 2 {
		return "", skip("functions")
	}
	t, err := tr.exprAs(x.Args[1], catalog.TypeTimestamp)
	if err != nil {
		return "", err
	}
	p := strconv.FormatInt(per, 10)
	return "(" + t + " - ((" + t + " % " + p + ") + " + p + ") % " + p + ")", nil
}

func (tr *sqlTr) caseExpr(x *parser.CaseExpr) (string, error) {
	var b strings.Builder
	b.WriteString("(CASE")
	if x.Operand != nil {
		s, err := tr.expr(x.Operand)
		if err != nil {
			return "", err
		}
		b.WriteString(" " + s)
	}
	for _, w := range x.Whens {
		c, err := tr.expr(w.Cond)
		if err != nil {
			return "", err
		}
		r, err := tr.expr(w.Result)
		if err != nil {
			return "", err
		}
		b.WriteString(" WHEN " + c + " THEN " + r)
	}
	if x.Else != nil {
		s, err := tr.expr(x.Else)
		if err != nil {
			return "", err
		}
		b.WriteString(" ELSE " + s)
	}
	b.WriteString(" END)")
	return b.String(), nil
}

// cast renders the casts between numbers; CAST of a DOUBLE to an
// integer rounds in rkql and truncates in sqlite, and the generator
// leaves it out.
func (tr *sqlTr) cast(x *parser.CastExpr) (string, error) {
	s, err := tr.expr(x.X)
	if err != nil {
		return "", err
	}
	from := tr.sqlType(x.X)
	to, _ := catalog.ParseType(x.Type)
	numeric := from == catalog.TypeBigint || from == catalog.TypeInt || from == catalog.TypeDouble
	switch {
	case to == catalog.TypeDouble && numeric:
		return "CAST(" + s + " AS REAL)", nil
	case (to == catalog.TypeBigint || to == catalog.TypeInt) && (from == catalog.TypeBigint || from == catalog.TypeInt):
		return s, nil
	case to == catalog.TypeString:
		return "", skip("text-form")
	}
	return "", skip("functions")
}

// sqlSelect is a SELECT in sqlite's dialect: Items result columns, then
// hidden ones, and Keys, the result column of each ORDER BY term. It has
// no LIMIT or OFFSET: the comparison cuts the window itself, so that rows
// tied on the sort keys may be any of them.
type sqlSelect struct {
	SQL   string
	Items int
	Keys  []int
}

// selectSQL translates s.
func (tr *sqlTr) selectSQL(s *parser.SelectStmt) (*sqlSelect, error) {
	if s.Raw || s.Versions > 1 {
		return nil, skip("functions")
	}
	var items []string
	var exprs []parser.Expr
	var names []string
	if s.Star {
		for _, c := range tr.t.Columns {
			items = append(items, quoteIdent(c.Name))
			exprs = append(exprs, &parser.ColumnRef{Name: c.Name})
			names = append(names, c.Name)
		}
	}
	for _, it := range s.Items {
		e, err := tr.expr(it.Expr)
		if err != nil {
			return nil, err
		}
		name := it.Alias
		if c, ok := it.Expr.(*parser.ColumnRef); ok && name == "" {
			name = c.Name
		}
		if it.Alias != "" {
			e += " AS " + quoteIdent(it.Alias)
		}
		items, exprs, names = append(items, e), append(exprs, it.Expr), append(names, name)
	}
	out := &sqlSelect{Items: len(items)}
	var order []string
	for _, o := range s.Order {
		k, sql, err := tr.orderKey(o.Expr, exprs, names)
		if err != nil {
			return nil, err
		}
		if k < 0 {
			if s.Distinct {
				return nil, fmt.Errorf("translate: ORDER BY %s names no result column of a DISTINCT", o.Expr)
			}
			k = len(items)
			items = append(items, sql)
		}
		out.Keys = append(out.Keys, k)
		dir := ""
		if o.Desc {
			dir = " DESC"
		}
		order = append(order, strconv.Itoa(k+1)+dir)
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(strings.Join(items, ", ") + " FROM " + quoteIdent(tr.t.Name))
	if err := tr.clauses(&b, s); err != nil {
		return nil, err
	}
	if len(order) > 0 {
		b.WriteString(" ORDER BY " + strings.Join(order, ", "))
	}
	out.SQL = b.String()
	return out, nil
}

// clauses writes WHERE, GROUP BY and HAVING.
func (tr *sqlTr) clauses(b *strings.Builder, s *parser.SelectStmt) error {
	if s.Where != nil {
		w, err := tr.cond(s.Where)
		if err != nil {
			return err
		}
		b.WriteString(" WHERE " + w)
	}
	if len(s.GroupBy) > 0 {
		gs, err := tr.list(catalog.TypeInvalid, ", ", s.GroupBy...)
		if err != nil {
			return err
		}
		b.WriteString(" GROUP BY " + gs)
	}
	if s.Having != nil {
		h, err := tr.cond(s.Having)
		if err != nil {
			return err
		}
		b.WriteString(" HAVING " + h)
	}
	return nil
}

// orderKey resolves one ORDER BY term: a position, an output's name, or
// an expression written as a select item is give that result column;
// any other expression is rendered, to be added as a hidden column.
func (tr *sqlTr) orderKey(e parser.Expr, exprs []parser.Expr, names []string) (int, string, error) {
	if p, ok := e.(*parser.IntLit); ok {
		if p.Val < 1 || int(p.Val) > len(exprs) {
			return 0, "", fmt.Errorf("translate: ORDER BY %d of %d columns", p.Val, len(exprs))
		}
		return int(p.Val) - 1, "", nil
	}
	if c, ok := e.(*parser.ColumnRef); ok {
		for i, n := range names {
			if n == c.Name {
				return i, "", nil
			}
		}
	}
	for i, x := range exprs {
		if x.String() == e.String() {
			return i, "", nil
		}
	}
	sql, err := tr.expr(e)
	return -1, sql, err
}
