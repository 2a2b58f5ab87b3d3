package exectest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The sqlite oracle after writes: random INSERTs (which merge into an
// existing row, a NULL deleting the column), UPDATEs, DELETEs, and
// CREATE INDEX, BUILD INDEX and DROP INDEX of extra indexes run through
// the engine and, translated, in sqlite, whose table has the rkql key
// as its primary key and a unique index for each rkql index that must be
// unique. After each, the whole table, read without an index and through
// each index that is built, and a random query, must agree.

// SQLiteWriteOptions shape one table's write run. Zero values mean the
// defaults.
type SQLiteWriteOptions struct {
	Ops  int    // operations (200)
	Seed uint64 // random seed (1, or $RKQL_DIFF_SEED)
	// Indexes are CREATE INDEX statements of the table that the run
	// creates, builds and drops, over and over.
	Indexes []string
}

// extraIndex is one of SQLiteWriteOptions.Indexes and its state.
type extraIndex struct {
	name, create string
	lead         string // the name of its first key field
	created      bool
	built        bool
}

// SQLiteWrites runs random writes over tb through sess and in sqlite, and
// compares after each one.
func SQLiteWrites(ctx context.Context, sess Session, db *SQLite, tb *catalog.Table, o SQLiteWriteOptions) (SQLiteStats, error) {
	o.Ops = cmp.Or(o.Ops, 200)
	o.Seed = diffSeed(o.Seed)
	s := SQLiteStats{Tables: 1, Skipped: map[string]int{}}
	r := rand.New(rand.NewPCG(o.Seed, 31))
	g := newWriteGen(tb, r, false, 0)
	addHostile(g, r)
	ws := &writeRun{sess: sess, db: db, t: tb, g: g, s: &s, r: r}
	for _, q := range o.Indexes {
		stmt, err := parser.ParseOne(q)
		ci, ok := stmt.(*parser.CreateIndexStmt)
		if err != nil || !ok {
			return s, fmt.Errorf("%q is no CREATE INDEX", q)
		}
		ws.extra = append(ws.extra, &extraIndex{name: ci.Index.Name, create: q, lead: firstField(ci)})
	}
	if err := db.Exec(writeTableSQL(tb)); err != nil {
		return s, err
	}
	// UPPER and LOWER meet the letters of the pools' values.
	values := slices.Clone(g.keys)
	for _, i := range slices.Sorted(maps.Keys(g.vals)) {
		values = append(values, g.vals[i])
	}
	ws.c = &sqliteChecker{db: db, t: tb, tr: newSQLTr(tb, values), s: &s, sess: sess}
	for i := 0; i < o.Ops; i++ {
		q, err := ws.step(ctx)
		if err != nil {
			return s, fmt.Errorf("operation %d: %s: %w", i, q, err)
		}
		s.Ops++
		ws.check(ctx, q)
		if len(s.Differ) > 0 {
			break
		}
	}
	return s, nil
}

// writeRun is one table's write run.
type writeRun struct {
	sess  Session
	db    *SQLite
	t     *catalog.Table
	g     *writeGen
	r     *rand.Rand
	s     *SQLiteStats
	c     *sqliteChecker
	extra []*extraIndex
	ops   []string // the statements run so far, for a reproduction
}

// firstField names the first field of a CREATE INDEX's key.
func firstField(ci *parser.CreateIndexStmt) string {
	for _, k := range ci.Rowkey {
		if k.Kind == parser.KeyField {
			return k.Name.Name
		}
	}
	return ""
}

// addHostile adds adversarial values that every index of the table can
// hold to the write pools.
func addHostile(g *writeGen, r *rand.Rand) {
	layout := layoutBytes(g.t)
	for _, col := range slices.Sorted(maps.Keys(g.vals)) {
		for range 8 {
			v := hostile(r, &g.t.Columns[col], layout)
			row := slices.Clone(g.keys[0])
			row[col] = v
			if _, ok := rowKeys(g.t, row); ok && !(v.Type == catalog.TypeString && strings.Contains(v.S, "|")) {
				g.vals[col] = append(g.vals[col], v)
			}
		}
	}
}

// writeTableSQL creates tb's sqlite table for writes: no _ts, the key as
// primary key, and a unique index for each index that must be unique.
func writeTableSQL(tb *catalog.Table) string {
	var cols, key []string
	for _, c := range tb.Columns {
		cols = append(cols, quoteIdent(c.Name)+" "+sqliteType(c.Type))
	}
	for _, k := range tb.KeyColumns() {
		key = append(key, quoteIdent(tb.Columns[k].Name))
	}
	q := fmt.Sprintf("DROP TABLE IF EXISTS %s;\nCREATE TABLE %s (%s, PRIMARY KEY (%s));", quoteIdent(tb.Name), quoteIdent(tb.Name), strings.Join(cols, ", "), strings.Join(key, ", "))
	for _, ix := range tb.Indexes {
		if indexHoldsKey(tb, ix) {
			continue
		}
		var ik []string
		for _, k := range ix.Table.KeyColumns() {
			ik = append(ik, quoteIdent(ix.Table.Columns[k].Name))
		}
		q += fmt.Sprintf("\nCREATE UNIQUE INDEX %s ON %s (%s);", quoteIdent(ix.Name), quoteIdent(tb.Name), strings.Join(ik, ", "))
	}
	return q
}

// step draws one operation and runs it in both; q is its rkql text.
func (ws *writeRun) step(ctx context.Context) (q string, err error) {
	g := ws.g
	switch n := ws.r.IntN(100); {
	case n < 10 && len(ws.extra) > 0:
		return ws.ddl(ctx)
	case n < 25:
		where := g.deleteWhere()
		q = "DELETE FROM " + g.t.Name + " WHERE " + where
		return q, ws.both(ctx, q, "DELETE", where, "")
	case n < 45:
		p := g.update()
		if p.update.refusal != "" {
			ws.ops = append(ws.ops, p.sql)
			_, _, err := ws.sess.Exec(ctx, p.sql)
			if err == nil || !strings.Contains(err.Error(), p.update.refusal) {
				return p.sql, fmt.Errorf("rkql: %v, want a refusal: %s", err, p.update.refusal)
			}
			ws.s.Compared++
			ws.s.Agreed++
			return p.sql, nil
		}
		var sets []string
		for i, c := range p.update.cols {
			v, err := sqlLiteral(p.update.vals[i])
			if err != nil {
				return p.sql, err
			}
			sets = append(sets, quoteIdent(g.t.Columns[c].Name)+" = "+v)
		}
		return p.sql, ws.both(ctx, p.sql, "UPDATE", p.update.where, strings.Join(sets, ", "))
	}
	return ws.insert(ctx)
}

// ddl creates, builds or drops one of the extra indexes, in rkql only:
// an index changes no rows.
func (ws *writeRun) ddl(ctx context.Context) (string, error) {
	ix := pick(ws.r, ws.extra)
	var q string
	switch {
	case !ix.created:
		q, ix.created = ix.create, true
	case !ix.built && ws.r.IntN(3) > 0:
		q, ix.built = "BUILD INDEX "+ix.name+" ON "+ws.t.Name, true
	default:
		q, ix.created, ix.built = "DROP INDEX "+ix.name, false, false
	}
	ws.ops = append(ws.ops, q)
	if _, _, err := ws.sess.Exec(ctx, q); err != nil {
		return q, fmt.Errorf("rkql: %w", err)
	}
	return q, nil
}

// insert writes one or two rows: key fields and some stored columns,
// values from the pools or NULL.
func (ws *writeRun) insert(ctx context.Context) (string, error) {
	g := ws.g
	var stored []int
	for i, c := range g.t.Columns {
		if !c.KeyField && ws.r.IntN(5) < 3 {
			stored = append(stored, i)
		}
	}
	cols := append(slices.Clone(g.t.KeyColumns()), stored...)
	var writes []Write
	for range 1 + ws.r.IntN(2) {
		if ws.r.IntN(10) == 0 {
			g.keys[ws.r.IntN(len(g.keys))] = g.newKey()
		}
		row := slices.Clone(pick(ws.r, g.keys))
		for _, c := range stored {
			if ws.r.IntN(5) > 0 {
				row[c] = pick(ws.r, g.vals[c])
			}
		}
		writes = append(writes, Write{Row: row, Cols: cols})
	}
	q := renderInsert(g.t, writes)
	var names, sets, tuples []string
	for _, c := range cols {
		names = append(names, quoteIdent(g.t.Columns[c].Name))
		if !g.t.Columns[c].KeyField {
			sets = append(sets, quoteIdent(g.t.Columns[c].Name)+" = excluded."+quoteIdent(g.t.Columns[c].Name))
		}
	}
	for _, w := range writes {
		var vals []string
		for _, c := range cols {
			v, err := sqlLiteral(w.Row[c])
			if err != nil {
				return q, err
			}
			vals = append(vals, v)
		}
		tuples = append(tuples, "("+strings.Join(vals, ", ")+")")
	}
	var keys []string
	for _, k := range g.t.KeyColumns() {
		keys = append(keys, quoteIdent(g.t.Columns[k].Name))
	}
	// rkql's INSERT merges into the row: the columns it names change, a
	// NULL deletes one, the others stay.
	conflict := "DO NOTHING"
	if len(sets) > 0 {
		conflict = "DO UPDATE SET " + strings.Join(sets, ", ")
	}
	sql := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (%s) %s", quoteIdent(g.t.Name), strings.Join(names, ", "),
		strings.Join(tuples, ", "), strings.Join(keys, ", "), conflict)
	return q, ws.apply(ctx, q, sql, "")
}

