package exectest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
)

// queryGen writes random queries over one table. Values come from the
// table's data domains and from the loaded rows, so queries match rows.
type queryGen struct {
	t    *catalog.Table
	r    *rand.Rand
	rows []catalog.Row
}

// literal renders v as rkql text for a column of its type.
func literal(v catalog.Value) string {
	switch v.Type {
	case catalog.TypeTimestamp:
		return "TIMESTAMP " + v.String()
	case catalog.TypeDate:
		return "DATE " + v.String()
	}
	return v.String()
}

// value draws a value for column col: from a loaded row, or the domain.
func (g *queryGen) value(col int) catalog.Value {
	if g.r.IntN(3) > 0 {
		row := g.rows[g.r.IntN(len(g.rows))]
		if !row[col].Null {
			return row[col]
		}
	}
	return examples.DomainOf(g.t, col)(g.r)
}

// column picks a column, key fields twice as often.
func (g *queryGen) column() int {
	keys := g.t.KeyColumns()
	if g.r.IntN(3) > 0 && len(keys) > 0 {
		return keys[g.r.IntN(len(keys))]
	}
	return g.r.IntN(len(g.t.Columns))
}

func (g *queryGen) term() string {
	col := g.column()
	c := g.t.Columns[col]
	name := c.Name
	switch g.r.IntN(10) {
	case 0, 1, 2:
		return name + " = " + literal(g.value(col))
	case 3:
		vals := make([]string, 1+g.r.IntN(4))
		for i := range vals {
			vals[i] = literal(g.value(col))
		}
		return name + " IN (" + strings.Join(vals, ", ") + ")"
	case 4, 5:
		a, b := g.value(col), g.value(col)
		if catalog.Compare(a, b) > 0 && g.r.IntN(4) > 0 {
			a, b = b, a
		}
		return name + " BETWEEN " + literal(a) + " AND " + literal(b)
	case 6:
		ops := []string{"<", "<=", ">", ">="}
		return name + " " + ops[g.r.IntN(4)] + " " + literal(g.value(col))
	case 7:
		if c.Type == catalog.TypeString {
			s := g.value(col).S
			s = s[:g.r.IntN(len(s)+1)]
			if g.r.IntN(2) == 0 {
				return name + " LIKE '" + strings.ReplaceAll(s, "'", "''") + "%'"
			}
			return name + " LIKE '%" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		return name + " != " + literal(g.value(col))
	case 8:
		return fmt.Sprintf("(%s = %s OR %s = %s)", name, literal(g.value(col)), name, literal(g.value(col)))
	default:
		return "NOT (" + name + " = " + literal(g.value(col)) + ")"
	}
}

func (g *queryGen) query() string {
	var b strings.Builder
	b.WriteString("SELECT " + g.items() + " FROM " + g.t.Name)
	var terms []string
	switch n := g.r.IntN(6); {
	case n < 3:
		terms = append(terms, g.leading(g.t.KeyColumns())...)
	case n < 5 && len(g.t.Indexes) > 0:
		ix := g.t.Indexes[g.r.IntN(len(g.t.Indexes))]
		var cols []int
		for _, k := range ix.Table.KeyColumns() {
			d, _ := g.t.Column(ix.Table.Columns[k].Name)
			cols = append(cols, d)
		}
		terms = append(terms, g.leading(cols)...)
	}
	for n := g.r.IntN(3); n > 0; n-- {
		terms = append(terms, g.term())
	}
	if len(terms) > 0 {
		b.WriteString(" WHERE " + strings.Join(terms, " AND "))
	}
	if g.r.IntN(3) == 0 {
		var items []string
		for i := 0; i < 1+g.r.IntN(2); i++ {
			it := g.t.Columns[g.column()].Name
			if g.r.IntN(2) == 0 {
				it += " DESC"
			}
			items = append(items, it)
		}
		b.WriteString(" ORDER BY " + strings.Join(items, ", "))
	}
	if g.r.IntN(5) < 2 {
		fmt.Fprintf(&b, " LIMIT %d", g.r.IntN(40))
	}
	b.WriteString(" ALLOW FULL SCAN")
	return b.String()
}

// leading binds the first key fields, as most real queries do: each with
// = or a small IN list, the last possibly with a range.
func (g *queryGen) leading(keys []int) []string {
	n := 1 + g.r.IntN(len(keys))
	var out []string
	for i, col := range keys[:n] {
		name := g.t.Columns[col].Name
		switch {
		case i == n-1 && g.r.IntN(2) == 0:
			a, b := g.value(col), g.value(col)
			if catalog.Compare(a, b) > 0 {
				a, b = b, a
			}
			out = append(out, name+" BETWEEN "+literal(a)+" AND "+literal(b))
		case g.r.IntN(4) == 0:
			out = append(out, name+" IN ("+literal(g.value(col))+", "+literal(g.value(col))+")")
		default:
			out = append(out, name+" = "+literal(g.value(col)))
		}
	}
	return out
}

// items is * or a few columns, so that covering indexes get chosen.
func (g *queryGen) items() string {
	if g.r.IntN(2) == 0 {
		return "*"
	}
	var cols []string
	for _, c := range g.t.Columns {
		if g.r.IntN(2) == 0 {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) == 0 {
		cols = append(cols, g.t.Columns[0].Name)
	}
	return strings.Join(cols, ", ")
}
