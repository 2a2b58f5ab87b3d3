package exectest

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Random expressions and aggregations. They avoid what the reference
// leaves out or what depends on the order rows are met in: division by a
// column, CAST of a DOUBLE to an integer, and ORDER BY or HAVING on a sum
// of doubles.

// expr is a random expression over column col, with its result kind:
// "num", "str", "time" or "" (the column itself, any type).
func (g *queryGen) expr(col int) (string, string) {
	name := g.colName(col)
	k := 1 + g.r.IntN(9)
	switch t := g.colType(col); t {
	case catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble:
		ops := []string{
			fmt.Sprintf("%s + %d", name, k), fmt.Sprintf("%s * %d", name, k), fmt.Sprintf("%s - %d * 2", name, k),
			fmt.Sprintf("%s / %d", name, k), "-" + name, "COALESCE(" + name + ", 0)", "CAST(" + name + " AS DOUBLE)",
			fmt.Sprintf("(%s + 1) %% %d", name, k),
		}
		if g.r.IntN(5) == 0 {
			return fmt.Sprintf("CASE WHEN %s > %s THEN 'hi' WHEN %s IS NULL THEN NULL ELSE 'lo' END", name, Literal(g.value(col)), name), "str"
		}
		return ops[g.r.IntN(len(ops))], "num"
	case catalog.TypeString:
		ops := []string{
			"UPPER(" + name + ")", "LOWER(" + name + ")", "SUBSTR(" + name + fmt.Sprintf(", %d, %d)", g.r.IntN(4)-1, g.r.IntN(5)),
			name + " || '-x'", "COALESCE(" + name + ", 'none')", "CONCAT(" + name + ", '/', " + name + ")",
		}
		if g.r.IntN(4) == 0 {
			return "LENGTH(" + name + ")", "num"
		}
		return ops[g.r.IntN(len(ops))], "str"
	case catalog.TypeTimestamp:
		ops := []string{"DATE_TRUNC('hour', " + name + ")", "DATE_TRUNC('day', " + name + ")",
			name + " + INTERVAL '1' HOUR", name + " - INTERVAL '2' DAY", name + " + INTERVAL '-30' MINUTE"}
		return ops[g.r.IntN(len(ops))], "time"
	case catalog.TypeDate:
		return name + " + INTERVAL '1' DAY", "time"
	}
	return name, ""
}

// exprAtom is a condition on an expression: compared with a value the
// expression takes for a loaded row, or a time bound folded from an
// interval.
func (g *queryGen) exprAtom() string {
	col := g.column()
	x, kind := g.expr(col)
	row := g.rows[g.r.IntN(len(g.rows))]
	ops := []string{"=", "!=", "<", ">=", ">"}
	op := ops[g.r.IntN(len(ops))]
	switch kind {
	case "num":
		if v := row[col]; !v.Null && g.colType(col) != catalog.TypeDouble {
			return fmt.Sprintf("%s %s %d", x, op, v.I)
		}
		return fmt.Sprintf("%s %s %d", x, op, g.r.IntN(100))
	case "str":
		if v := row[col]; !v.Null && g.colType(col) == catalog.TypeString {
			return fmt.Sprintf("%s %s %s", x, op, catalog.String(strings.ToUpper(v.S)))
		}
		return fmt.Sprintf("%s IS NOT NULL", x)
	case "time":
		if v := row[col]; !v.Null {
			// A bound computed from a literal: folded before planning.
			return fmt.Sprintf("%s %s %s - INTERVAL '%d' HOUR", g.colName(col), op, Literal(v), g.r.IntN(48))
		}
	}
	return g.atom()
}

// exprItems is a select list with expressions, some aliased.
func (g *queryGen) exprItems() string {
	var items []string
	for range 1 + g.r.IntN(3) {
		col := g.column()
		x, kind := g.expr(col)
		if kind == "" {
			x = g.colName(col)
		}
		if g.r.IntN(3) == 0 {
			x += fmt.Sprintf(" AS e%d", len(items))
		}
		items = append(items, x)
	}
	if g.r.IntN(4) == 0 {
		return "*, " + strings.Join(items, ", ")
	}
	return strings.Join(items, ", ")
}

