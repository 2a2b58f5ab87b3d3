package catalog

import (
	"bytes"
	"strings"
	"testing"
)

// TestYAMLBytes checks that qualifiers, literals, pads and splits read
// \xNN as one byte in every YAML quoting style, double quotes included
// (where YAML itself would read U+0087, two bytes in UTF-8).
func TestYAMLBytes(t *testing.T) {
	cases := []struct {
		name, column, literal, split string
		qual, lit, spl               []byte
	}{
		{"double quotes", `"t:\x70\x87"`, `"\x00\xFF"`, `"\x80"`, []byte{0x70, 0x87}, []byte{0, 0xFF}, []byte{0x80}},
		{"single quotes", `'t:\x70\x87'`, `'\x00\xFF'`, `'\x80'`, []byte{0x70, 0x87}, []byte{0, 0xFF}, []byte{0x80}},
		{"plain", `t:\x70\x87`, `\x00\xFF`, `\x80`, []byte{0x70, 0x87}, []byte{0, 0xFF}, []byte{0x80}},
		{"utf-8 text stays utf-8", `"t:é"`, `"é"`, `"é"`, []byte("é"), []byte("é"), []byte("é")},
		{"yaml escapes", `"t:\u00e9\t"`, `"\\x41\n"`, `"\x41\\\\"`, []byte("é\t"), []byte("A\n"), []byte(`A\`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "tables:\n  - name: x\n    families: [{name: t}]\n    columns:\n" +
				"      - {name: a, type: STRING}\n" +
				"      - {name: v, type: BIGINT, column: " + tc.column + "}\n" +
				"    rowkey:\n      - {field: a}\n      - {literal: " + tc.literal + "}\n" +
				"    splits: [" + tc.split + "]\n"
			c, err := Parse([]byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			tb, _ := c.Table("x")
			if got := []byte(tb.Columns[1].Qualifier); !bytes.Equal(got, tc.qual) {
				t.Errorf("qualifier = % X, want % X", got, tc.qual)
			}
			if got := tb.Key.Components[1].Literal; !bytes.Equal(got, tc.lit) {
				t.Errorf("literal = % X, want % X", got, tc.lit)
			}
			if got := tb.Splits.Explicit[0]; !bytes.Equal(got, tc.spl) {
				t.Errorf("split = % X, want % X", got, tc.spl)
			}
		})
	}
}

func TestDeprecatedEncodings(t *testing.T) {
	src := `tables:
  - name: x
    families: [{name: d}]
    columns:
      - {name: a, type: BIGINT}
      - {name: b, type: BIGINT, column: "d:b", encoding: binary}
      - {name: c, type: BIGINT, column: "d:c", encoding: java}
    rowkey:
      - {field: a, encoding: binary}
`
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`line 6: column "b": encoding binary is deprecated: write java, the same bytes (Java's Bytes.toBytes)`,
		`line 9: field "a": encoding binary is deprecated: in a rowkey it is sortable (sign bit flipped, in value order); Java's Bytes.toBytes is java`,
	}
	if got := strings.Join(c.Warnings, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	tb, _ := c.Table("x")
	if tb.Key.Components[0].Enc != KeyBinary || tb.Columns[1].Encoding != EncBinary || tb.Columns[2].Encoding != EncBinary {
		t.Fatalf("deprecated names do not read as sortable (key) and java (cell)")
	}
	renamed := strings.NewReplacer("encoding: binary}\n", "encoding: sortable}\n", `"d:b", encoding: binary`, `"d:b", encoding: java`).Replace(src)
	c2, err := Parse([]byte(renamed))
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.Warnings) != 0 {
		t.Fatalf("new names warn: %v", c2.Warnings)
	}
	if _, err := Parse([]byte(strings.Replace(src, `"d:c", encoding: java`, `"d:c", encoding: sortable`, 1))); err == nil ||
		!strings.Contains(err.Error(), "sortable is a rowkey encoding") {
		t.Fatalf("sortable cell: err = %v", err)
	}
}
