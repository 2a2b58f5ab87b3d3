package exectest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/parser"
)

// queryGen writes random queries over one table. Values come from the
// table's data domains and from the loaded rows, so queries match rows.
type queryGen struct {
	t    *catalog.Table
	r    *rand.Rand
	rows []catalog.Row
}

// Literal renders v as rkql text for a column of its type: TIMESTAMP and
// DATE values with their keyword.
func Literal(v catalog.Value) string {
	switch v.Type {
	case catalog.TypeTimestamp:
		return "TIMESTAMP " + v.String()
	case catalog.TypeDate:
		return "DATE " + v.String()
	}
	// Value.String spells NaN and the infinities as strings that the
	// column's type reads back.
	return v.String()
}

// value draws a value for column col (len(t.Columns) is _ts): from a
// loaded row, or the domain.
func (g *queryGen) value(col int) catalog.Value {
	if col < len(g.t.Columns) && g.t.Columns[col].Type == catalog.TypeDouble && g.r.IntN(6) == 0 {
		return catalog.Double(specialDoubles[g.r.IntN(len(specialDoubles))])
	}
	if col == len(g.t.Columns) || g.r.IntN(3) > 0 {
		for range 3 {
			row := g.rows[g.r.IntN(len(g.rows))]
			if !row[col].Null {
				return row[col]
			}
		}
	}
	if col == len(g.t.Columns) {
		return catalog.TimestampMillis(g.rows[0][col].I)
	}
	return examples.DomainOf(g.t, col)(g.r)
}

// specialDoubles are the doubles whose comparisons SQL defines with care:
// -0 equals 0, the infinities bound everything, NaN equals only itself
// and sorts above every number.
var specialDoubles = []float64{math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.NaN()}

// addSpecials puts -0, 0 and the infinities into about one DOUBLE in
// fifty of data. NaN goes only into stored columns (a key cannot hold
// it), and only when nan is set.
func addSpecials(t *catalog.Table, data []catalog.Row, r *rand.Rand, nan bool) {
	for _, row := range data {
		for i, c := range t.Columns {
			if c.Type != catalog.TypeDouble || row[i].Null || r.IntN(50) > 0 {
				continue
			}
			n := len(specialDoubles) - 1
			if nan && !c.KeyField {
				n++
			}
			row[i] = catalog.Double(specialDoubles[r.IntN(n)])
		}
	}
}

// column picks a column: a key field in half the picks, a stored column
// in most others, now and then _ts (len(t.Columns)).
func (g *queryGen) column() int {
	keys := g.t.KeyColumns()
	var stored []int
	for i, c := range g.t.Columns {
		if !c.KeyField {
			stored = append(stored, i)
		}
	}
	switch n := g.r.IntN(12); {
	case n < 6 && len(keys) > 0:
		return keys[g.r.IntN(len(keys))]
	case n < 11 && len(stored) > 0:
		return stored[g.r.IntN(len(stored))]
	case n == 11:
		return len(g.t.Columns)
	}
	return g.r.IntN(len(g.t.Columns))
}

// colName and colType cover _ts too.
func (g *queryGen) colName(col int) string {
	if col == len(g.t.Columns) {
		return ref.TSColumn
	}
	return parser.QuoteIdent(g.t.Columns[col].Name)
}

func (g *queryGen) colType(col int) catalog.Type {
	if col == len(g.t.Columns) {
		return catalog.TypeTimestamp
	}
	return g.t.Columns[col].Type
}

// term is one random condition, possibly negated or an OR of two.
func (g *queryGen) term() string {
	switch g.r.IntN(10) {
	case 0:
		return "NOT (" + g.atom() + ")"
	case 1:
		return "(" + g.atom() + " OR " + g.atom() + ")"
	case 2:
		return "NOT (" + g.atom() + " AND " + g.atom() + ")"
	}
	return g.atom()
}

