package catalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// PType is an Apache Phoenix data type, whose bytes the phoenix encoding
// writes exactly as Phoenix 5.2 does, in a key and in a cell.
//
// The numbers: signed integers big-endian with the sign bit flipped;
// UNSIGNED_ ones big-endian as they are (0 and up only); FLOAT and DOUBLE
// with the sign bit flipped when positive and every bit flipped when
// negative, then 1 added to the bits; UNSIGNED_FLOAT and UNSIGNED_DOUBLE
// as their IEEE bits; DECIMAL in Phoenix's base-100 form (an exponent
// byte, then one byte per two digits, and 102 after a negative number).
// BOOLEAN is one byte, 1 or 0. DATE and TIME are 8 bytes of milliseconds
// as a BIGINT, TIMESTAMP those 8 and 4 of nanoseconds within the
// millisecond; their UNSIGNED_ forms as an UNSIGNED_LONG. VARCHAR and
// CHAR are UTF-8, CHAR padded with spaces to its width in a key; BINARY
// is padded with zero bytes, VARBINARY is the bytes.
//
// A descending key field inverts every byte. An empty value is NULL, for
// every type.
type PType int

// The Phoenix types.
const (
	PNone PType = iota
	PTinyint
	PSmallint
	PInteger
	PBigint
	PUnsignedTinyint
	PUnsignedSmallint
	PUnsignedInt
	PUnsignedLong
	PFloat
	PDouble
	PUnsignedFloat
	PUnsignedDouble
	PDecimal
	PBoolean
	PDate
	PTime
	PTimestamp
	PUnsignedDate
	PUnsignedTime
	PUnsignedTimestamp
	PVarchar
	PChar
	PBinary
	PVarbinary
)

// pinfo is what the codec needs to know of a Phoenix type.
type pinfo struct {
	name string
	// width is the type's fixed width; 0 for VARCHAR, DECIMAL and
	// VARBINARY, and for CHAR and BINARY, whose width the column gives.
	width int
	// types are the rkql column types that may hold it, the default first.
	types []Type
}

var ptypes = [...]pinfo{
	PNone:              {"", 0, nil},
	PTinyint:           {"TINYINT", 1, []Type{TypeInt, TypeBigint}},
	PSmallint:          {"SMALLINT", 2, []Type{TypeInt, TypeBigint}},
	PInteger:           {"INTEGER", 4, []Type{TypeInt, TypeBigint}},
	PBigint:            {"BIGINT", 8, []Type{TypeBigint, TypeInt}},
	PUnsignedTinyint:   {"UNSIGNED_TINYINT", 1, []Type{TypeInt, TypeBigint}},
	PUnsignedSmallint:  {"UNSIGNED_SMALLINT", 2, []Type{TypeInt, TypeBigint}},
	PUnsignedInt:       {"UNSIGNED_INT", 4, []Type{TypeInt, TypeBigint}},
	PUnsignedLong:      {"UNSIGNED_LONG", 8, []Type{TypeBigint, TypeInt}},
	PFloat:             {"FLOAT", 4, []Type{TypeDouble}},
	PDouble:            {"DOUBLE", 8, []Type{TypeDouble}},
	PUnsignedFloat:     {"UNSIGNED_FLOAT", 4, []Type{TypeDouble}},
	PUnsignedDouble:    {"UNSIGNED_DOUBLE", 8, []Type{TypeDouble}},
	PDecimal:           {"DECIMAL", 0, []Type{TypeString, TypeDouble, TypeBigint, TypeInt}},
	PBoolean:           {"BOOLEAN", 1, []Type{TypeBoolean}},
	PDate:              {"DATE", 8, []Type{TypeTimestamp, TypeDate}},
	PTime:              {"TIME", 8, []Type{TypeTimestamp, TypeDate}},
	PTimestamp:         {"TIMESTAMP", 12, []Type{TypeTimestamp, TypeDate}},
	PUnsignedDate:      {"UNSIGNED_DATE", 8, []Type{TypeTimestamp, TypeDate}},
	PUnsignedTime:      {"UNSIGNED_TIME", 8, []Type{TypeTimestamp, TypeDate}},
	PUnsignedTimestamp: {"UNSIGNED_TIMESTAMP", 12, []Type{TypeTimestamp, TypeDate}},
	PVarchar:           {"VARCHAR", 0, []Type{TypeString}},
	PChar:              {"CHAR", 0, []Type{TypeString}},
	PBinary:            {"BINARY", 0, []Type{TypeBytes}},
	PVarbinary:         {"VARBINARY", 0, []Type{TypeBytes}},
}

