package catalog

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseText(t *testing.T) {
	cases := []struct {
		typ  Type
		in   string
		want string // Value.String(), or the error
	}{
		{TypeString, " a ", "' a '"},
		{TypeString, `\x00`, `'\x00'`},
		{TypeString, "it's", "'it''s'"},
		{TypeBytes, `\x00A\x5C`, "x'00415c'"},
		{TypeBytes, `a\\b`, "x'615c62'"},
		{TypeBytes, " a ", "x'206120'"},
		{TypeBytes, "", "x''"},
		{TypeBytes, `\xZZ`, `'\xZZ' is not a valid BYTES: bad escape '\xZZ' (want \xNN with two hex digits)`},
		{TypeBytes, `a\b`, `'a\b' is not a valid BYTES: bad escape at byte 1 of 'a\b' (want \xNN, or \\ for a backslash)`},
		{TypeBigint, " 42 ", "42"},
		{TypeBigint, "-9223372036854775808", "-9223372036854775808"},
		{TypeBigint, "9223372036854775808", "'9223372036854775808' is not a valid BIGINT"},
		{TypeBigint, "1.0", "'1.0' is not a valid BIGINT"},
		{TypeBoolean, "0\n1\x1b", `'0\x0A1\x1B' is not a valid BOOLEAN`},
		{TypeBytes, "\\q\n", `'\q\x0A' is not a valid BYTES: bad escape at byte 0 of '\q\x0A' (want \xNN, or \\ for a backslash)`},
		{TypeInt, "2147483647", "2147483647"},
		{TypeInt, "2147483648", "'2147483648' is not a valid INT"},
		{TypeDouble, "1e3", "1000"},
		{TypeDouble, "1.0E7", "1e+07"},
		{TypeDouble, " -2.5 ", "-2.5"},
		{TypeDouble, "NaN", "'NaN'"},
		{TypeDouble, "Infinity", "'Infinity'"},
		{TypeDouble, "-Infinity", "'-Infinity'"},
		{TypeDouble, "-0.0", "-0.0"},
		{TypeDouble, "abc", "'abc' is not a valid DOUBLE"},
		{TypeBoolean, "TRUE", "TRUE"},
		{TypeBoolean, " false", "FALSE"},
		{TypeBoolean, "yes", "'yes' is not a valid BOOLEAN"},
		{TypeTimestamp, "1714564800000", "'2024-05-01 12:00:00.000'"},
		{TypeTimestamp, "2024-05-01 12:00:00.5", "'2024-05-01 12:00:00.500'"},
		{TypeTimestamp, "2024-05-01T14:00:00+02:00", "'2024-05-01 12:00:00.000'"},
		{TypeTimestamp, "2024-05-01", "'2024-05-01 00:00:00.000'"},
		{TypeTimestamp, "yesterday", "'yesterday' is not a valid TIMESTAMP"},
		{TypeDate, "2024-05-01", "'2024-05-01'"},
		{TypeDate, "2024-05-01 23:59:59", "'2024-05-01'"},
		{TypeDate, "May 1", "'May 1' is not a valid DATE"},
		{TypeInvalid, "x", "'x' is not a valid INVALID"},
	}
	for _, tc := range cases {
		t.Run(tc.typ.String()+"/"+tc.in, func(t *testing.T) {
			v, err := ParseText(tc.typ, tc.in)
			got := ""
			if err != nil {
				got = err.Error()
				var te *TextError
				if !errors.As(err, &te) || te.Type != tc.typ || te.Text != tc.in {
					t.Errorf("error %v is not a TextError of %s %q", err, tc.typ, tc.in)
				}
			} else {
				got = v.String()
				if v.Type != tc.typ {
					t.Errorf("type %s, want %s", v.Type, tc.typ)
				}
			}
			if got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestParseTextReadsText: ParseText reads back what Text shows a user, for
// every type, so that exported rows import again.
func TestParseTextReadsText(t *testing.T) {
	vals := []Value{
		String("x'y"), String(""), Bytes([]byte{0, '\\', 0xFF, 'a'}), Bytes(nil),
		Bigint(math.MinInt64), Int(math.MaxInt32), Double(0.1), Double(-1e300),
		Double(math.Inf(-1)), Double(math.Copysign(0, -1)), Bool(true), Bool(false),
		TimestampMillis(1714564800123), TimestampMillis(-1), DateFromYMD(1900, 1, 1),
	}
	for _, v := range vals {
		got, err := ParseText(v.Type, v.Text())
		if err != nil || !Equal(got, v) || math.Signbit(got.F) != math.Signbit(v.F) {
			t.Errorf("ParseText(%s, %q) = %s, %v; want %s", v.Type, v.Text(), got, err, v)
		}
	}
	if got, err := ParseText(TypeDouble, Double(math.NaN()).Text()); err != nil || !math.IsNaN(got.F) {
		t.Errorf("NaN: %s, %v", got, err)
	}
}

// TestValueStringQuotedLiterals: a quoted SQL literal, unquoted, is text
// that ParseText reads back as the value.
func TestValueStringQuotedLiterals(t *testing.T) {
	vals := []Value{
		String("it's"), Double(math.Inf(1)), Double(math.Inf(-1)),
		TimestampMillis(1714564800123), DateFromYMD(2024, 2, 29),
	}
	for _, v := range vals {
		s := v.String()
		if !strings.HasPrefix(s, "'") || !strings.HasSuffix(s, "'") {
			t.Fatalf("%v: %s is not quoted", v, s)
		}
		text := strings.ReplaceAll(s[1:len(s)-1], "''", "'")
		if got, err := ParseText(v.Type, text); err != nil || !Equal(got, v) {
			t.Errorf("ParseText(%s, %q) = %s, %v; want %s", v.Type, text, got, err, v)
		}
	}
}
