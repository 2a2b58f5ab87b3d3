package exectest

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// Model is a brute-force copy of one table's physical cells, with HBase's
// cell semantics, and of what rkql's writes do to them. It shares no code
// with exec: it knows the catalog's key and column layout, and nothing of
// RowMutation, index upkeep or the stores.
//
// Cells. Per row key, per column (family:qualifier, the empty-row cell
// "_0" included), a list of versions, newest first, at most the family's
// VERSIONS of them: a put at a timestamp already held replaces that
// version. A column delete at t removes the versions at or before t
// (HBase's Delete.addColumns); a row delete at t removes every version at
// or before t. A version older than its family's TTL, relative to the
// model's clock, is invisible. The visible logical row is the newest
// visible version of each column, with _ts the newest timestamp among
// them; a row with no visible cell does not exist.
//
// Delete markers. HBase keeps a delete's marker until a major compaction,
// and the marker hides every put at or before its timestamp, even one
// written after the delete. The embedded store keeps no marker: it removes
// the versions a delete covers, and a later put at an older timestamp
// shows. rkql issues both shapes (a NULL then an older INSERT … TIMESTAMP;
// a DELETE then an INSERT … TIMESTAMP before it), so the two stores answer
// differently and the model follows the store: with Markers set (HBase) a
// put at or below a marker of its column or row is hidden; without, it is
// not. VERSIONS plays no part in what a row shows: deletes only ever
// remove a column's versions at or before a time, and TTL the oldest, so
// the newest visible version never depends on how many older ones a
// store kept.
type Model struct {
	t *catalog.Table
	// Markers says the store keeps delete markers (HBase).
	Markers bool
	rows    map[string]*modelRow
	// Hidden counts the puts a marker hid.
	Hidden int
}

// modelRow is one row key's cells.
type modelRow struct {
	// keyVals holds the key fields' values (other columns NULL).
	keyVals catalog.Row
	cols    map[cellName][]version
	// colDel and rowDel are the newest delete markers, kept with Markers.
	colDel map[cellName]int64
	rowDel int64
}

type cellName struct{ fam, qual string }

// version is one cell version; val is NULL for the empty-row cell.
type version struct {
	ts  int64
	val catalog.Value
}

// NewModel returns an empty model of t.
func NewModel(t *catalog.Table, markers bool) *Model {
	return &Model{t: t, Markers: markers, rows: map[string]*modelRow{}}
}

// Clone returns an independent copy of m.
func (m *Model) Clone() *Model {
	c := &Model{t: m.t, Markers: m.Markers, rows: make(map[string]*modelRow, len(m.rows)), Hidden: m.Hidden}
	for k, r := range m.rows {
		nr := &modelRow{keyVals: r.keyVals, cols: map[cellName][]version{}, colDel: maps.Clone(r.colDel), rowDel: r.rowDel}
		for n, vs := range r.cols {
			nr.cols[n] = slices.Clone(vs)
		}
		c.rows[k] = nr
	}
	return c
}

func (m *Model) row(key []byte, keyVals catalog.Row) *modelRow {
	r := m.rows[string(key)]
	if r == nil {
		r = &modelRow{cols: map[cellName][]version{}, colDel: map[cellName]int64{}, rowDel: -1}
		m.rows[string(key)] = r
	}
	if r.keyVals == nil {
		r.keyVals = keyVals
	}
	return r
}

func (m *Model) family(name string) *catalog.Family {
	for i := range m.t.Families {
		if m.t.Families[i].Name == name {
			return &m.t.Families[i]
		}
	}
	panic("exectest: model: no family " + name) // the generator names only the catalog's
}

// Put writes one cell version.
func (m *Model) Put(key []byte, keyVals catalog.Row, fam, qual string, ts int64, v catalog.Value) {
	r := m.row(key, keyVals)
	n := cellName{fam, qual}
	if m.Markers {
		if d, ok := r.colDel[n]; (ok && ts <= d) || ts <= r.rowDel {
			m.Hidden++ // hidden by a marker until a major compaction
			return
		}
	}
	vs := slices.DeleteFunc(r.cols[n], func(x version) bool { return x.ts == ts })
	vs = append(vs, version{ts, v})
	slices.SortFunc(vs, func(a, b version) int { return -cmpInt(a.ts, b.ts) })
	if keep := max(m.family(fam).Versions, 1); len(vs) > keep {
		vs = vs[:keep]
	}
	r.cols[n] = vs
}

// DeleteColumn removes a column's versions at or before ts.
func (m *Model) DeleteColumn(key []byte, keyVals catalog.Row, fam, qual string, ts int64) {
	r := m.row(key, keyVals)
	n := cellName{fam, qual}
	r.cols[n] = slices.DeleteFunc(r.cols[n], func(x version) bool { return x.ts <= ts })
	if m.Markers {
		if d, ok := r.colDel[n]; !ok || ts > d {
			r.colDel[n] = ts
		}
	}
}