// atom is one comparison, BETWEEN, IN, LIKE or NULL test on a column.
func (g *queryGen) atom() string {
	col := g.column()
	name := g.colName(col)
	lit := func() string {
		v := g.value(col)
		if v.Type == catalog.TypeDate && g.r.IntN(8) == 0 {
			// A time of day against a DATE: SQL compares the DATE as
			// its midnight.
			return "TIMESTAMP '" + v.Time().Add(time.Duration(g.r.IntN(86400))*time.Second).Format("2006-01-02 15:04:05") + "'"
		}
		return Literal(v)
	}
	switch g.r.IntN(16) {
	case 0, 1:
		return name + " = " + lit()
	case 2:
		ops := []string{"!=", "<>"}
		return name + " " + ops[g.r.IntN(2)] + " " + lit()
	case 3:
		return name + " " + g.in(col) + ")"
	case 4:
		return name + " NOT " + g.in(col) + ")"
	case 5, 6:
		a, b := g.value(col), g.value(col)
		if ref.CompareValues(a, b) > 0 && g.r.IntN(4) > 0 {
			a, b = b, a
		}
		not := ""
		if g.r.IntN(4) == 0 {
			not = "NOT "
		}
		return name + " " + not + "BETWEEN " + Literal(a) + " AND " + Literal(b)
	case 7:
		ops := []string{"<", "<=", ">", ">="}
		return name + " " + ops[g.r.IntN(4)] + " " + lit()
	case 8, 9, 10:
		if g.colType(col) == catalog.TypeString {
			return g.like(col)
		}
		return name + " != " + lit()
	case 11:
		if g.r.IntN(2) == 0 {
			return name + " IS NULL"
		}
		return name + " IS NOT NULL"
	case 12:
		// Comparisons with NULL are never true, nor are their negations.
		ops := []string{"=", "!=", "<", ">="}
		if g.r.IntN(2) == 0 {
			return "NULL " + ops[g.r.IntN(4)] + " " + name
		}
		return name + " " + ops[g.r.IntN(4)] + " NULL"
	case 13:
		switch g.r.IntN(4) {
		case 0:
			return name + " BETWEEN NULL AND " + lit()
		case 1:
			return name + " NOT BETWEEN " + lit() + " AND NULL"
		}
		return name + " NOT BETWEEN " + lit() + " AND " + lit()
	case 14:
		return fmt.Sprintf("(%s = %s OR %s = %s)", name, lit(), name, lit())
	}
	return lit() + " " + []string{"=", "<", ">="}[g.r.IntN(3)] + " " + name
}

// in is "IN (…" with a few values, sometimes one of them NULL.
func (g *queryGen) in(col int) string {
	vals := make([]string, 1+g.r.IntN(4))
	for i := range vals {
		vals[i] = Literal(g.value(col))
	}
	if g.r.IntN(4) == 0 {
		vals[g.r.IntN(len(vals))] = "NULL"
	}
	return "IN (" + strings.Join(vals, ", ")
}

// like is a LIKE or NOT LIKE on a text column, with a pattern made from a
// value: characters kept, or replaced by _ or %, and % at either end or
// both.
func (g *queryGen) like(col int) string {
	s := []rune(g.value(col).S)
	if g.r.IntN(4) == 0 {
		return g.likeEscape(col, s)
	}
	var b strings.Builder
	if g.r.IntN(3) == 0 {
		b.WriteByte('%')
	}
	for i := 0; i < len(s); i++ {
		switch n := g.r.IntN(14); {
		case n == 0:
			b.WriteByte('_')
		case n == 1:
			b.WriteByte('%')
			i += g.r.IntN(3)
		case n == 2 && i > 0:
			// Cut the value short: the rest is a % or nothing.
			if g.r.IntN(2) == 0 {
				b.WriteByte('%')
			}
			i = len(s)
		default:
			b.WriteRune(s[i])
		}
	}
	if g.r.IntN(2) == 0 {
		b.WriteByte('%')
	}
	not := ""
	if g.r.IntN(5) == 0 {
		not = "NOT "
	}
	return g.colName(col) + " " + not + "LIKE " + catalog.String(b.String()).String()
}

// likeEscape is a LIKE … ESCAPE '!' made from a value: its wildcard and
// escape characters escaped, some other characters escaped too (they
// then stand for themselves), now and then a _ or % escaped where the
// value has none, and a % or _ wildcard at the end.
func (g *queryGen) likeEscape(col int, s []rune) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '!' || c == '%' || c == '_':
			b.WriteRune('!')
		case g.r.IntN(12) == 0:
			b.WriteString([]string{"!_", "!%", "!"}[g.r.IntN(3)])
		}
		b.WriteRune(c)
	}
	switch g.r.IntN(4) {
	case 0:
		b.WriteByte('%')
	case 1:
		b.WriteByte('_')
	}
	return g.colName(col) + " LIKE " + catalog.String(b.String()).String() + " ESCAPE '!'"
}

