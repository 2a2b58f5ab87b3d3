package exectest

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// Session runs one statement through the engine and returns its rows, or
// its command tag for a statement without rows.
type Session interface {
	Exec(ctx context.Context, q string) (rows []catalog.Row, tag string, err error)
}

// Clock is a clock a test controls, for the engine and the store alike.
type Clock struct{ ms atomic.Int64 }

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock {
	c := &Clock{}
	c.ms.Store(t.UnixMilli())
	return c
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return time.UnixMilli(c.ms.Load()).UTC() }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// WriteOptions size and shape the write model run. Zero values mean the
// defaults.
type WriteOptions struct {
	Ops  int    // operations per table (300)
	Seed uint64 // random seed (1, or $RKQL_DIFF_SEED)
	// Tables are the tables of the catalog to write; each must be
	// indexed, so that writes without TIMESTAMP take the engine's write
	// clock.
	Tables []string
	// Markers says the store keeps delete markers (HBase): see Model.
	Markers bool
	// Clock is the clock of the engine and the store. With it, the clock
	// advances between operations (so that cells expire), and writes
	// without TIMESTAMP are generated: their timestamp is the engine's
	// write clock, the clock's time or one more than the last such
	// write's. Without it, the wall clock is used, the TTL is not checked
	// (no table with a TTL may be listed), and every write carries a
	// TIMESTAMP.
	Clock *Clock
	// WriteClock, without Clock, is the engine's clock (Config.Clock):
	// RunWrites sets it to the wall time before each operation, so that
	// the model knows the timestamp an UPDATE (which names none) writes
	// at. Without Clock or WriteClock no UPDATE is generated.
	WriteClock *Clock
	// Open returns a session over an empty store whose engine and store
	// read Clock; RunWrites calls it once per table. Reopen, when set,
	// does the same for replays that shrink a failing sequence.
	Open   func(t *testing.T) Session
	Reopen func(t *testing.T) Session
}

// WriteStats count what a run did.
type WriteStats struct {
	Ops, Writes, Refused, Deletes, Advances, Queries int
	// Updates counts the UPDATEs run, UpdatesRefused those the engine
	// had to refuse (a key field or _ts set, a column set twice, a
	// computed value, a shared unique index entry).
	Updates, UpdatesRefused int
	// UpdatedRows counts the rows the UPDATEs wrote.
	UpdatedRows int
	// Hidden counts the puts a delete marker hid (with Markers).
	Hidden int
	// Known counts, by name, the operations left out and the differing
	// queries excused because a known divergence covers them.
	Known map[string]int
}

// add adds o's counts to s.
func (s *WriteStats) add(o WriteStats) {
	addCounts(s, &o)
	for k, n := range o.Known {
		s.Known[k] += n
	}
}

// RunWrites runs random operation sequences over each table in o.Tables
// and checks, after every operation, queries through every index and
// without one against the model's rows evaluated by the reference.
func RunWrites(t *testing.T, cat *catalog.Catalog, o WriteOptions) WriteStats {
	o.Ops = cmp.Or(o.Ops, 300)
	o.Seed = diffSeed(o.Seed)
	total := WriteStats{Known: map[string]int{}}
	for _, name := range o.Tables {
		tb, ok := cat.Table(name)
		if !ok {
			t.Fatalf("no table %s", name)
		}
		if len(tb.Indexes) == 0 {
			t.Fatalf("table %s has no index: its writes without TIMESTAMP would take the store's clock", name)
		}
		t.Run(name, func(t *testing.T) {
			st := runWriteTable(t, cat, tb, o)
			t.Logf("%s: %d operations (%d writes, %d refused, %d deletes, %d updates of %d rows, %d updates refused, %d clock advances), %d puts hidden by a delete marker, %d queries checked",
				name, st.Ops, st.Writes, st.Refused, st.Deletes, st.Updates, st.UpdatedRows, st.UpdatesRefused, st.Advances, st.Hidden, st.Queries)
			for k, n := range st.Known {
				t.Logf("%s: %d operations left out or queries excused as the known divergence %q", name, n, k)
			}
			total.add(st)
		})
	}
	return total
}

// op is one generated operation: a statement, or a clock advance.
type op struct {
	sql     string
	advance time.Duration
	// writes are an INSERT's rows, with TS 0 for none.
	writes []Write
	// where is a DELETE's condition.
	where string
	// update is an UPDATE.
	update *updateOp
}

func (p op) String() string {
	if p.advance > 0 {
		return "-- the clock advances " + p.advance.String()
	}
	return p.sql + ";"
}

// world is what the model knows: the table's cells, the clock, and the
// engine's write clock (the last timestamp it handed out).
type world struct {
	t         *catalog.Table
	m         *Model
	clock     *Clock
	lastWrite int64
	// sync, without clock, is the engine's clock, set to the wall time
	// before each operation.
	sync *Clock
}

// now returns the current time in ms.
func (w *world) now() int64 {
	if w.clock != nil {
		return w.clock.ms.Load()
	}
	if w.sync != nil {
		return w.sync.ms.Load()
	}
	return time.Now().UnixMilli()
}

// outcome is what the model expects of an operation.
type outcome struct {
	refused bool
	deleted int
	// updated is an UPDATE's row count; refusal the part of the error
	// the engine must refuse an UPDATE with.
	updated int
	refusal string
	// known names the known write divergence the operation is an
	// instance of, when one is.
	known string
}

