package exec

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// A sorted row is held as one byte string: the kept columns' values one
// after another, the sort keys' columns first, so that a comparison reads
// only the front of two rows. A value is
//
//	header  = uvarint(type<<6 | flags)    flags: 1 NULL, 2 I, 4 F, 8 S, 16 B, 32 M
//	then, for each flag set among I, F, S, B, M in that order:
//	I       = varint(I)
//	F       = 8 bytes, the IEEE bits little-endian
//	S, B    = uvarint(len) bytes
//	M       = uvarint(entries), then each entry's key and value, as values
//
// Only the fields a value sets are written, so every catalog.Value comes
// back as it went in, whatever its type holds. A BIGINT and a STRING of
// ten bytes take about twenty bytes, where two catalog.Values take 144
// and a row of them a slice, a pointer and a string allocation more.
const (
	flagNull = 1 << iota
	flagI
	flagF
	flagS
	flagB
	flagM
	flagBits = 6
)

// sortCodec encodes, compares and decodes the rows of one sort.
type sortCodec struct {
	fields []int // the columns encoded, in order: sort keys, then the rest
	width  int   // the decoded row's length
	keys   []planner.SortKey
	// keyField is each sort key's place in fields; it is never past the
	// key's own place in keys, so the fields a comparison needs are
	// read in one pass from the front.
	keyField []int
	va, vb   []fieldView // scratch of compare, one per key field
}

func newSortCodec(keep []int, width int, keys []planner.SortKey) *sortCodec {
	c := &sortCodec{width: width, keys: keys}
	at := map[int]int{}
	add := func(col int) int {
		if i, ok := at[col]; ok {
			return i
		}
		at[col] = len(c.fields)
		c.fields = append(c.fields, col)
		return len(c.fields) - 1
	}
	for _, k := range keys {
		c.keyField = append(c.keyField, add(k.Col))
	}
	nk := len(c.fields)
	if keep == nil {
		for col := range width {
			add(col)
		}
	} else {
		keep = slices.Sorted(slices.Values(keep))
		for _, col := range keep {
			add(col)
		}
	}
	c.va, c.vb = make([]fieldView, nk), make([]fieldView, nk)
	return c
}

// encode appends the encoding of row's kept columns to dst.
func (c *sortCodec) encode(dst []byte, row catalog.Row) []byte {
	for _, col := range c.fields {
		dst = appendValue(dst, row[col])
	}
	return dst
}

func appendValue(dst []byte, v catalog.Value) []byte {
	flags := uint64(0)
	if v.Null {
		flags |= flagNull
	}
	if v.I != 0 {
		flags |= flagI
	}
	if math.Float64bits(v.F) != 0 {
		flags |= flagF
	}
	if v.S != "" {
		flags |= flagS
	}
	if v.B != nil {
		flags |= flagB
	}
	if v.M != nil {
		flags |= flagM
	}
	dst = binary.AppendUvarint(dst, uint64(v.Type)<<flagBits|flags)
	if flags&flagI != 0 {
		dst = binary.AppendVarint(dst, v.I)
	}
	if flags&flagF != 0 {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
	}
	if flags&flagS != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(v.S)))
		dst = append(dst, v.S...)
	}
	if flags&flagB != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(v.B)))
		dst = append(dst, v.B...)
	}
	if flags&flagM != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(v.M.Entries)))
		for _, e := range v.M.Entries {
			dst = appendValue(appendValue(dst, e.Key), e.Val)
		}
	}
	return dst
}

// fieldView is one encoded value read in place: s and b point into the
// encoding.
type fieldView struct {
	v    catalog.Value // Type, Null, I, F; B is b, S is left empty
	s, b []byte
}

// readValue reads the value at the front of enc, which this package
// encoded, and returns the rest.
func readValue(enc []byte, fv *fieldView) []byte {
	h, n := binary.Uvarint(enc)
	enc = enc[n:]
	*fv = fieldView{v: catalog.Value{Type: catalog.Type(h >> flagBits), Null: h&flagNull != 0}}
	if h&flagI != 0 {
		fv.v.I, n = binary.Varint(enc)
		enc = enc[n:]
	}
	if h&flagF != 0 {
		fv.v.F = math.Float64frombits(binary.LittleEndian.Uint64(enc))
		enc = enc[8:]
	}
	if h&flagS != 0 {
		l, n := binary.Uvarint(enc)
		fv.s, enc = enc[n:n+int(l)], enc[n+int(l):]
	}
	if h&flagB != 0 {
		l, n := binary.Uvarint(enc)
		fv.b, enc = enc[n:n+int(l):n+int(l)], enc[n+int(l):]
		fv.v.B = fv.b
	}
	if h&flagM != 0 {
		l, n := binary.Uvarint(enc)
		enc = enc[n:]
		es := make([]catalog.MapEntry, l)
		var k, v fieldView
		for i := range es {
			enc = readValue(readValue(enc, &k), &v)
			es[i] = catalog.MapEntry{Key: k.value(), Val: v.value()}
		}
		fv.v.M = catalog.NewMap(es).M
	}
	return enc
}

