package catalog

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestEncodeCellJava pins binary cells to what Java's Bytes.toBytes
// writes.
func TestEncodeCellJava(t *testing.T) {
	cases := []struct {
		typ  Type
		v    Value
		want string
	}{
		{TypeBigint, Bigint(1), "0000000000000001"},
		{TypeBigint, Bigint(-1), "ffffffffffffffff"},
		{TypeInt, Int(-2), "fffffffe"},
		{TypeBoolean, Bool(true), "ff"},
		{TypeBoolean, Bool(false), "00"},
		{TypeDouble, Double(1.5), "3ff8000000000000"},
		{TypeTimestamp, TimestampMillis(1714521600000), "0000018f31737000"},
		{TypeDate, DateFromYMD(2019, 2, 17), "00004618"},
		{TypeString, String("héllo"), "68c3a96c6c6f"},
		{TypeBytes, Bytes([]byte{0, 0xFF}), "00ff"},
	}
	for _, tc := range cases {
		c := Column{Name: "c", Type: tc.typ}
		if got := fmt.Sprintf("%x", c.EncodeCell(tc.v)); got != tc.want {
			t.Errorf("EncodeCell(%s %s) = %s, want %s", tc.typ, tc.v, got, tc.want)
		}
	}
}

func TestEncodeCellText(t *testing.T) {
	cases := []struct {
		typ  Type
		v    Value
		want string
	}{
		{TypeBigint, Bigint(-42), "-42"},
		{TypeBoolean, Bool(true), "true"},
		{TypeDouble, Double(2.5), "2.5"},
		{TypeDouble, Double(3), "3.0"},
		{TypeDouble, Double(0.0001), "1.0E-4"},
		{TypeDouble, Double(1e7), "1.0E7"},
		{TypeDouble, Double(-1.5e-10), "-1.5E-10"},
		{TypeDouble, Double(math.Copysign(0, -1)), "-0.0"},
		{TypeDouble, Double(math.Inf(-1)), "-Infinity"},
		{TypeTimestamp, TimestampMillis(1714521600000), "1714521600000"},
		{TypeDate, DateFromYMD(2019, 2, 17), "2019-02-17"},
		{TypeString, String("x y"), "x y"},
	}
	for _, tc := range cases {
		c := Column{Name: "c", Type: tc.typ, Encoding: EncText}
		if got := string(c.EncodeCell(tc.v)); got != tc.want {
			t.Errorf("EncodeCell(%s %s) = %q, want %q", tc.typ, tc.v, got, tc.want)
		}
	}
}

// TestDecodeCellTextDouble: a text DOUBLE reads in Java's form and in
// Go's, so cells written before either form read back.
func TestDecodeCellTextDouble(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{
		{"3.0", 3}, {"3", 3},
		{"1.0E-4", 1e-4}, {"0.0001", 1e-4},
		{"1.0E7", 1e7}, {"1e+07", 1e7},
		{"-0.0", math.Copysign(0, -1)},
		{"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)},
		{"4.9E-324", math.SmallestNonzeroFloat64},
	}
	c := Column{Name: "c", Type: TypeDouble, Encoding: EncText}
	for _, tc := range cases {
		v, err := c.DecodeCell([]byte(tc.in))
		if err != nil || v.F != tc.want || math.Signbit(v.F) != math.Signbit(tc.want) {
			t.Errorf("DecodeCell(%q) = %v, %v; want %v", tc.in, v.F, err, tc.want)
		}
	}
	if v, err := c.DecodeCell([]byte("NaN")); err != nil || !math.IsNaN(v.F) {
		t.Errorf("DecodeCell(NaN) = %v, %v", v.F, err)
	}
}

// TestCellRoundTrip: every value of every type reads back from its cell,
// in both encodings, and the value does not alias the cell's bytes.
func TestCellRoundTrip(t *testing.T) {
	types := []Type{TypeString, TypeBytes, TypeBigint, TypeInt, TypeTimestamp, TypeDate, TypeDouble, TypeBoolean}
	r := rand.New(rand.NewPCG(8, 0))
	for _, typ := range types {
		for _, enc := range []Encoding{EncBinary, EncText} {
			c := Column{Name: "c", Type: typ, Encoding: enc}
			for range 2000 {
				v := genValue(r, typ)
				if enc == EncText && typ == TypeDouble && math.IsInf(v.F, 0) {
					continue
				}
				cell := c.EncodeCell(v)
				got, err := c.DecodeCell(cell)
				if err != nil {
					t.Fatalf("%s/%d: DecodeCell(EncodeCell(%s)) = %v", typ, enc, v, err)
				}
				if !sameValue(got, v) {
					t.Fatalf("%s/%d: %s came back as %s", typ, enc, v, got)
				}
				if typ == TypeBytes && len(cell) > 0 {
					before := bytes.Clone(got.B)
					cell[0] ^= 0xFF
					if !bytes.Equal(got.B, before) {
						t.Fatalf("DecodeCell's BYTES value aliases the cell")
					}
				}
			}
		}
	}
}

func TestDecodeCellErrors(t *testing.T) {
	cases := []struct {
		col  Column
		cell []byte
		want string
	}{
		{Column{Name: "n", Type: TypeBigint}, []byte{1, 2, 3}, `column n: cannot read BIGINT from '\x01\x02\x03'`},
		{Column{Name: "i", Type: TypeInt}, []byte{1, 2, 3, 4, 5}, `column i: cannot read INT from '\x01\x02\x03\x04\x05'`},
		{Column{Name: "b", Type: TypeBoolean}, nil, `column b: cannot read BOOLEAN from ''`},
		{Column{Name: "d", Type: TypeDouble}, []byte{1}, `column d: cannot read DOUBLE from '\x01'`},
		{Column{Name: "i", Type: TypeInt, Encoding: EncText}, []byte("3000000000"), `column i: cannot read INT from '3000000000'`},
		{Column{Name: "d", Type: TypeDate, Encoding: EncText}, []byte("2019-02-30"), `column d: cannot read DATE from '2019-02-30'`},
		{Column{Name: "f", Type: TypeDouble, Encoding: EncText}, []byte("one"), `column f: cannot read DOUBLE from 'one'`},
		{Column{Name: "b", Type: TypeBoolean, Encoding: EncText}, []byte("yes"), `column b: cannot read BOOLEAN from 'yes'`},
	}
	for _, tc := range cases {
		_, err := tc.col.DecodeCell(tc.cell)
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeCell(%q) = %v, want %q", tc.cell, err, tc.want)
		}
	}
}
