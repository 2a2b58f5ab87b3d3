package exectest

import (
	"fmt"
	"math"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
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
//     time is the base plus offset seconds, and _ts the cell's timestamp.
//
// A table with both gives repetitions × cells rows; a wide row with no
// cell in its family gives none.

// expands reports whether a stored row of t may give several logical
// rows.
func expands(t *catalog.Table) bool {
	n := len(t.Key.Components)
	return t.Wide != nil || (n > 0 && t.Key.Components[n-1].Kind == catalog.KindGroup)
}

// expandRow turns base, the row decodeRow built from sr, into its logical
// rows.
func expandRow(t *catalog.Table, sr *exec.StoreRow, base catalog.Row) ([]catalog.Row, error) {
	reps, cols, err := refRepeats(t, sr.Key)
	if err != nil {
		return nil, fmt.Errorf("reference: key '%s' of %s: %w", catalog.ToStringBinary(sr.Key), t.Name, err)
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
		var last *exec.Cell
		for i := range sr.Cells {
			c := &sr.Cells[i]
			if c.Family != t.Wide.Family || (last != nil && last.Qualifier == c.Qualifier) {
				continue
			}
			last = c
			r := one()
			if err := refPoint(t, r, []byte(c.Qualifier), c.Value); err != nil {
				return nil, fmt.Errorf("reference: row '%s' of %s: %w", catalog.ToStringBinary(sr.Key), t.Name, err)
			}
			r[len(t.Columns)] = catalog.TimestampMillis(c.Timestamp)
			out = append(out, r)
		}
	}
	return out, nil
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

// refPoint reads one wide cell into r: offset, time and value.
func refPoint(t *catalog.Table, r catalog.Row, qual, val []byte) error {
	w := t.Wide
	if len(qual) != w.QualWidth {
		return fmt.Errorf("qualifier of %d bytes, want %d", len(qual), w.QualWidth)
	}
	var q uint64
	for _, x := range qual {
		q = q<<8 | uint64(x)
	}
	off := int64(q >> w.Shift)
	flags := q & (1<<w.Shift - 1)
	size := int(flags&7) + 1
	var v float64
	switch {
	case flags&8 != 0 && size == 4 && len(val) == 4:
		v = float64(math.Float32frombits(uint32(val[0])<<24 | uint32(val[1])<<16 | uint32(val[2])<<8 | uint32(val[3])))
	case flags&8 != 0 && size == 8 && len(val) == 8:
		var u uint64
		for _, x := range val {
			u = u<<8 | uint64(x)
		}
		v = math.Float64frombits(u)
	case flags&8 == 0 && len(val) == size && (size == 1 || size == 2 || size == 4 || size == 8):
		n := int64(int8(val[0])) // the sign comes from the first byte
		for _, x := range val[1:] {
			n = n<<8 | int64(x)
		}
		v = float64(n)
	default:
		return fmt.Errorf("value of %d bytes under flags %#x", len(val), flags)
	}
	r[w.Offset] = catalog.Value{Type: t.Columns[w.Offset].Type, I: off}
	r[w.Value] = catalog.Double(v)
	if w.Time >= 0 && !r[w.Base].Null {
		r[w.Time] = catalog.TimestampMillis(r[w.Base].I + off*1000)
	}
	return nil
}
