package embedded

import (
	"github.com/rkql/rkql/exec"
)

// Chunk sizes of rowBuilder's allocations.
const (
	byteChunk = 64 << 10
	cellChunk = 512
	rowChunk  = 128
	// maxQuals bounds the qualifier strings a builder interns.
	maxQuals = 4096
	// maxRecent bounds the column positions rowBuilder.recent tracks.
	maxRecent = 64
)

// rowBuilder turns stored rows into exec.StoreRows: it hides cells past
// their TTL and versions beyond the requested number, and copies what is
// left out of bbolt's memory. Rows are carved out of shared chunks to keep
// allocations few; each handed-out slice has its capacity capped, so a
// caller appending to one cannot overwrite another row.
type rowBuilder struct {
	t        *table
	versions int
	cutoffs  []int64
	quals    map[string]string
	recent   []string // per column position, the last qualifier seen
	bytes    []byte
	cells    []exec.Cell
	rows     []exec.StoreRow

	// match, when set, is the read's filter, evaluated on each row
	// before it is copied out.
	match *exec.Matcher
	// project, when set, keeps only the cells of these columns, by
	// family then qualifier; an empty map keeps none. A family whose
	// qualifier map is nil (a MAP column's) is kept whole.
	project map[string]map[string]bool
	// qualifiers, when set, keeps only the cells of these qualifiers
	// of one family (ReadOptions.Qualifiers).
	qualifiers *exec.QualifierRanges
	// copied counts the bytes of the rows copied out.
	copied int64
	// times and pick, when set, are a raw read's time range and cell
	// selection, applied before versions are counted.
	times *exec.TimeRange
	pick  *exec.CellSelect
}

// setRead makes the builder apply a read's filter and projection.
func (b *rowBuilder) setRead(o *exec.ReadOptions) {
	b.match = exec.NewMatcher(o)
	b.qualifiers = o.Qualifiers
	b.times, b.pick = o.TimeRange, o.Cells
	if o.Columns == nil || o.Table == nil {
		return
	}
	b.project = map[string]map[string]bool{}
	for _, c := range o.Columns {
		col := o.Table.Columns[c]
		if col.MapFamily != "" {
			if qs, ok := o.Entries[c]; ok {
				m := map[string]bool{}
				for _, q := range qs {
					m[string(q)] = true
				}
				b.project[col.MapFamily] = m
				continue
			}
			b.project[col.MapFamily] = nil
			continue
		}
		if qs, seen := b.project[col.Family]; seen && qs == nil {
			continue
		}
		if b.project[col.Family] == nil {
			b.project[col.Family] = map[string]bool{}
		}
		b.project[col.Family][col.Qualifier] = true
	}
}

func newRowBuilder(t *table, versions int, now int64) *rowBuilder {
	if versions <= 0 {
		versions = 1
	}
	return &rowBuilder{
		t:        t,
		versions: versions,
		cutoffs:  t.cutoffs(now),
		quals:    make(map[string]string),
	}
}

