package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode"
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
// millisecond points, compacted cells holding many of either, and append
// cells.
//
// A value column is DOUBLE: an integer point reads as the nearest double.
// The optional integer column (BIGINT) holds an integer point's value
// exactly and is NULL for a float point, so that the two can be told
// apart and integers beyond 2^53 read back whole.
type Wide struct {
	Family string
	// OpenTSDB reads OpenTSDB 2.x's cells; QualWidth and Shift are then 2
	// and 4, what a second-resolution point is written with.
	OpenTSDB  bool
	QualWidth int
	Shift     uint
	// Offset, Value, Integer, Time and Base are column indexes; Integer
	// is -1 when the table has no integer column, Time and Base are -1
	// when it has no time column. Time = Base + Offset in Base's
	// unit (seconds for OpenTSDB; a millisecond point's exact offset
	// reaches Time, and Offset shows its whole seconds).
	Offset, Value, Integer, Time, Base int
	// unit is what Offset counts, in milliseconds.
	unit int64
	// Cells, when set, makes each cell one row whose qualifier is a
	// field (column Qual, read by Cells) and whose value is column
	// Value, read in that column's encoding: seed 002's inverted index,
	// a term's documents as qualifiers. Offset, Integer, Time and Base
	// are then -1.
	Cells *Qualifiers
	Qual  int
	// Names, when set, shows an OpenTSDB row's metric and tags by name:
	// one row per point, not one per point and tag pair.
	Names *TSDBNames
}

// TSDBNames reads an OpenTSDB table's uids as names through OpenTSDB's
// uid table (tsdb-uid): a row keyed by a name holds its uid in family
// id, and a row keyed by a uid its name in family name, each under the
// qualifier of its kind (metrics, tagk, tagv). The table then gives one
// row per point: Metric is the metric's name, Tags the tag pairs by
// name, and the key group's columns (TagK, TagV) are Hidden.
type TSDBNames struct {
	// UIDTable is the uid table's name in the catalog, Physical its
	// HBase table.
	UIDTable, Physical string
	// Width is the length of a uid in bytes (3 by default in OpenTSDB).
	Width int
	// Column indexes: the metric's name, the key field of its uid, the
	// tags, and the group's tag key and value uids.
	Metric, MetricUID, Tags, TagK, TagV int
}

// The qualifiers of tsdb-uid's kinds of uid.
const (
	TSDBMetrics = "metrics"
	TSDBTagK    = "tagk"
	TSDBTagV    = "tagv"
)

// UIDBytes is uid as the key and tsdb-uid hold it: Width bytes,
// big-endian.
func (n *TSDBNames) UIDBytes(uid int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(uid))
	return b[8-n.Width:]
}

// WidePoint is one point of a wide cell.
type WidePoint struct {
	// Millis is the offset from the row's base in milliseconds; Offset is
	// what the offset column shows (Millis in the offset's unit, rounded
	// down).
	Millis, Offset int64
	// Value is the point's value; for an integer point (IsInt) Int is
	// its exact value and Value the nearest double.
	Value float64
	Int   int64
	IsInt bool
}

// Expands reports whether one stored row gives several logical rows:
// the table has wide rows or a repeated key group.
func (t *Table) Expands() bool {
	n := len(t.Key.Components)
	return t.Wide != nil || (n > 0 && t.Key.Components[n-1].Kind == KindGroup)
}

// Collects reports whether the table's key group gives one row, its
// repetitions collected into one column (TSDBNames), not a row each.
func (t *Table) Collects() bool { return t.Wide != nil && t.Wide.Names != nil }

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
	if w.Integer >= 0 {
		row[w.Integer] = Null(TypeBigint)
		if p.IsInt {
			row[w.Integer] = Bigint(p.Int)
		}
	}
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
	p := WidePoint{Millis: off * w.unit, Offset: off}
	if err := p.setValue(byte(flags&0xF), val); err != nil {
		return dst, fmt.Errorf("%w of qualifier '%s'", err, ToStringBinary(qual))
	}
	return append(dst, p), nil
}

// setValue reads p's value by its flags: flags & 8 a float of 4 or 8
// bytes, otherwise an integer of 1, 2, 4 or 8.
func (p *WidePoint) setValue(flags byte, val []byte) error {
	switch {
	case flags&8 != 0 && len(val) == 4:
		p.Value = float64(math.Float32frombits(binary.BigEndian.Uint32(val)))
	case flags&8 != 0 && len(val) == 8:
		p.Value = math.Float64frombits(binary.BigEndian.Uint64(val))
	case flags&8 == 0 && (len(val) == 1 || len(val) == 2 || len(val) == 4 || len(val) == 8):
		p.Int, p.IsInt = signExtend(readUint(val), len(val)), true
		p.Value = float64(p.Int)
	default:
		return fmt.Errorf("value '%s' does not fit the flags %#x", ToStringBinary(val), flags)
	}
	return nil
}