func (g *queryGen) query() string {
	if g.r.IntN(5) == 0 {
		return g.aggQuery()
	}
	var b strings.Builder
	items, distinct := g.items(), ""
	switch g.r.IntN(6) {
	case 0:
		items = g.exprItems()
	case 1:
		items, distinct = g.distinctItems()
	}
	b.WriteString("SELECT " + items + " FROM " + g.t.Name)
	if where := g.where(); where != "" {
		b.WriteString(" WHERE " + where)
	}
	if g.r.IntN(3) == 0 {
		var keys []string
		for i := 0; i < 1+g.r.IntN(2); i++ {
			col := g.column()
			it := g.colName(col)
			switch {
			case distinct != "":
				// Under DISTINCT, ORDER BY names selected columns.
				sel := strings.Split(distinct, ", ")
				it = sel[g.r.IntN(len(sel))]
			case items == "DISTINCT *":
				it = parser.QuoteIdent(g.t.Columns[g.r.IntN(len(g.t.Columns))].Name)
			case g.r.IntN(6) == 0:
				if x, kind := g.expr(col); kind != "" {
					it = x
				}
			}
			if g.r.IntN(2) == 0 {
				it += " DESC"
			}
			keys = append(keys, it)
		}
		b.WriteString(" ORDER BY " + strings.Join(keys, ", "))
	}
	// COUNT(*) takes a LIMIT rarely: see KnownDivergences.
	if n := g.r.IntN(10); n < 4 && !(strings.HasPrefix(b.String(), "SELECT COUNT(*)") && n > 0) {
		fmt.Fprintf(&b, " LIMIT %d", g.r.IntN(40))
	}
	if g.r.IntN(8) == 0 {
		fmt.Fprintf(&b, " OFFSET %d", g.r.IntN(20))
	}
	b.WriteString(" ALLOW FULL SCAN")
	return b.String()
}

// where is a random WHERE clause, or "": the leading key fields of the
// table or of an index bound, as most real queries do, an OR of key
// prefixes or a row-value IN, and a few terms.
func (g *queryGen) where() string {
	var terms []string
	switch n := g.r.IntN(8); {
	case n < 3:
		terms = append(terms, g.leading(g.t.KeyColumns())...)
	case n < 5 && len(g.t.Indexes) > 0:
		terms = append(terms, g.leading(g.indexKeys())...)
	case n == 5:
		terms = append(terms, g.orOfKeys())
	case n == 6:
		terms = append(terms, g.rowIn())
	}
	for n := g.r.IntN(3); n > 0; n-- {
		if g.r.IntN(8) == 0 {
			terms = append(terms, g.exprAtom())
			continue
		}
		terms = append(terms, g.term())
	}
	return strings.Join(terms, " AND ")
}

// leading binds the first key fields, as most real queries do: each with
// = or a small IN list, the last possibly with a range.
func (g *queryGen) leading(keys []int) []string {
	n := 1 + g.r.IntN(len(keys))
	var out []string
	for i, col := range keys[:n] {
		name := parser.QuoteIdent(g.t.Columns[col].Name)
		switch {
		case i == n-1 && g.t.Columns[col].Type == catalog.TypeString && g.r.IntN(4) == 0:
			// A prefix pattern, which the planner may turn into a range.
			s := g.value(col).S
			s = s[:g.r.IntN(len(s)+1)]
			if len(s) > 1 && g.r.IntN(3) == 0 {
				s = s[:len(s)-1] + "_"
			}
			switch g.r.IntN(3) {
			case 0:
				// A literal start then _: still a key prefix.
				out = append(out, name+" LIKE "+catalog.String(s+"_").String())
			case 1:
				esc := strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(s)
				out = append(out, name+" LIKE "+catalog.String(esc+"%").String()+" ESCAPE '!'")
			default:
				out = append(out, name+" LIKE "+catalog.String(s+"%").String())
			}
		case i == n-1 && g.r.IntN(2) == 0:
			a, b := g.value(col), g.value(col)
			if ref.CompareValues(a, b) > 0 {
				a, b = b, a
			}
			out = append(out, name+" BETWEEN "+Literal(a)+" AND "+Literal(b))
		case g.r.IntN(4) == 0:
			out = append(out, name+" IN ("+Literal(g.value(col))+", "+Literal(g.value(col))+")")
		default:
			out = append(out, name+" = "+Literal(g.value(col)))
		}
	}
	return out
}

// indexKeys are the data-table columns of a random index's key fields.
func (g *queryGen) indexKeys() []int {
	ix := g.t.Indexes[g.r.IntN(len(g.t.Indexes))]
	var cols []int
	for _, k := range ix.Table.KeyColumns() {
		d, _ := g.t.Column(ix.Table.Columns[k].Name)
		cols = append(cols, d)
	}
	return cols
}