func (p PType) String() string {
	if p <= PNone || int(p) >= len(ptypes) {
		return "NONE"
	}
	return ptypes[p].name
}

// ParsePType returns the Phoenix type named s, case-insensitively, as
// Phoenix's DDL names it (INTEGER, UNSIGNED_LONG, …; INT too).
func ParsePType(s string) (PType, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if u == "INT" {
		return PInteger, true
	}
	for p := PTinyint; int(p) < len(ptypes); p++ {
		if ptypes[p].name == u {
			return p, true
		}
	}
	return PNone, false
}

// PTypeOf is the Phoenix type an rkql column type is stored as when the
// catalog names none: BIGINT, INTEGER, DOUBLE, BOOLEAN, TIMESTAMP, DATE
// (a DATE column holds whole days), VARCHAR or VARBINARY.
func PTypeOf(t Type) PType {
	switch t {
	case TypeBigint:
		return PBigint
	case TypeInt:
		return PInteger
	case TypeDouble:
		return PDouble
	case TypeBoolean:
		return PBoolean
	case TypeTimestamp:
		return PTimestamp
	case TypeDate:
		return PDate
	case TypeString:
		return PVarchar
	}
	return PVarbinary
}

// Holds reports whether a column of type t can hold p's values.
func (p PType) Holds(t Type) bool {
	for _, x := range ptypes[p].types {
		if x == t {
			return true
		}
	}
	return false
}

// ColumnTypes lists the column types that can hold p, the default first.
func (p PType) ColumnTypes() []Type { return ptypes[p].types }

// FixedWidth is the width of p's values, given the width a CHAR or
// BINARY column declares; ok is false for VARCHAR, DECIMAL, VARBINARY.
func (p PType) FixedWidth(declared int) (int, bool) {
	switch p {
	case PChar, PBinary:
		return declared, declared > 0
	}
	w := ptypes[p].width
	return w, w > 0
}

// NeedsWidth reports whether p takes its width from the column (CHAR(n),
// BINARY(n)).
func (p PType) NeedsWidth() bool { return p == PChar || p == PBinary }

// intRange is the range of an integer type's values.
func (p PType) intRange() (int64, int64) {
	switch p {
	case PTinyint:
		return math.MinInt8, math.MaxInt8
	case PSmallint:
		return math.MinInt16, math.MaxInt16
	case PInteger:
		return math.MinInt32, math.MaxInt32
	case PUnsignedTinyint:
		return 0, math.MaxInt8
	case PUnsignedSmallint:
		return 0, math.MaxInt16
	case PUnsignedInt:
		return 0, math.MaxInt32
	case PUnsignedLong, PUnsignedDate, PUnsignedTime, PUnsignedTimestamp:
		return 0, math.MaxInt64
	}
	return math.MinInt64, math.MaxInt64
}

func (p PType) unsigned() bool {
	switch p {
	case PUnsignedTinyint, PUnsignedSmallint, PUnsignedInt, PUnsignedLong,
		PUnsignedFloat, PUnsignedDouble, PUnsignedDate, PUnsignedTime, PUnsignedTimestamp:
		return true
	}
	return false
}

func (p PType) isInt() bool { return p >= PTinyint && p <= PUnsignedLong }

func (p PType) isTime() bool { return p >= PDate && p <= PUnsignedTimestamp }

func (p PType) hasNanos() bool { return p == PTimestamp || p == PUnsignedTimestamp }

const msPerDay = 86_400_000

