package catalog

import (
	"strings"
	"testing"
)

const qualYAML = `tables:
  - name: inverted
    families: [{name: d}]
    columns:
      - {name: term, type: STRING}
      - {name: doc_id, type: BIGINT}
      - {name: score, type: DOUBLE}
    rowkey: [{field: term}]
    wide: {family: d, qualifier: {field: doc_id, encoding: java}, value: score}
  - name: profiles
    families: [{name: base}, {name: tags}]
    columns:
      - {name: user, type: STRING}
      - {name: tags, type: "MAP<STRING, BIGINT>", family: tags, encoding: text, qualifier: {encoding: text}}
    rowkey: [{field: user}]
`

func TestQualifiersAsData(t *testing.T) {
	c, err := Parse([]byte(qualYAML))
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := c.Table("inverted")
	w := inv.Wide
	if w == nil || w.Cells == nil || w.Qual != 1 || w.Value != 2 || !inv.Expands() {
		t.Fatalf("inverted: wide %+v", w)
	}
	if inv.Columns[1].KeyField || !inv.Columns[1].FromCell || !inv.Columns[2].FromCell {
		t.Errorf("doc_id and score must come from the cell, not the key: %+v", inv.Columns)
	}
	q, err := w.Cells.Encode(Bigint(-2))
	if err != nil || ToStringBinary(q) != `\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFE` {
		t.Errorf("Encode(-2) = %s, %v; want Bytes.toBytes(-2L)", ToStringBinary(q), err)
	}
	row := inv.NewRow()
	if err := w.FieldCell(inv, row, q, []byte{0x3F, 0xF8, 0, 0, 0, 0, 0, 0}); err != nil || row[1].I != -2 || row[2].F != 1.5 {
		t.Errorf("FieldCell = %v, %v", row, err)
	}
	if err := w.FieldCell(inv, row, []byte("abc"), []byte{1}); err == nil {
		t.Error("a 3-byte qualifier read as a BIGINT")
	}
	prof, _ := c.Table("profiles")
	tags := prof.Columns[1]
	if tags.MapFamily != "tags" || tags.Family != "" || tags.Map != (MapType{TypeString, TypeBigint}) {
		t.Fatalf("tags: %+v", tags)
	}
	k, err := tags.MapKeys.Decode([]byte("sports"))
	if err != nil || k.S != "sports" {
		t.Errorf("Decode(sports) = %v, %v", k, err)
	}
	mc := tags.MapCell()
	if v, err := mc.DecodeCell([]byte("42")); err != nil || v.I != 42 {
		t.Errorf("MapCell().DecodeCell(42) = %v, %v", v, err)
	}
}

func TestQualifiersAsDataErrors(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{`type: "MAP<STRING, BIGINT>", family: tags`, `type: STRING, family: tags`, `only a MAP column holds a whole family`},
		{`family: tags, encoding: text`, `family: tags, column: "tags:x", encoding: text`, `give family (the whole family) or column (one cell), not both`},
		{`family: tags, encoding`, `family: nope, encoding`, `table "profiles" has no family "nope"`},
		{`qualifier: {encoding: text}}`, `qualifier: {field: user}}`, `a map's qualifier is its key`},
		{`qualifier: {field: doc_id, encoding: java}`, `qualifier: {field: term}`, `comes from the cell, so it can be neither a key field nor mapped`},
		{`value: score}`, `value: doc_id}`, `cannot be both the qualifier and the value`},
		{`value: score}`, `value: score, offset: x}`, `takes a value alone`},
		{`value: score}`, `value: score, uids: tsdb_uid, tags: doc_id}`, `need qualifier format opentsdb, not a qualifier that holds a field`},
		{`qualifier: {field: doc_id, encoding: java}`, `qualifier: {field: doc_id, encoding: text}`, `text encoding is for STRING and BYTES`},
		{`qualifier: {field: doc_id, encoding: java}`, `qualifier: {field: nope}`, `qualifier field "nope" is not a column`},
		{`rowkey: [{field: user}]`, `rowkey: [{field: user}]
    indexes:
      - {name: by_tags, rowkey: [{field: user}], covers: [tags]}`, `"tags" is a MAP, which an index cannot hold`},
		{`value: score}`, `value: score}
    indexes:
      - {name: by_term, rowkey: [{field: term}]}`, `an index entry points to a stored row`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if !strings.Contains(qualYAML, tc.old) {
				t.Fatalf("the catalog lacks %q", tc.old)
			}
			_, err := Parse([]byte(strings.Replace(qualYAML, tc.old, tc.new, 1)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
