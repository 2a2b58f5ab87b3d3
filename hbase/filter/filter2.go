package filter

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// RowRange is one key range of a MultiRowRange. An empty Start is the
// beginning of the table and an empty Stop the end.
type RowRange struct {
	Start          []byte
	StartInclusive bool
	Stop           []byte
	StopInclusive  bool
}

// MultiRowRange keeps rows inside any of its ranges. The server sorts and
// merges the ranges and seeks between them.
type MultiRowRange struct{ Ranges []RowRange }

func (MultiRowRange) ClassName() string { return classPrefix + "MultiRowRangeFilter" }
func (f MultiRowRange) Marshal() ([]byte, error) {
	if len(f.Ranges) == 0 {
		return nil, errors.New("filter: multi row range without ranges")
	}
	m := &pb.MultiRowRangeFilter{}
	for _, r := range f.Ranges {
		if len(r.Stop) > 0 && bytes.Compare(r.Start, r.Stop) > 0 {
			return nil, fmt.Errorf("filter: row range start %q is after stop %q", r.Start, r.Stop)
		}
		m.RowRangeList = append(m.RowRangeList, &pb.RowRange{
			StartRow:          nonNil(r.Start),
			StartRowInclusive: proto.Bool(r.StartInclusive),
			StopRow:           nonNil(r.Stop),
			StopRowInclusive:  proto.Bool(r.StopInclusive),
		})
	}
	return marshal(m)
}

// FuzzyKey is a key template and a mask of the same length: mask byte 0
// means the key byte must match, 1 means any byte matches there.
type FuzzyKey struct {
	Key, Mask []byte
}

// FuzzyRow keeps rows that match any of its fuzzy keys, seeking over rows
// that cannot match.
type FuzzyRow struct{ Keys []FuzzyKey }

func (FuzzyRow) ClassName() string { return classPrefix + "FuzzyRowFilter" }
func (f FuzzyRow) Marshal() ([]byte, error) {
	if len(f.Keys) == 0 {
		return nil, errors.New("filter: fuzzy row filter without keys")
	}
	m := &pb.FuzzyRowFilter{}
	for _, k := range f.Keys {
		if len(k.Key) != len(k.Mask) {
			return nil, fmt.Errorf("filter: fuzzy key of %d bytes has a mask of %d", len(k.Key), len(k.Mask))
		}
		for _, b := range k.Mask {
			if b > 1 {
				return nil, fmt.Errorf("filter: fuzzy mask byte %d, want 0 (fixed) or 1 (any)", b)
			}
		}
		m.FuzzyKeysData = append(m.FuzzyKeysData, &pb.BytesBytesPair{First: nonNil(k.Key), Second: nonNil(k.Mask)})
	}
	return marshal(m)
}

// KeyOnly strips values, keeping keys. With LenAsValue each value becomes
// its original length as a 4-byte big-endian int.
type KeyOnly struct{ LenAsValue bool }

func (KeyOnly) ClassName() string { return classPrefix + "KeyOnlyFilter" }
func (f KeyOnly) Marshal() ([]byte, error) {
	return marshal(&pb.KeyOnlyFilter{LenAsVal: proto.Bool(f.LenAsValue)})
}

// FirstKeyOnly keeps only the first cell of each row.
type FirstKeyOnly struct{}

func (FirstKeyOnly) ClassName() string        { return classPrefix + "FirstKeyOnlyFilter" }
func (FirstKeyOnly) Marshal() ([]byte, error) { return marshal(&pb.FirstKeyOnlyFilter{}) }

// Page stops each region server after Size rows. It is not a global limit:
// a scan over several regions can return more; the client still counts.
type Page struct{ Size int64 }

func (Page) ClassName() string { return classPrefix + "PageFilter" }
func (f Page) Marshal() ([]byte, error) {
	if f.Size < 0 {
		return nil, fmt.Errorf("filter: negative page size %d", f.Size)
	}
	return marshal(&pb.PageFilter{PageSize: proto.Int64(f.Size)})
}

// ColumnPrefix keeps cells whose qualifier starts with Prefix.
type ColumnPrefix struct{ Prefix []byte }

func (ColumnPrefix) ClassName() string { return classPrefix + "ColumnPrefixFilter" }
func (f ColumnPrefix) Marshal() ([]byte, error) {
	return marshal(&pb.ColumnPrefixFilter{Prefix: nonNil(f.Prefix)})
}

// Binary compares bytes lexicographically (unsigned).
type Binary struct{ Value []byte }

func (Binary) ClassName() string { return classPrefix + "BinaryComparator" }
func (c Binary) Marshal() ([]byte, error) {
	return marshal(&pb.BinaryComparator{Comparable: &pb.ByteArrayComparable{Value: nonNil(c.Value)}})
}

// BinaryPrefix compares only the first len(Value) bytes.
type BinaryPrefix struct{ Value []byte }

func (BinaryPrefix) ClassName() string { return classPrefix + "BinaryPrefixComparator" }
func (c BinaryPrefix) Marshal() ([]byte, error) {
	return marshal(&pb.BinaryPrefixComparator{Comparable: &pb.ByteArrayComparable{Value: nonNil(c.Value)}})
}

// Java regex flags for RegexString.Flags.
const (
	CaseInsensitive = 0x02
	DotAll          = 0x20
)

// RegexString matches the value, decoded as text, against a Java regular
// expression (find semantics: the pattern may match anywhere). Use it with
// Equal or NotEqual.
type RegexString struct {
	Pattern string
	Flags   int32
	// Charset decodes the value; default UTF-8.
	Charset string
}

func (RegexString) ClassName() string { return classPrefix + "RegexStringComparator" }
func (c RegexString) Marshal() ([]byte, error) {
	if c.Pattern == "" {
		return nil, errors.New("filter: empty regex pattern")
	}
	cs := c.Charset
	if cs == "" {
		cs = "UTF-8"
	}
	return marshal(&pb.RegexStringComparator{
		Pattern:      proto.String(c.Pattern),
		PatternFlags: proto.Int32(c.Flags),
		Charset:      proto.String(cs),
		Engine:       proto.String("JAVA"),
	})
}

// Substring matches values that contain Substr, ignoring case. Use it with
// Equal or NotEqual.
type Substring struct{ Substr string }

func (Substring) ClassName() string { return classPrefix + "SubstringComparator" }
func (c Substring) Marshal() ([]byte, error) {
	return marshal(&pb.SubstringComparator{Substr: proto.String(c.Substr)})
}