// both runs a DELETE or an UPDATE (sets in sqlite's words) in both.
func (ws *writeRun) both(ctx context.Context, q, verb, where, sets string) error {
	s, err := parseSelect("SELECT * FROM " + ws.t.Name + " WHERE " + where)
	if err != nil {
		return err
	}
	w, err := ws.c.tr.cond(s.Where)
	if err != nil {
		return err
	}
	sql := "DELETE FROM " + quoteIdent(ws.t.Name) + " WHERE " + w
	if verb == "UPDATE" {
		sql = "UPDATE " + quoteIdent(ws.t.Name) + " SET " + sets + " WHERE " + w
	}
	return ws.apply(ctx, q, sql, verb)
}

// apply runs q in rkql and sql in sqlite: both must succeed, with the
// same row count for a DELETE or an UPDATE (verb), or both refuse.
func (ws *writeRun) apply(ctx context.Context, q, sql, verb string) error {
	ws.ops = append(ws.ops, q)
	_, tag, rerr := ws.sess.Exec(ctx, q)
	rows, serr := ws.db.Query(sql + ";\nSELECT changes()")
	var se *SQLError
	switch {
	case serr != nil && !errors.As(serr, &se):
		return serr
	case serr != nil && rerr != nil && strings.Contains(se.Msg, "UNIQUE constraint failed") && strings.Contains(rerr.Error(), "must be unique"):
		ws.s.Compared++
		ws.s.Agreed++
		ws.s.BothRefused++
		return nil
	case serr != nil || rerr != nil:
		ws.s.Compared++
		ws.s.Differ = append(ws.s.Differ, fmt.Sprintf("%s\n  rkql: %v\n  sqlite: %v (%s)\n  after:\n%s", q, rerr, serr, sql, ws.script()))
		return nil
	}
	ws.s.Compared++
	if want := fmt.Sprintf("%s %d", verb, rows[0][0].I); verb != "" && tag != want {
		ws.s.Differ = append(ws.s.Differ, fmt.Sprintf("%s\n  rkql says %q, sqlite %q\n  after:\n%s", q, tag, want, ws.script()))
		return nil
	}
	ws.s.Agreed++
	return nil
}

