package exectest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// updateOp is an UPDATE: value columns set to literals or NULL where a
// condition holds, or a statement the engine must refuse.
type updateOp struct {
	where string
	cols  []int
	vals  []catalog.Value
	// refusal is the part of the error the engine must refuse the
	// statement with, "" for a statement it must run.
	refusal string
}

// update draws an UPDATE: one to three value columns set to pool values
// or NULL, where a condition on the key (point, prefix, range, IN), an
// index's leading field or a value column holds; one in eight is a
// statement the engine must refuse: a key field or _ts set, a column set
// twice, or a value computed from the row's columns, which UPDATE does
// not take.
func (g *writeGen) update() op {
	t := g.t
	var stored []int
	for i, c := range t.Columns {
		if !c.KeyField {
			stored = append(stored, i)
		}
	}
	u := &updateOp{where: g.updateWhere()}
	g.r.Shuffle(len(stored), func(i, j int) { stored[i], stored[j] = stored[j], stored[i] })
	var sets []string
	for _, c := range stored[:1+g.r.IntN(min(3, len(stored)))] {
		v := catalog.Null(t.Columns[c].Type)
		if g.r.IntN(4) > 0 {
			v = pick(g.r, g.vals[c])
		}
		u.cols = append(u.cols, c)
		u.vals = append(u.vals, v)
		text := "NULL"
		if !v.Null {
			text = Literal(v)
		}
		sets = append(sets, t.Columns[c].Name+" = "+text)
	}
	if g.r.IntN(8) == 0 {
		switch n := g.r.IntN(4); {
		case n == 0:
			k := pick(g.r, t.KeyColumns())
			sets = append(sets, t.Columns[k].Name+" = "+Literal(pick(g.r, g.keys)[k]))
			u.refusal = "is part of the key"
		case n == 1:
			sets = append(sets, "_ts = 0")
			u.refusal = "cannot be set"
		case n == 2:
			sets = append(sets, sets[0])
			u.refusal = "is set twice"
		default:
			c := u.cols[0]
			sets[0] = t.Columns[c].Name + " = " + t.Columns[c].Name
			u.refusal = "expected a value for column"
		}
		g.r.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
	}
	return op{sql: "UPDATE " + t.Name + " SET " + strings.Join(sets, ", ") + " WHERE " + u.where + " ALLOW FULL SCAN", update: u}
}

// updateWhere is an UPDATE's condition: a DELETE's, or a range or IN over
// the leading key field, or a condition on a value column alone.
func (g *writeGen) updateWhere() string {
	t := g.t
	k := t.KeyColumns()[0]
	name := t.Columns[k].Name
	a, b := pick(g.r, g.keys)[k], pick(g.r, g.keys)[k]
	switch g.r.IntN(6) {
	case 0:
		if catalog.Compare(a, b) > 0 {
			a, b = b, a
		}
		return name + " >= " + Literal(a) + " AND " + name + " <= " + Literal(b)
	case 1:
		return name + " IN (" + Literal(a) + ", " + Literal(b) + ")"
	case 2:
		var stored []int
		for i, c := range t.Columns {
			if !c.KeyField {
				stored = append(stored, i)
			}
		}
		c := pick(g.r, stored)
		if g.r.IntN(3) == 0 {
			return t.Columns[c].Name + " IS NULL"
		}
		return t.Columns[c].Name + " = " + Literal(pick(g.r, g.vals[c]))
	}
	return g.deleteWhere()
}

// applyUpdate runs an UPDATE on the model, on its own terms: the rows its
// condition finds (by the reference) are written again at one tick of the
// engine's write clock, their key fields and the set columns, a NULL
// deleting the column's versions at or before that tick; a write two rows
// would share a unique index's entry by is refused whole.
func (w *world) applyUpdate(u *updateOp) (outcome, error) {
	if u.refusal != "" {
		return outcome{refusal: u.refusal}, nil
	}
	s, err := parseSelect("SELECT * FROM " + w.t.Name + " WHERE " + u.where)
	if err != nil {
		return outcome{}, err
	}
	if d := knownWrite(w.t, s.Where, w.m.Markers); d != nil {
		return outcome{known: d.Name}, nil
	}
	now := w.now()
	res, err := ref.Evaluate(w.t, s, w.m.Rows(now))
	if err != nil {
		return outcome{}, err
	}
	out := outcome{updated: res.Len()}
	if out.updated == 0 {
		return out, nil
	}
	ts := max(now, w.lastWrite+1)
	w.lastWrite = ts
	cols := append(slices.Clone(w.t.KeyColumns()), u.cols...)
	next := w.m.Clone()
	for _, g := range res.Groups {
		for _, r := range g {
			row := slices.Clone(r[:len(w.t.Columns)])
			for i, c := range u.cols {
				row[c] = u.vals[i]
			}
			if err := next.Insert(Write{Row: row, Cols: cols, TS: ts}); err != nil {
				return outcome{}, err
			}
		}
	}
	if dup := duplicateEntry(w.t, next.Rows(now)); dup != "" {
		return outcome{refused: true}, nil
	}
	w.m = next
	return out, nil
}

// updateTag is the command tag of an UPDATE that wrote n rows.
func updateTag(n int) string { return fmt.Sprintf("UPDATE %d", n) }
