package ref

import (
	"fmt"
	"math"
	"sort"

	"github.com/rkql/rkql/catalog"
)

// The reference's own reading of the two layouts that give several
// logical rows per stored row, written from their definitions and not
// with the catalog's codec or the executor's expansion:
//
//   - a key group (OpenTSDB's tag pairs) repeats fixed-width fields until
//     the key ends; the row is read once per repetition, each logical row
//     holding that repetition's values in the group's columns, so that a
//     condition on two of its fields holds only where one repetition
//     satisfies both;
//   - a wide family (OpenTSDB's points) gives one logical row per
//     qualifier, newest version only: the qualifier is offset << shift |
//     flags, big-endian; flags & 8 is a float of 4 or 8 bytes, otherwise
//     an integer of (flags & 7) + 1 bytes, big-endian two's complement;
//     time is the base plus offset seconds, and _ts the cell's timestamp;
//   - a wide family in OpenTSDB's format (refTSDBCell) also holds 4-byte
//     millisecond points, compacted cells of many points and append
//     cells; its points are in time order, one per time, from the newest
//     cell holding it (in an append cell, its last pair for that time);
//   - the value column holds a point's value as a double; the integer
//     column, when there is one, an integer point's value as it is stored
//     and NULL for a float point.
//
// A table with both gives repetitions × points rows; a wide row with no
// point in its family gives none. A wide cell that does not fit is left
// out, the row's other cells read, as the engine skips it.

// Expands reports whether a stored row of t may give several logical
// rows.
func Expands(t *catalog.Table) bool {
	n := len(t.Key.Components)
	return t.Wide != nil || (n > 0 && t.Key.Components[n-1].Kind == catalog.KindGroup)
}

// expandRow turns base, the row Decoder.row built from key and cells,
// into its logical rows.
func expandRow(t *catalog.Table, key []byte, cells []Cell, base catalog.Row) ([]catalog.Row, error) {
	reps, cols, err := refRepeats(t, key)
	if err != nil {
		return nil, fmt.Errorf("reference: key '%s' of %s: %w", catalog.ToStringBinary(key), t.Name, err)
	}
	var out []catalog.Row
	for _, rep := range reps {
		one := func() catalog.Row {
			r := append(catalog.Row(nil), base...)
			for j, c := range cols {
				r[c] = rep[j]
			}
			return r
		}
		if t.Wide == nil {
			out = append(out, one())
			continue
		}
		if t.Wide.Cells != nil {
			out = append(out, refCellRows(t, cells, one())...)
			continue
		}
		for _, p := range refWidePoints(t, cells) {
			r := one()
			w := t.Wide
			r[w.Offset] = catalog.Value{Type: t.Columns[w.Offset].Type, I: p.off}
			r[w.Value] = catalog.Double(p.v)
			if w.Integer >= 0 {
				r[w.Integer] = catalog.Null(catalog.TypeBigint)
				if p.isInt {
					r[w.Integer] = catalog.Bigint(p.i)
				}
			}
			if w.Time >= 0 && !r[w.Base].Null {
				r[w.Time] = catalog.TimestampMillis(r[w.Base].I + p.ms)
			}
			r[len(t.Columns)] = catalog.TimestampMillis(p.stamp)
			out = append(out, r)
		}
	}
	return out, nil
}

// refPt is one point of a wide row: its offset as the offset column
// shows it, its distance from the base in milliseconds, its value, and
// the timestamp of the cell holding it; an integer point's value is also
// i, exactly.
type refPt struct {
	off, ms, stamp int64
	v              float64
	i              int64
	isInt          bool
}

// refWidePoints reads the points of the cells of the wide family, newest
// version of each cell only, leaving out the cells that do not fit.
func refWidePoints(t *catalog.Table, cells []Cell) []refPt {
	w := t.Wide
	var pts []refPt
	var last *Cell
	for i := range cells {
		c := &cells[i]
		if c.Family != w.Family || (last != nil && last.Qualifier == c.Qualifier) {
			continue
		}
		last = c
		var got []refPt
		var err error
		if w.OpenTSDB {
			got, err = refTSDBCell([]byte(c.Qualifier), c.Value)
		} else {
			var p refPt
			p, err = refPoint(w, []byte(c.Qualifier), c.Value)
			got = []refPt{p}
		}
		if err != nil {
			continue
		}
		for _, p := range got {
			p.stamp = c.Timestamp
			pts = append(pts, p)
		}
	}
	if !w.OpenTSDB {
		return pts
	}
	// One point per time: the newest cell's, the first read among
	// cells of the same timestamp; then time order.
	best := map[int64]int{}
	for i, p := range pts {
		if j, ok := best[p.ms]; !ok || p.stamp > pts[j].stamp {
			best[p.ms] = i
		}
	}
	var out []refPt
	for _, i := range best {
		out = append(out, pts[i])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ms < out[j].ms })
	return out
}

