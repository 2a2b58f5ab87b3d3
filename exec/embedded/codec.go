package embedded

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// rowFormat is the first byte of every stored row value.
const rowFormat = 0x01

// ErrCorrupt is returned when a stored row cannot be decoded.
var ErrCorrupt = errors.New("embedded: corrupt row")

func corrupt(tableName string, key []byte) error {
	return fmt.Errorf("%w %s in table %s", ErrCorrupt, binaryString(key), tableName)
}

// wcell is a cell on the write path.
type wcell struct {
	fam  int // index into table.fams
	qual string
	ts   int64
	val  []byte
}

// compareCells orders cells as they are stored: family, qualifier,
// timestamp newest first.
func compareCells(a, b wcell) int {
	if c := cmp.Compare(a.fam, b.fam); c != 0 {
		return c
	}
	if c := cmp.Compare(a.qual, b.qual); c != 0 {
		return c
	}
	return cmp.Compare(b.ts, a.ts)
}

// normalize sorts cells into stored order, keeps the last written of cells
// that share family, qualifier and timestamp, keeps at most the family's
// versions per column, and drops cells older than the family's cutoff. It
// reuses the slice.
func normalize(t *table, cells []wcell, cutoffs []int64) []wcell {
	slices.SortStableFunc(cells, compareCells)
	out := cells[:0]
	kept := 0 // versions kept of the current column
	for i, c := range cells {
		if i+1 < len(cells) && compareCells(c, cells[i+1]) == 0 {
			continue // a later write of the same cell replaces this one
		}
		if len(out) == 0 || out[len(out)-1].fam != c.fam || out[len(out)-1].qual != c.qual {
			kept = 0
		}
		if kept >= t.fams[c.fam].versions || c.ts < cutoffs[c.fam] {
			continue
		}
		out = append(out, c)
		kept++
	}
	return out
}

// appendRow appends the encoding of cells, which must be normalized, to dst.
func appendRow(dst []byte, t *table, cells []wcell) []byte {
	dst = append(dst, rowFormat)
	for i := 0; i < len(cells); {
		j := i
		ncols := 0
		for j < len(cells) && cells[j].fam == cells[i].fam {
			if j == i || cells[j].qual != cells[j-1].qual {
				ncols++
			}
			j++
		}
		dst = appendString(dst, t.fams[cells[i].fam].name)
		dst = binary.AppendUvarint(dst, uint64(ncols))
		for k := i; k < j; {
			m := k
			for m < j && cells[m].qual == cells[k].qual {
				m++
			}
			dst = appendString(dst, cells[k].qual)
			dst = binary.AppendUvarint(dst, uint64(m-k))
			for v := k; v < m; v++ {
				ts := cells[v].ts
				if v > k {
					ts = cells[v-1].ts - ts
				}
				dst = binary.AppendUvarint(dst, uint64(ts))
				dst = binary.AppendUvarint(dst, uint64(len(cells[v].val)))
				dst = append(dst, cells[v].val...)
			}
			k = m
		}
		i = j
	}
	return dst
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// cellReader walks the cells of a stored row in stored order.
type cellReader struct {
	b    []byte
	fam  []byte // family of the current cell
	qual []byte // qualifier of the current cell
	ts   int64  // timestamp of the current cell
	// newFam and newCol report that the current cell starts a family or
	// a column.
	newFam, newCol bool
	cols, vers     int // left in the current family and column
	bad            bool
}

func newCellReader(raw []byte) cellReader {
	if len(raw) == 0 || raw[0] != rowFormat {
		return cellReader{bad: true}
	}
	return cellReader{b: raw[1:]}
}

// next moves to the next cell and returns its value, which aliases the row.
// It returns false at the end of the row or when the row is malformed, in
// which case r.bad is set.
func (r *cellReader) next() ([]byte, bool) {
	r.newFam, r.newCol = false, false
	if r.vers == 0 {
		if r.cols == 0 {
			if len(r.b) == 0 || r.bad {
				return nil, false
			}
			fam := r.bytes()
			if r.fam != nil && bytes.Compare(r.fam, fam) >= 0 {
				r.bad = true // families out of order
			}
			r.fam, r.qual = fam, nil
			r.cols = r.count()
			r.newFam = true
		}
		qual := r.bytes()
		if r.qual != nil && bytes.Compare(r.qual, qual) >= 0 {
			r.bad = true // qualifiers out of order
		}
		r.qual = qual
		r.vers = r.count()
		r.cols--
		r.newCol = true
	}
	d := r.uvarint()
	switch {
	case r.newCol && d <= 1<<63-1:
		r.ts = int64(d)
	case !r.newCol && d >= 1 && d <= uint64(r.ts):
		r.ts -= int64(d)
	default:
		r.bad = true
	}
	val := r.bytes()
	r.vers--
	if r.bad {
		return nil, false
	}
	return val, true
}

func (r *cellReader) uvarint() uint64 {
	if b := r.b; len(b) > 0 && b[0] < 0x80 {
		r.b = b[1:]
		return uint64(b[0])
	}
	return r.longUvarint()
}

// longUvarint is uvarint for a varint that is not one byte long.
func (r *cellReader) longUvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	// n <= 0 is a truncated or overflowing varint; a last byte of zero
	// is a padded one, which appendRow never writes.
	if n <= 0 || n > 1 && r.b[n-1] == 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes reads a length-prefixed byte string.
func (r *cellReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// count reads the number of columns or versions that follow, each of which
// takes at least two bytes.
func (r *cellReader) count() int {
	n := r.uvarint()
	if n == 0 || n > uint64(len(r.b))/2 {
		r.bad, r.b = true, nil
		return 0
	}
	return int(n)
}

// decodeRow appends the cells of a stored row to dst, with values that
// alias raw. It fails on a malformed row or a family t does not have.
func decodeRow(t *table, raw []byte, dst []wcell) ([]wcell, bool) {
	r := newCellReader(raw)
	fi := -1
	var qual string
	for {
		val, ok := r.next()
		if !ok {
			return dst, !r.bad
		}
		if r.newFam {
			if fi = t.familyBytes(r.fam); fi < 0 {
				return dst, false
			}
		}
		if r.newCol {
			qual = string(r.qual)
		}
		dst = append(dst, wcell{fam: fi, qual: qual, ts: r.ts, val: val})
	}
}