// Cell writes a point's qualifier: offset, in the qualifier's unit, and
// the flags of its value. With the OpenTSDB format the offset is within
// the hour, 0 to 3599 s.
func (w *Wide) Cell(offset int64, flags byte) ([]byte, error) {
	if w.OpenTSDB && (offset < 0 || offset >= tsdbHour) {
		return nil, fmt.Errorf("offset %d s is not within the row's hour (0 to %d)", offset, tsdbHour-1)
	}
	if offset < 0 || uint64(offset) >= 1<<(uint(w.QualWidth)*8-w.Shift) {
		return nil, fmt.Errorf("offset %d does not fit the qualifier", offset)
	}
	return appendInt(nil, uint64(offset)<<w.Shift|uint64(flags), w.QualWidth), nil
}

// intValue is n in OpenTSDB's bytes as TSDB.addPoint(long) writes it: the
// fewest of 1, 2, 4 or 8, and the flags that say so.
func intValue(n int64) ([]byte, byte) {
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

// doubleValue is v as TSDB.addPoint(double) writes it: 8 bytes, flags
// 0xF (a float of 8 bytes).
func doubleValue(v float64) ([]byte, byte) {
	return binary.BigEndian.AppendUint64(nil, math.Float64bits(v)), 0xF
}

// rowValue is the value bytes and flags of the point row holds, ok false
// when it holds none. With an integer column, a set integer is written as
// an integer (and the value, if set too, must be the same number) and a
// value alone as a double. Without one, a value that is a whole number
// (not -0) is written as an integer, any other as a double. The OpenTSDB
// format refuses NaN and the infinities, as TSDB.addPoint does.
func (w *Wide) rowValue(row Row) (val []byte, flags byte, ok bool, err error) {
	v := row[w.Value]
	if w.Integer >= 0 && !row[w.Integer].Null {
		n := row[w.Integer].I
		if !v.Null && v.F != float64(n) {
			return nil, 0, false, fmt.Errorf("value %s and integer %d of one point differ", v, n)
		}
		val, flags = intValue(n)
		return val, flags, true, nil
	}
	if v.Null {
		return nil, 0, false, nil
	}
	f := v.F
	if w.OpenTSDB && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, 0, false, fmt.Errorf("value %s is not a number OpenTSDB stores (it refuses NaN and infinities)", v)
	}
	if n := int64(f); w.Integer < 0 && float64(n) == f && f >= -(1<<63) && f < 1<<63 && !(f == 0 && math.Signbit(f)) {
		val, flags = intValue(n)
		return val, flags, true, nil
	}
	val, flags = doubleValue(f)
	return val, flags, true, nil
}

// RowCell returns the cell an INSERT of row writes, ok false when row
// holds no point (no value, or neither an offset nor a time). A time
// gives the offset (and must agree with an offset given too); with the
// OpenTSDB format a time with milliseconds is written as a 4-byte
// millisecond point, any other as a 2-byte one. Compacted and append
// cells are never written. With the OpenTSDB format, row must have been
// through Complete.
func (w *Wide) RowCell(row Row) (qual, val []byte, ok bool, err error) {
	val, flags, ok, err := w.rowValue(row)
	if !ok || err != nil {
		return nil, nil, false, err
	}
	if w.Time < 0 || row[w.Time].Null {
		if row[w.Offset].Null {
			return nil, nil, false, nil
		}
		qual, err = w.Cell(row[w.Offset].I, flags)
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
		qual, err = w.Cell(ms/w.unit, flags)
	case w.OpenTSDB:
		qual, err = tsdbMillisCell(ms, flags)
	default:
		err = fmt.Errorf("time %s is not a whole offset from its base", row[w.Time])
	}
	return qual, val, err == nil, err
}

// ParseTSDBTags reads tags as OpenTSDB's put takes them: k=v pairs
// separated by spaces (host=web01 dc=lga), at least one, each key once.
// OpenTSDB's names are letters, digits and - _ . / (and Unicode
// letters); a pair that is not k=v or repeats a key is an error.
func ParseTSDBTags(s string) (Value, error) {
	var es []MapEntry
	seen := map[string]bool{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" || v == "" {
			return Value{}, fmt.Errorf("tag %q is not key=value (tags are written as OpenTSDB's put takes them: host=web01 dc=lga)", f)
		}
		for _, name := range []string{k, v} {
			if err := tsdbName(name); err != nil {
				return Value{}, err
			}
		}
		if seen[k] {
			return Value{}, fmt.Errorf("tag key %q is given twice", k)
		}
		seen[k] = true
		es = append(es, MapEntry{Key: String(k), Val: String(v)})
	}
	if len(es) == 0 {
		return Value{}, fmt.Errorf("a point needs at least one tag, as OpenTSDB's put does (host=web01 dc=lga)")
	}
	return NewMap(es), nil
}

// tsdbName checks a metric, tag key or tag value name as OpenTSDB's
// Tags.validateString does: letters, digits, '-', '_', '.', '/'.
func tsdbName(s string) error {
	if s == "" {
		return fmt.Errorf("an OpenTSDB name cannot be empty")
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' || r == '/') {
			return fmt.Errorf("invalid character %q in OpenTSDB name %q (letters, digits and - _ . / only)", r, s)
		}
	}
	return nil
}

// CheckTSDBName checks a metric name as OpenTSDB does.
func CheckTSDBName(s string) error { return tsdbName(s) }