// aggQuery is a random aggregation: GROUP BY a few columns (the key's
// leading ones, so that it streams, or others) or none, aggregates of
// every kind, HAVING, ORDER BY by position, alias or aggregate, LIMIT
// and OFFSET.
func (g *queryGen) aggQuery() string {
	var groups, items []string
	keys := g.t.KeyColumns()
	for n := g.r.IntN(3); n > 0; n-- {
		col := g.column()
		if g.r.IntN(2) == 0 && len(keys) > 0 {
			col = keys[min(len(groups), len(keys)-1)]
		}
		name := g.colName(col)
		if g.colType(col) == catalog.TypeTimestamp && g.r.IntN(2) == 0 {
			name = "DATE_TRUNC('day', " + name + ")"
		}
		if !contains(groups, name) {
			groups = append(groups, name)
		}
	}
	items = append(items, groups...)
	var orderable []string // items that sort without depending on summation order
	for i := range items {
		orderable = append(orderable, fmt.Sprint(i+1))
	}
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		col := g.column()
		name := g.colName(col)
		numeric := g.colType(col) == catalog.TypeBigint || g.colType(col) == catalog.TypeInt || g.colType(col) == catalog.TypeDouble
		var a string
		switch k := g.r.IntN(7); {
		case k == 0:
			a = "COUNT(*)"
		case k == 1:
			a = "COUNT(" + name + ")"
		case k == 2:
			a = "COUNT(DISTINCT " + name + ")"
		case k == 3:
			a = "MIN(" + name + ")"
		case k == 4:
			a = "MAX(" + name + ")"
		case numeric && k == 5:
			a = "SUM(" + name + ")"
		case numeric:
			a = "AVG(" + name + ")"
		default:
			a = "COUNT(*)"
		}
		exact := !(strings.HasPrefix(a, "SUM(") || strings.HasPrefix(a, "AVG(")) || g.colType(col) != catalog.TypeDouble
		if g.r.IntN(3) == 0 {
			alias := fmt.Sprintf("a%d", len(items))
			a += " AS " + alias
			if exact {
				orderable = append(orderable, alias)
			}
		} else if exact {
			orderable = append(orderable, fmt.Sprint(len(items)+1))
		}
		items = append(items, a)
	}
	// DISTINCT now and then: the rows differ in their groups already, but
	// ORDER BY must then name result columns.
	distinct := g.r.IntN(6) == 0
	var b strings.Builder
	b.WriteString("SELECT ")
	if distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(strings.Join(items, ", ") + " FROM " + g.t.Name)
	if where := g.where(); where != "" {
		b.WriteString(" WHERE " + where)
	}
	if len(groups) > 0 {
		b.WriteString(" GROUP BY " + strings.Join(groups, ", "))
	}
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(&b, " HAVING COUNT(*) > %d", g.r.IntN(4))
	}
	if len(orderable) == 0 && !distinct {
		orderable = append(orderable, "COUNT(*)")
	}
	if len(orderable) > 0 && g.r.IntN(2) == 0 {
		var keys []string
		for range 1 + g.r.IntN(2) {
			k := orderable[g.r.IntN(len(orderable))]
			if !distinct && g.r.IntN(4) == 0 {
				k = "COUNT(*)"
			}
			if g.r.IntN(2) == 0 {
				k += " DESC"
			}
			keys = append(keys, k)
		}
		b.WriteString(" ORDER BY " + strings.Join(keys, ", "))
	}
	g.limitOffset(&b)
	b.WriteString(" ALLOW FULL SCAN")
	return b.String()
}

// limitOffset adds LIMIT and OFFSET now and then.
func (g *queryGen) limitOffset(b *strings.Builder) {
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(b, " LIMIT %d", g.r.IntN(40))
	}
	if g.r.IntN(4) == 0 {
		fmt.Fprintf(b, " OFFSET %d", g.r.IntN(20))
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