// refRepeats reads the repetitions of key's trailing group, and the
// column each of a repetition's values goes to. A key without a group
// has one empty repetition.
func refRepeats(t *catalog.Table, key []byte) ([][]catalog.Value, []int, error) {
	comps := t.Key.Components
	n := len(comps)
	if n == 0 || comps[n-1].Kind != catalog.KindGroup {
		return [][]catalog.Value{nil}, nil, nil
	}
	start := 0
	for i := range comps[:n-1] {
		c := &comps[i]
		switch {
		case c.Kind == catalog.KindLiteral:
			start += len(c.Literal)
		case c.Width > 0:
			start += c.Width
		default:
			return nil, nil, fmt.Errorf("a group after the variable-width %s is not modelled", c)
		}
	}
	g := comps[n-1].Group
	w := 0
	cols := make([]int, len(g))
	for i := range g {
		w += g[i].Width
		cols[i] = g[i].Column()
	}
	rest := len(key) - start
	if rest <= 0 || w == 0 || rest%w != 0 {
		return nil, nil, fmt.Errorf("%d bytes of group, not a positive multiple of %d", rest, w)
	}
	var reps [][]catalog.Value
	for pos := start; pos < len(key); {
		rep := make([]catalog.Value, len(g))
		for i := range g {
			v, err := refIntField(&g[i], t.Columns[cols[i]].Type, key[pos:pos+g[i].Width])
			if err != nil {
				return nil, nil, err
			}
			rep[i] = v
			pos += g[i].Width
		}
		reps = append(reps, rep)
	}
	return reps, cols, nil
}

// refIntField reads a fixed-width integer key field: java is big-endian
// two's complement (or unsigned), binary the same with the sign bit
// flipped. Other encodings and types are not modelled.
func refIntField(c *catalog.Component, typ catalog.Type, b []byte) (catalog.Value, error) {
	switch typ {
	case catalog.TypeInt, catalog.TypeBigint:
	default:
		return catalog.Value{}, fmt.Errorf("a group field of type %s is not modelled", typ)
	}
	if len(b) == 0 || len(b) > 8 || c.Desc {
		return catalog.Value{}, fmt.Errorf("group field %s is not modelled", c.Field)
	}
	var u uint64
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	bits := uint(len(b)) * 8
	var n int64
	switch {
	case c.Enc == catalog.KeyJava && c.Unsigned:
		if bits == 64 && u > math.MaxInt64 {
			return catalog.Value{}, fmt.Errorf("unsigned %d does not fit a BIGINT", u)
		}
		n = int64(u)
	case c.Enc == catalog.KeyJava:
		n = int64(u<<(64-bits)) >> (64 - bits)
	case c.Enc == catalog.KeyBinary:
		u ^= 1 << (bits - 1)
		n = int64(u<<(64-bits)) >> (64 - bits)
	default:
		return catalog.Value{}, fmt.Errorf("group field %s: encoding is not modelled", c.Field)
	}
	if typ == catalog.TypeInt && (n < math.MinInt32 || n > math.MaxInt32) {
		return catalog.Value{}, fmt.Errorf("%d does not fit an INT", n)
	}
	return catalog.Value{Type: typ, I: n}, nil
}

// refPoint reads one cell of a wide family of fixed-width qualifiers:
// its offset and value.
func refPoint(w *catalog.Wide, qual, val []byte) (refPt, error) {
	if len(qual) != w.QualWidth {
		return refPt{}, fmt.Errorf("qualifier of %d bytes, want %d", len(qual), w.QualWidth)
	}
	var q uint64
	for _, x := range qual {
		q = q<<8 | uint64(x)
	}
	off := int64(q >> w.Shift)
	flags := q & (1<<w.Shift - 1)
	if int(flags&7)+1 != len(val) {
		return refPt{}, fmt.Errorf("value of %d bytes under flags %#x", len(val), flags)
	}
	p, err := refValue(flags&8 != 0, val)
	if err != nil {
		return refPt{}, err
	}
	p.off, p.ms = off, off*1000
	return p, nil
}

// refValue reads a point's value: a float of 4 or 8 bytes (IEEE), or an
// integer of 1, 2, 4 or 8 bytes, big-endian two's complement.
func refValue(float bool, val []byte) (refPt, error) {
	var u uint64
	for _, x := range val {
		u = u<<8 | uint64(x)
	}
	switch {
	case float && len(val) == 4:
		return refPt{v: float64(math.Float32frombits(uint32(u)))}, nil
	case float && len(val) == 8:
		return refPt{v: math.Float64frombits(u)}, nil
	case !float && (len(val) == 1 || len(val) == 2 || len(val) == 4 || len(val) == 8):
		bits := uint(len(val)) * 8
		n := int64(u<<(64-bits)) >> (64 - bits)
		return refPt{v: float64(n), i: n, isInt: true}, nil
	}
	return refPt{}, fmt.Errorf("%d bytes are no value (float %v)", len(val), float)
}

