package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
)

// IndexReport is what CHECK INDEX found.
//
// Every data row either has no entry by design (NoEntry), has its entry,
// or lacks it (Missing); every entry either belongs to a data row or is
// an orphan. So Entries - Orphans = DataRows - NoEntry - Missing.
type IndexReport struct {
	DataRows int64
	Entries  int64
	// NoEntry counts the data rows the index leaves out, by design: an
	// index key field is NULL (see catalog.Index.EntryRow). They are not
	// missing.
	NoEntry    int64
	Missing    int64 // data rows without their entry
	Orphans    int64 // entries without a data row that gives their key
	Unverified int64 // entries that match but are not marked verified
	Stale      int64 // entries whose carried or covered copy differs
	Repaired   int64
}

func (r IndexReport) String() string {
	return fmt.Sprintf("%d data rows (%d with no entry, as an index key field is NULL), %d index entries: %d missing, %d orphan, %d unverified, %d stale; %d repaired",
		r.DataRows, r.NoEntry, r.Entries, r.Missing, r.Orphans, r.Unverified, r.Stale, r.Repaired)
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
	dec := newDecoder(t, nil)
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

// checkBatch is how many rows CHECK INDEX resolves per multi-get.
const checkBatch = 1000

// CheckIndex compares an index with its data table, and with repair set
// rewrites what differs. It holds one batch of rows at a time: a first
// pass walks the index and gets the data row of each entry (finding
// orphan, stale and unverified entries), a second walks the data table and
// gets the entry of each row (finding missing entries). progress, when
// set, is told how many rows and entries were checked.
func (x *Executor) CheckIndex(ctx context.Context, t *catalog.Table, ix *catalog.Index, repair bool, progress func(int64)) (IndexReport, error) {
	c := &checker{x: x, t: t, ix: ix, repair: repair, progress: progress, dec: newDecoder(t, nil)}
	var batch []*Row
	err := x.scanAll(ctx, ix.Table, func(r *Row) error {
		batch = append(batch, r)
		if len(batch) < checkBatch {
			return nil
		}
		err := c.entries(ctx, batch)
		batch = batch[:0]
		return err
	})
	if err == nil {
		err = c.entries(ctx, batch)
	}
	if err != nil {
		return c.rep, err
	}
	batch = batch[:0]
	err = x.scanAll(ctx, t, func(r *Row) error {
		batch = append(batch, r)
		if len(batch) < checkBatch {
			return nil
		}
		err := c.rows(ctx, batch)
		batch = batch[:0]
		return err
	})
	if err == nil {
		err = c.rows(ctx, batch)
	}
	return c.rep, err
}

// checker holds the state of one CHECK INDEX.
type checker struct {
	x        *Executor
	t        *catalog.Table
	ix       *catalog.Index
	repair   bool
	progress func(int64)
	dec      *decoder
	rep      IndexReport
	done     int64
}

// fix applies repairs and reports progress after each batch.
func (c *checker) fix(ctx context.Context, muts []Mutation, n int) error {
	c.done += int64(n)
	if c.progress != nil {
		c.progress(c.done)
	}
	if !c.repair || len(muts) == 0 {
		return nil
	}
	if err := c.x.Store.Mutate(ctx, c.ix.Physical, muts); err != nil {
		return err
	}
	c.rep.Repaired += int64(len(muts))
	return nil
}

// entries checks a batch of index entries against their data rows.
func (c *checker) entries(ctx context.Context, batch []*Row) error {
	if len(batch) == 0 {
		return nil
	}
	c.rep.Entries += int64(len(batch))
	keys := make([][]byte, len(batch))
	for i, e := range batch {
		vals := c.t.NewRow()
		for j, col := range c.ix.Table.Columns {
			d, _ := c.t.Column(col.Name)
			vals[d] = e.Vals[j]
		}
		k, err := c.t.EncodeKey(vals, nil)
		if err != nil {
			return err
		}
		keys[i] = k
	}
	data, err := c.get(ctx, c.t.Physical, keys)
	if err != nil {
		return err
	}
	var muts []Mutation
	for i, e := range batch {
		var want Mutation
		ok := false
		if sr := data[string(keys[i])]; sr != nil {
			dr, err := c.dec.decode(sr)
			if err != nil {
				return err
			}
			want, ok, err = indexEntry(c.ix, c.t, dr.Vals[:len(c.t.Columns)], true)
			if err != nil {
				return err
			}
			ok = ok && bytes.Equal(want.Key, e.Key)
		}
		switch {
		case !ok:
			c.rep.Orphans++
			muts = append(muts, Mutation{Key: e.Key, DeleteRow: true})
		case !sameEntry(c.ix, want, e):
			c.rep.Stale++
			muts = append(muts, Mutation{Key: want.Key, DeleteRow: true, Cells: want.Cells})
		case !e.Verified:
			c.rep.Unverified++
			muts = append(muts, Mutation{Key: want.Key, Cells: []Cell{statusCell(c.ix, true)}})
		}
	}
	return c.fix(ctx, muts, len(batch))
}

// rows checks that a batch of data rows have their entries.
func (c *checker) rows(ctx context.Context, batch []*Row) error {
	if len(batch) == 0 {
		return nil
	}
	c.rep.DataRows += int64(len(batch))
	var want []Mutation
	var keys [][]byte
	for _, r := range batch {
		m, ok, err := indexEntry(c.ix, c.t, r.Vals[:len(c.t.Columns)], true)
		if err != nil {
			return err
		}
		if !ok {
			c.rep.NoEntry++
			continue
		}
		want, keys = append(want, m), append(keys, m.Key)
	}
	have, err := c.get(ctx, c.ix.Physical, keys)
	if err != nil {
		return err
	}
	var muts []Mutation
	for _, m := range want {
		if have[string(m.Key)] == nil {
			c.rep.Missing++
			muts = append(muts, m)
		}
	}
	return c.fix(ctx, muts, len(batch))
}

func (c *checker) get(ctx context.Context, table string, keys [][]byte) (map[string]*StoreRow, error) {
	srs, err := c.x.Store.Get(ctx, table, keys, ReadOptions{})
	if err != nil {
		return nil, err
	}
	out := make(map[string]*StoreRow, len(srs))
	for _, sr := range srs {
		out[string(sr.Key)] = sr
	}
	return out, nil
}

// sameEntry reports whether entry e holds the values mutation want writes.
func sameEntry(ix *catalog.Index, want Mutation, e *Row) bool {
	exp := ix.Table.NewRow()
	if err := decodeCells(ix.Table, want, exp); err != nil {
		return false
	}
	for i := range ix.Table.Columns {
		if !catalog.Equal(exp[i], e.Vals[i]) {
			return false
		}
	}
	return true
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
