package exectest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// writeGen draws operations over one table from small pools of keys and
// values, so that rows are written again and again: at older, equal,
// newer and future timestamps, with NULLs and partial columns.
type writeGen struct {
	t     *catalog.Table
	r     *rand.Rand
	clock bool // writes without TIMESTAMP and clock advances
	keys  []catalog.Row
	vals  map[int][]catalog.Value
	// future is the first timestamp of the future pool, far past any
	// clock the run reaches.
	future int64

	// updates says UPDATEs are drawn: the model knows the engine's clock.
	updates bool
}

func newWriteGen(t *catalog.Table, r *rand.Rand, clock bool, start int64) *writeGen {
	g := &writeGen{t: t, r: r, clock: clock, vals: map[int][]catalog.Value{}, future: start + 10*24*3600*1000}
	for i, c := range t.Columns {
		if c.KeyField {
			continue
		}
		d := examples.DomainOf(t, i)
		for range 4 {
			g.vals[i] = append(g.vals[i], d(r))
		}
	}
	for range 10 {
		g.keys = append(g.keys, g.newKey())
	}
	return g
}

// newKey draws a key: fresh, or a pool key with one key field redrawn, so
// that an index keyed without some key fields sees two rows claim one
// entry.
func (g *writeGen) newKey() catalog.Row {
	kc := g.t.KeyColumns()
	row := g.t.NewRow()
	if len(g.keys) > 0 && g.r.IntN(3) == 0 {
		copy(row, pick(g.r, g.keys))
		k := pick(g.r, kc)
		row[k] = examples.DomainOf(g.t, k)(g.r)
		return row
	}
	for _, k := range kc {
		row[k] = examples.DomainOf(g.t, k)(g.r)
	}
	return row
}

// next draws one operation over w's current state.
func (g *writeGen) next(w *world) op {
	n := g.r.IntN(100)
	switch {
	case g.clock && n < 8:
		return op{advance: time.Duration(1+g.r.IntN(40)) * time.Minute}
	case n < 22:
		where := g.deleteWhere()
		return op{sql: "DELETE FROM " + g.t.Name + " WHERE " + where, where: where}
	case g.updates && n < 36:
		return g.update()
	}
	if g.r.IntN(40) == 0 {
		g.keys[g.r.IntN(len(g.keys))] = g.newKey()
	}
	var stored []int
	for i, c := range g.t.Columns {
		if !c.KeyField && g.r.IntN(5) < 3 {
			stored = append(stored, i)
		}
	}
	if g.r.IntN(8) == 0 {
		stored = nil // key fields alone
	}
	g.r.Shuffle(len(stored), func(i, j int) { stored[i], stored[j] = stored[j], stored[i] })
	cols := append(slices.Clone(g.t.KeyColumns()), stored...)
	rows := 1
	if g.r.IntN(5) == 0 {
		rows = 2
	}
	var writes []Write
	for range rows {
		row := g.t.NewRow()
		copy(row, pick(g.r, g.keys))
		for _, c := range stored {
			if g.r.IntN(5) > 0 {
				row[c] = pick(g.r, g.vals[c])
			}
		}
		writes = append(writes, Write{Row: row, Cols: cols})
	}
	ts := g.timestamp(w, writes[0].Row)
	for i := range writes {
		writes[i].TS = ts
	}
	return op{sql: renderInsert(g.t, writes), writes: writes}
}

// timestamp picks an INSERT's TIMESTAMP, 0 for none: equal to, just
// older or newer than a version the row holds, from the past, or from
// the future.
func (g *writeGen) timestamp(w *world, row catalog.Row) int64 {
	now := w.now()
	if g.clock && g.r.IntN(3) == 0 {
		return 0
	}
	key, err := w.m.Key(row)
	if err != nil {
		return now - 3600_000
	}
	stamps := w.m.Stamps(key)
	switch n := g.r.IntN(10); {
	case n < 4 && len(stamps) > 0:
		s := pick(g.r, stamps)
		return s + pick(g.r, []int64{0, 0, -1, 1, -60_000, 60_000})
	case n < 9:
		// The past: every 10 minutes from 3 hours to 10 minutes ago.
		return now - 3*3600_000 + int64(g.r.IntN(18))*600_000
	}
	return g.future + int64(g.r.IntN(4))*1000
}

