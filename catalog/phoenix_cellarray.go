package catalog

import (
	"encoding/binary"
	"fmt"
)

// Phoenix's SINGLE_CELL_ARRAY_WITH_OFFSETS storage keeps all the columns
// of a family of a row in one cell, qualifier PhoenixCellArrayQualifier.
// Its value, in the form Phoenix 5.2 writes (serialization version 3), is
//
//	element 0, element 1, … (each as the column's own cell bytes; NULL has none)
//	one 2-byte big-endian offset per element: where it starts in the data,
//	    or, for a NULL, the data's length so far, negated
//	4 bytes: where the offsets start (the data's length)
//	4 bytes: the number of elements
//	1 byte: the version, 3
//
// Element 0 is always "x"; element i ≥ 1 is the column of the family
// whose encoded qualifier number is i+10 (SYSTEM.CATALOG's
// COLUMN_QUALIFIER \x80\x0B is element 1; each family counts its own). The
// elements run to the family's last column, NULLs at the end included.
// Reads decode it (exec's decoder); writes of it are refused.

// PhoenixCellArrayQualifier is the qualifier of the one cell per family.
const PhoenixCellArrayQualifier = "1"

const phoenixCellArrayVersion = 3

// EncodePhoenixCellArray returns the cell of a family whose columns 1…
// hold elems (nil: NULL); element 0 is Phoenix's "x".
func EncodePhoenixCellArray(elems [][]byte) ([]byte, error) {
	all := append([][]byte{[]byte(PhoenixEmptyValue)}, elems...)
	var data []byte
	offs := make([]int, len(all))
	for i, e := range all {
		if e == nil {
			offs[i] = -len(data)
			continue
		}
		offs[i] = len(data)
		data = append(data, e...)
	}
	if len(data) > 1<<15-1 {
		return nil, fmt.Errorf("a Phoenix cell array of %d bytes, more than 2-byte offsets reach, is not supported", len(data))
	}
	out := data
	for _, o := range offs {
		out = binary.BigEndian.AppendUint16(out, uint16(int16(o)))
	}
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = binary.BigEndian.AppendUint32(out, uint32(len(all)))
	return append(out, phoenixCellArrayVersion), nil
}

// DecodePhoenixCellArray returns the elements 1… of a family's cell (nil:
// NULL), or an error when b is not a cell array Phoenix 5.2 writes.
func DecodePhoenixCellArray(b []byte) ([][]byte, error) {
	if len(b) < 9 {
		return nil, fmt.Errorf("a Phoenix cell array of %d bytes is too short", len(b))
	}
	if v := b[len(b)-1]; v != phoenixCellArrayVersion {
		return nil, fmt.Errorf("the Phoenix cell array has version %d, not %d", v, phoenixCellArrayVersion)
	}
	pos := int(binary.BigEndian.Uint32(b[len(b)-9:]))
	n := int(binary.BigEndian.Uint32(b[len(b)-5:]))
	if n < 1 || pos < 0 || pos+2*n+9 != len(b) {
		return nil, fmt.Errorf("a Phoenix cell array of %d bytes with %d elements from %d is not of 2-byte offsets", len(b), n, pos)
	}
	off := func(i int) (int, bool) {
		o := int(int16(binary.BigEndian.Uint16(b[pos+2*i:])))
		if o < 0 {
			return -o, false
		}
		return o, true
	}
	out := make([][]byte, n-1)
	for i := 0; i < n; i++ {
		start, ok := off(i)
		end := pos
		if i+1 < n {
			end, _ = off(i + 1)
		}
		if start > end || end > pos {
			return nil, fmt.Errorf("a Phoenix cell array's element %d runs from %d to %d of %d", i, start, end, pos)
		}
		if i == 0 {
			if !ok || string(b[start:end]) != PhoenixEmptyValue {
				return nil, fmt.Errorf("a Phoenix cell array's element 0 is not %q", PhoenixEmptyValue)
			}
			continue
		}
		if ok {
			out[i-1] = b[start:end:end]
		}
	}
	return out, nil
}

// PhoenixQualifierNumber is the number an encoded qualifier stands for,
// in Phoenix's encodings of 1 to 4 bytes (QualifierEncodingScheme): one
// or two bytes with the sign bit flipped, three or four as they are.
func PhoenixQualifierNumber(q []byte) (int, bool) {
	switch len(q) {
	case 1:
		return int(q[0] ^ 0x80), true
	case 2:
		return int(binary.BigEndian.Uint16(q) ^ 0x8000), true
	case 3:
		return int(q[0])<<16 | int(q[1])<<8 | int(q[2]), true
	case 4:
		return int(int32(binary.BigEndian.Uint32(q))), true
	}
	return 0, false
}

// PhoenixCellArrayElement is the element of a family's cell array that
// holds the column of encoded qualifier q: 0 for the first of
// DecodePhoenixCellArray's elements (qualifier number 11); ok is false for
// a qualifier that no element holds.
func PhoenixCellArrayElement(q string) (int, bool) {
	n, ok := PhoenixQualifierNumber([]byte(q))
	if !ok || n < phoenixFirstQualifier {
		return 0, false
	}
	return n - phoenixFirstQualifier, true
}

// phoenixFirstQualifier is the number of a table's first encoded column
// (QueryConstants.ENCODED_CQ_COUNTER_INITIAL_VALUE).
const phoenixFirstQualifier = 11

// PhoenixCellArray reports whether t is a Phoenix table stored as
// SINGLE_CELL_ARRAY_WITH_OFFSETS: one cell per family, which the store
// can neither project to columns nor filter by value.
func PhoenixCellArray(t *Table) bool {
	return t.Phoenix != nil && t.Phoenix.Storage == PhoenixSingleCellArray
}
