package planner

import (
	"errors"
	"math"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// literal parses lit as the right-hand side of a WHERE comparison.
func literal(t *testing.T, lit string) parser.Expr {
	t.Helper()
	stmt, err := parser.ParseOne("SELECT * FROM t WHERE c = " + lit)
	if err != nil {
		t.Fatalf("%s: %v", lit, err)
	}
	return stmt.(*parser.SelectStmt).Where.(*parser.BinaryExpr).RHS
}

// TestConvertReadsValueString: the SQL a value prints as, read as a
// literal for a column of the value's type, gives the value back.
func TestConvertReadsValueString(t *testing.T) {
	vals := []catalog.Value{
		catalog.String("it's"), catalog.String(`a\x00`), catalog.Bytes([]byte{0, 'k', 0xFF}),
		catalog.Bigint(math.MinInt64 + 1), catalog.Int(-7), catalog.Double(1e7), catalog.Double(-2.5e-7),
		catalog.Double(math.Copysign(0, -1)), catalog.Double(math.Inf(1)), catalog.Double(math.Inf(-1)),
		catalog.Bool(true), catalog.TimestampMillis(1714564800123), catalog.DateFromYMD(2024, 2, 29),
	}
	for _, v := range vals {
		got, err := Convert(v.Type, "c", literal(t, v.String()))
		if err != nil || !catalog.Equal(got, v) || math.Signbit(got.F) != math.Signbit(v.F) {
			t.Errorf("Convert(%s, %s) = %s, %v; want %s", v.Type, v.String(), got, err, v)
		}
	}
}

// TestConvertBytesString: a string literal for a BYTES column is read in
// toStringBinary form, as import and DECODE KEY read it, and agrees with
// the hex literal of the same bytes.
func TestConvertBytesString(t *testing.T) {
	want := catalog.Bytes([]byte{'k', 0, '\\'})
	for _, lit := range []string{`'k\x00\x5C'`, `'k\x00\\'`, `x'6b005c'`} {
		got, err := Convert(catalog.TypeBytes, "raw", literal(t, lit))
		if err != nil || !catalog.Equal(got, want) {
			t.Errorf("Convert(BYTES, %s) = %s, %v; want %s", lit, got, err, want)
		}
	}
	bad := literal(t, `'\xZZ'`)
	_, err := Convert(catalog.TypeBytes, "raw", bad)
	want2 := `column raw is BYTES, and '\xZZ' is not a valid BYTES: bad escape '\xZZ' (want \xNN with two hex digits)`
	var pe *parser.Error
	if !errors.As(err, &pe) || pe.Msg != want2 || pe.Pos != bad.Pos() {
		t.Errorf("bad escape: %v, want %s at the literal", err, want2)
	}
}