// script is the statements run so far, one a line.
func (ws *writeRun) script() string {
	return "    " + strings.Join(ws.ops, ";\n    ") + ";"
}

// check compares the whole table, without an index and through each
// built one, and a random query, after the operation q.
func (ws *writeRun) check(ctx context.Context, q string) {
	t := ws.t
	qs := []string{"SELECT * FROM " + t.Name + " NO INDEX ALLOW FULL SCAN"}
	leads := map[string]string{}
	for _, ix := range t.Indexes {
		leads[ix.Name] = ix.Table.Columns[ix.Table.KeyColumns()[0]].Name
	}
	for _, ix := range ws.extra {
		if ix.built {
			leads[ix.name] = ix.lead
		}
		if col, ok := t.Column(ix.lead); ok && ix.created && len(ws.g.vals[col]) > 0 {
			// A lookup the planner may serve from the index, built or
			// not: an index not yet built must not answer it.
			qs = append(qs, "SELECT * FROM "+t.Name+" WHERE "+quoted(ix.lead)+" = "+Literal(pick(ws.r, ws.g.vals[col]))+" ALLOW FULL SCAN")
		}
	}
	for name, lead := range leads {
		c := t.Columns[must(t.Column(lead))]
		qs = append(qs, "SELECT * FROM "+t.Name+" USE INDEX ("+name+") WHERE "+quoted(lead)+" >= "+lowest(c.Type)+" ALLOW FULL SCAN")
	}
	slices.Sort(qs[1:])
	// A random query, its values drawn from the pools.
	var pool []catalog.Row
	for _, k := range ws.g.keys {
		r := append(slices.Clone(k), catalog.TimestampMillis(0))
		for _, i := range slices.Sorted(maps.Keys(ws.g.vals)) {
			r[i] = pick(ws.r, ws.g.vals[i])
		}
		pool = append(pool, r)
	}
	qg := &queryGen{t: t, r: ws.r, rows: pool}
	qs = append(qs, qg.query())
	for _, sq := range qs {
		if s, err := parseSelect(sq); err == nil && usesTs(s) {
			ws.s.skip("ts-after-write", sq)
			continue
		}
		n := len(ws.s.Differ)
		ws.c.check(ctx, sq)
		for i := n; i < len(ws.s.Differ); i++ {
			ws.s.Differ[i] += "\n  after:\n" + ws.script()
		}
	}
}

func must(i int, ok bool) int {
	if !ok {
		panic("exectest: no such column")
	}
	return i
}

func quoted(name string) string { return parser.QuoteIdent(name) }