// build returns the visible part of the row stored under key, or nil if no
// cell is visible or the read's filter rejects the row. It fails for a
// malformed row, and with the filter's error for a row the filter cannot
// decide.
func (b *rowBuilder) build(key, raw []byte) (*exec.StoreRow, error) {
	start, size, ok := b.decode(raw)
	if !ok || len(b.cells) == start {
		b.cells = b.cells[:start]
		if !ok {
			return nil, corrupt(b.t.spec.Name, key)
		}
		return nil, nil
	}
	cells := b.cells[start:len(b.cells):len(b.cells)]
	if b.qualifiers != nil {
		kept := cells[:0]
		for _, c := range cells {
			if b.qualifiers.Keeps(c.Family, c.Qualifier) {
				kept = append(kept, c)
			}
		}
		cells = kept
		b.cells = b.cells[:start+len(kept)]
		if len(kept) == 0 {
			return nil, nil // as HBase returns no row whose cells a filter removed
		}
	}
	if b.match != nil {
		m, err := b.match.Match(&exec.StoreRow{Key: key, Cells: cells})
		if err != nil || !m {
			b.cells = b.cells[:start]
			return nil, err
		}
	}
	if b.project != nil {
		kept := cells[:0]
		size = 0
		for _, c := range cells {
			if qs, ok := b.project[c.Family]; ok && (qs == nil || qs[c.Qualifier]) {
				kept = append(kept, c)
				size += len(c.Value)
			}
		}
		cells = kept
		b.cells = b.cells[:start+len(kept)]
	}
	b.copied += int64(len(key) + size)
	buf := b.alloc(len(key) + size)
	n := copy(buf, key)
	rowKey := buf[:n:n]
	for i := range cells {
		m := copy(buf[n:], cells[i].Value)
		cells[i].Value = buf[n : n+m : n+m]
		n += m
	}
	if len(b.rows) == cap(b.rows) {
		b.rows = make([]exec.StoreRow, 0, rowChunk)
	}
	b.rows = append(b.rows, exec.StoreRow{Key: rowKey, Cells: cells})
	return &b.rows[len(b.rows)-1], nil
}

// decode appends the visible cells of raw to b.cells, with values that
// alias raw. It returns where they start in b.cells and the total size of
// their values. The cells of one row stay contiguous: if the chunk fills
// up, the row moves to a new one.
func (b *rowBuilder) decode(raw []byte) (start, size int, ok bool) {
	start = len(b.cells)
	r := newCellReader(raw)
	fi := -1
	var famName, qual string
	var cutoff int64
	kept, col := 0, -1
	for {
		val, more := r.next()
		if !more {
			return start, size, !r.bad
		}
		if r.newFam {
			if fi = b.t.familyBytes(r.fam); fi < 0 {
				return start, 0, false
			}
			famName, cutoff = b.t.fams[fi].name, b.cutoffs[fi]
		}
		if r.newCol {
			kept = 0
			col++
			qual = b.qualifier(col, r.qual)
		}
		if b.times != nil && !b.times.Holds(r.ts) || b.pick != nil && !b.pick.Keeps(famName, qual) {
			continue
		}
		// Versions are newest first: once one is too old or one too
		// many, the rest of the column is hidden too.
		if kept >= b.versions || r.ts < cutoff {
			continue
		}
		kept++
		size += len(val)
		if len(b.cells) == cap(b.cells) {
			partial := b.cells[start:]
			b.cells = make([]exec.Cell, 0, max(cellChunk, 2*len(partial)))
			b.cells = append(b.cells, partial...)
			start = 0
		}
		b.cells = append(b.cells, exec.Cell{Family: famName, Qualifier: qual, Timestamp: r.ts, Value: val})
	}
}

// qualifier returns q, the qualifier of the col-th column of a row, as a
// string. Rows of a table tend to have the same columns, so it first tries
// the col-th qualifier of the previous rows, then the interned ones.
func (b *rowBuilder) qualifier(col int, q []byte) string {
	if col < len(b.recent) && b.recent[col] == string(q) {
		return b.recent[col]
	}
	s := b.intern(q)
	if col < len(b.recent) {
		b.recent[col] = s
	} else if col == len(b.recent) && col < maxRecent {
		b.recent = append(b.recent, s)
	}
	return s
}

// intern returns q as a string, sharing one string per distinct qualifier
// while there are few of them.
func (b *rowBuilder) intern(q []byte) string {
	if s, ok := b.quals[string(q)]; ok {
		return s
	}
	s := string(q)
	if len(b.quals) < maxQuals {
		b.quals[s] = s
	}
	return s
}

// alloc returns n bytes from the current chunk, starting a new one if it
// has no room.
func (b *rowBuilder) alloc(n int) []byte {
	if cap(b.bytes)-len(b.bytes) < n {
		if n > byteChunk/4 {
			return make([]byte, n)
		}
		b.bytes = make([]byte, 0, byteChunk)
	}
	start := len(b.bytes)
	b.bytes = b.bytes[:start+n]
	return b.bytes[start : start+n : start+n]
}
