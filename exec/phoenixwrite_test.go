package exec

import (
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

const cellArrayYAML = `tables:
  - name: cells
    hbase: CELLS
    families: [{name: "0"}, {name: "X"}]
    columns:
      - {name: k, type: STRING}
      - {name: a, type: INT, column: "0:\x80\x0B", encoding: phoenix, phoenix: INTEGER}
      - {name: b, type: STRING, column: "0:\x80\x0D", encoding: phoenix}
      - {name: d, type: STRING, column: "X:\x80\x0B", encoding: phoenix}
    rowkey:
      - {field: k, encoding: phoenix}
    phoenix: {table: CELLS, empty_column: "0:\x00\x00\x00\x00", storage: single_cell_array_with_offsets}
`

// A row of a Phoenix cell-array table is written whole: each family's
// cell array (a NULL and a column the catalog does not name, \x80\x0C,
// as elements with no bytes) and the empty column; a write of some
// columns merges over the stored elements, and without them is refused.
func TestPhoenixCellArrayMutation(t *testing.T) {
	cat, err := catalog.Parse([]byte(cellArrayYAML))
	if err != nil {
		t.Fatal(err)
	}
	tb := cat.Tables[0]
	row := catalog.Row{catalog.Value{Type: catalog.TypeString, S: "r"}, catalog.Value{Type: catalog.TypeInt, I: 5}, catalog.Null(catalog.TypeString), catalog.Value{Type: catalog.TypeString, S: "dd"}}
	m, err := RowMutation(tb, row, 7, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(es ...[]byte) string {
		b, err := catalog.EncodePhoenixCellArray(es)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := map[string]string{
		"0:\x00\x00\x00\x00": "x",
		"0:1":                enc(tb.Columns[1].EncodeCell(row[1]), nil, nil),
		"X:1":                enc([]byte("dd")),
	}
	check := func(what string, m Mutation, want map[string]string) {
		t.Helper()
		got := map[string]string{}
		for _, c := range m.Cells {
			if c.Timestamp != 7 {
				t.Errorf("%s: cell %s:%q at %d", what, c.Family, c.Qualifier, c.Timestamp)
			}
			got[c.Family+":"+c.Qualifier] = string(c.Value)
		}
		if len(m.Deletes) > 0 || len(got) != len(want) {
			t.Errorf("%s: cells %q, deletes %v; want %q", what, got, m.Deletes, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %q = %q, want %q", what, k, got[k], v)
			}
		}
	}
	check("whole row", m, want)

	if _, err := RowMutation(tb, row, 7, nil, []int{0, 2}); err == nil || !strings.Contains(err.Error(), "reads the row first") {
		t.Errorf("a write of some columns without the row's cells: %v", err)
	}
	// Stored: a = 1, the unnamed \x80\x0C = "keep", b = "old"; d = "x1".
	arrays := map[string]cellArrays{"r": {"0": {{0x80, 0, 0, 1}, []byte("keep"), []byte("old")}, "X": {[]byte("x1")}}}
	row[2] = catalog.Value{Type: catalog.TypeString, S: "new"}
	m, err = rowMutation(tb, row, 7, nil, []int{0, 2}, arrays)
	if err != nil {
		t.Fatal(err)
	}
	want["0:1"] = enc([]byte{0x80, 0, 0, 1}, []byte("keep"), []byte("new"))
	want["X:1"] = enc([]byte("x1"))
	check("b merged", m, want)
	if got := arrays["r"]["0"]; string(got[2]) != "new" {
		t.Errorf("the batch's elements after the write: %q", got)
	}

	bad := strings.Replace(cellArrayYAML, `"X:\x80\x0B"`, `"X:DLONG"`, 1)
	if cat, err = catalog.Parse([]byte(bad)); err != nil {
		t.Fatal(err)
	}
	if _, err := RowMutation(cat.Tables[0], row, 7, nil, nil); err == nil || !strings.Contains(err.Error(), "not an encoded column number") {
		t.Errorf("a column that is no element: %v", err)
	}
	// A global index is refused here as in every Phoenix table.
	indexed := strings.Replace(cellArrayYAML, "storage: single_cell_array_with_offsets", "storage: single_cell_array_with_offsets, global_indexes: [CELLS_IDX]", 1)
	if cat, err = catalog.Parse([]byte(indexed)); err != nil {
		t.Fatal(err)
	}
	if _, err := RowMutation(cat.Tables[0], row, 7, nil, nil); err == nil || !strings.Contains(err.Error(), "global index CELLS_IDX") {
		t.Errorf("a cell-array table with a global index: %v", err)
	}
}
