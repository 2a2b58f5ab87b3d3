package filter

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// ColumnRange keeps cells whose qualifier lies between Min and Max, each
// bound inclusive or not; a nil bound is open. The server seeks to Min
// in each row and on to the next row past Max.
//
// Its message, ColumnRangeFilter, is written with protowire, field by
// field: min_column (1, bytes), min_column_inclusive (2, bool),
// max_column (3, bytes), max_column_inclusive (4, bool), all optional.
type ColumnRange struct {
	Min          []byte
	MinInclusive bool
	Max          []byte
	MaxInclusive bool
}

func (ColumnRange) ClassName() string { return classPrefix + "ColumnRangeFilter" }
func (f ColumnRange) Marshal() ([]byte, error) {
	var b []byte
	if f.Min != nil {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, f.Min)
	}
	b = appendBool(b, 2, f.MinInclusive)
	if f.Max != nil {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, f.Max)
	}
	return appendBool(b, 4, f.MaxInclusive), nil
}

// MultipleColumnPrefix keeps cells whose qualifier starts with any of
// Prefixes; the server seeks from one prefix to the next. Its message,
// MultipleColumnPrefixFilter, is sorted_prefixes (1, repeated bytes),
// written with protowire; the server sorts them itself.
type MultipleColumnPrefix struct{ Prefixes [][]byte }

func (MultipleColumnPrefix) ClassName() string { return classPrefix + "MultipleColumnPrefixFilter" }
func (f MultipleColumnPrefix) Marshal() ([]byte, error) {
	if len(f.Prefixes) == 0 {
		return nil, errors.New("filter: multiple column prefix without prefixes")
	}
	var b []byte
	for _, p := range f.Prefixes {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	return b, nil
}

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	if v {
		return protowire.AppendVarint(b, 1)
	}
	return protowire.AppendVarint(b, 0)
}
