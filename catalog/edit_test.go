package catalog

import (
	"fmt"
	"strings"
	"testing"
)

const editSrc = `# head comment
tables:
  # about a
  - name: a
    families:
      - name: f
        versions: 1
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {field: k}
    indexes:
      # by v
      - name: a_by_v
        rowkey:
          - {field: v}
          - {literal: "|"}
          - {field: k}

  # about b
  - name: b
    columns:
      - {name: k, type: BIGINT}
    rowkey:
      - {field: k}
`

const flowIndexSrc = `tables:
  - name: b
    columns:
      - {name: k, type: BIGINT}
    rowkey:
      - {field: k}
    indexes:
      - {name: b_by_k, rowkey: [{field: k, order: desc}]}
`

// Each edit changes only the lines of the table it touches.
func TestEdits(t *testing.T) {
	src := []byte(editSrc)
	for _, tc := range []struct {
		name string
		edit func() ([]byte, error)
		want string
	}{
		{"drop-table", func() ([]byte, error) { return DropTable(src, "a") }, `# head comment
tables:

  # about b
  - name: b
    columns:
      - {name: k, type: BIGINT}
    rowkey:
      - {field: k}
`},
		{"drop-only-index", func() ([]byte, error) { return DropIndex(src, "a", "a_by_v") }, strings.Replace(editSrc, `    indexes:
      # by v
      - name: a_by_v
        rowkey:
          - {field: v}
          - {literal: "|"}
          - {field: k}
`, "", 1)},
		{"add-index-to-table-without", func() ([]byte, error) {
			return AddIndex(src, "b", &IndexSpec{Name: "b_by_k", Rowkey: []ComponentSpec{{Field: "k", Order: "desc"}}})
		}, editSrc + `    indexes:
      - name: b_by_k
        rowkey:
          - {field: k, order: desc}
`},
		{"add-column", func() ([]byte, error) {
			return AddColumn(src, "a", &ColumnSpec{Name: "w", Type: "INT", Column: "f:w"})
		}, strings.Replace(editSrc, `      - {name: v, type: STRING, column: "f:v"}
`, `      - {name: v, type: STRING, column: "f:v"}
      - {name: w, type: INT, column: 'f:w'}
`, 1)},
		{"set-block-family", func() ([]byte, error) {
			return SetFamily(src, "a", "f", func(f *FamilySpec) { f.TTL = 60 })
		}, strings.Replace(editSrc, `      - name: f
        versions: 1
`, `      - {name: f, versions: 1, ttl: 60}
`, 1)},
		{"index-unbuilt", func() ([]byte, error) { return SetIndexState(src, "a", "a_by_v", StateUnbuilt) },
			strings.Replace(editSrc, `          - {field: k}

  # about b`, `          - {field: k}
        state: unbuilt

  # about b`, 1)},
		{"index-built-again", func() ([]byte, error) {
			mid, err := SetIndexState(src, "a", "a_by_v", StateUnbuilt)
			if err != nil {
				return nil, err
			}
			if c, err := Parse(mid); err != nil || !c.byName["a"].Indexes[0].Unbuilt {
				return nil, fmt.Errorf("the unbuilt state did not load: %v", err)
			}
			return SetIndexState(mid, "a", "a_by_v", "")
		}, editSrc},
		{"index-state-already", func() ([]byte, error) { return SetIndexState(src, "a", "a_by_v", "") }, editSrc},
		{"flow-index-unbuilt", func() ([]byte, error) {
			return SetIndexState([]byte(flowIndexSrc), "b", "b_by_k", StateUnbuilt)
		}, strings.Replace(flowIndexSrc, `      - {name: b_by_k, rowkey: [{field: k, order: desc}]}
`, `      - name: b_by_k
        rowkey:
          - {field: k, order: desc}
        state: unbuilt
`, 1)},
		{"add-table", func() ([]byte, error) {
			lit := "|"
			return AddTable(src, &TableSpec{Name: "c", Columns: []ColumnSpec{{Name: "x", Type: "STRING"}, {Name: "y", Type: "INT"}},
				Rowkey: []ComponentSpec{{Field: "x"}, {Literal: &lit}, {Field: "y"}}})
		}, editSrc + `
  - name: c
    columns:
      - {name: x, type: STRING}
      - {name: 'y', type: INT}
    rowkey:
      - {field: x}
      - {literal: '|'}
      - {field: 'y'}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.edit()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// An edit whose result would not load is refused, and a table the file
// lacks is named.
func TestEditErrors(t *testing.T) {
	src := []byte(editSrc)
	if _, err := AddColumn(src, "a", &ColumnSpec{Name: "k", Type: "STRING", Column: "f:k2"}); err == nil || !strings.Contains(err.Error(), `column "k" is defined twice`) {
		t.Errorf("duplicate column: %v", err)
	}
	if _, err := AddTable(src, &TableSpec{Name: "b", Columns: []ColumnSpec{{Name: "k", Type: "STRING"}}, Rowkey: []ComponentSpec{{Field: "k"}}}); err == nil || !strings.Contains(err.Error(), `table "b" is defined twice`) {
		t.Errorf("duplicate table: %v", err)
	}
	if _, err := Parse([]byte(strings.Replace(editSrc, "          - {field: k}\n\n", "          - {field: k}\n        state: built\n\n", 1))); err == nil || !strings.Contains(err.Error(), `line 20: index "a_by_v": state "built": the one state is unbuilt`) {
		t.Errorf("unknown index state: %v", err)
	}
	if _, err := DropTable(src, "zz"); err == nil || !strings.Contains(err.Error(), "table zz is not in the catalog file") {
		t.Errorf("missing table: %v", err)
	}
	got, err := TableSource(src, "b")
	if err != nil || got != "# about b\n- name: b\n  columns:\n    - {name: k, type: BIGINT}\n  rowkey:\n    - {field: k}\n" {
		t.Errorf("TableSource = %q, %v", got, err)
	}
}