// DeleteRow removes every version at or before ts; all of them when ts is
// negative.
func (m *Model) DeleteRow(key []byte, ts int64) {
	r := m.rows[string(key)]
	if r == nil {
		if !m.Markers || ts < 0 {
			return
		}
		r = m.row(key, nil) // the marker outlives the row's cells
	}
	for n, vs := range r.cols {
		r.cols[n] = slices.DeleteFunc(vs, func(x version) bool { return ts < 0 || x.ts <= ts })
	}
	if m.Markers && ts > r.rowDel {
		r.rowDel = ts
	}
}

// Newest returns the newest timestamp of any version of the row, or -1.
func (m *Model) Newest(key []byte) int64 {
	out := int64(-1)
	if r := m.rows[string(key)]; r != nil {
		for _, vs := range r.cols {
			if len(vs) > 0 {
				out = max(out, vs[0].ts)
			}
		}
	}
	return out
}

// Stamps returns the timestamps of the versions the row holds, in
// ascending order.
func (m *Model) Stamps(key []byte) []int64 {
	var out []int64
	if r := m.rows[string(key)]; r != nil {
		for _, vs := range r.cols {
			for _, v := range vs {
				out = append(out, v.ts)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Rows returns the visible logical rows at time now (ms), in key order:
// t's columns, then _ts.
func (m *Model) Rows(now int64) []catalog.Row {
	keys := slices.Sorted(maps.Keys(m.rows))
	var out []catalog.Row
	for _, k := range keys {
		if r, ok := m.visible(m.rows[k], now); ok {
			out = append(out, r)
		}
	}
	return out
}

// visible builds the logical row of r at time now.
func (m *Model) visible(r *modelRow, now int64) (catalog.Row, bool) {
	out := slices.Clone(r.keyVals)
	out = append(out, catalog.Null(catalog.TypeTimestamp))
	newest := int64(-1)
	for n, vs := range r.cols {
		cut := int64(-1 << 62)
		if ttl := m.family(n.fam).TTL; ttl > 0 {
			cut = now - ttl*1000
		}
		// The newest version is the value, unless the TTL has passed it.
		if len(vs) == 0 || vs[0].ts < cut {
			continue
		}
		v := vs[0]
		newest = max(newest, v.ts)
		for i, c := range m.t.Columns {
			if c.Family == n.fam && c.Qualifier == n.qual {
				out[i] = v.val
			}
		}
	}
	if newest < 0 {
		return nil, false
	}
	out[len(m.t.Columns)] = catalog.TimestampMillis(newest)
	return out, true
}

// Write is one logical row of an INSERT: the values of cols (nil: every
// column) at timestamp TS, which is never 0 here (the caller resolves the
// write clock).
type Write struct {
	Row  catalog.Row
	Cols []int
	TS   int64
}

// Insert applies an INSERT of one row as rkql writes it: each listed
// stored column becomes a version at w.TS, or, when NULL, a delete of its
// versions at or before w.TS; a write that puts no cell puts the
// empty-row cell in the first family.
func (m *Model) Insert(w Write) error {
	key, err := m.t.EncodeKey(w.Row, nil)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	keyVals := m.t.NewRow()
	for _, k := range m.t.KeyColumns() {
		keyVals[k] = w.Row[k]
	}
	cols := w.Cols
	if cols == nil {
		for i := range m.t.Columns {
			cols = append(cols, i)
		}
	}
	put := false
	for _, i := range cols {
		c := &m.t.Columns[i]
		switch {
		case c.Family == "":
		case w.Row[i].Null:
			m.DeleteColumn(key, keyVals, c.Family, c.Qualifier, w.TS)
		default:
			m.Put(key, keyVals, c.Family, c.Qualifier, w.TS, w.Row[i])
			put = true
		}
	}
	if !put {
		m.Put(key, keyVals, m.t.Families[0].Name, emptyQualifier, w.TS, catalog.Null(catalog.TypeBytes))
	}
	return nil
}

// emptyQualifier is the cell rkql writes for a row that has no other; the
// model keeps its own copy of the name, which the stores' rows show.
const emptyQualifier = "_0"

// Key returns the stored key of a logical row of m's table.
func (m *Model) Key(row catalog.Row) ([]byte, error) { return m.t.EncodeKey(row, nil) }

// Has reports whether some version is stored under key.
func (m *Model) Has(key []byte) bool {
	r := m.rows[string(key)]
	if r == nil {
		return false
	}
	for _, vs := range r.cols {
		if len(vs) > 0 {
			return true
		}
	}
	return false
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
