package catalog

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestDocsEncodings checks every row of the table of encodings in
// docs/catalog.md:
// the sample value, written with that encoding into a key and a cell
// where the row says so, gives the bytes the row shows.
func TestDocsEncodings(t *testing.T) {
	src, err := os.ReadFile("../docs/catalog.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "<!-- encodings -->\n")
	table, _, ok2 := strings.Cut(table, "<!-- /encodings -->")
	if !ok || !ok2 {
		t.Fatal("docs/catalog.md has no encodings table")
	}
	rows := strings.Split(strings.TrimSpace(table), "\n")[2:]
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, r := range rows {
		f := strings.Split(strings.Trim(r, "| "), " | ")
		if len(f) != 7 {
			t.Fatalf("row %q has %d cells", r, len(f))
		}
		enc, typ, where, sample := strings.ReplaceAll(f[0], "`", ""), f[1], f[2], f[3]
		want, err := hex.DecodeString(strings.ReplaceAll(strings.Trim(f[4], "`"), " ", ""))
		if err != nil {
			t.Fatalf("row %q: %v", r, err)
		}
		t.Run(enc+"/"+typ+"/"+sample, func(t *testing.T) {
			name, extra, _ := strings.Cut(enc, ", ")
			comp := "{field: x, encoding: " + name
			if extra != "" {
				comp += ", " + extra
			}
			comp += "}"
			cellEnc := name
			if !strings.Contains(where, "cell") {
				cellEnc = "java"
			}
			if !strings.Contains(where, "key") {
				comp = "{field: k}"
			}
			yml := "tables:\n  - name: e\n    families: [{name: d}]\n    columns:\n" +
				"      - {name: k, type: STRING, column: \"d:k\"}\n" +
				"      - {name: x, type: " + typ + ", column: \"d:x\", encoding: " + cellEnc + "}\n" +
				"    rowkey:\n      - " + comp + "\n"
			c, err := Parse([]byte(yml))
			if err != nil {
				t.Fatalf("%v\n%s", err, yml)
			}
			tb, _ := c.Table("e")
			col := &tb.Columns[1]
			v, err := ParseText(col.Type, sample)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(where, "key") {
				row := tb.NewRow()
				row[1] = v
				key, err := tb.EncodeKey(row, nil)
				if err != nil {
					t.Fatal(err)
				}
				if string(key) != string(want) {
					t.Errorf("key bytes % X, the docs say % X", key, want)
				}
			}
			if strings.Contains(where, "cell") {
				if got := col.EncodeCell(v); string(got) != string(want) {
					t.Errorf("cell bytes % X, the docs say % X", got, want)
				}
			}
		})
	}
}
