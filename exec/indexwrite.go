package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// writeBatch writes data rows and keeps t's indexes in step, in the three
// phases described on StatusQualifier. dels are existing data rows to
// delete, by their stored keys; muts are data rows to put, with their
// logical rows, written at timestamp ts (0: the time of the write).
func (x *Executor) writeBatch(ctx context.Context, t *catalog.Table, muts []Mutation, rows []catalog.Row, cols []int, ts int64, dels []*Row) error {
	if len(t.Indexes) == 0 {
		ds, err := x.deletes(t, dels)
		if err != nil {
			return err
		}
		return x.Store.Mutate(ctx, t.Physical, append(muts, ds...))
	}
	// The rows being replaced: their entries may move.
	old := map[string]catalog.Row{}
	// What each old row stored: its cells (newest version of each
	// column) and the delete markers its store keeps.
	stored := map[string]*StoreRow{}
	if len(muts) > 0 {
		keys := make([][]byte, len(muts))
		for i, m := range muts {
			keys[i] = m.Key
		}
		srs, err := x.Store.Get(ctx, t.Physical, keys, ReadOptions{Markers: true})
		if err != nil {
			return err
		}
		dec := newDecoder(t, nil)
		for _, sr := range srs {
			stored[string(sr.Key)] = sr
			if len(sr.Cells) == 0 {
				continue // markers alone
			}
			r, err := dec.decode(sr)
			if err != nil {
				return err
			}
			old[string(sr.Key)] = r.Vals[:len(t.Columns)]
		}
		rows = standingRows(t, muts, rows, cols, ts, old, stored)
	}
	for _, d := range dels {
		old[string(d.Key)] = d.Vals[:len(t.Columns)]
	}
	for _, ix := range t.Indexes {
		if err := x.checkUnique(ctx, t, ix, muts, rows); err != nil {
			return err
		}
	}
	type phase struct{ first, last []Mutation }
	phases := make([]phase, len(t.Indexes))
	for i, ix := range t.Indexes {
		p := &phases[i]
		newKeys := map[string]bool{}
		for _, r := range rows {
			if r == nil {
				continue // the row will not exist
			}
			m, ok, err := indexEntry(ix, t, r, false)
			if err != nil {
				return fmt.Errorf("index %s: %w", ix.Name, err)
			}
			if !ok {
				continue
			}
			newKeys[string(m.Key)] = true
			p.first = append(p.first, m)
			p.last = append(p.last, Mutation{Key: m.Key, Cells: []Cell{statusCell(ix, true)}})
		}
		for _, r := range old {
			m, ok, err := indexEntry(ix, t, r, false)
			if err != nil || !ok || newKeys[string(m.Key)] {
				continue
			}
			p.first = append(p.first, Mutation{Key: m.Key, Cells: []Cell{statusCell(ix, false)}})
			p.last = append(p.last, Mutation{Key: m.Key, DeleteRow: true})
		}
	}
	first := make([][]Mutation, len(phases))
	last := make([][]Mutation, len(phases))
	for i := range phases {
		first[i], last[i] = phases[i].first, phases[i].last
	}
	if err := x.mutateIndexes(ctx, t, first); err != nil {
		return err
	}
	ds, err := x.deletes(t, dels)
	if err != nil {
		return err
	}
	if err := x.Store.Mutate(ctx, t.Physical, append(muts, ds...)); err != nil {
		return err
	}
	return x.mutateIndexes(ctx, t, last)
}

