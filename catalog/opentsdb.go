package catalog

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
)

// OpenTSDB 2.x's qualifiers (Const, Internal):
//
//   - a second point is 2 bytes, offset in seconds << 4 | flags;
//   - a millisecond point is 4 bytes, 0xF << 28 | offset in ms << 6 |
//     flags, bits 4 and 5 unused: its first byte's high nibble is 0xF,
//     which a second point's never is (3599 << 4 is 0xE0F0);
//   - flags & 8 marks a float, (flags & 7) + 1 is the value's length;
//   - a compacted cell (CompactionQueue) holds an hour's points: its
//     qualifier is their qualifiers, 2 or 4 bytes each, mixed or not, in
//     time order, and its value their values followed by one meta byte
//     (1 when seconds and milliseconds are mixed, else 0);
//   - an append cell (AppendDataPoints, with tsd.storage.enable_appends)
//     has the 3-byte qualifier 0x05 0x00 0x00 and holds points as
//     qualifier and value pairs one after the other, each value of the
//     length its flags give, in the order they were appended: a time
//     given twice is the later pair's, and the points are read in time
//     order;
//   - any other qualifier of odd length is no point: an annotation
//     (0x01) or a histogram (0x06).
//
// A row's base is on the hour, and its points' offsets are within it.
const (
	tsdbMsNibble   = 0xF0
	tsdbMsFlagBits = 6
	tsdbHour       = 3600
	tsdbAppend     = 0x05
)

// tsdbPoints appends the points of one OpenTSDB cell to dst. A single
// 2-byte point is read as OpenTSDB reads it (Internal.extractDataPoints):
// a float flagged as 4 bytes but stored in 8 whose first 4 are zero is
// its last 4 (what early versions wrote), and the value's length, not the
// flags', gives its width. Millisecond and compacted points must have the
// lengths their flags give.
func tsdbPoints(dst []WidePoint, qual, val []byte) ([]WidePoint, error) {
	switch {
	case len(qual) == 3 && qual[0] == tsdbAppend:
		return tsdbAppended(dst, qual, val)
	case len(qual)%2 != 0 || len(qual) == 0:
		return dst, fmt.Errorf("qualifier '%s' is not a data point (an annotation or histogram column)", ToStringBinary(qual))
	case len(qual) == 2:
		flags := qual[1] & 0xF
		if flags&8 != 0 && flags&7 == 3 && len(val) == 8 {
			if val[0]|val[1]|val[2]|val[3] != 0 {
				return dst, fmt.Errorf("value '%s' of qualifier '%s' is a 4-byte float in 8 bytes whose first 4 are not zero", ToStringBinary(val), ToStringBinary(qual))
			}
			val = val[4:]
		}
		s := int64(binary.BigEndian.Uint16(qual) >> 4)
		p := WidePoint{Millis: s * 1000, Offset: s}
		if err := p.setValue(flags, val); err != nil {
			return dst, fmt.Errorf("%w of qualifier '%s'", err, ToStringBinary(qual))
		}
		return append(dst, p), nil
	case len(qual) == 4 && qual[0]&tsdbMsNibble == tsdbMsNibble:
		p, n, err := tsdbPoint(qual, val)
		if err == nil && n != len(val) {
			err = fmt.Errorf("value '%s' does not fit the flags %#x of qualifier '%s'", ToStringBinary(val), qual[3]&0xF, ToStringBinary(qual))
		}
		if err != nil {
			return dst, err
		}
		return append(dst, p), nil
	}
	n := len(dst)
	rest, vals := qual, val
	for len(rest) > 0 {
		p, used, err := tsdbPoint(rest, vals)
		if err != nil {
			return dst[:n], fmt.Errorf("compacted cell '%s': %w", ToStringBinary(qual), err)
		}
		dst = append(dst, p)
		rest, vals = rest[tsdbQualLen(rest):], vals[used:]
	}
	if len(vals) != 1 {
		return dst[:n], fmt.Errorf("compacted cell '%s': value '%s' is %d bytes, not its %d points' %d and a meta byte",
			ToStringBinary(qual), ToStringBinary(val), len(val), len(dst)-n, len(val)-len(vals))
	}
	return dst, nil
}

// tsdbQualLen is the length of the point qualifier q starts with.
func tsdbQualLen(q []byte) int {
	if q[0]&tsdbMsNibble == tsdbMsNibble {
		return 4
	}
	return 2
}