// apply runs op on the model and returns what the engine must answer.
func (w *world) apply(p op) (outcome, error) {
	if w.sync != nil {
		w.sync.ms.Store(time.Now().UnixMilli())
	}
	switch {
	case p.advance > 0:
		w.clock.Advance(p.advance)
		return outcome{}, nil
	case p.writes != nil:
		return w.applyInsert(p.writes)
	case p.update != nil:
		return w.applyUpdate(p.update)
	}
	return w.applyDelete(p.where)
}

func (w *world) applyInsert(writes []Write) (outcome, error) {
	ts := writes[0].TS
	if ts == 0 {
		// The engine's write clock: the clock's time, never at or
		// below the last write's.
		ts = max(w.now(), w.lastWrite+1)
		w.lastWrite = ts
	}
	next := w.m.Clone()
	for _, wr := range mergeWrites(w.t, writes) {
		wr.TS = ts
		if err := next.Insert(wr); err != nil {
			return outcome{}, err
		}
	}
	if dup := duplicateEntry(w.t, next.Rows(w.now())); dup != "" {
		return outcome{refused: true}, nil
	}
	w.m = next
	return outcome{}, nil
}

// mergeWrites merges rows of one INSERT that share a key, as one write
// where a later row's columns win: rkql writes one mutation per key.
func mergeWrites(t *catalog.Table, writes []Write) []Write {
	var out []Write
	at := map[string]int{}
	for _, wr := range writes {
		k, err := t.EncodeKey(wr.Row, nil)
		if err != nil {
			out = append(out, wr)
			continue
		}
		i, dup := at[string(k)]
		if !dup {
			at[string(k)] = len(out)
			out = append(out, Write{Row: slices.Clone(wr.Row), Cols: wr.Cols, TS: wr.TS})
			continue
		}
		for _, c := range wr.Cols {
			out[i].Row[c] = wr.Row[c]
		}
	}
	return out
}

// duplicateEntry names an index entry two visible rows would share in an
// index whose key leaves out some of the table's key fields (rkql refuses
// such a write), or returns "".
func duplicateEntry(t *catalog.Table, rows []catalog.Row) string {
	for _, ix := range t.Indexes {
		if indexHoldsKey(t, ix) {
			continue
		}
		seen := map[string]bool{}
		for _, r := range rows {
			e, ok := entryRow(t, ix, r)
			if !ok {
				continue
			}
			k, err := ix.Table.EncodeKey(e, nil)
			if err != nil {
				continue
			}
			if seen[string(k)] {
				return ix.Name + " " + catalog.ToStringBinary(k)
			}
			seen[string(k)] = true
		}
	}
	return ""
}

// indexHoldsKey reports whether ix's key holds every key field of t.
func indexHoldsKey(t *catalog.Table, ix *catalog.Index) bool {
	for _, k := range t.KeyColumns() {
		found := false
		for _, c := range ix.Table.KeyColumns() {
			found = found || ix.Table.Columns[c].Name == t.Columns[k].Name
		}
		if !found {
			return false
		}
	}
	return true
}

// entryRow is the index entry a data row r (with _ts) must have in ix:
// ix's columns, then a NULL _ts; ok is false when a key field of ix is
// NULL, as such a row has none.
func entryRow(t *catalog.Table, ix *catalog.Index, r catalog.Row) (catalog.Row, bool) {
	out := make(catalog.Row, len(ix.Table.Columns)+1)
	for i, c := range ix.Table.Columns {
		d, _ := t.Column(c.Name)
		out[i] = r[d]
		if c.KeyField && r[d].Null {
			return nil, false
		}
	}
	out[len(ix.Table.Columns)] = catalog.Null(catalog.TypeTimestamp)
	return out, true
}

func (w *world) applyDelete(where string) (outcome, error) {
	s, err := parseSelect("SELECT * FROM " + w.t.Name + " WHERE " + where)
	if err != nil {
		return outcome{}, err
	}
	if d := knownWrite(w.t, s.Where, w.m.Markers); d != nil {
		return outcome{known: d.Name}, nil
	}
	now := w.now()
	rows := w.m.Rows(now)
	res, err := ref.Evaluate(w.t, s, rows)
	if err != nil {
		return outcome{}, err
	}
	next := w.m.Clone()
	out := outcome{}
	if res.Len() > 0 {
		// A DELETE that finds rows takes a tick of the engine's write
		// clock for its row deletes.
		now = max(now, w.lastWrite+1)
		w.lastWrite = now
	}
	for _, g := range res.Groups {
		for _, r := range g {
			key, err := w.m.Key(r)
			if err != nil {
				return outcome{}, err
			}
			ts := int64(-1) // the embedded store removes every version
			if w.m.Markers {
				// HBase: rkql deletes a row at the store's clock or at
				// the row's newest cell, whichever is later, so that a
				// cell with a future timestamp goes too.
				ts = max(now, w.m.Newest(key))
			}
			next.DeleteRow(key, ts)
			out.deleted++
		}
	}
	w.m = next
	return out, nil
}

// renderInsert writes the SQL of an INSERT of writes, which share their
// columns and timestamp.
func renderInsert(t *catalog.Table, writes []Write) string {
	cols := writes[0].Cols
	var names []string
	for _, c := range cols {
		names = append(names, t.Columns[c].Name)
	}
	var tuples []string
	for _, wr := range writes {
		var vals []string
		for _, c := range cols {
			if wr.Row[c].Null {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, Literal(wr.Row[c]))
			}
		}
		tuples = append(tuples, "("+strings.Join(vals, ", ")+")")
	}
	q := "INSERT INTO " + t.Name + " (" + strings.Join(names, ", ") + ") VALUES " + strings.Join(tuples, ", ")
	if ts := writes[0].TS; ts != 0 {
		q += " TIMESTAMP " + strconv.FormatInt(ts, 10)
	}
	return q
}

// random draws from r.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