// refTSDBCell reads one cell of OpenTSDB 2.x's tsdb family:
//
//   - a qualifier of 2 bytes is a point at offset q >> 4 seconds, flags
//     q & 0xF; its value's own length gives its width (as OpenTSDB reads
//     a single cell), and a float flagged 4 bytes but stored in 8 is its
//     last 4 when the first 4 are zero;
//   - a qualifier of 4 bytes whose first nibble is 0xF is a point at
//     offset (q & 0x0FFFFFFF) >> 6 milliseconds, flags q & 0xF, whose
//     value has exactly (flags & 7) + 1 bytes;
//   - any other even qualifier is a compacted cell: points of 2 bytes,
//     or 4 when the first nibble is 0xF, one after the other, their
//     values of (flags & 7) + 1 bytes one after the other in the value,
//     then one meta byte;
//   - the qualifier 05 00 00 is an append cell (refAppendCell);
//   - any other odd qualifier is no point (an annotation or a histogram
//     column).
func refTSDBCell(qual, val []byte) ([]refPt, error) {
	msPoint, secPoint, pt := refMsQual, refSecQual, refAt
	switch {
	case len(qual) == 3 && qual[0] == 0x05 && qual[1] == 0 && qual[2] == 0:
		return refAppendCell(val)
	case len(qual) == 0 || len(qual)%2 == 1:
		return nil, fmt.Errorf("qualifier of %d bytes is no point", len(qual))
	case len(qual) == 2:
		ms, flags := secPoint(qual)
		if flags&8 != 0 && flags&7 == 3 && len(val) == 8 {
			if val[0] != 0 || val[1] != 0 || val[2] != 0 || val[3] != 0 {
				return nil, fmt.Errorf("a 4-byte float in 8 bytes not led by zeros")
			}
			val = val[4:]
		}
		v, err := refValue(flags&8 != 0, val)
		if err != nil {
			return nil, err
		}
		return []refPt{pt(ms, v)}, nil
	case len(qual) == 4 && qual[0]>>4 == 0xF:
		ms, flags := msPoint(qual)
		if int(flags&7)+1 != len(val) {
			return nil, fmt.Errorf("value of %d bytes under flags %#x", len(val), flags)
		}
		v, err := refValue(flags&8 != 0, val)
		if err != nil {
			return nil, err
		}
		return []refPt{pt(ms, v)}, nil
	}
	var pts []refPt
	vi := 0
	for qi := 0; qi < len(qual); {
		var ms int64
		var flags byte
		if qual[qi]>>4 == 0xF {
			if qi+4 > len(qual) {
				return nil, fmt.Errorf("compacted qualifier ends inside a millisecond point")
			}
			ms, flags = msPoint(qual[qi:])
			qi += 4
		} else {
			ms, flags = secPoint(qual[qi:])
			qi += 2
		}
		n := int(flags&7) + 1
		if vi+n > len(val) {
			return nil, fmt.Errorf("compacted value ends inside point %d", len(pts))
		}
		v, err := refValue(flags&8 != 0, val[vi:vi+n])
		if err != nil {
			return nil, err
		}
		vi += n
		pts = append(pts, pt(ms, v))
	}
	if len(val)-vi != 1 {
		return nil, fmt.Errorf("compacted value has %d bytes after its points, not one meta byte", len(val)-vi)
	}
	return pts, nil
}

// refMsQual reads a 4-byte millisecond qualifier: its offset in
// milliseconds and its flags.
func refMsQual(q []byte) (int64, byte) {
	u := uint32(q[0])<<24 | uint32(q[1])<<16 | uint32(q[2])<<8 | uint32(q[3])
	return int64(u&0x0FFFFFFF) >> 6, byte(u & 0xF)
}

// refSecQual reads a 2-byte second qualifier: its offset in
// milliseconds and its flags.
func refSecQual(q []byte) (int64, byte) {
	u := uint16(q[0])<<8 | uint16(q[1])
	return int64(u>>4) * 1000, byte(u & 0xF)
}

// refAt is v placed ms after the base.
func refAt(ms int64, v refPt) refPt {
	v.off, v.ms = ms/1000, ms
	return v
}

// refAppendCell reads the value of an append cell: pairs of a point's
// qualifier (4 bytes when its first nibble is 0xF, else 2) and its value
// of (flags & 7) + 1 bytes, to the end; of two pairs at one time the
// later counts. The points are returned in time order.
func refAppendCell(val []byte) ([]refPt, error) {
	if len(val) == 0 {
		return nil, fmt.Errorf("an empty append cell")
	}
	at := map[int64]refPt{}
	for i := 0; i < len(val); {
		var ms int64
		var flags byte
		switch {
		case val[i]>>4 == 0xF && i+4 <= len(val):
			ms, flags = refMsQual(val[i:])
			i += 4
		case val[i]>>4 != 0xF && i+2 <= len(val):
			ms, flags = refSecQual(val[i:])
			i += 2
		default:
			return nil, fmt.Errorf("append cell ends inside a qualifier")
		}
		n := int(flags&7) + 1
		if i+n > len(val) {
			return nil, fmt.Errorf("append cell ends inside a value")
		}
		v, err := refValue(flags&8 != 0, val[i:i+n])
		if err != nil {
			return nil, err
		}
		i += n
		at[ms] = refAt(ms, v)
	}
	var pts []refPt
	for _, p := range at {
		pts = append(pts, p)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].ms < pts[j].ms })
	return pts, nil
}
