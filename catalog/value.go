package catalog

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Type is a logical column type.
type Type int

// The logical types. The zero Type is invalid so that a forgotten type is
// caught by validation.
const (
	TypeInvalid   Type = iota
	TypeString         // UTF-8 text
	TypeBigint         // int64
	TypeInt            // int32, held in an int64
	TypeDouble         // float64
	TypeBoolean        // bool
	TypeTimestamp      // milliseconds since the epoch, UTC
	TypeDate           // days since the epoch
	TypeBytes          // raw bytes
	// TypeMap is a map from keys to values (Value.M); the column's
	// MapType gives their types.
	TypeMap
)

var typeNames = [...]string{
	TypeInvalid:   "INVALID",
	TypeString:    "STRING",
	TypeBigint:    "BIGINT",
	TypeInt:       "INT",
	TypeDouble:    "DOUBLE",
	TypeBoolean:   "BOOLEAN",
	TypeTimestamp: "TIMESTAMP",
	TypeDate:      "DATE",
	TypeBytes:     "BYTES",
	TypeMap:       "MAP",
}

func (t Type) String() string {
	if t < 0 || int(t) >= len(typeNames) {
		return "INVALID"
	}
	return typeNames[t]
}

// ParseType returns the Type named s, case-insensitively. It also accepts
// the common aliases LONG, INTEGER, VARCHAR, BINARY, BOOL and FLOAT.
func ParseType(s string) (Type, bool) {
	switch strings.ToUpper(s) {
	case "STRING", "VARCHAR", "TEXT":
		return TypeString, true
	case "BIGINT", "LONG":
		return TypeBigint, true
	case "INT", "INTEGER":
		return TypeInt, true
	case "DOUBLE", "FLOAT":
		return TypeDouble, true
	case "BOOLEAN", "BOOL":
		return TypeBoolean, true
	case "TIMESTAMP":
		return TypeTimestamp, true
	case "DATE":
		return TypeDate, true
	case "BYTES", "BINARY", "VARBINARY":
		return TypeBytes, true
	}
	return TypeInvalid, false
}

// integral reports whether values of t are held in Value.I.
func (t Type) integral() bool {
	switch t {
	case TypeBigint, TypeInt, TypeTimestamp, TypeDate, TypeBoolean:
		return true
	}
	return false
}

// Value is a logical value. Which field holds it depends on Type: I for the
// integral types (BOOLEAN is 0 or 1, TIMESTAMP is ms, DATE is days), F for
// DOUBLE, S for STRING, B for BYTES, M for MAP. A Value with Null set
// holds nothing.
type Value struct {
	Type Type
	Null bool
	I    int64
	F    float64
	S    string
	B    []byte
	M    *Map
}

// Constructors for Values.
func String(s string) Value          { return Value{Type: TypeString, S: s} }
func Bigint(i int64) Value           { return Value{Type: TypeBigint, I: i} }
func Int(i int32) Value              { return Value{Type: TypeInt, I: int64(i)} }
func Double(f float64) Value         { return Value{Type: TypeDouble, F: f} }
func Bytes(b []byte) Value           { return Value{Type: TypeBytes, B: b} }
func Null(t Type) Value              { return Value{Type: t, Null: true} }
func TimestampMillis(ms int64) Value { return Value{Type: TypeTimestamp, I: ms} }
func DateDays(d int64) Value         { return Value{Type: TypeDate, I: d} }

// Bool returns a BOOLEAN value.
func Bool(b bool) Value {
	if b {
		return Value{Type: TypeBoolean, I: 1}
	}
	return Value{Type: TypeBoolean}
}

// Timestamp returns a TIMESTAMP value with millisecond precision.
func Timestamp(t time.Time) Value { return TimestampMillis(t.UnixMilli()) }

// Date returns the DATE of t's calendar day in UTC.
func Date(t time.Time) Value {
	return DateDays(int64(math.Floor(float64(t.UTC().Unix()) / 86400)))
}

// Time returns a TIMESTAMP or DATE value as a time in UTC.
func (v Value) Time() time.Time {
	if v.Type == TypeDate {
		return time.Unix(v.I*86400, 0).UTC()
	}
	return time.UnixMilli(v.I).UTC()
}

// Compare orders two values of the same type. NULL sorts first. Values of
// different types compare by type, which callers avoid by converting first.
func Compare(a, b Value) int {
	if a.Null || b.Null {
		switch {
		case a.Null && b.Null:
			return 0
		case a.Null:
			return -1
		default:
			return 1
		}
	}
	if a.Type != b.Type {
		if a.Type.integral() && b.Type.integral() {
			return cmp.Compare(a.I, b.I)
		}
		return cmp.Compare(a.Type, b.Type)
	}
	switch {
	case a.Type.integral():
		return cmp.Compare(a.I, b.I)
	case a.Type == TypeDouble:
		return compareDouble(a.F, b.F)
	case a.Type == TypeString:
		return strings.Compare(a.S, b.S)
	case a.Type == TypeMap:
		return compareMaps(a.M, b.M)
	default:
		return bytes.Compare(a.B, b.B)
	}
}

