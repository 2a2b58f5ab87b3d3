package catalog

import (
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"
)

// The bytes below are Phoenix 5.2.1's, as PhoenixBytes printed them
// (TestPhoenixTypesMatchPhoenix checks many more against Phoenix itself);
// they keep the encoding pinned where Java is absent.
func TestPhoenixKnownBytes(t *testing.T) {
	for _, tc := range []struct {
		p    PType
		t    Type
		v    Value
		desc bool
		hex  string
	}{
		{PDouble, TypeDouble, Double(1.5), false, "bff8000000000001"},
		{PDouble, TypeDouble, Double(842.05), false, "c08a506666666667"},
		{PDecimal, TypeString, String("-123.45"), true, "c29bb1c799"},
		{PDecimal, TypeString, String("-123.45"), false, "3d644e3866"},
		{PDecimal, TypeString, String("1"), false, "c102"},
		{PDecimal, TypeString, String("0"), false, "80"},
		{PBoolean, TypeBoolean, Bool(true), true, "fe"},
		{PUnsignedTinyint, TypeInt, Value{Type: TypeInt, I: 127}, false, "7f"},
		{PTimestamp, TypeTimestamp, TimestampMillis(1000), false, "80000000000003e800000000"},
		{PBigint, TypeBigint, Bigint(-1), false, "7fffffffffffffff"},
		{PVarchar, TypeString, String("a"), true, "9e"},
	} {
		b, err := phoenixEncode(nil, tc.p, tc.t, tc.v, 0)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.p, tc.v, err)
		}
		if tc.desc {
			b = invertP(tc.p, b)
		}
		if got := hex.EncodeToString(b); got != tc.hex {
			t.Errorf("%s %s desc=%v: %s, Phoenix writes %s", tc.p, tc.v, tc.desc, got, tc.hex)
		}
		if tc.desc {
			b = invertP(tc.p, b)
		}
		v, err := phoenixDecode(b, tc.p, tc.t)
		if err != nil || !Equal(v, tc.v) {
			t.Errorf("%s: reads %s (%v) from %x, not %s", tc.p, v, err, b, tc.v)
		}
	}
}

const phoenixCatalog = `tables:
  - name: p
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: b, type: STRING}
      - {name: c, type: STRING}
      - {name: x, type: DOUBLE, column: "0:X", encoding: phoenix}
      - {name: m, type: STRING, column: "0:M", encoding: phoenix, phoenix: DECIMAL}
    rowkey:
      - {salt: 4}
      - {field: a, encoding: phoenix}
      - {field: b, encoding: phoenix}
      - {field: c, encoding: phoenix, phoenix: DECIMAL, order: desc}
`

// Phoenix leaves out trailing NULL key fields and the separator before
// them; a NULL in the middle is its separator alone.
func TestPhoenixNullKeyFields(t *testing.T) {
	tb := mustTable(t, mustParse(t, phoenixCatalog), "p")
	for _, tc := range []struct {
		a, b, c Value
		rest    string // the key after the salt byte, toStringBinary
	}{
		{String("a"), Null(TypeString), Null(TypeString), "a"},
		{String("a"), String("b"), Null(TypeString), "a\\x00b"},
		{String("a"), Null(TypeString), String("5"), "a\\x00\\x00>\\xF9\\xFF"},
		{Null(TypeString), String("b"), Null(TypeString), "\\x00b"},
		{String("a"), String("b"), String("-1"), "a\\x00b\\x00\\xC1\\x9B\\x99\\xFF"},
	} {
		row := tb.NewRow()
		row[0], row[1], row[2] = tc.a, tc.b, tc.c
		key, err := tb.EncodeKey(row, nil)
		if err != nil {
			t.Fatalf("%v: %v", row, err)
		}
		if got := ToStringBinary(key[1:]); got != tc.rest {
			t.Errorf("%v: key %s, want %s", row[:3], got, tc.rest)
		}
		if int(key[0]) != int(javaAbsMod(int64(ArraysHashCode(key[1:])), 4)) {
			t.Errorf("%v: salt byte %d", row[:3], key[0])
		}
		got := tb.NewRow()
		if err := tb.DecodeKey(key, got, nil); err != nil {
			t.Fatalf("%s: %v", ToStringBinary(key), err)
		}
		for i := range 3 {
			if !Equal(got[i], row[i]) || got[i].Null != row[i].Null {
				t.Errorf("%s: field %d reads %s, want %s", ToStringBinary(key), i, got[i], row[i])
			}
		}
	}
	row := tb.NewRow()
	row[0], row[1], row[2] = Null(TypeString), Null(TypeString), Null(TypeString)
	if _, err := tb.EncodeKey(row, nil); err == nil || !strings.Contains(err.Error(), "every field of the key is NULL") {
		t.Errorf("an all-NULL key: %v", err)
	}
	// A trailing separator is never written, so it is not read.
	key := []byte("\x00a\x00")
	key[0] = byte(javaAbsMod(int64(ArraysHashCode(key[1:])), 4))
	if err := tb.DecodeKey(key, tb.NewRow(), nil); err == nil || !strings.Contains(err.Error(), "ends with a separator") {
		t.Errorf("a key ending in a separator: %v", err)
	}
}