// phoenixEncode appends the bytes of v, a value of column type t, as
// Phoenix writes type p ascending: width is a CHAR or BINARY key field's
// width (its pad is added), 0 in a cell. v is not NULL.
func phoenixEncode(dst []byte, p PType, t Type, v Value, width int) ([]byte, error) {
	switch {
	case p.isInt():
		if !v.Type.integral() || v.Type == TypeBoolean || v.Type == TypeTimestamp || v.Type == TypeDate {
			return nil, fmt.Errorf("%s is %s, not a number", v, v.Type)
		}
		lo, hi := p.intRange()
		if v.I < lo || v.I > hi {
			return nil, fmt.Errorf("%s is out of range for %s (%d to %d)", v, p, lo, hi)
		}
		return appendPInt(dst, v.I, ptypes[p].width, p.unsigned()), nil
	case p == PFloat || p == PDouble || p == PUnsignedFloat || p == PUnsignedDouble:
		if v.Type != TypeDouble {
			return nil, fmt.Errorf("%s is %s, not DOUBLE", v, v.Type)
		}
		return appendPFloat(dst, p, v.F)
	case p == PDecimal:
		d, err := decimalOf(v)
		if err != nil {
			return nil, err
		}
		return d.appendPhoenix(dst)
	case p == PBoolean:
		if v.Type != TypeBoolean {
			return nil, fmt.Errorf("%s is %s, not BOOLEAN", v, v.Type)
		}
		return append(dst, byte(v.I&1)), nil
	case p.isTime():
		ms, err := millisOf(v)
		if err != nil {
			return nil, err
		}
		if p.unsigned() && ms < 0 {
			return nil, fmt.Errorf("%s is before 1970, which %s cannot hold", v, p)
		}
		dst = appendPInt(dst, ms, 8, p.unsigned())
		if p.hasNanos() {
			dst = append(dst, 0, 0, 0, 0)
		}
		return dst, nil
	case p == PVarchar || p == PChar:
		if v.Type != TypeString {
			return nil, fmt.Errorf("%s is %s, not text", v, v.Type)
		}
		if v.S == "" {
			return nil, errors.New("an empty string is NULL to Phoenix, which stores it so: write NULL")
		}
		if !utf8.ValidString(v.S) {
			return nil, fmt.Errorf("%s is not UTF-8", v)
		}
		if p == PChar {
			for i := 0; i < len(v.S); i++ {
				if v.S[i] >= 0x80 {
					return nil, fmt.Errorf("%s is not ASCII: Phoenix's CHAR holds one-byte characters only", v)
				}
			}
		}
		if p == PChar && width > 0 {
			if len(v.S) > width {
				return nil, fmt.Errorf("%s is longer than CHAR(%d)", v, width)
			}
			if strings.HasSuffix(v.S, " ") {
				return nil, fmt.Errorf("%s ends with a space, which CHAR's padding would swallow", v)
			}
			dst = append(dst, v.S...)
			for range width - len(v.S) {
				dst = append(dst, ' ')
			}
			return dst, nil
		}
		return append(dst, v.S...), nil
	case p == PBinary || p == PVarbinary:
		if v.Type != TypeBytes {
			return nil, fmt.Errorf("%s is %s, not BYTES", v, v.Type)
		}
		if len(v.B) == 0 {
			return nil, errors.New("empty bytes are NULL to Phoenix, which stores them so: write NULL")
		}
		if p == PBinary && width > 0 && len(v.B) != width {
			return nil, fmt.Errorf("%s is %d bytes, and BINARY(%d) holds %d", v, len(v.B), width, width)
		}
		return append(dst, v.B...), nil
	}
	return nil, fmt.Errorf("no Phoenix type")
}

// millisOf is the milliseconds of a TIMESTAMP or DATE value.
func millisOf(v Value) (int64, error) {
	switch v.Type {
	case TypeTimestamp:
		return v.I, nil
	case TypeDate:
		if v.I > math.MaxInt64/msPerDay || v.I < math.MinInt64/msPerDay {
			return 0, fmt.Errorf("%s is out of range", v)
		}
		return v.I * msPerDay, nil
	}
	return 0, fmt.Errorf("%s is %s, not a time", v, v.Type)
}

