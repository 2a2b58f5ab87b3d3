package engine_test

import (
	"testing"
)

const phoenixCatalogYAML = `tables:
  - name: p
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: b, type: STRING}
      - {name: c, type: STRING}
      - {name: v, type: DOUBLE, column: "0:V", encoding: phoenix}
    rowkey:
      - {salt: 4}
      - {field: a, encoding: phoenix}
      - {field: b, encoding: phoenix}
      - {field: c, encoding: phoenix, phoenix: DECIMAL, order: desc}
`

// Rows whose trailing key fields are NULL are written and read as
// Phoenix writes them, and found by a scan on the fields before.
func TestPhoenixNullKeyRows(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte(phoenixCatalogYAML))
	if out := runText(t, e, `INSERT INTO p (a, b, c, v) VALUES ('x', NULL, NULL, 1.5), ('x', 'y', '-1', 2.5), ('x', NULL, '5', 3.5), ('z', 'y', NULL, 842.05);`); out != "INSERT 4\n" {
		t.Fatalf("insert: %s", out)
	}
	checkRows(t, e, "SELECT a, b, c, v FROM p WHERE a = 'x' ORDER BY v", "x NULL NULL 1.5; x y -1 2.5; x NULL 5 3.5")
	checkRows(t, e, "SELECT a, b, c, v FROM p WHERE a = 'z' AND b = 'y'", "z y NULL 842.05")
	checkRows(t, e, "SELECT count(*) FROM p WHERE b IS NULL ALLOW FULL SCAN", "2")
	checkRows(t, e, "SELECT v FROM p WHERE a = 'x' AND b = 'y' AND c = '-1'", "2.5")
}
