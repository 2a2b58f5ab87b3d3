package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TextError says that a text cannot be read as a value of a type.
type TextError struct {
	Text string
	Type Type
	// Err, when set, says why (a bad escape in BYTES text).
	Err error
}

func (e *TextError) Error() string {
	msg := fmt.Sprintf("'%s' is not a valid %s", shownText(e.Text), e.Type)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *TextError) Unwrap() error { return e.Err }

// shownText is text as a message shows it: a control character, which
// would break the one-line message or act on the terminal, becomes \xHH
// as in toStringBinary's form.
func shownText(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7F })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for j := i; j < len(s); j++ {
		if c := s[j]; c < 0x20 || c == 0x7F {
			fmt.Fprintf(&b, `\x%02X`, c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ParseText reads text as a value of type t. It is the one reading of
// text that every statement, the importer and DECODE KEY share:
//
//   - STRING: the text as it is;
//   - BYTES: HBase's Bytes.toStringBinary form, as the HBase shell reads
//     it: \xNN is one byte, \\ a backslash, any other byte itself;
//   - BIGINT, INT: a decimal integer (INT within 32 bits);
//   - DOUBLE: a decimal number in Go's or Java's form (1e+07, 1.0E7),
//     NaN, Infinity or -Infinity;
//   - BOOLEAN: true or false (also 1, 0, t, f, in any case);
//   - TIMESTAMP: the forms ParseTime reads, or epoch milliseconds;
//   - DATE: the forms ParseTime reads; a time of day is dropped.
//
// Space around the text is ignored for every type but STRING and BYTES.
// The error is a *TextError.
func ParseText(t Type, s string) (Value, error) {
	bad := func(err error) (Value, error) { return Value{}, &TextError{Text: s, Type: t, Err: err} }
	trimmed := strings.TrimSpace(s)
	switch t {
	case TypeString:
		return String(s), nil
	case TypeBytes:
		b, err := ParseBinary(s)
		if err != nil {
			return bad(err)
		}
		return Bytes(b), nil
	case TypeBigint, TypeInt:
		n, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil || t == TypeInt && (n < math.MinInt32 || n > math.MaxInt32) {
			return bad(nil)
		}
		return Value{Type: t, I: n}, nil
	case TypeDouble:
		f, err := strconv.ParseFloat(trimmed, 64)
		if err != nil {
			return bad(nil)
		}
		return Double(f), nil
	case TypeBoolean:
		b, err := strconv.ParseBool(trimmed)
		if err != nil {
			return bad(nil)
		}
		return Bool(b), nil
	case TypeTimestamp:
		if ms, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
			return TimestampMillis(ms), nil
		}
		tm, ok := ParseTime(trimmed)
		if !ok {
			return bad(nil)
		}
		return Timestamp(tm), nil
	case TypeDate:
		tm, ok := ParseTime(trimmed)
		if !ok {
			return bad(nil)
		}
		return Date(tm), nil
	}
	return bad(nil)
}

// ParseTime reads the timestamp forms rkql accepts: 'YYYY-MM-DD',
// 'YYYY-MM-DD HH:MM:SS[.fff]' in UTC (or with a T), and RFC 3339.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02", time.RFC3339Nano} {
		if tm, err := time.Parse(layout, s); err == nil {
			return tm.UTC(), true
		}
	}
	return time.Time{}, false
}