func TestPhoenixCells(t *testing.T) {
	tb := mustTable(t, mustParse(t, phoenixCatalog), "p")
	x, m := tb.Columns[3], tb.Columns[4]
	if got := hex.EncodeToString(x.EncodeCell(Double(842.05))); got != "c08a506666666667" {
		t.Errorf("DOUBLE 842.05: %s", got)
	}
	v, err := x.DecodeCell([]byte{0xc0, 0x8a, 0x50, 0x66, 0x66, 0x66, 0x66, 0x67})
	if err != nil || v.F != 842.05 {
		t.Errorf("DOUBLE 842.05 reads %s (%v)", v, err)
	}
	for _, s := range []string{"1.50", "15e-1", "+1.5", "abc", ""} {
		if err := m.CheckCell(String(s)); err == nil {
			t.Errorf("DECIMAL %q is written", s)
		}
	}
	if err := m.CheckCell(String("1.5")); err != nil {
		t.Error(err)
	}
	if v, err := m.DecodeCell(nil); err != nil || !v.Null {
		t.Errorf("an empty cell reads %s (%v), not NULL", v, err)
	}
	f := Column{Name: "f", Type: TypeDouble, Encoding: EncPhoenix, Phoenix: PFloat}
	if err := f.CheckCell(Double(0.1)); err == nil {
		t.Error("FLOAT 0.1 would be rounded, and is written")
	}
	if err := f.CheckCell(Double(math.Inf(1))); err != nil {
		t.Error(err)
	}
}

func TestPhoenixLoadErrors(t *testing.T) {
	for _, tc := range []struct{ col, key, want string }{
		{"{name: a, type: STRING}", "{field: a, encoding: phoenix, phoenix: BIGINT}", "cannot hold Phoenix's BIGINT"},
		{"{name: a, type: STRING}", "{field: a, encoding: phoenix, phoenix: CHAR}", "needs its width"},
		{"{name: a, type: STRING}", "{field: a, encoding: phoenix, phoenix: NUMBERS}", "unknown Phoenix type"},
		{"{name: a, type: STRING}", "{field: a, encoding: text, phoenix: VARCHAR}", "phoenix names a Phoenix type"},
		{"{name: a, type: BYTES}", "{field: a, encoding: phoenix, order: desc}", "descending VARBINARY"},
		{"{name: a, type: STRING}", "{field: a, encoding: phoenix}\n      - {literal: x}", "only phoenix fields may follow"},
	} {
		src := "tables:\n  - name: t\n    families: [{name: f}]\n    columns:\n      - " + tc.col + "\n    rowkey:\n      - " + tc.key + "\n"
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.key, err, tc.want)
		}
	}
}

// A range over a phoenix TIMESTAMP covers every nanosecond of its last
// millisecond; a VARCHAR gives no range.
func TestPhoenixSpans(t *testing.T) {
	src := `tables:
  - name: t
    families: [{name: f}]
    columns:
      - {name: ts, type: TIMESTAMP}
    rowkey:
      - {field: ts, encoding: phoenix}
`
	c := &mustTable(t, mustParse(t, src), "t").Key.Components[0]
	at := Bound{Set: true, Value: TimestampMillis(1000), Inclusive: true}
	s := c.FieldSpan(at, at)
	if got := ToStringBinary(s.Start) + " " + ToStringBinary(s.Stop); got != "\\x80\\x00\\x00\\x00\\x00\\x00\\x03\\xE8\\x00\\x00\\x00\\x00 \\x80\\x00\\x00\\x00\\x00\\x00\\x03\\xE8\\x00\\x0FB@" || !s.Exact {
		t.Errorf("ts = 1000 ms spans %s (exact %v)", got, s.Exact)
	}
	if !c.OrderPreserving() {
		t.Error("a phoenix TIMESTAMP sorts as its values")
	}
}

// The catalog in docs/phoenix.md loads, and writes a row with a NULL
// DOMAIN as Phoenix does: HOST, the separator DOMAIN leaves, then TS
// inverted.
func TestDocsPhoenixCatalog(t *testing.T) {
	src, err := os.ReadFile("../docs/phoenix.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(src), "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	tb := mustTable(t, mustParse(t, block), "metrics")
	if p := tb.Phoenix; p == nil || p.Name != "METRICS" || p.EmptyFamily != "0" || p.EmptyQualifier != "_0" {
		t.Errorf("phoenix block %+v", p)
	}
	row := tb.NewRow()
	row[0], row[1], row[2] = String("h1"), Null(TypeString), TimestampMillis(0)
	key, err := tb.EncodeKey(row, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ToStringBinary(key[1:]); got != "h1\\x00\\x00\\x7F\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF" {
		t.Errorf("key %s", got)
	}
	row[1] = String("d")
	if key, err = tb.EncodeKey(row, nil); err != nil || ToStringBinary(key[1:4]) != "h1\\x00" || key[4] != 'd' {
		t.Errorf("key %s (%v)", ToStringBinary(key), err)
	}
}

func TestPhoenixLegend(t *testing.T) {
	tb := mustTable(t, mustParse(t, phoenixCatalog), "p")
	got := strings.Join(tb.Key.Legend(), "\n")
	for _, want := range []string{"Phoenix's VARCHAR, as PDataType.toBytes writes it, then \\x00",
		"Phoenix's DECIMAL, as PDataType.toBytes writes it, then \\xFF", "descending: every byte inverted"} {
		if !strings.Contains(got, want) {
			t.Errorf("legend:\n%s\nwants %q", got, want)
		}
	}
	if s := tb.Key.String(); s != "salt(4):u8 | a:phoenix(VARCHAR) | b:phoenix(VARCHAR) | desc(c):phoenix(DECIMAL)" {
		t.Errorf("KEY %s", s)
	}
}