// deleteWhere is a DELETE's condition: it binds the key or an index's
// leading fields (a DELETE may not scan the whole table), sometimes with
// one more condition.
func (g *writeGen) deleteWhere() string {
	var terms []string
	key := pick(g.r, g.keys)
	if n := g.r.IntN(10); n < 5 || len(g.t.Indexes) == 0 {
		kc := g.t.KeyColumns()
		for _, k := range kc[:1+g.r.IntN(len(kc))] {
			terms = append(terms, g.t.Columns[k].Name+" = "+Literal(key[k]))
		}
	} else {
		ix := pick(g.r, g.t.Indexes)
		c := ix.Table.Columns[ix.Table.KeyColumns()[0]]
		d, _ := g.t.Column(c.Name)
		v := key[d]
		if !g.t.Columns[d].KeyField {
			v = pick(g.r, g.vals[d])
		}
		terms = append(terms, c.Name+" = "+Literal(v))
	}
	if g.r.IntN(4) == 0 {
		var stored []int
		for i, c := range g.t.Columns {
			if !c.KeyField {
				stored = append(stored, i)
			}
		}
		c := pick(g.r, stored)
		if g.r.IntN(2) == 0 {
			terms = append(terms, g.t.Columns[c].Name+" IS NULL")
		} else {
			terms = append(terms, g.t.Columns[c].Name+" = "+Literal(pick(g.r, g.vals[c])))
		}
	}
	return strings.Join(terms, " AND ")
}

func runWriteTable(t *testing.T, cat *catalog.Catalog, tb *catalog.Table, o WriteOptions) WriteStats {
	if o.Clock == nil {
		for _, f := range tb.Families {
			if f.TTL > 0 {
				t.Fatalf("table %s has a TTL; the model needs a Clock to check it", tb.Name)
			}
		}
	}
	ctx := context.Background()
	start := time.Now().UnixMilli()
	if o.Clock != nil {
		start = o.Clock.ms.Load()
	}
	r := rand.New(rand.NewPCG(o.Seed, 17))
	w := &world{t: tb, m: NewModel(tb, o.Markers), clock: o.Clock}
	if o.Clock == nil {
		w.sync = o.WriteClock
	}
	g := newWriteGen(tb, r, o.Clock != nil, start)
	g.updates = o.Clock != nil || o.WriteClock != nil
	c := &writeChecker{t: tb, r: rand.New(rand.NewPCG(o.Seed, 19)), start: start}
	sess := o.Open(t)
	st := WriteStats{Known: map[string]int{}}
	var done []op
	// Operations left out as known divergences do not count: draw until
	// o.Ops ran, or four times as many were drawn.
	for i := 0; st.Ops < o.Ops && i < 4*o.Ops; i++ {
		p := g.next(w)
		saved := *w
		want, err := w.apply(p)
		if err != nil {
			t.Fatalf("model: %s: %v", p, err)
		}
		if want.known != "" {
			// Leave it out: the store's state would differ from the
			// model's from here on.
			*w = saved
			st.Known[want.known]++
			// A key a marker covers stays covered: draw a new one
			// now and then, so that writes keep landing.
			if g.r.IntN(2) == 0 {
				g.keys[g.r.IntN(len(g.keys))] = g.newKey()
			}
			continue
		}
		st.Ops++
		st.Hidden = w.m.Hidden
		if err := runOp(ctx, sess, p, want); err != nil {
			t.Errorf("operation %d: %v\n%s", i, err, c.repro(t, o, w, append(done, p), nil))
			return st
		}
		done = append(done, p)
		switch {
		case p.advance > 0:
			st.Advances++
		case p.update != nil && (want.refused || want.refusal != ""):
			st.UpdatesRefused++
		case p.update != nil:
			st.Updates++
			st.UpdatedRows += want.updated
		case p.writes == nil:
			st.Deletes++
		case want.refused:
			st.Refused++
		default:
			st.Writes++
		}
		qs := c.queries(w, g)
		for _, q := range qs {
			st.Queries++
			known, err := checkQueryKnown(ctx, sess, w, q)
			if known != "" {
				st.Known[known]++
			}
			if err != nil {
				t.Errorf("after operation %d: %s\n  %v\n%s", i, q, err, c.repro(t, o, w, done, &q))
				return st
			}
		}
	}
	return st
}

