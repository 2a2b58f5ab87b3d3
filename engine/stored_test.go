package engine_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
)

// resultText renders a result's rows, one line each with cells joined by
// " | ", then its notes: enough to check what SHOW TABLES and DESCRIBE
// say.
func resultText(t *testing.T, e *engine.Engine, q string) (rows [][]string, notes []string) {
	t.Helper()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := e.Run(ctx, stmt)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer res.Close()
	for res.Rows != nil {
		r, err := res.Rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, v := range r {
			if v.Null {
				cells = append(cells, "NULL")
				continue
			}
			cells = append(cells, v.Text())
		}
		rows = append(rows, cells)
	}
	return rows, res.Notes
}

// TestStoredTables: on the embedded store, SHOW TABLES lists the tables
// the store holds that no catalog table describes, and DESCRIBE of one
// shows its families with the settings it was created with, its regions
// and its first keys.
func TestStoredTables(t *testing.T) {
	ctx := context.Background()
	st := tempStore(t)
	off := false
	spec := exec.TableSpec{Name: "ns1:raw", Families: []exec.FamilySpec{
		{Name: "a"},
		{Name: "b", Versions: 3, TTL: 86400, Compression: "GZ", BloomFilter: "ROWCOL", BlockSize: 16384, InMemory: true, BlockCache: &off},
	}, Splits: [][]byte{[]byte("g"), []byte("p")}}
	if err := st.CreateTable(ctx, spec); err != nil {
		t.Fatal(err)
	}
	keys := []string{"a\x00\x01", "b", "h-1", "h-2", "q\xff"}
	var muts []exec.Mutation
	for _, k := range keys {
		muts = append(muts, exec.Mutation{Key: []byte(k), Cells: []exec.Cell{{Family: "a", Qualifier: "x", Value: []byte("1")}}})
	}
	if err := st.Mutate(ctx, "ns1:raw", muts); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse([]byte(`tables:
  - name: described
    hbase: "ns1:kept"
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(ctx, exec.TableSpec{Name: "ns1:kept", Families: []exec.FamilySpec{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})

	rows, _ := resultText(t, e, "SHOW TABLES")
	got := map[string]string{}
	for _, r := range rows {
		got[r[2]] = r[0] + " | " + r[1] + " | " + r[4]
	}
	for table, want := range map[string]string{"ns1:kept": "described | table | TRUE", "ns1:raw": "NULL | not in the catalog | TRUE"} {
		if got[table] != want {
			t.Errorf("SHOW TABLES row of %s: %q, want %q (rows %v)", table, got[table], want, rows)
		}
	}
	if len(rows) != 2 {
		t.Errorf("SHOW TABLES: %d rows, want 2: %v", len(rows), rows)
	}

	rows, notes := resultText(t, e, `DESCRIBE "ns1:raw"`)
	fams := map[string]string{}
	for _, r := range rows {
		fams[r[0]] = r[1]
	}
	for fam, want := range map[string][]string{
		"a": {"VERSIONS => '1'", "TTL => 'FOREVER'", "COMPRESSION => 'NONE'", "BLOOMFILTER => 'ROW'", "BLOCKSIZE => '65536'", "IN_MEMORY => 'false'", "BLOCKCACHE => 'true'"},
		"b": {"VERSIONS => '3'", "TTL => '86400'", "COMPRESSION => 'GZ'", "BLOOMFILTER => 'ROWCOL'", "BLOCKSIZE => '16384'", "IN_MEMORY => 'true'", "BLOCKCACHE => 'false'"},
	} {
		for _, w := range want {
			if !strings.Contains(fams[fam], w) {
				t.Errorf("DESCRIBE family %s: %q lacks %s", fam, fams[fam], w)
			}
		}
	}
	if len(rows) != 2 {
		t.Errorf("DESCRIBE: %d families, want 2: %v", len(rows), rows)
	}
	text := strings.Join(notes, "\n")
	for _, w := range []string{
		"HBase table ns1:raw, not described by the catalog",
		"Regions: 3\n  [first, 'g')",
		"  ['g', 'p')",
		"  ['p', last)",
		// The first region's keys, then the first key of each other.
		"Sample keys (Bytes.toStringBinary):\n  a\\x00\\x01\n  b\n  h-1\n  q\\xFF",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("DESCRIBE notes lack %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "h-2") {
		t.Errorf("DESCRIBE samples more than the first key of the second region:\n%s", text)
	}

	_, notes = resultText(t, e, `DESCRIBE "ns1:kept"`)
	if !strings.Contains(strings.Join(notes, "\n"), "described by the catalog as described") {
		t.Errorf("DESCRIBE of a catalogued table by its HBase name does not name the catalog table:\n%s", strings.Join(notes, "\n"))
	}

	stmt, _ := parser.ParseOne(`DESCRIBE "ns1:none"`)
	_, err = e.Run(ctx, stmt)
	var pe *parser.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "nor does the store hold a table ns1:none") {
		t.Errorf("DESCRIBE of a table neither holds: %v", err)
	}
}
