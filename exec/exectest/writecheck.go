package exectest

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// writeChecker draws the queries checked after each operation.
type writeChecker struct {
	t     *catalog.Table
	r     *rand.Rand
	start int64 // the clock's time when the run began
}

// queries lists the checks after one operation: the whole table without
// an index and through each one, each index table's entries, a point
// lookup, COUNT(*), and random queries with no hint, NO INDEX, or USE
// INDEX.
func (c *writeChecker) queries(w *world, g *writeGen) []string {
	t := c.t
	qs := []string{"SELECT * FROM " + t.Name + " NO INDEX ALLOW FULL SCAN"}
	for _, ix := range t.Indexes {
		lead := ix.Table.Columns[ix.Table.KeyColumns()[0]]
		all := "WHERE " + lead.Name + " >= " + lowest(lead.Type)
		qs = append(qs,
			"SELECT * FROM "+t.Name+" USE INDEX ("+ix.Name+") "+all+" ALLOW FULL SCAN",
			"SELECT COUNT(*) FROM "+t.Name+" USE INDEX ("+ix.Name+") "+all+" ALLOW FULL SCAN")
		if !copiesTTL(t, ix) {
			qs = append(qs, "SELECT * FROM "+ix.Name+" ALLOW FULL SCAN")
		}
	}
	key := pick(c.r, g.keys)
	var conds, cols []string
	for _, k := range t.KeyColumns() {
		conds = append(conds, t.Columns[k].Name+" = "+Literal(key[k]))
	}
	for _, col := range t.Columns {
		cols = append(cols, col.Name)
	}
	qs = append(qs,
		"SELECT "+strings.Join(cols, ", ")+", _ts FROM "+t.Name+" WHERE "+strings.Join(conds, " AND "),
		"SELECT COUNT(*) FROM "+t.Name+" ALLOW FULL SCAN")
	pool := w.m.Rows(w.now())
	for _, k := range g.keys {
		r := append(slices.Clone(k), catalog.TimestampMillis(w.now()))
		for _, i := range slices.Sorted(maps.Keys(g.vals)) {
			r[i] = pick(c.r, g.vals[i])
		}
		pool = append(pool, r)
	}
	qg := &queryGen{t: t, r: c.r, rows: pool}
	for range 2 {
		qs = append(qs, c.random(qg))
	}
	return qs
}

// random is a random query with no hint, NO INDEX, or USE INDEX over an
// index whose leading fields it binds.
func (c *writeChecker) random(g *queryGen) string {
	t := c.t
	n := c.r.IntN(3)
	if n < 2 {
		q := g.query()
		if n == 1 {
			q = strings.Replace(q, " FROM "+t.Name, " FROM "+t.Name+" NO INDEX", 1)
		}
		return q
	}
	ix := pick(c.r, t.Indexes)
	var cols []int
	for _, k := range ix.Table.KeyColumns() {
		d, _ := t.Column(ix.Table.Columns[k].Name)
		cols = append(cols, d)
	}
	// The leading fields by = or IN: a LIKE with a _ or a leading %
	// cannot serve USE INDEX.
	var terms []string
	for i, col := range cols[:1+c.r.IntN(len(cols))] {
		name := t.Columns[col].Name
		if i == 0 || c.r.IntN(3) > 0 {
			terms = append(terms, name+" = "+Literal(g.value(col)))
		} else {
			terms = append(terms, name+" IN ("+Literal(g.value(col))+", "+Literal(g.value(col))+")")
		}
	}
	if c.r.IntN(2) == 0 {
		terms = append(terms, g.term())
	}
	q := "SELECT " + g.items() + " FROM " + t.Name + " USE INDEX (" + ix.Name + ") WHERE " + strings.Join(terms, " AND ")
	if c.r.IntN(3) == 0 {
		q += " ORDER BY " + g.colName(g.column())
	}
	if c.r.IntN(4) == 0 {
		q += fmt.Sprintf(" LIMIT %d", c.r.IntN(5))
	}
	return q + " ALLOW FULL SCAN"
}

// lowest is a literal at or below every value of a key field of type ty.
func lowest(ty catalog.Type) string {
	switch ty {
	case catalog.TypeString:
		return "''"
	case catalog.TypeTimestamp:
		return "TIMESTAMP '0001-01-01 00:00:00'"
	case catalog.TypeDate:
		return "DATE '0001-01-01'"
	case catalog.TypeDouble:
		return "'-Infinity'"
	}
	return "-9223372036854775807"
}

// copiesTTL reports whether ix holds a column of a family with a TTL: its
// entries then outlive the data cells they copy, by design, and only the
// lookups through it (which read the data row) are checked.
func copiesTTL(t *catalog.Table, ix *catalog.Index) bool {
	for _, c := range ix.Table.Columns {
		d, _ := t.Column(c.Name)
		if f, ok := t.Family(t.Columns[d].Family); ok && f.TTL > 0 {
			return true
		}
	}
	return false
}

// repro renders the operations that led to a failure, shrunk first when
// the options allow replays: an operation is left out when the failure
// (the last operation's, or query q's after all of them) still shows
// without it.
func (c *writeChecker) repro(t *testing.T, o WriteOptions, w *world, ops []op, q *string) string {
	last := ""
	if o.Reopen != nil {
		ops = c.shrink(t, o, ops, q)
		last = c.fails(t, o, ops, q)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  reproduction (%d operations, clock starting at %d, %s):\n", len(ops), c.start, map[bool]string{true: "store keeps delete markers", false: "store keeps no delete markers"}[o.Markers])
	for i := 0; i < len(ops); i++ {
		p := ops[i]
		// Successive advances print as one.
		for p.advance > 0 && i+1 < len(ops) && ops[i+1].advance > 0 {
			i++
			p.advance += ops[i].advance
		}
		b.WriteString("    " + p.String() + "\n")
	}
	if q != nil {
		b.WriteString("    " + *q + ";\n")
	}
	if last != "" {
		b.WriteString("  which fails with: " + last + "\n")
	}
	return b.String()
}

// shrink drops chunks of operations, halving the chunk size, while the
// failure still shows.
func (c *writeChecker) shrink(t *testing.T, o WriteOptions, ops []op, q *string) []op {
	for size := len(ops) / 2; size >= 1; size /= 2 {
		for i := 0; i+size <= len(ops); {
			cand := append(append([]op{}, ops[:i]...), ops[i+size:]...)
			if q == nil && i+size == len(ops) {
				i += size // the failing operation stays last
				continue
			}
			if len(cand) > 0 && c.fails(t, o, cand, q) != "" {
				ops = cand
				continue
			}
			i += size
		}
	}
	return ops
}

// fails replays ops on a fresh store and returns the failure, or "" when
// it does not show: the last operation fails, or q differs from the model
// after them all, while every earlier operation agrees with the model.
func (c *writeChecker) fails(t *testing.T, o WriteOptions, ops []op, q *string) string {
	ctx := context.Background()
	if o.Clock != nil {
		o.Clock.ms.Store(c.start)
	}
	w := &world{t: c.t, m: NewModel(c.t, o.Markers), clock: o.Clock}
	if o.Clock == nil {
		w.sync = o.WriteClock
	}
	sess := o.Reopen(t)
	for i, p := range ops {
		want, err := w.apply(p)
		if err != nil || want.known != "" {
			return ""
		}
		if err := runOp(ctx, sess, p, want); err != nil {
			if q == nil && i == len(ops)-1 {
				return err.Error()
			}
			return ""
		}
	}
	if q == nil {
		return ""
	}
	if err := checkQuery(ctx, sess, w, *q); err != nil {
		return err.Error()
	}
	return ""
}
