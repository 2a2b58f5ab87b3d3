package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Wide describes a family whose qualifiers are data (OpenTSDB's points):
// each cell of Family is one logical row, with the key's fields, the
// offset its qualifier holds, the time base + offset, and its value.
//
// A qualifier is QualWidth bytes, big-endian: offset = q >> Shift and
// flags = q & (1<<Shift - 1). The flags give the value's form, as
// OpenTSDB writes it: flags & 8 is a float of 4 or 8 bytes (IEEE, as
// Float.floatToRawIntBits and Double.doubleToRawLongBits), otherwise an
// integer of (flags & 7) + 1 bytes, big-endian two's complement.
type Wide struct {
	Family    string
	QualWidth int
	Shift     uint
	// Offset, Value, Time and Base are column indexes; Time and Base are
	// -1 when the table has no time column. Time = Base + Offset in Base's
	// unit (seconds for OpenTSDB).
	Offset, Value, Time, Base int
	// unit is what Offset counts, in milliseconds.
	unit int64
}

// Expands reports whether one stored row gives several logical rows:
// the table has wide rows or a repeated key group.
func (t *Table) Expands() bool {
	n := len(t.Key.Components)
	return t.Wide != nil || (n > 0 && t.Key.Components[n-1].Kind == KindGroup)
}

// Point reads one cell of a wide family into row: the offset, the time
// and the value. It fails on a qualifier or value of the wrong length.
func (w *Wide) Point(row Row, qual, val []byte) error {
	if len(qual) != w.QualWidth {
		return fmt.Errorf("qualifier '%s' is not %d bytes", ToStringBinary(qual), w.QualWidth)
	}
	q := readUint(qual)
	off := int64(q >> w.Shift)
	flags := q & (1<<w.Shift - 1)
	var v float64
	switch {
	case flags&8 != 0 && len(val) == 4 && flags&7 == 3:
		v = float64(math.Float32frombits(binary.BigEndian.Uint32(val)))
	case flags&8 != 0 && len(val) == 8 && flags&7 == 7:
		v = math.Float64frombits(binary.BigEndian.Uint64(val))
	case flags&8 == 0 && len(val) == int(flags&7)+1 && len(val) <= 8 && len(val)&(len(val)-1) == 0:
		v = float64(signExtend(readUint(val), len(val)))
	default:
		return fmt.Errorf("value '%s' does not fit the flags %#x of qualifier '%s'", ToStringBinary(val), flags, ToStringBinary(qual))
	}
	row[w.Offset] = Value{Type: row[w.Offset].Type, I: off}
	row[w.Value] = Double(v)
	if w.Time >= 0 && !row[w.Base].Null {
		row[w.Time] = TimestampMillis(row[w.Base].I + off*w.unit)
	}
	return nil
}

// Cell writes a point as OpenTSDB does: an integral value in the fewest
// of 1, 2, 4 or 8 bytes (TSDB.addPoint(long)), any other as an 8-byte
// double with flags 0xF.
func (w *Wide) Cell(offset int64, v float64) (qual, val []byte, err error) {
	if offset < 0 || uint64(offset) >= 1<<(uint(w.QualWidth)*8-w.Shift) {
		return nil, nil, fmt.Errorf("offset %d does not fit the qualifier", offset)
	}
	var flags uint64
	if n := int64(v); float64(n) == v && v >= -(1<<63) && v < 1<<63 {
		switch {
		case n >= math.MinInt8 && n <= math.MaxInt8:
			val = []byte{byte(n)}
		case n >= math.MinInt16 && n <= math.MaxInt16:
			val = binary.BigEndian.AppendUint16(nil, uint16(n))
		case n >= math.MinInt32 && n <= math.MaxInt32:
			val = binary.BigEndian.AppendUint32(nil, uint32(n))
		default:
			val = binary.BigEndian.AppendUint64(nil, uint64(n))
		}
		flags = uint64(len(val) - 1)
	} else {
		val = binary.BigEndian.AppendUint64(nil, math.Float64bits(v))
		flags = 0xF
	}
	return appendInt(nil, uint64(offset)<<w.Shift|flags, w.QualWidth), val, nil
}