// appendPInt writes n big-endian in w bytes, the sign bit flipped unless
// unsigned.
func appendPInt(dst []byte, n int64, w int, unsigned bool) []byte {
	u := uint64(n)
	if !unsigned {
		u ^= 1 << (uint(w)*8 - 1)
	}
	return appendInt(dst, u, w)
}

// Java's canonical NaNs, which Double.doubleToLongBits and
// Float.floatToIntBits give for every NaN.
const (
	javaNaN64 = 0x7ff8000000000000
	javaNaN32 = 0x7fc00000
)

func appendPFloat(dst []byte, p PType, f float64) ([]byte, error) {
	if (p == PUnsignedFloat || p == PUnsignedDouble) && f < 0 {
		return nil, fmt.Errorf("%s is negative, which %s cannot hold", Double(f), p)
	}
	if p == PFloat || p == PUnsignedFloat {
		f32 := float32(f)
		if !math.IsNaN(f) && float64(f32) != f {
			return nil, fmt.Errorf("%s is not a FLOAT: its 4 bytes would round it to %g", Double(f), f32)
		}
		u := math.Float32bits(f32)
		if math.IsNaN(f) {
			u = javaNaN32
		}
		if p == PFloat {
			u = (u ^ (uint32(int32(u)>>31) | 1<<31)) + 1
		}
		return binary.BigEndian.AppendUint32(dst, u), nil
	}
	u := math.Float64bits(f)
	if math.IsNaN(f) {
		u = javaNaN64
	}
	if p == PDouble {
		u = (u ^ (uint64(int64(u)>>63) | 1<<63)) + 1
	}
	return binary.BigEndian.AppendUint64(dst, u), nil
}

// phoenixDecode reads a value of Phoenix type p, ascending, into column
// type t. b holds the value's bytes only (a CHAR's pad included); an
// empty b is NULL.
func phoenixDecode(b []byte, p PType, t Type) (Value, error) {
	if len(b) == 0 {
		return Null(t), nil
	}
	if w, ok := p.FixedWidth(0); ok && len(b) != w {
		return Value{}, fmt.Errorf("%s takes %d bytes, not %d", p, w, len(b))
	}
	switch {
	case p.isInt():
		n := readPInt(b, p.unsigned())
		lo, hi := p.intRange()
		if n < lo || n > hi {
			return Value{}, fmt.Errorf("%d is out of range for %s", n, p)
		}
		if t == TypeInt && int64(int32(n)) != n {
			return Value{}, fmt.Errorf("%d does not fit an INT column", n)
		}
		return Value{Type: t, I: n}, nil
	case p == PFloat || p == PUnsignedFloat:
		u := binary.BigEndian.Uint32(b)
		if p == PFloat {
			u--
			u ^= uint32(int32(^u)>>31) | 1<<31
		}
		return Double(float64(math.Float32frombits(u))), nil
	case p == PDouble || p == PUnsignedDouble:
		u := binary.BigEndian.Uint64(b)
		if p == PDouble {
			u--
			u ^= uint64(int64(^u)>>63) | 1<<63
		}
		return Double(math.Float64frombits(u)), nil
	case p == PDecimal:
		d, err := readPhoenixDecimal(b)
		if err != nil {
			return Value{}, err
		}
		return d.value(t)
	case p == PBoolean:
		if b[0] > 1 {
			return Value{}, fmt.Errorf("BOOLEAN byte %d is neither 0 nor 1", b[0])
		}
		return Bool(b[0] == 1), nil
	case p.isTime():
		ms := readPInt(b[:8], p.unsigned())
		if p.unsigned() && ms < 0 {
			return Value{}, fmt.Errorf("%s is above the largest %s", ToStringBinary(b), p)
		}
		var ns int64
		if p.hasNanos() {
			if ns = int64(int32(binary.BigEndian.Uint32(b[8:]))); ns < 0 || ns > 999_999 {
				return Value{}, fmt.Errorf("%d nanoseconds is not within a millisecond", ns)
			}
		}
		if t == TypeDate {
			if ms%msPerDay != 0 || ns != 0 {
				return Value{}, fmt.Errorf("%s holds a time of day, which a DATE column drops: declare it TIMESTAMP", TimestampMillis(ms))
			}
			return DateDays(ms / msPerDay), nil
		}
		// A TIMESTAMP value holds milliseconds: nanoseconds within the
		// millisecond are read as 0.
		return TimestampMillis(ms), nil
	case p == PVarchar || p == PChar:
		if p == PChar {
			b = bytes.TrimRight(b, " ")
			for _, x := range b {
				if x >= 0x80 {
					return Value{}, fmt.Errorf("'%s' is not ASCII, which Phoenix's CHAR holds", ToStringBinary(b))
				}
			}
		}
		if !utf8.Valid(b) {
			return Value{}, fmt.Errorf("'%s' is not UTF-8", ToStringBinary(b))
		}
		return String(string(b)), nil
	case p == PBinary || p == PVarbinary:
		return Bytes(bytes.Clone(b)), nil
	}
	return Value{}, fmt.Errorf("no Phoenix type")
}