// orOfKeys is an OR of two or three branches that each bind the start of
// the key or of an index, as leading does, so that the planner may read
// the union of their ranges.
func (g *queryGen) orOfKeys() string {
	var branches []string
	for range 2 + g.r.IntN(2) {
		keys := g.t.KeyColumns()
		if len(g.t.Indexes) > 0 && g.r.IntN(2) == 0 {
			keys = g.indexKeys()
		}
		terms := g.leading(keys)
		if g.r.IntN(3) == 0 {
			terms = append(terms, g.atom())
		}
		branches = append(branches, "("+strings.Join(terms, " AND ")+")")
	}
	return "(" + strings.Join(branches, " OR ") + ")"
}

// rowIn is a row-value IN over the first key fields, with rows drawn from
// the loaded rows (now and then with a NULL), sometimes NOT IN.
func (g *queryGen) rowIn() string {
	keys := g.t.KeyColumns()
	if len(g.t.Indexes) > 0 && g.r.IntN(3) == 0 {
		keys = g.indexKeys()
	}
	keys = keys[:1+g.r.IntN(len(keys))]
	if len(keys) == 1 {
		keys = append(keys, g.column())
	}
	names := make([]string, len(keys))
	for i, c := range keys {
		names[i] = g.colName(c)
	}
	var rows []string
	for range 1 + g.r.IntN(4) {
		src := g.rows[g.r.IntN(len(g.rows))]
		vals := make([]string, len(keys))
		for i, c := range keys {
			v := src[c]
			if g.r.IntN(4) == 0 {
				v = g.value(c)
			}
			vals[i] = Literal(v)
			if v.Null || g.r.IntN(30) == 0 {
				vals[i] = "NULL"
			}
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	not := ""
	if g.r.IntN(5) == 0 {
		not = "NOT "
	}
	return "(" + strings.Join(names, ", ") + ") " + not + "IN (" + strings.Join(rows, ", ") + ")"
}

// distinctItems is the select list of a SELECT DISTINCT, and what ORDER
// BY may name of it ("" for *): the key's first fields, to reach loose
// scans, or a few columns, or expressions (by position), or *. DOUBLE columns stay out: -0 and 0 are
// one value to DISTINCT, and which of them a result shows is not fixed.
func (g *queryGen) distinctItems() (string, string) {
	var cols []string
	switch n := g.r.IntN(5); {
	case n == 0:
		return "DISTINCT *", ""
	case n == 4:
		// Expressions, which ORDER BY names by position.
		var xs, pos []string
		for range 1 + g.r.IntN(2) {
			c := g.column()
			x, _ := g.expr(c)
			if g.colType(c) != catalog.TypeDouble && !strings.Contains(x, "AS DOUBLE") && !slices.Contains(xs, x) {
				xs = append(xs, x)
				pos = append(pos, fmt.Sprint(len(xs)))
			}
		}
		if len(xs) > 0 {
			return "DISTINCT " + strings.Join(xs, ", "), strings.Join(pos, ", ")
		}
	case n == 1:
		keys := g.t.KeyColumns()
		for _, c := range keys[:1+g.r.IntN(len(keys))] {
			if g.t.Columns[c].Type != catalog.TypeDouble {
				cols = append(cols, parser.QuoteIdent(g.t.Columns[c].Name))
			}
		}
	default:
		for range 1 + g.r.IntN(2) {
			c := g.column()
			if name := g.colName(c); g.colType(c) != catalog.TypeDouble && !slices.Contains(cols, name) {
				cols = append(cols, name)
			}
		}
	}
	if len(cols) == 0 {
		return "DISTINCT *", ""
	}
	list := strings.Join(cols, ", ")
	return "DISTINCT " + list, list
}

// items is * or a few columns, so that covering indexes get chosen.
func (g *queryGen) items() string {
	switch g.r.IntN(12) {
	case 0:
		return "COUNT(*)"
	case 1, 2, 3, 4, 5:
		return "*"
	}
	var cols []string
	for _, c := range g.t.Columns {
		if g.r.IntN(2) == 0 {
			cols = append(cols, parser.QuoteIdent(c.Name))
		}
	}
	if len(cols) == 0 || g.r.IntN(6) == 0 {
		cols = append(cols, ref.TSColumn)
	}
	return strings.Join(cols, ", ")
}
