package filter

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// lp is a length-delimited protobuf field: tag byte, length, payload.
func lp(tag byte, payload []byte) []byte {
	return append([]byte{tag, byte(len(payload))}, payload...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// comparatorMsg is a Comparator wrapper message, built by hand.
func comparatorMsg(class string, ser []byte) []byte {
	return cat(lp(0x0a, []byte(classPrefix+class)), lp(0x12, ser))
}

func TestMarshal(t *testing.T) {
	binAB := lp(0x0a, lp(0x0a, []byte("ab"))) // BinaryComparator{comparable{value "ab"}}
	tests := []struct {
		name  string
		f     interface{ Marshal() ([]byte, error) }
		class string
		want  []byte
	}{
		{"prefix", Prefix{Prefix: []byte("abc")}, "PrefixFilter", []byte{0x0a, 0x03, 'a', 'b', 'c'}},
		{"prefix-empty", Prefix{}, "PrefixFilter", []byte{0x0a, 0x00}},
		{"keyonly", KeyOnly{}, "KeyOnlyFilter", []byte{0x08, 0x00}},
		{"keyonly-len", KeyOnly{LenAsValue: true}, "KeyOnlyFilter", []byte{0x08, 0x01}},
		{"firstkeyonly", FirstKeyOnly{}, "FirstKeyOnlyFilter", nil},
		{"page", Page{Size: 10}, "PageFilter", []byte{0x08, 0x0a}},
		{"binary", Binary{Value: []byte("ab")}, "BinaryComparator", binAB},
		{"binaryprefix", BinaryPrefix{Value: []byte("ab")}, "BinaryPrefixComparator", binAB},
		{"substring", Substring{Substr: "x"}, "SubstringComparator", []byte{0x0a, 0x01, 'x'}},
		{"regex", RegexString{Pattern: "^a", Flags: CaseInsensitive}, "RegexStringComparator",
			cat(lp(0x0a, []byte("^a")), []byte{0x10, 0x02}, lp(0x1a, []byte("UTF-8")), lp(0x22, []byte("JAVA")))},
		{"row", Row{Op: Equal, Comparator: Binary{Value: []byte("ab")}}, "RowFilter",
			lp(0x0a, cat([]byte{0x08, 0x02}, lp(0x12, comparatorMsg("BinaryComparator", binAB))))},
		{"value", Value{Op: Greater, Comparator: Binary{Value: []byte("ab")}}, "ValueFilter",
			lp(0x0a, cat([]byte{0x08, 0x05}, lp(0x12, comparatorMsg("BinaryComparator", binAB))))},
		{"scv", SingleColumnValue{Family: []byte("cf"), Qualifier: []byte("q"), Op: NotEqual,
			Comparator: Binary{Value: []byte("ab")}, FilterIfMissing: true}, "SingleColumnValueFilter",
			cat(lp(0x0a, []byte("cf")), lp(0x12, []byte("q")), []byte{0x18, 0x03},
				lp(0x22, comparatorMsg("BinaryComparator", binAB)), []byte{0x28, 0x01, 0x30, 0x00})},
		{"and", And(Prefix{Prefix: []byte("a")}, KeyOnly{}), "FilterList",
			cat([]byte{0x08, 0x01},
				lp(0x12, cat(lp(0x0a, []byte(classPrefix+"PrefixFilter")), lp(0x12, []byte{0x0a, 0x01, 'a'}))),
				lp(0x12, cat(lp(0x0a, []byte(classPrefix+"KeyOnlyFilter")), lp(0x12, []byte{0x08, 0x00}))))},
		{"or", Or(FirstKeyOnly{}), "FilterList",
			cat([]byte{0x08, 0x02}, lp(0x12, cat(lp(0x0a, []byte(classPrefix+"FirstKeyOnlyFilter")), []byte{0x12, 0x00})))},
		{"multirowrange", MultiRowRange{Ranges: []RowRange{{Start: []byte("a"), StartInclusive: true, Stop: []byte("b")}}},
			"MultiRowRangeFilter",
			lp(0x0a, cat(lp(0x0a, []byte("a")), []byte{0x10, 0x01}, lp(0x1a, []byte("b")), []byte{0x20, 0x00}))},
		{"fuzzy", FuzzyRow{Keys: []FuzzyKey{{Key: []byte("?b"), Mask: []byte{1, 0}}}}, "FuzzyRowFilter",
			lp(0x0a, cat(lp(0x0a, []byte("?b")), lp(0x12, []byte{1, 0})))},
		{"columnprefix", ColumnPrefix{Prefix: []byte("q")}, "ColumnPrefixFilter", []byte{0x0a, 0x01, 'q'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("got  %s\nwant %s", hex.EncodeToString(got), hex.EncodeToString(tt.want))
			}
			cn := tt.f.(interface{ ClassName() string }).ClassName()
			if cn != classPrefix+tt.class {
				t.Errorf("class = %q", cn)
			}
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		f    Filter
	}{
		{"row-no-comparator", Row{Op: Equal}},
		{"row-bad-op", Row{Op: 9, Comparator: Binary{}}},
		{"scv-no-comparator", SingleColumnValue{Family: []byte("f")}},
		{"empty-list", And()},
		{"bad-operator", List{Operator: 3, Filters: []Filter{KeyOnly{}}}},
		{"nil-in-list", Or(nil)},
		{"nested-error", And(Row{Op: Equal})},
		{"fuzzy-mask-length", FuzzyRow{Keys: []FuzzyKey{{Key: []byte("ab"), Mask: []byte{0}}}}},
		{"fuzzy-mask-byte", FuzzyRow{Keys: []FuzzyKey{{Key: []byte("a"), Mask: []byte{2}}}}},
		{"fuzzy-empty", FuzzyRow{}},
		{"range-empty", MultiRowRange{}},
		{"range-backwards", MultiRowRange{Ranges: []RowRange{{Start: []byte("b"), Stop: []byte("a")}}}},
		{"page-negative", Page{Size: -1}},
		{"regex-empty", Row{Op: Equal, Comparator: RegexString{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ToProto(tt.f); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func TestToProtoPrefixWorkedExample(t *testing.T) {
	p, err := ToProto(Prefix{Prefix: []byte("abc")})
	if err != nil {
		t.Fatal(err)
	}
	if p.GetName() != "org.apache.hadoop.hbase.filter.PrefixFilter" ||
		hex.EncodeToString(p.GetSerializedFilter()) != "0a03616263" {
		t.Errorf("got %v", p)
	}
}

func TestMarshalColumnRange(t *testing.T) {
	tests := []struct {
		name  string
		f     Filter
		class string
		want  []byte
	}{
		{"closed-open", ColumnRange{Min: []byte("a"), MinInclusive: true, Max: []byte("b")}, "ColumnRangeFilter",
			cat(lp(0x0a, []byte("a")), []byte{0x10, 0x01}, lp(0x1a, []byte("b")), []byte{0x20, 0x00})},
		{"open-below", ColumnRange{Max: []byte("z"), MaxInclusive: true}, "ColumnRangeFilter",
			cat([]byte{0x10, 0x00}, lp(0x1a, []byte("z")), []byte{0x20, 0x01})},
		{"prefixes", MultipleColumnPrefix{Prefixes: [][]byte{[]byte("ab"), []byte("c")}}, "MultipleColumnPrefixFilter",
			cat(lp(0x0a, []byte("ab")), lp(0x0a, []byte("c")))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Errorf("Marshal = %x, want %x", got, tc.want)
			}
			if tc.f.ClassName() != classPrefix+tc.class {
				t.Errorf("ClassName = %s", tc.f.ClassName())
			}
		})
	}
	if _, err := (MultipleColumnPrefix{}).Marshal(); err == nil {
		t.Error("no error for no prefixes")
	}
}
