package engine_test

import (
	"context"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
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

const phoenixWriteYAML = `tables:
  - name: pw
    hbase: PXW.T
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: v, type: DOUBLE, column: "0:\x80\x0B", encoding: phoenix}
      - {name: w, type: STRING, column: "0:\x80\x0C", encoding: phoenix}
    rowkey:
      - {field: a, encoding: phoenix}
    phoenix: {table: PXW.T, empty_column: "0:\x00\x00\x00\x00"}
  - name: pwi
    hbase: PXW.TI
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: v, type: DOUBLE, column: "0:V", encoding: phoenix}
    rowkey:
      - {field: a, encoding: phoenix}
    phoenix: {table: PXW.TI, empty_column: "0:_0", global_indexes: [PXW.TI_V]}
`

// phoenixCells returns the newest cells of each row of a physical table,
// as "key{qualifier=value ...}" in key order, qualifiers and values
// written as catalog.ToStringBinary writes bytes.
func phoenixCells(t *testing.T, st exec.Store, table string) string {
	t.Helper()
	ctx := context.Background()
	it, err := st.Scan(ctx, table, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var rows []string
	for {
		r, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var cs []string
		for _, c := range r.Cells {
			cs = append(cs, c.Family+":"+catalog.ToStringBinary([]byte(c.Qualifier))+"="+catalog.ToStringBinary(c.Value))
		}
		sort.Strings(cs)
		rows = append(rows, string(r.Key)+"{"+strings.Join(cs, " ")+"}")
	}
	return strings.Join(rows, " ")
}

// Writes to a Phoenix table carry Phoenix's empty column, whole rows and
// partial updates alike; a row whose only cell is the empty column reads
// as a row of NULLs; NULL deletes the column's cell and DELETE the row.
func TestPhoenixWritesEmptyColumn(t *testing.T) {
	cat, err := catalog.Parse([]byte(phoenixWriteYAML))
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil },
	})
	const empty = `0:\x00\x00\x00\x00=x`
	step := func(script, tag, want string) {
		t.Helper()
		if out := runText(t, e, script); out != tag {
			t.Fatalf("%s: %s", script, out)
		}
		if got := phoenixCells(t, st, "PXW.T"); got != want {
			t.Fatalf("after %s:\n got %s\nwant %s", script, got, want)
		}
	}
	step(`INSERT INTO pw (a, v, w) VALUES ('k1', 1.5, 'x'), ('k2', NULL, NULL);`, "INSERT 2\n",
		`k1{`+empty+` 0:\x80\x0B=\xBF\xF8\x00\x00\x00\x00\x00\x01 0:\x80\x0C=x} k2{`+empty+`}`)
	checkRows(t, e, "SELECT a, v, w FROM pw ALLOW FULL SCAN", "k1 1.5 x; k2 NULL NULL")
	checkRows(t, e, "SELECT count(*) FROM pw ALLOW FULL SCAN", "2")
	step(`UPDATE pw SET w = 'y' WHERE a = 'k2';`, "UPDATE 1\n",
		`k1{`+empty+` 0:\x80\x0B=\xBF\xF8\x00\x00\x00\x00\x00\x01 0:\x80\x0C=x} k2{`+empty+` 0:\x80\x0C=y}`)
	step(`UPDATE pw SET v = NULL, w = NULL WHERE a = 'k1';`, "UPDATE 1\n",
		`k1{`+empty+`} k2{`+empty+` 0:\x80\x0C=y}`)
	checkRows(t, e, "SELECT a, v, w FROM pw ALLOW FULL SCAN", "k1 NULL NULL; k2 NULL y")
	step(`DELETE FROM pw WHERE a = 'k1';`, "DELETE 1\n", `k2{`+empty+` 0:\x80\x0C=y}`)
	checkRows(t, e, "SELECT a, v, w FROM pw ALLOW FULL SCAN", "k2 NULL y")
}

// A Phoenix table with a global index is not written, since Phoenix's
// index would fall out of step with it.
func TestPhoenixGlobalIndexRefusesWrites(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte(phoenixWriteYAML))
	for _, q := range []string{
		`INSERT INTO pwi (a, v) VALUES ('k', 1);`,
		`UPDATE pwi SET v = 2 WHERE a = 'k';`,
		`DELETE FROM pwi WHERE a = 'k';`,
		`TRUNCATE TABLE pwi;`,
	} {
		out := runText(t, e, q)
		if !strings.Contains(out, "error: table pwi: Phoenix's PXW.TI has the global index PXW.TI_V, which rkql does not keep in step") {
			t.Errorf("%s: %s", q, out)
		}
	}
}