// tsdbPoint reads the point whose qualifier q starts with and whose value
// val starts with, by its flags, and says how many bytes of val it used.
func tsdbPoint(q, val []byte) (WidePoint, int, error) {
	var p WidePoint
	if len(q) < tsdbQualLen(q) {
		return p, 0, fmt.Errorf("qualifier '%s' ends inside a point", ToStringBinary(q))
	}
	var flags byte
	if tsdbQualLen(q) == 4 {
		flags = q[3] & 0xF
		p.Millis = int64(binary.BigEndian.Uint32(q)&0x0FFFFFFF) >> tsdbMsFlagBits
		p.Offset = p.Millis / 1000
	} else {
		flags = q[1] & 0xF
		p.Offset = int64(binary.BigEndian.Uint16(q) >> 4)
		p.Millis = p.Offset * 1000
	}
	n := int(flags&7) + 1
	if n > len(val) {
		return p, 0, fmt.Errorf("value '%s' is shorter than the flags %#x of qualifier '%s' say", ToStringBinary(val), flags, ToStringBinary(q[:tsdbQualLen(q)]))
	}
	if err := p.setValue(flags, val[:n]); err != nil {
		return p, 0, fmt.Errorf("%w of qualifier '%s'", err, ToStringBinary(q[:tsdbQualLen(q)]))
	}
	return p, n, nil
}

// tsdbAppended appends the points of an append cell to dst, in time
// order, a time given twice read from its later pair.
func tsdbAppended(dst []WidePoint, qual, val []byte) ([]WidePoint, error) {
	if len(val) == 0 {
		return dst, fmt.Errorf("append cell '%s' holds no point", ToStringBinary(qual))
	}
	n := len(dst)
	for rest := val; len(rest) > 0; {
		p, used, err := tsdbPoint(rest, rest[min(tsdbQualLen(rest), len(rest)):])
		if err != nil {
			return dst[:n], fmt.Errorf("append cell '%s': %w", ToStringBinary(qual), err)
		}
		dst = append(dst, p)
		rest = rest[tsdbQualLen(rest)+used:]
	}
	pts := dst[n:]
	slices.SortStableFunc(pts, func(a, b WidePoint) int { return cmp.Compare(a.Millis, b.Millis) })
	// Of the points of one time, the last appended is the last of its run.
	out := pts[:0]
	for i, p := range pts {
		if i+1 < len(pts) && pts[i+1].Millis == p.Millis {
			continue
		}
		out = append(out, p)
	}
	return dst[:n+len(out)], nil
}

// tsdbMillisCell writes the qualifier of a 4-byte millisecond point ms
// after the base, with the value's flags.
func tsdbMillisCell(ms int64, flags byte) ([]byte, error) {
	if ms < 0 || ms >= tsdbHour*1000 {
		return nil, fmt.Errorf("offset %d ms is not within the row's hour (0 to %d)", ms, tsdbHour*1000-1)
	}
	return binary.BigEndian.AppendUint32(nil, 0xF<<28|uint32(ms)<<tsdbMsFlagBits|uint32(flags)), nil
}

// TSDBHour is the base hour of OpenTSDB's row that holds a point at ms
// milliseconds since the epoch: ms rounded down to the hour, also before
// 1970.
func TSDBHour(ms int64) int64 {
	const hour = tsdbHour * 1000
	return ms - (ms%hour+hour)%hour
}

// BaseFromTime reports whether an INSERT may leave the base out and
// give the time: Complete then fills it in.
func (w *Wide) BaseFromTime() bool { return w.OpenTSDB && w.Time >= 0 }

// Complete fills in, for an INSERT, what a row of the OpenTSDB format
// takes from its time: the base, the time's hour (rounded down, also
// before 1970). A base given must be that hour, and without a time it
// must be on an hour. It returns row, or a copy of it when it filled
// something in. Other formats have nothing to fill in.
func (w *Wide) Complete(row Row) (Row, error) {
	if !w.OpenTSDB || w.Time < 0 {
		return row, nil
	}
	const hour = tsdbHour * 1000
	base, ts := row[w.Base], row[w.Time]
	if ts.Null {
		if !base.Null && base.I%hour != 0 {
			return nil, fmt.Errorf("base %s is not on the hour: OpenTSDB's rows each hold one hour", base)
		}
		return row, nil
	}
	h := TSDBHour(ts.I)
	switch {
	case base.Null:
		row = slices.Clone(row)
		row[w.Base] = TimestampMillis(h)
	case base.I != h:
		return nil, fmt.Errorf("base %s is not the hour of time %s: that point belongs in the row of base %s", base, ts, TimestampMillis(h))
	}
	return row, nil
}
