package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Wide describes a family whose qualifiers are data (OpenTSDB's points):
// each point a cell of Family holds is one logical row, with the key's
// fields, the offset its qualifier holds, the time base + offset, and its
// value.
//
// With qualifier {width, shift}, a qualifier is QualWidth bytes,
// big-endian: offset = q >> Shift and flags = q & (1<<Shift - 1), one
// point per cell. The flags give the value's form, as OpenTSDB writes it:
// flags & 8 is a float of 4 or 8 bytes (IEEE, as Float.floatToRawIntBits
// and Double.doubleToRawLongBits), otherwise an integer of (flags & 7) + 1
// bytes, big-endian two's complement.
//
// With qualifier {format: opentsdb} (OpenTSDB set), cells are read as
// OpenTSDB 2.x writes them (see Points): 2-byte second and 4-byte
// millisecond points, and compacted cells holding many of either.
type Wide struct {
	Family string
	// OpenTSDB reads OpenTSDB 2.x's cells; QualWidth and Shift are then 2
	// and 4, what a second-resolution point is written with.
	OpenTSDB  bool
	QualWidth int
	Shift     uint
	// Offset, Value, Time and Base are column indexes; Time and Base are
	// -1 when the table has no time column. Time = Base + Offset in Base's
	// unit (seconds for OpenTSDB; a millisecond point's exact offset
	// reaches Time, and Offset shows its whole seconds).
	Offset, Value, Time, Base int
	// unit is what Offset counts, in milliseconds.
	unit int64
}

// WidePoint is one point of a wide cell.
type WidePoint struct {
	// Millis is the offset from the row's base in milliseconds; Offset is
	// what the offset column shows (Millis in the offset's unit, rounded
	// down).
	Millis, Offset int64
	Value          float64
}

// Expands reports whether one stored row gives several logical rows:
// the table has wide rows or a repeated key group.
func (t *Table) Expands() bool {
	n := len(t.Key.Components)
	return t.Wide != nil || (n > 0 && t.Key.Components[n-1].Kind == KindGroup)
}

// Point reads a cell of a wide family that holds one point into row: the
// offset, the time and the value. It fails on a qualifier or value of the
// wrong length, and on a cell of several points.
func (w *Wide) Point(row Row, qual, val []byte) error {
	var one [1]WidePoint
	pts, err := w.Points(one[:0], qual, val)
	if err != nil {
		return err
	}
	if len(pts) != 1 {
		return fmt.Errorf("qualifier '%s' holds %d points, not one", ToStringBinary(qual), len(pts))
	}
	w.Set(row, pts[0])
	return nil
}

// Set writes p into row: the offset, the value and, when the table has a
// time column and the row a base, the time.
func (w *Wide) Set(row Row, p WidePoint) {
	row[w.Offset] = Value{Type: row[w.Offset].Type, I: p.Offset}
	row[w.Value] = Double(p.Value)
	if w.Time >= 0 && !row[w.Base].Null {
		row[w.Time] = TimestampMillis(row[w.Base].I + p.Millis)
	}
}

// Points appends the points of one cell to dst. It fails, appending
// nothing, on a cell that does not fit the qualifier layout.
func (w *Wide) Points(dst []WidePoint, qual, val []byte) ([]WidePoint, error) {
	if w.OpenTSDB {
		return tsdbPoints(dst, qual, val)
	}
	if len(qual) != w.QualWidth {
		return dst, fmt.Errorf("qualifier '%s' is not %d bytes", ToStringBinary(qual), w.QualWidth)
	}
	q := readUint(qual)
	off := int64(q >> w.Shift)
	flags := q & (1<<w.Shift - 1)
	if flags&7+1 != uint64(len(val)) {
		return dst, fmt.Errorf("value '%s' does not fit the flags %#x of qualifier '%s'", ToStringBinary(val), flags, ToStringBinary(qual))
	}
	v, err := flagValue(byte(flags&0xF), val)
	if err != nil {
		return dst, fmt.Errorf("%w of qualifier '%s'", err, ToStringBinary(qual))
	}
	return append(dst, WidePoint{Millis: off * w.unit, Offset: off, Value: v}), nil
}

// flagValue reads a value by its flags: flags & 8 a float of 4 or 8
// bytes, otherwise an integer of 1, 2, 4 or 8.
func flagValue(flags byte, val []byte) (float64, error) {
	switch {
	case flags&8 != 0 && len(val) == 4:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(val))), nil
	case flags&8 != 0 && len(val) == 8:
		return math.Float64frombits(binary.BigEndian.Uint64(val)), nil
	case flags&8 == 0 && (len(val) == 1 || len(val) == 2 || len(val) == 4 || len(val) == 8):
		return float64(signExtend(readUint(val), len(val))), nil
	}
	return 0, fmt.Errorf("value '%s' does not fit the flags %#x", ToStringBinary(val), flags)
}

// Cell writes a point as OpenTSDB does: an integral value in the fewest
// of 1, 2, 4 or 8 bytes (TSDB.addPoint(long)), any other as an 8-byte
// double with flags 0xF.
func (w *Wide) Cell(offset int64, v float64) (qual, val []byte, err error) {
	if offset < 0 || uint64(offset) >= 1<<(uint(w.QualWidth)*8-w.Shift) {
		return nil, nil, fmt.Errorf("offset %d does not fit the qualifier", offset)
	}
	val, flags := pointValue(v)
	return appendInt(nil, uint64(offset)<<w.Shift|uint64(flags), w.QualWidth), val, nil
}

// pointValue is v in OpenTSDB's bytes, and the flags that say so.
func pointValue(v float64) ([]byte, byte) {
	if n := int64(v); float64(n) == v && v >= -(1<<63) && v < 1<<63 {
		var val []byte
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
		return val, byte(len(val) - 1)
	}
	return binary.BigEndian.AppendUint64(nil, math.Float64bits(v)), 0xF
}

// RowCell returns the cell an INSERT of row writes, ok false when row
// holds no point (no value, or neither an offset nor a time). A time
// gives the offset (and must agree with an offset given too); with the
// OpenTSDB format a time with milliseconds is written as a 4-byte
// millisecond point, any other as a 2-byte one. Compacted cells are never
// written.
func (w *Wide) RowCell(row Row) (qual, val []byte, ok bool, err error) {
	if row[w.Value].Null {
		return nil, nil, false, nil
	}
	v := row[w.Value].F
	if w.Time < 0 || row[w.Time].Null {
		if row[w.Offset].Null {
			return nil, nil, false, nil
		}
		qual, val, err = w.Cell(row[w.Offset].I, v)
		return qual, val, err == nil, err
	}
	if row[w.Base].Null {
		return nil, nil, false, fmt.Errorf("a point's time needs its base")
	}
	ms := row[w.Time].I - row[w.Base].I
	if !row[w.Offset].Null && (ms < 0 || ms/w.unit != row[w.Offset].I) {
		return nil, nil, false, fmt.Errorf("time %s is not base + offset %d", row[w.Time], row[w.Offset].I)
	}
	switch {
	case ms < 0:
		return nil, nil, false, fmt.Errorf("time %s is before its base %s", row[w.Time], row[w.Base])
	case ms%w.unit == 0:
		qual, val, err = w.Cell(ms/w.unit, v)
	case w.OpenTSDB:
		qual, val, err = tsdbMillisCell(ms, v)
	default:
		err = fmt.Errorf("time %s is not a whole offset from its base", row[w.Time])
	}
	return qual, val, err == nil, err
}
