package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// EmptyQualifier is the cell written for a row whose columns are all key
// fields, since HBase has no row without a cell.
const EmptyQualifier = "_0"

// RowMutation returns the write of one logical row of t: each stored
// column in cols (nil: every column) becomes a cell at timestamp ts (0: the
// time of the write), or, when NULL, a delete of that column's versions at
// or before ts, so that a newer version stays. A wide row's point is
// completed first (catalog.Wide.Complete: OpenTSDB's base from the time).
//
// A table stored as Phoenix's SINGLE_CELL_ARRAY_WITH_OFFSETS is written a
// whole row at a time here (cols nil): a write of some columns keeps the
// others only when it merges over the row's stored cells, which
// InsertColumns reads first.
func RowMutation(t *catalog.Table, row catalog.Row, ts int64, rnd func(int64) int64, cols []int) (Mutation, error) {
	if cols != nil && catalog.PhoenixCellArray(t) {
		return Mutation{}, fmt.Errorf("table %s: Phoenix's %s keeps a row's columns in one cell per family: a write of some of its columns reads the row first (INSERT, UPSERT, UPDATE)", t.Name, t.Phoenix.Name)
	}
	return rowMutation(t, row, ts, rnd, cols, nil)
}

// rowMutation is RowMutation; arrays, for a Phoenix cell-array table,
// holds the stored elements of rows by key, which the write merges over
// and which it then updates to what it writes.
func rowMutation(t *catalog.Table, row catalog.Row, ts int64, rnd func(int64) int64, cols []int, arrays map[string]cellArrays) (Mutation, error) {
	if rnd == nil {
		rnd = rand.Int64N
	}
	if t.Wide != nil {
		var err error
		if row, err = t.Wide.Complete(row); err != nil {
			return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
		}
	}
	if err := PhoenixWritable(t); err != nil {
		return Mutation{}, err
	}
	key, err := t.EncodeRowKey(row, rnd)
	if err != nil {
		return Mutation{}, err
	}
	m := Mutation{Key: key}
	if p := t.Phoenix; p != nil && p.EmptyFamily != "" {
		// Phoenix writes its empty column on every UPSERT, whole or partial.
		m.Cells = append(m.Cells, Cell{Family: p.EmptyFamily, Qualifier: p.EmptyQualifier, Timestamp: ts, Value: []byte(catalog.PhoenixEmptyValue)})
	}
	for i := range t.Columns {
		if err := t.Columns[i].CheckCell(row[i]); err != nil {
			return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
		}
	}
	var werr error
	var elems cellArrays
	if catalog.PhoenixCellArray(t) {
		elems = phoenixElements(t, arrays[string(key)])
	}
	write := func(i int) {
		c := &t.Columns[i]
		switch {
		case elems != nil && c.Family != "":
			// PhoenixWritable checked the qualifier. A NULL is an element
			// with no bytes.
			e, _ := catalog.PhoenixCellArrayElement(c.Qualifier)
			elems[c.Family][e] = nil
			if !row[i].Null {
				elems[c.Family][e] = c.EncodeCell(row[i])
			}
		case c.MapFamily != "":
			if err := mapEntries(&m, c, row[i], ts); err != nil && werr == nil {
				werr = fmt.Errorf("table %s: %w", t.Name, err)
			}
		case c.Family == "":
		case row[i].Null:
			m.Deletes = append(m.Deletes, Cell{Family: c.Family, Qualifier: c.Qualifier, Timestamp: ts})
		default:
			m.Cells = append(m.Cells, Cell{Family: c.Family, Qualifier: c.Qualifier, Timestamp: ts, Value: c.EncodeCell(row[i])})
		}
	}
	if w := t.Wide; w != nil && w.Cells != nil {
		q, v, err := w.FieldRowCell(t, row)
		if err != nil {
			return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if v == nil {
			m.Deletes = append(m.Deletes, Cell{Family: w.Family, Qualifier: string(q), Timestamp: ts})
		} else {
			m.Cells = append(m.Cells, Cell{Family: w.Family, Qualifier: string(q), Timestamp: ts, Value: v})
		}
	} else if w != nil {
		q, v, ok, err := w.RowCell(row)
		if err != nil {
			return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if ok {
			m.Cells = append(m.Cells, Cell{Family: w.Family, Qualifier: string(q), Timestamp: ts, Value: v})
		}
	}
	if cols == nil {
		for i := range t.Columns {
			write(i)
		}
	} else {
		for _, i := range cols {
			write(i)
		}
	}
	if werr != nil {
		return Mutation{}, werr
	}
	if elems != nil {
		// As Phoenix does, each write puts every family's whole cell.
		for _, f := range t.Families {
			es, ok := elems[f.Name]
			if !ok {
				continue
			}
			v, err := catalog.EncodePhoenixCellArray(es)
			if err != nil {
				return Mutation{}, fmt.Errorf("table %s: %w", t.Name, err)
			}
			m.Cells = append(m.Cells, Cell{Family: f.Name, Qualifier: catalog.PhoenixCellArrayQualifier, Timestamp: ts, Value: v})
		}
		if arrays != nil {
			arrays[string(key)] = elems
		}
	}
	if len(m.Cells) == 0 {
		switch fam := emptyFamily(t); {
		case fam != "":
			m.Cells = append(m.Cells, Cell{Family: fam, Qualifier: EmptyQualifier, Timestamp: ts})
		case len(m.Deletes) == 0:
			return Mutation{}, fmt.Errorf("table %s: the row has no cell to write: each of its families holds data as qualifiers, so give an entry", t.Name)
		}
	}
	return m, nil
}

// PhoenixWritable refuses a write to a Phoenix table that rkql cannot
// make as Phoenix would: one with a global index, which Phoenix keeps in
// step with each write of the table and rkql does not.
func PhoenixWritable(t *catalog.Table) error {
	p := t.Phoenix
	if p == nil {
		return nil
	}
	if p.IndexOf != "" {
		return fmt.Errorf("table %s is Phoenix's index %s of %s, which Phoenix keeps in step: write %s through Phoenix", t.Name, p.Name, p.IndexOf, p.IndexOf)
	}
	if len(p.GlobalIndexes) > 0 {
		return fmt.Errorf("table %s: Phoenix's %s has the global index %s, which rkql does not keep in step: write it through Phoenix", t.Name, p.Name, strings.Join(p.GlobalIndexes, ", "))
	}
	if p.Storage == catalog.PhoenixSingleCellArray {
		for _, c := range t.Columns {
			if c.MapFamily != "" {
				return fmt.Errorf("table %s: column %s is a MAP of family %s, which Phoenix's %s storage keeps in one cell: rkql does not write it", t.Name, c.Name, c.MapFamily, p.Storage)
			}
			if c.Family == "" {
				continue
			}
			if _, ok := catalog.PhoenixCellArrayElement(c.Qualifier); !ok {
				return fmt.Errorf("table %s: column %s's qualifier '%s' is not an encoded column number (\\x80\\x0B and up), so it is no element of Phoenix's %s cell: rkql does not write it", t.Name, c.Name, catalog.ToStringBinary([]byte(c.Qualifier)), p.Storage)
			}
		}
	}
	return nil
}

// cellArrays holds a row's Phoenix cell arrays: each family's elements
// 1… (nil: NULL), as catalog.DecodePhoenixCellArray returns them.
type cellArrays map[string][][]byte

// phoenixElements returns the elements a write of a row of the Phoenix
// cell-array table t starts from: a copy of those stored (nil: none), in
// each family that holds a column, long enough for every column of it.
// Elements of columns the catalog does not name are kept as stored.
func phoenixElements(t *catalog.Table, stored cellArrays) cellArrays {
	out := cellArrays{}
	for _, c := range t.Columns {
		e, ok := catalog.PhoenixCellArrayElement(c.Qualifier)
		if c.Family == "" || !ok {
			continue
		}
		es, seen := out[c.Family]
		if !seen {
			es = slices.Clone(stored[c.Family])
		}
		for len(es) <= e {
			es = append(es, nil)
		}
		out[c.Family] = es
	}
	return out
}

// storedArrays reads the cell arrays of the rows of the Phoenix
// cell-array table t that rows will write, by key: those written at or
// before ts (0: the newest).
func (x *Executor) storedArrays(ctx context.Context, t *catalog.Table, rows []catalog.Row, ts int64) (map[string]cellArrays, error) {
	keys := make([][]byte, 0, len(rows))
	for _, r := range rows {
		k, err := t.EncodeRowKey(r, rand.Int64N)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	var fams []string
	for _, f := range t.Families {
		fams = append(fams, f.Name)
	}
	opts := ReadOptions{Cells: &CellSelect{Families: fams, Qualifiers: []string{catalog.PhoenixCellArrayQualifier}}}
	if ts > 0 {
		opts.TimeRange = &TimeRange{From: 0, To: ts + 1}
	}
	srs, err := x.Store.Get(ctx, t.Physical, keys, opts)
	if err != nil {
		return nil, err
	}
	out := map[string]cellArrays{}
	for _, sr := range srs {
		got := cellArrays{}
		for _, c := range sr.Cells { // newest first
			if c.Qualifier != catalog.PhoenixCellArrayQualifier {
				continue
			}
			if _, ok := got[c.Family]; ok {
				continue
			}
			es, err := catalog.DecodePhoenixCellArray(c.Value)
			if err != nil {
				return nil, fmt.Errorf("table %s, row '%s', family %s: %w", t.Name, catalog.ToStringBinary(sr.Key), c.Family, err)
			}
			got[c.Family] = es
		}
		out[string(sr.Key)] = got
	}
	return out, nil
}

// mapEntries adds the write of a MAP column that holds a whole family:
// each entry is a cell, and an entry whose value is NULL deletes its
// cell. So a MAP written is a change to the family, not all of it: the
// entries it leaves out keep their cells (UPDATE's m['k'] = v and
// m = NULL are written so).
func mapEntries(m *Mutation, c *catalog.Column, v catalog.Value, ts int64) error {
	if v.Null {
		return nil
	}
	cell := c.MapCell()
	for _, e := range v.M.Entries {
		q, err := c.MapKeys.Encode(e.Key)
		if err != nil {
			return fmt.Errorf("column %s: key %s: %w", c.Name, e.Key, err)
		}
		if e.Val.Null {
			m.Deletes = append(m.Deletes, Cell{Family: c.MapFamily, Qualifier: string(q), Timestamp: ts})
			continue
		}
		m.Cells = append(m.Cells, Cell{Family: c.MapFamily, Qualifier: string(q), Timestamp: ts, Value: cell.EncodeCell(e.Val)})
	}
	return nil
}

// emptyFamily is the family the marker cell of a row with no other cell
// goes in: the first whose qualifiers are not data (wide rows whose
// qualifier is a field, or a MAP column's), where a marker cell would
// read as data; "" when none is.
func emptyFamily(t *catalog.Table) string {
	for _, f := range t.Families {
		data := t.Wide != nil && t.Wide.Cells != nil && t.Wide.Family == f.Name
		for _, c := range t.Columns {
			data = data || c.MapFamily == f.Name
		}
		if !data {
			return f.Name
		}
	}
	return ""
}

// insertBatch is how many rows InsertColumns writes at a time, and
// deleteBatch how many Delete does.
const (
	insertBatch = 5000
	deleteBatch = 1000
)

// Insert writes whole logical rows: see InsertColumns.
func (x *Executor) Insert(ctx context.Context, t *catalog.Table, rows []catalog.Row, ts int64, progress func(int)) error {
	return x.InsertColumns(ctx, t, nil, rows, ts, progress)
}

// InsertColumns writes the columns cols (nil: all) of logical rows in
// batches, as Phoenix's UPSERT does: a NULL deletes the column, a column
// not listed keeps its value. t's indexes are kept in step. progress, when
// set, is told how many rows are written so far.
func (x *Executor) InsertColumns(ctx context.Context, t *catalog.Table, cols []int, rows []catalog.Row, ts int64, progress func(int)) error {
	const batch = insertBatch
	if ts == 0 && len(t.Indexes) > 0 {
		ts = x.writeTime()
	}
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var arrays map[string]cellArrays
		if catalog.PhoenixCellArray(t) {
			// Each row's cells are read, to be merged over.
			if err := PhoenixWritable(t); err != nil {
				return err
			}
			var err error
			if arrays, err = x.storedArrays(ctx, t, chunk, ts); err != nil {
				return err
			}
		}
		muts := make([]Mutation, 0, len(chunk))
		keep := make([]catalog.Row, 0, len(chunk))
		at := map[string]int{}
		for _, r := range chunk {
			if t.Wide != nil {
				// The row as written, base filled in, for the indexes too.
				var err error
				if r, err = t.Wide.Complete(r); err != nil {
					return fmt.Errorf("table %s: %w", t.Name, err)
				}
			}
			var m Mutation
			var err error
			switch {
			case t.Collects():
				m, err = x.tsdbMutation(ctx, t, r, ts, cols)
			case arrays != nil:
				m, err = rowMutation(t, r, ts, nil, cols, arrays)
			default:
				m, err = RowMutation(t, r, ts, nil, cols)
			}
			if err != nil {
				return err
			}
			// With indexes, and in a Phoenix cell array, the batch holds
			// one write per key: a later row with the same key is merged
			// over the earlier one (the cell array's write already is).
			if i, dup := at[string(m.Key)]; dup && (len(t.Indexes) > 0 || arrays != nil) {
				merged := mergeRow(keep[i], r, cols)
				if arrays != nil {
					muts[i] = m
				} else if muts[i], err = RowMutation(t, merged, ts, nil, cols); err != nil {
					return err
				}
				keep[i] = merged
				continue
			}
			at[string(m.Key)] = len(muts)
			muts, keep = append(muts, m), append(keep, r)
		}
		if err := x.writeBatch(ctx, t, muts, keep, cols, ts, nil); err != nil {
			return &BatchError{Rows: len(muts), Err: err}
		}
		if progress != nil {
			progress(start + len(chunk))
		}
	}
	return nil
}

// mergeRow returns old with the columns cols (nil: all) taken from new.
func mergeRow(old, new catalog.Row, cols []int) catalog.Row {
	if cols == nil {
		return new
	}
	out := slices.Clone(old)
	for _, c := range cols {
		out[c] = new[c]
	}
	return out
}

// Spec returns the physical table spec of a catalog table.
func Spec(t *catalog.Table) TableSpec {
	s := TableSpec{Name: t.Physical, Splits: t.SplitKeys()}
	for _, f := range t.Families {
		s.Families = append(s.Families, FamilySpec{
			Name: f.Name, Versions: f.Versions, TTL: f.TTL, Compression: f.Compression,
			BloomFilter: f.BloomFilter, BlockSize: f.BlockSize, BlockCache: f.BlockCache, InMemory: f.InMemory,
		})
	}
	return s
}

// EnsureTable creates t's physical table, and those of its indexes, where
// they do not exist.
func (x *Executor) EnsureTable(ctx context.Context, t *catalog.Table) error {
	if err := x.Store.CreateTable(ctx, Spec(t)); err != nil && !errors.Is(err, ErrTableExists) {
		return err
	}
	for _, ix := range t.Indexes {
		if err := x.EnsureTable(ctx, ix.Table); err != nil {
			return err
		}
	}
	return nil
}