// compareDouble orders doubles as SQL does (PostgreSQL's rule): NaN equals
// NaN and sorts above every other value, +Inf included; -0 equals +0.
// (NaN is never a key value, so no key range has to place it.)
func compareDouble(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(a, b)
}

// Equal reports whether a and b are the same value.
func Equal(a, b Value) bool { return a.Type == b.Type && Compare(a, b) == 0 }

// String renders v as a SQL literal, as EXPLAIN prints bounds. It is the
// one SQL rendering of a value: converted to v's type (a quoted literal
// through ParseText), the literal gives v back. A MAP, which has no
// literal, renders as {'k': 'v', …}.
func (v Value) String() string {
	if v.Null {
		return "NULL"
	}
	switch v.Type {
	case TypeString:
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case TypeBigint, TypeInt:
		return strconv.FormatInt(v.I, 10)
	case TypeDouble:
		switch {
		case math.IsNaN(v.F):
			return "'NaN'"
		case math.IsInf(v.F, 1):
			return "'Infinity'"
		case math.IsInf(v.F, -1):
			return "'-Infinity'"
		case v.F == 0 && math.Signbit(v.F):
			return "-0.0"
		}
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case TypeBoolean:
		if v.I != 0 {
			return "TRUE"
		}
		return "FALSE"
	case TypeTimestamp:
		return "'" + v.Time().Format("2006-01-02 15:04:05.000") + "'"
	case TypeDate:
		return "'" + v.Time().Format("2006-01-02") + "'"
	case TypeBytes:
		return "x'" + fmt.Sprintf("%x", v.B) + "'"
	case TypeMap:
		return mapText(v.M, Value.String)
	}
	return "?"
}

// Text renders v without quotes, as a result cell is shown to a user.
func (v Value) Text() string {
	if v.Null {
		return "NULL"
	}
	switch v.Type {
	case TypeString:
		return v.S
	case TypeTimestamp:
		return string(AppendTimestamp(nil, v.I))
	case TypeDate:
		return v.Time().Format("2006-01-02")
	case TypeBytes:
		return ToStringBinary(v.B)
	case TypeDouble:
		return strings.Trim(v.String(), "'")
	case TypeMap:
		return mapText(v.M, Value.Text)
	}
	return v.String()
}

// AppendTimestamp appends the text of a TIMESTAMP of ms milliseconds
// since the epoch, as Text writes it ("2006-01-02 15:04:05.000", UTC), to
// b. Years 1 to 9999 are written without going through time.Time.
func AppendTimestamp(b []byte, ms int64) []byte {
	const msPerDay = 86_400_000
	days, in := ms/msPerDay, ms%msPerDay
	if in < 0 {
		days, in = days-1, in+msPerDay
	}
	y, m, d := civil(days)
	if y < 1 || y > 9999 {
		return time.UnixMilli(ms).UTC().AppendFormat(b, "2006-01-02 15:04:05.000")
	}
	b = append4(b, y)
	b = append(b, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10), ' ')
	hh, mm, ss, frac := in/3_600_000, in/60_000%60, in/1000%60, in%1000
	return append(b, byte('0'+hh/10), byte('0'+hh%10), ':', byte('0'+mm/10), byte('0'+mm%10), ':',
		byte('0'+ss/10), byte('0'+ss%10), '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

func append4(b []byte, n int64) []byte {
	return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}

// civil returns the proleptic Gregorian date of a day counted from
// 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// ToStringBinary prints b the way HBase's Bytes.toStringBinary does: bytes
// 0x20-0x7E as themselves, except backslash, and everything else as \xNN in
// upper-case hex.
func ToStringBinary(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c <= 0x7E && c != '\\' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, "\\x%02X", c)
		}
	}
	return sb.String()
}

// DateFromYMD returns the DATE for a calendar day.
func DateFromYMD(y, m, d int) Value {
	return Date(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC))
}

// ymd returns the yyyyMMdd number of a DATE value.
func ymd(v Value) int64 {
	t := v.Time()
	return int64(t.Year()*10000 + int(t.Month())*100 + t.Day())
}

// fromYMD is the inverse of ymd; ok is false for an impossible date.
func fromYMD(n int64) (Value, bool) {
	y, m, d := int(n/10000), int(n/100%100), int(n%100)
	if m < 1 || m > 12 || d < 1 || d > 31 || n < 0 {
		return Value{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || int(t.Month()) != m {
		return Value{}, false
	}
	return Date(t), true
}