// runOp runs one operation and compares what the engine says with want.
func runOp(ctx context.Context, sess Session, p op, want outcome) error {
	if p.advance > 0 {
		return nil
	}
	_, tag, err := sess.Exec(ctx, p.sql)
	switch {
	case want.refusal != "" && err == nil:
		return fmt.Errorf("%s: accepted (%s), want a refusal: %s", p, tag, want.refusal)
	case want.refusal != "" && !strings.Contains(err.Error(), want.refusal):
		return fmt.Errorf("%s: %v, want a refusal: %s", p, err, want.refusal)
	case want.refusal != "":
		return nil
	case want.refused && err == nil:
		return fmt.Errorf("%s: accepted, but two rows would share an entry of a unique index", p)
	case want.refused && !strings.Contains(err.Error(), "must be unique"):
		return fmt.Errorf("%s: %v, want a refusal for a unique index", p, err)
	case want.refused:
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", p, err)
	case p.update != nil && tag != updateTag(want.updated):
		return fmt.Errorf("%s: %q, want %s", p, tag, updateTag(want.updated))
	case p.update == nil && p.writes == nil && tag != fmt.Sprintf("DELETE %d", want.deleted):
		return fmt.Errorf("%s: %q, want DELETE %d", p, tag, want.deleted)
	}
	return nil
}

// checkQuery runs q and compares it with the reference over the model's
// rows: of the data table, or of an index table, whose rows are the
// entries of the visible data rows.
func checkQuery(ctx context.Context, sess Session, w *world, q string) error {
	_, err := checkQueryKnown(ctx, sess, w, q)
	return err
}

// checkQueryKnown is checkQuery that also names the known divergence
// that excused a difference.
func checkQueryKnown(ctx context.Context, sess Session, w *world, q string) (string, error) {
	s, err := parseSelect(q)
	if err != nil {
		return "", err
	}
	rows := w.m.Rows(w.now())
	tb := w.t
	if s.Table.Name != w.t.Name {
		var ix *catalog.Index
		for _, x := range w.t.Indexes {
			if x.Name == s.Table.Name {
				ix = x
			}
		}
		if ix == nil {
			return "", fmt.Errorf("no index %s of %s", s.Table.Name, w.t.Name)
		}
		tb = ix.Table
		var entries []catalog.Row
		for _, r := range rows {
			if e, ok := entryRow(w.t, ix, r); ok {
				entries = append(entries, e)
			}
		}
		rows = entries
	}
	want, err := ref.Evaluate(tb, s, rows)
	if err != nil {
		return "", err
	}
	got, _, err := sess.Exec(ctx, q)
	if err != nil {
		return "", fmt.Errorf("run: %w", err)
	}
	if err := ref.Compare(got, want); err != nil {
		if d := knownFor(tb, s); d != nil {
			return d.Name, nil
		}
		if d := knownWrite(w.t, s.Where, w.m.Markers); d != nil && tb == w.t && s.Hint == nil {
			// Only the path through the index is excused: the same
			// query without one must agree.
			noIx := strings.Replace(q, " FROM "+tb.Name, " FROM "+tb.Name+" NO INDEX", 1)
			if _, err := checkQueryKnown(ctx, sess, w, noIx); err != nil {
				return "", fmt.Errorf("with NO INDEX: %w", err)
			}
			return d.Name, nil
		}
		if d := knownWrite(w.t, s.Where, w.m.Markers); d != nil && s.Hint != nil && !s.Hint.NoIndex {
			return d.Name, nil
		}
		return "", fmt.Errorf("%w\n  got:  %s\n  want: %s", err, rowsText(got), groupsText(want))
	}
	return "", nil
}

func rowsText(rows []catalog.Row) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, ref.RowText(r))
	}
	return strings.Join(parts, " ")
}

func groupsText(res *ref.Result) string {
	var parts []string
	for _, g := range res.Groups {
		parts = append(parts, rowsText(g))
	}
	return strings.Join(parts, " | ")
}