func readPInt(b []byte, unsigned bool) int64 {
	u := readUint(b)
	if unsigned {
		return int64(u)
	}
	u ^= 1 << (uint(len(b))*8 - 1)
	return signExtend(u, len(b))
}

// invertP returns b with every byte inverted, as a descending key field
// holds it. (A BOOLEAN too: Phoenix's row key builder writes TRUE as
// 0xFE, though PBoolean.toBytes(v, DESC) alone swaps 0 and 1.)
func invertP(_ PType, b []byte) []byte {
	out := make([]byte, len(b))
	for i, x := range b {
		out[i] = ^x
	}
	return out
}

// PhoenixTable is what rkql keeps of a table that Apache Phoenix owns.
type PhoenixTable struct {
	// Name is the table's name in Phoenix, SCHEMA.TABLE or TABLE.
	Name string
	// EmptyFamily and EmptyQualifier name Phoenix's empty column, the cell
	// every row holds so that Phoenix knows it exists ("0", "_0" with
	// plain qualifiers, "0", "\x00\x00\x00\x00" with encoded ones). Empty
	// when the catalog does not name one.
	EmptyFamily, EmptyQualifier string
	// Storage is the table's IMMUTABLE_STORAGE_SCHEME.
	Storage PhoenixStorage
	// GlobalIndexes names the table's Phoenix global indexes (SCHEMA.INDEX),
	// which Phoenix keeps in step on its own writes. rkql does not, so it
	// refuses to write a table that has one.
	GlobalIndexes []string
	// IndexOf, when set, says the table is a Phoenix global index of the
	// data table it names (SCHEMA.TABLE): Phoenix writes it, rkql only
	// reads it.
	IndexOf string
	// Uncovered marks an uncovered global index (CREATE UNCOVERED INDEX,
	// SYSTEM.CATALOG's INDEX_TYPE 3): Phoenix checks each of its rows
	// against the data row on every read and need not delete a stale
	// one, so rkql never takes its rows' values as the data row's.
	Uncovered bool
}

// PhoenixEmptyValue is the value of Phoenix's empty column, as Phoenix
// 5.2 writes it on every UPSERT of a data table, with plain and with
// encoded qualifiers alike.
const PhoenixEmptyValue = "x"

// PhoenixStorage is how Phoenix lays a row's columns out in cells.
type PhoenixStorage int

// Phoenix's storage schemes.
const (
	// PhoenixOneCellPerColumn keeps each column in a cell of its own.
	PhoenixOneCellPerColumn PhoenixStorage = iota
	// PhoenixSingleCellArray keeps all the columns of a family in one
	// cell (SINGLE_CELL_ARRAY_WITH_OFFSETS).
	PhoenixSingleCellArray
)

// String is the storage scheme's name in the catalog.
func (s PhoenixStorage) String() string {
	if s == PhoenixSingleCellArray {
		return "single_cell_array_with_offsets"
	}
	return "one_cell_per_column"
}
