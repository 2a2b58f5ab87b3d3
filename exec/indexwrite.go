package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// writeBatch writes data rows and keeps t's indexes in step, in the three
// phases described on StatusQualifier. dels are existing data rows to
// delete; muts are data rows to put, with their logical rows.
func (x *Executor) writeBatch(ctx context.Context, t *catalog.Table, muts []Mutation, rows []catalog.Row, cols []int, dels []catalog.Row) error {
	if len(t.Indexes) == 0 {
		return x.Store.Mutate(ctx, t.Physical, append(muts, deletes(t, dels)...))
	}
	// The rows being replaced: their entries may move.
	old := map[string]catalog.Row{}
	if len(muts) > 0 {
		keys := make([][]byte, len(muts))
		for i, m := range muts {
			keys[i] = m.Key
		}
		srs, err := x.Store.Get(ctx, t.Physical, keys, ReadOptions{})
		if err != nil {
			return err
		}
		dec := newDecoder(t)
		for _, sr := range srs {
			r, err := dec.decode(sr)
			if err != nil {
				return err
			}
			old[string(sr.Key)] = r.Vals[:len(t.Columns)]
		}
	}
	for _, d := range dels {
		key, err := t.EncodeKey(d, nil)
		if err != nil {
			return err
		}
		old[string(key)] = d
	}
	// The rows as they will stand: unlisted columns keep their values.
	if cols != nil {
		merged := make([]catalog.Row, len(rows))
		for i, r := range rows {
			merged[i] = r
			if o, ok := old[string(muts[i].Key)]; ok {
				merged[i] = mergeRow(o, r, cols)
			}
		}
		rows = merged
	}
	type phase struct{ first, last []Mutation }
	phases := make([]phase, len(t.Indexes))
	for i, ix := range t.Indexes {
		p := &phases[i]
		newKeys := map[string]bool{}
		for _, r := range rows {
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
	for i, ix := range t.Indexes {
		if err := x.mutate(ctx, ix.Physical, phases[i].first); err != nil {
			return fmt.Errorf("index %s: %w", ix.Name, err)
		}
	}
	if err := x.Store.Mutate(ctx, t.Physical, append(muts, deletes(t, dels)...)); err != nil {
		return err
	}
	for i, ix := range t.Indexes {
		if err := x.mutate(ctx, ix.Physical, phases[i].last); err != nil {
			return fmt.Errorf("index %s: %w", ix.Name, err)
		}
	}
	return nil
}

func (x *Executor) mutate(ctx context.Context, table string, muts []Mutation) error {
	if len(muts) == 0 {
		return nil
	}
	return x.Store.Mutate(ctx, table, muts)
}

func deletes(t *catalog.Table, rows []catalog.Row) []Mutation {
	var out []Mutation
	for _, r := range rows {
		if key, err := t.EncodeKey(r, nil); err == nil {
			out = append(out, Mutation{Key: key, DeleteRow: true})
		}
	}
	return out
}

// Delete removes the rows the plan finds, in batches, with their index
// entries. It returns how many rows it deleted.
func (x *Executor) Delete(ctx context.Context, d *planner.Delete, progress func(int)) (int, error) {
	rows, err := x.Query(ctx, d.Find, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	var batch []catalog.Row
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := x.writeBatch(ctx, d.Table, nil, nil, nil, batch); err != nil {
			return err
		}
		n += len(batch)
		batch = batch[:0]
		if progress != nil {
			progress(n)
		}
		return nil
	}
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		batch = append(batch, r)
		if len(batch) == 1000 {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	return n, flush()
}

// IndexReport is what CHECK INDEX found.
type IndexReport struct {
	DataRows   int64
	Entries    int64
	Missing    int64 // data rows without their entry
	Orphans    int64 // entries without a data row that gives their key
	Unverified int64 // entries that match but are not marked verified
	Stale      int64 // entries whose carried or covered copy differs
	Repaired   int64
}

func (r IndexReport) String() string {
	return fmt.Sprintf("%d data rows, %d index entries: %d missing, %d orphan, %d unverified, %d stale; %d repaired",
		r.DataRows, r.Entries, r.Missing, r.Orphans, r.Unverified, r.Stale, r.Repaired)
}

// Clean reports whether the index matched its data exactly.
func (r IndexReport) Clean() bool { return r.Missing+r.Orphans+r.Unverified+r.Stale == 0 }

// scanAll streams every row of a table, decoded.
func (x *Executor) scanAll(ctx context.Context, t *catalog.Table, fn func(*Row) error) error {
	it, err := x.Store.Scan(ctx, t.Physical, Range{}, ReadOptions{})
	if err != nil {
		return err
	}
	defer it.Close()
	dec := newDecoder(t)
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		r, err := dec.decode(sr)
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// CheckIndex compares an index with its data table, and with repair set
// rewrites what differs. The expected entries are held in memory.
func (x *Executor) CheckIndex(ctx context.Context, t *catalog.Table, ix *catalog.Index, repair bool, progress func(int64)) (IndexReport, error) {
	var rep IndexReport
	want := map[string]Mutation{}
	err := x.scanAll(ctx, t, func(r *Row) error {
		rep.DataRows++
		m, ok, err := indexEntry(ix, t, r.Vals[:len(t.Columns)], true)
		if err != nil {
			return err
		}
		if ok {
			want[string(m.Key)] = m
		}
		if progress != nil && rep.DataRows%10000 == 0 {
			progress(rep.DataRows)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	var fix []Mutation
	err = x.scanAll(ctx, ix.Table, func(r *Row) error {
		rep.Entries++
		m, ok := want[string(r.Key)]
		if !ok {
			rep.Orphans++
			fix = append(fix, Mutation{Key: r.Key, DeleteRow: true})
			return nil
		}
		delete(want, string(r.Key))
		exp := ix.Table.NewRow()
		if err := decodeCells(ix.Table, m, exp); err != nil {
			return err
		}
		for i := range ix.Table.Columns {
			if !catalog.Equal(exp[i], r.Vals[i]) && !(exp[i].Null && r.Vals[i].Null) {
				rep.Stale++
				fix = append(fix, Mutation{Key: m.Key, DeleteRow: true, Cells: m.Cells})
				return nil
			}
		}
		if !r.Verified {
			rep.Unverified++
			fix = append(fix, Mutation{Key: m.Key, Cells: []Cell{statusCell(ix, true)}})
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	for _, m := range want {
		rep.Missing++
		fix = append(fix, m)
	}
	if repair && len(fix) > 0 {
		for i := 0; i < len(fix); i += 5000 {
			if err := x.Store.Mutate(ctx, ix.Physical, fix[i:min(i+5000, len(fix))]); err != nil {
				return rep, err
			}
		}
		rep.Repaired = int64(len(fix))
	}
	return rep, nil
}

// decodeCells fills row with the values a mutation's cells and key hold.
func decodeCells(t *catalog.Table, m Mutation, row catalog.Row) error {
	if err := t.DecodeKey(m.Key, row, nil); err != nil {
		return err
	}
	for _, c := range m.Cells {
		for i, col := range t.Columns {
			if col.Family == c.Family && col.Qualifier == c.Qualifier {
				v, err := col.DecodeCell(c.Value)
				if err != nil {
					return err
				}
				row[i] = v
			}
		}
	}
	return nil
}

// BuildIndex writes every data row's entry, verified, in batches.
func (x *Executor) BuildIndex(ctx context.Context, t *catalog.Table, ix *catalog.Index, progress func(int64)) (int64, error) {
	if err := x.EnsureTable(ctx, ix.Table); err != nil {
		return 0, err
	}
	var n int64
	var batch []Mutation
	flush := func() error {
		if err := x.mutate(ctx, ix.Physical, batch); err != nil {
			return err
		}
		batch = batch[:0]
		if progress != nil {
			progress(n)
		}
		return nil
	}
	err := x.scanAll(ctx, t, func(r *Row) error {
		m, ok, err := indexEntry(ix, t, r.Vals[:len(t.Columns)], true)
		if err != nil || !ok {
			return err
		}
		batch = append(batch, m)
		n++
		if len(batch) == 5000 {
			return flush()
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	return n, flush()
}
