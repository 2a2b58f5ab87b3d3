package exec

import (
	"bytes"
	"context"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// An index entry is the index table's row for one data row: its key is the
// index layout over the data row's fields, and its cells hold the carried
// and covered columns and a status cell.
//
// Writes keep every index in step with its data table in three phases:
//
//  1. new entries are written unverified, and the old entries of rows
//     whose indexed fields change are marked unverified;
//  2. the data rows are written (or deleted);
//  3. the new entries are marked verified and the old ones deleted.
//
// A reader trusts a verified entry. For an unverified one it reads the data
// row and keeps the entry only if the data row's fields give back the same
// index key, so a write that stopped half-way never shows a row that does
// not match: the entry is skipped and counted as dangling.
const (
	// StatusQualifier is the qualifier of an index entry's status cell.
	StatusQualifier = "_v"
	statusVerified  = 1
	// phoenixVerified is the value of a verified row's empty column in a
	// Phoenix 5 global index; Phoenix writes \x02 before the data row and
	// \x01 after it, and its reads check a row not \x01 against the data
	// table, as rkql does its own unverified entries.
	phoenixVerified = 1
)

// indexRow projects a data row onto an index's columns; ok is false when
// an index key field is NULL, as such rows have no entry.
func indexRow(ix *catalog.Index, data *catalog.Table, row catalog.Row) (catalog.Row, bool) {
	return ix.EntryRow(data, row)
}

// indexEntry is the write of one data row's entry in ix, with the given
// status, or ok false when the row has none.
func indexEntry(ix *catalog.Index, data *catalog.Table, row catalog.Row, verified bool) (Mutation, bool, error) {
	ir, ok := indexRow(ix, data, row)
	if !ok {
		return Mutation{}, false, nil
	}
	m, err := RowMutation(ix.Table, ir, 0, nil, nil)
	if err != nil {
		return Mutation{}, false, err
	}
	m.Cells = append(m.Cells, statusCell(ix, verified))
	return m, true, nil
}

func statusCell(ix *catalog.Index, verified bool) Cell {
	v := byte(0)
	if verified {
		v = statusVerified
	}
	return Cell{Family: ix.Table.Families[0].Name, Qualifier: StatusQualifier, Value: []byte{v}}
}

// lookupIter turns index entries back into data rows, in index order.
type lookupIter struct {
	x     *Executor
	st    *planner.IndexLookup
	in    rowIter
	stats *Stats
	dec   *decoder
	batch int
	out   []*Row
	done  bool
}

func (x *Executor) lookup(in rowIter, st *planner.IndexLookup, stats *Stats, limit int64) *lookupIter {
	b := planner.LookupBatch
	if limit != planner.NoLimit && int(limit) < b {
		b = max(int(limit), 1)
	}
	return &lookupIter{x: x, st: st, in: in, stats: stats, dec: newDecoder(st.Data, nil), batch: b}
}

func (l *lookupIter) next(ctx context.Context) (*Row, error) {
	for len(l.out) == 0 {
		if l.done {
			return nil, io.EOF
		}
		if err := l.fill(ctx); err != nil {
			return nil, err
		}
	}
	r := l.out[0]
	l.out = l.out[1:]
	return r, nil
}

// fill reads up to one batch of index entries and resolves them.
func (l *lookupIter) fill(ctx context.Context) error {
	var hits []*Row
	for len(hits) < l.batch {
		r, err := l.in.next(ctx)
		if err == io.EOF {
			l.done = true
			break
		}
		if err != nil {
			return err
		}
		hits = append(hits, r)
	}
	data := l.st.Data
	rows := make([]*Row, len(hits))
	var keys [][]byte
	var need []int
	for i, h := range hits {
		vals := data.NewRow()
		for j, d := range l.st.ToData {
			vals[d] = h.Vals[j]
		}
		vals = append(vals, h.Vals[len(h.Vals)-1])
		rows[i] = &Row{Vals: vals, Key: h.Key}
		if l.st.Covered && h.Verified {
			continue
		}
		key, err := data.EncodeKey(vals, nil)
		if err != nil {
			return err
		}
		keys, need = append(keys, key), append(need, i)
	}
	if len(keys) > 0 {
		srs, err := l.x.Store.Get(ctx, data.Physical, keys, ReadOptions{Stats: l.stats})
		if err != nil {
			return err
		}
		l.stats.DataReads.Add(int64(len(keys)))
		got := make(map[string]*StoreRow, len(srs))
		for _, sr := range srs {
			got[string(sr.Key)] = sr
		}
		for n, i := range need {
			rows[i] = nil
			sr := got[string(keys[n])]
			if sr == nil {
				l.stats.Dangling.Add(1)
				continue
			}
			dr, err := l.dec.decode(sr)
			if err != nil {
				l.stats.malformed(err)
				continue
			}
			if !l.matches(dr.Vals, hits[i].Key, hits[i].Vals) {
				l.stats.Dangling.Add(1)
				continue
			}
			rows[i] = dr
		}
	}
	for _, r := range rows {
		if r == nil {
			continue
		}
		ok, err := expr.Match(l.st.Filter, r.Vals)
		if err != nil {
			return err
		}
		if ok {
			l.out = append(l.out, r)
		}
	}
	return nil
}

// matches reports whether data row vals has the index entry key. A
// Phoenix index's entry is compared by the values of its key columns
// (entry): Phoenix writes a DOUBLE's DECIMAL with Java's digits, which
// need not be the bytes rkql would write for the same value.
func (l *lookupIter) matches(vals catalog.Row, key []byte, entry catalog.Row) bool {
	if l.st.Index.Phoenix {
		for _, c := range l.st.Index.Table.KeyColumns() {
			a, b := vals[l.st.ToData[c]], entry[c]
			if a.Null != b.Null || !a.Null && catalog.Compare(a, b) != 0 {
				return false
			}
		}
		return true
	}
	ir, ok := indexRow(l.st.Index, l.st.Data, vals)
	if !ok {
		return false
	}
	k, err := l.st.Index.Table.EncodeKey(ir, nil)
	return err == nil && bytes.Equal(k, key)
}

func (l *lookupIter) close() { l.in.close() }