// mutateIndexes writes muts[i] to index i of t: the index tables at once
// on a store that takes concurrent writes (ConcurrentWriter), else one
// after the other. Each phase of writeBatch is one call, so its order
// (pending entries, then the row, then the verified entries) holds.
func (x *Executor) mutateIndexes(ctx context.Context, t *catalog.Table, muts [][]Mutation) error {
	busy := 0
	for _, m := range muts {
		if len(m) > 0 {
			busy++
		}
	}
	if cw, ok := x.Store.(ConcurrentWriter); !ok || !cw.ConcurrentWrites() || busy < 2 {
		for i, ix := range t.Indexes {
			if err := x.mutate(ctx, ix.Physical, muts[i]); err != nil {
				return fmt.Errorf("index %s: %w", ix.Name, err)
			}
		}
		return nil
	}
	errs := make([]error, len(t.Indexes))
	var wg sync.WaitGroup
	for i, ix := range t.Indexes {
		if len(muts[i]) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := x.mutate(ctx, ix.Physical, muts[i]); err != nil {
				errs[i] = fmt.Errorf("index %s: %w", ix.Name, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// standingRows returns the rows as they will stand after muts, or nil
// for a row that will not exist. A column keeps its old value when cols
// leaves it out, when it has a version newer than ts (which a write at
// ts, or a NULL's delete up to ts, leaves in place), and when a delete
// marker hides the put (HBase keeps a delete's marker, and it hides
// every later put at or before its timestamp). A row whose puts are all
// hidden exists only if some old cell outlives the write's deletes. old
// holds the existing rows' values and stored their cells and markers, by
// key; ts is the write's timestamp.
func standingRows(t *catalog.Table, muts []Mutation, rows []catalog.Row, cols []int, ts int64, old map[string]catalog.Row, stored map[string]*StoreRow) []catalog.Row {
	merged := make([]catalog.Row, len(rows))
	for i, r := range rows {
		m := &muts[i]
		sr := stored[string(m.Key)]
		o, ok := old[string(m.Key)]
		if ok {
			merged[i] = slices.Clone(mergeRow(o, r, cols))
		} else {
			merged[i], o = slices.Clone(r), t.NewRow()
		}
		if sr == nil || ts == 0 {
			continue
		}
		shown := false
		for _, c := range m.Cells {
			if hidden(sr.Markers, c, ts) {
				if col, isCol := columnOf(t, c); isCol {
					merged[i][col] = o[col]
				}
				continue
			}
			shown = true
		}
		if !shown && !outlives(sr.Cells, m.Deletes, ts) {
			merged[i] = nil
			continue
		}
		for _, c := range sr.Cells {
			if col, isCol := columnOf(t, c); isCol && c.Timestamp > ts {
				merged[i][col] = o[col]
			}
		}
	}
	return merged
}

// hidden reports whether one of markers hides the put of cell c, written
// at ts when c has no timestamp of its own.
func hidden(markers []Marker, c Cell, ts int64) bool {
	at := c.Timestamp
	if at == 0 {
		at = ts
	}
	for _, mk := range markers {
		if mk.Hides(c.Family, c.Qualifier, at) {
			return true
		}
	}
	return false
}

// outlives reports whether some of cells outlives deletes, each of which
// removes its column's versions at or before its timestamp (0: ts).
func outlives(cells, deletes []Cell, ts int64) bool {
	for _, c := range cells {
		gone := false
		for _, d := range deletes {
			upTo := d.Timestamp
			if upTo == 0 {
				upTo = ts
			}
			gone = gone || (d.Family == c.Family && d.Qualifier == c.Qualifier && c.Timestamp <= upTo)
		}
		if !gone {
			return true
		}
	}
	return false
}

// columnOf returns the column of t that cell c holds.
func columnOf(t *catalog.Table, c Cell) (int, bool) {
	for i, col := range t.Columns {
		if col.Family == c.Family && col.Qualifier == c.Qualifier && col.Family != "" {
			return i, true
		}
	}
	return 0, false
}

// holdsKey reports whether ix's key holds every key field of t, so that
// no two rows can share an entry. Any other index is unique on its key.
func holdsKey(ix *catalog.Index, t *catalog.Table) bool {
	in := map[string]bool{}
	for _, c := range ix.Table.KeyColumns() {
		in[ix.Table.Columns[c].Name] = true
	}
	for _, c := range t.KeyColumns() {
		if !in[t.Columns[c].Name] {
			return false
		}
	}
	return true
}

// checkUnique refuses a write that would give two rows the same entry in
// an index whose key leaves out some of the table's key fields: the second
// entry would silently replace the first.
func (x *Executor) checkUnique(ctx context.Context, t *catalog.Table, ix *catalog.Index, muts []Mutation, rows []catalog.Row) error {
	if holdsKey(ix, t) || len(rows) == 0 {
		return nil
	}
	owner := map[string][]byte{} // entry key -> data key
	var keys [][]byte
	for i, r := range rows {
		if r == nil {
			continue
		}
		ir, ok := indexRow(ix, t, r)
		if !ok {
			continue
		}
		k, err := ix.Table.EncodeKey(ir, nil)
		if err != nil {
			return fmt.Errorf("index %s: %w", ix.Name, err)
		}
		if prev, dup := owner[string(k)]; dup && !bytes.Equal(prev, muts[i].Key) {
			return uniqueErr(ix, t, k, muts[i].Key)
		}
		owner[string(k)] = muts[i].Key
		keys = append(keys, k)
	}
	entries, err := x.Store.Get(ctx, ix.Physical, keys, ReadOptions{})
	if err != nil {
		return err
	}
	idec := newDecoder(ix.Table, nil)
	for _, sr := range entries {
		e, err := idec.decode(sr)
		if err != nil {
			continue // a malformed entry points nowhere
		}
		vals := t.NewRow()
		for j, c := range ix.Table.Columns {
			d, _ := t.Column(c.Name)
			vals[d] = e.Vals[j]
		}
		other, err := t.EncodeKey(vals, nil)
		if err != nil || bytes.Equal(other, owner[string(sr.Key)]) {
			continue
		}
		// The entry names another row: a conflict only if that row still
		// gives this entry (it may be dangling).
		srs, err := x.Store.Get(ctx, t.Physical, [][]byte{other}, ReadOptions{})
		if err != nil {
			return err
		}
		if len(srs) == 1 {
			if dr, err := newDecoder(t, nil).decode(srs[0]); err == nil {
				if ir, ok := indexRow(ix, t, dr.Vals[:len(t.Columns)]); ok {
					if k, err := ix.Table.EncodeKey(ir, nil); err == nil && bytes.Equal(k, sr.Key) {
						return uniqueErr(ix, t, sr.Key, owner[string(sr.Key)])
					}
				}
			}
		}
	}
	return nil
}

// UniqueError is a write refused because a row would share an entry of a
// unique index with another row. Row is the stored key of the written row
// that conflicts, so that a caller can say which of its rows it was.
type UniqueError struct {
	Row []byte
	msg string
}

func (e *UniqueError) Error() string { return e.msg }

func uniqueErr(ix *catalog.Index, t *catalog.Table, key, dataKey []byte) error {
	return &UniqueError{Row: dataKey, msg: fmt.Sprintf("index %s: another row of %s already has %s, and the index's key must be unique (it leaves out key fields of %s); the write was refused", ix.Name, t.Name, entryText(ix, key), t.Name)}
}

// entryText shows the key fields of index entry key.
func entryText(ix *catalog.Index, key []byte) string {
	row := ix.Table.NewRow()
	if err := ix.Table.DecodeKey(key, row, nil); err != nil {
		return "'" + catalog.ToStringBinary(key) + "'"
	}
	var parts []string
	for _, c := range ix.Table.KeyColumns() {
		parts = append(parts, ix.Table.Columns[c].Name+" = "+row[c].String())
	}
	return strings.Join(parts, ", ")
}

func (x *Executor) mutate(ctx context.Context, table string, muts []Mutation) error {
	if len(muts) == 0 {
		return nil
	}
	return x.Store.Mutate(ctx, table, muts)
}

// deletes are the row deletes of rows, by their stored keys, each at
// the row's newest cell timestamp or now, whichever is later: a cell
// written with a future timestamp goes too.
func (x *Executor) deletes(t *catalog.Table, rows []*Row) ([]Mutation, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	now := x.writeTime()
	out := make([]Mutation, len(rows))
	for i, r := range rows {
		at := now
		if ts := r.Vals[len(r.Vals)-1]; ts.Type == catalog.TypeTimestamp && !ts.Null {
			at = max(at, ts.I)
		}
		out[i] = Mutation{Key: r.Key, DeleteRow: true, DeleteAt: at}
		if w := t.Wide; w != nil && w.Cells != nil {
			// Each row is one cell of the family: delete that cell.
			q, err := w.Cells.Encode(r.Vals[w.Qual])
			if err != nil {
				return nil, fmt.Errorf("table %s: %w", t.Name, err)
			}
			out[i] = Mutation{Key: r.Key, Deletes: []Cell{{Family: w.Family, Qualifier: string(q), Timestamp: at}}}
		}
	}
	return out, nil
}

// Delete removes the rows the plan finds, in batches, with their index
// entries. It returns how many rows it deleted. Each row goes by the key
// it is stored under, which a key with a random part cannot be computed
// back from.
func (x *Executor) Delete(ctx context.Context, d *planner.Delete, progress func(int)) (int, error) {
	if err := PhoenixWritable(d.Table); err != nil {
		return 0, err
	}
	stats := &Stats{}
	rows, err := x.build(ctx, placed.New(d.Find), d.Find.Root, stats, planner.NoLimit)
	if err != nil {
		return 0, err
	}
	defer rows.close()
	// A row found through an index, or through a union one of whose
	// branches reads an index, may carry the entry's key.
	viaIndex := len(d.Find.IndexLookups()) > 0
	n := 0
	var batch []*Row
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := x.writeBatch(ctx, d.Table, nil, nil, nil, 0, batch); err != nil {
			return &BatchError{Rows: len(batch), Err: err}
		}
		n += len(batch)
		batch = batch[:0]
		if progress != nil {
			progress(n)
		}
		return nil
	}
	for {
		r, err := rows.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		if viaIndex {
			// A row found through an index carries the entry's key; an
			// indexed table's key has no random part, so it is computed.
			key, err := d.Table.EncodeKey(r.Vals[:len(d.Table.Columns)], nil)
			if err != nil {
				return n, fmt.Errorf("DELETE: %w", err)
			}
			r = &Row{Vals: r.Vals, Key: key}
		}
		batch = append(batch, r)
		if len(batch) == deleteBatch {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	return n, flush()
}