// value is the value fv holds, with its own copies of its bytes.
func (fv *fieldView) value() catalog.Value {
	v := fv.v
	if fv.s != nil {
		v.S = string(fv.s)
	}
	if fv.b != nil {
		v.B = bytes.Clone(fv.b)
	}
	return v
}

// compareViews is catalog.Compare over two values read in place. Compare
// reads S only for two non-NULL STRINGs, which are compared here by
// their bytes, as strings.Compare does; everything else it reads is in v.
func compareViews(a, b *fieldView) int {
	if a.v.Type == catalog.TypeString && b.v.Type == catalog.TypeString && !a.v.Null && !b.v.Null {
		return bytes.Compare(a.s, b.s)
	}
	return catalog.Compare(a.v, b.v)
}

// compare orders two encoded rows by the sort keys; NULL sorts first
// ascending.
func (c *sortCodec) compare(a, b []byte) int {
	read := 0
	for i, k := range c.keys {
		f := c.keyField[i]
		for ; read <= f; read++ {
			a = readValue(a, &c.va[read])
			b = readValue(b, &c.vb[read])
		}
		r := compareViews(&c.va[f], &c.vb[f])
		if r == 0 {
			continue
		}
		if k.Desc {
			return -r
		}
		return r
	}
	return 0
}

// size is the length of the encoded row at the front of enc.
func (c *sortCodec) size(enc []byte) int {
	rest := enc
	var fv fieldView
	for range c.fields {
		rest = readValue(rest, &fv)
	}
	return len(enc) - len(rest)
}

// decode returns the row an encoding holds, at full width, with values of
// its own (nothing points into enc).
func (c *sortCodec) decode(enc []byte) catalog.Row {
	out := make(catalog.Row, c.width)
	var fv fieldView
	for _, col := range c.fields {
		enc = readValue(enc, &fv)
		v := fv.v
		if fv.s != nil {
			v.S = string(fv.s)
		}
		if fv.b != nil {
			v.B = slices.Clone(fv.b)
		}
		out[col] = v
	}
	return out
}

// arenaChunk is the size of the arena's chunks; a longer row gets a chunk
// of its own.
const arenaChunk = 64 << 10

// rowArena holds encoded rows packed in chunks; a rowRef names one by
// its chunk and offset. A row never spans two chunks.
type rowArena struct {
	chunks [][]byte
	// live counts the bytes of rows still held, waste those of rows
	// dropped, which stay in their chunks until compact.
	live, waste int
}

// rowRef is a row of a rowArena: chunk<<32 | offset.
type rowRef uint64

func (a *rowArena) add(enc []byte) rowRef {
	n := len(a.chunks)
	if n == 0 || cap(a.chunks[n-1])-len(a.chunks[n-1]) < len(enc) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(enc))))
		n++
	}
	ch := a.chunks[n-1]
	off := len(ch)
	a.chunks[n-1] = append(ch, enc...)
	a.live += len(enc)
	return rowRef(uint64(n-1)<<32 | uint64(off))
}

// row returns the encoding of r, followed by whatever comes after it in
// its chunk.
func (a *rowArena) row(r rowRef) []byte { return a.chunks[r>>32][uint32(r):] }

// drop counts a row of n bytes no longer held.
func (a *rowArena) drop(n int) { a.live, a.waste = a.live-n, a.waste+n }

// wasteful reports whether dropped rows take more room than held ones
// (and more than a chunk), so that the arena holds at most about twice
// what its rows need.
func (a *rowArena) wasteful() bool { return a.waste > a.live && a.waste > arenaChunk }

// compact copies the rows refs name into a new arena, updating refs.
func (a *rowArena) compact(refs []rowRef, c *sortCodec) *rowArena {
	b := &rowArena{}
	for i, r := range refs {
		enc := a.row(r)
		refs[i] = b.add(enc[:c.size(enc)])
	}
	return b
}
