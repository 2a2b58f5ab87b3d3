package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/parser"
)

// A row whose key, or whose index entry's key, would be empty is refused
// with the other layout checks, at the row's position, before anything is
// written: no index entry is left without its row.
func TestEmptyRowKeyRefused(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), examples.CatalogYAML)
	ctx := context.Background()
	_, _, err := e.Exec(ctx, "INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'ann', 1), ('', 'ann', 2)")
	var pe *parser.Error
	if !errors.As(err, &pe) || pe.Pos != 71 || !strings.Contains(pe.Msg, "the row key of sites would be empty (domain = ''): HBase keeps no row under an empty key") {
		t.Fatalf("INSERT of an empty key: %v, want it at offset 71", err)
	}
	// Written as rkql import and the loader write, past the planner.
	sites, _ := e.Catalog().Table("sites")
	row := sites.NewRow()
	row[0], row[1], row[2] = catalog.String(""), catalog.String("bob"), catalog.Bigint(3)
	if err := e.Write(ctx, sites, nil, []catalog.Row{row}, 0, nil); err == nil || !strings.Contains(err.Error(), "would be empty") {
		t.Fatalf("Write of an empty key: %v", err)
	}
	if got := runText(t, e, "SELECT owner, domain FROM sites_by_owner WHERE owner IN ('ann', 'bob'); CHECK INDEX sites_by_owner"); got != "0 | 0 | 0 | 0 | 0 | 0 | 0 | 0\n" {
		t.Fatalf("after the refused writes:\n%s", got)
	}

	// An entry key of nothing but an empty field.
	got := runText(t, e, `CREATE TABLE u (id STRING, e STRING) ROWKEY (id) FAMILIES (d);
CREATE INDEX u_by_e ON u ROWKEY (e) UNIQUE;
INSERT INTO u (id, e) VALUES ('1', 'x'), ('2', '');
SELECT id FROM u WHERE id IN ('1', '2');
CHECK INDEX u_by_e`)
	want := "error: index u_by_e: the row key of u_by_e would be empty (e = ''): HBase keeps no row under an empty key\n0 | 0 | 0 | 0 | 0 | 0 | 0 | 0\n"
	if !strings.HasSuffix(got, want) {
		t.Fatalf("empty entry key:\n%s\nwant\n%s", got, want)
	}
}

const tagsDDL = `CREATE TABLE p (k STRING, tag STRING, n BIGINT) ROWKEY (k) FAMILIES (d);
INSERT INTO p (k, tag, n) VALUES ('a', 'red', 1), ('b', 'red', 2), ('c', 'red', 3), ('d', 'red', 4)`

// An index made over a table that has rows is not built: the catalog
// says so, no query reads it (EXPLAIN says why, and a query it alone
// would serve fails naming BUILD INDEX), writes keep it in step anyway,
// and BUILD INDEX makes it one that queries read.
func TestUnbuiltIndexNotRead(t *testing.T) {
	dir := t.TempDir()
	e := ddlEngine(t, dir, []byte("tables: []\n"))
	got := runText(t, e, tagsDDL+`;
CREATE INDEX p_by_tag ON p ROWKEY (tag, '|', k) COVERING (n);
INSERT INTO p (k, tag, n) VALUES ('e', 'red', 5);
SELECT k FROM p WHERE tag = 'red';
SELECT k FROM p USE INDEX (p_by_tag) WHERE tag = 'red';
DELETE FROM p WHERE tag = 'red'`)
	want := `CREATE TABLE
INSERT 4
CREATE INDEX
warning: index p_by_tag is not built: no query reads it until BUILD INDEX p_by_tag ON p writes the entries of the rows p holds
INSERT 1
error: query on p would read the whole table (FULL SCAN): index p_by_tag would serve it, but it is not built (BUILD INDEX p_by_tag ON p fills it); or add ALLOW FULL SCAN to read the table anyway: SELECT k FROM p WHERE tag = 'red' ALLOW FULL SCAN
error: index p_by_tag is not built, so its entries may not match p (BUILD INDEX p_by_tag ON p fills it)
error: query on p would read the whole table (FULL SCAN): index p_by_tag would serve it, but it is not built (BUILD INDEX p_by_tag ON p fills it); or add ALLOW FULL SCAN to read the table anyway: DELETE FROM p WHERE tag = 'red' ALLOW FULL SCAN
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if src := string(e.CatalogSource()); !strings.Contains(src, "      - name: p_by_tag\n") || !strings.Contains(src, "        state: unbuilt\n") {
		t.Fatalf("the catalog does not record the index as unbuilt:\n%s", src)
	}
	// Another process reads the same catalog.
	e.Close()
	e = ddlEngine(t, dir, nil)
	got = runText(t, e, "SELECT k FROM p WHERE tag = 'red' ALLOW FULL SCAN; EXPLAIN SELECT k FROM p WHERE tag = 'red' ALLOW FULL SCAN")
	if !strings.HasPrefix(got, "'a'\n'b'\n'c'\n'd'\n'e'\nFULL SCAN OVER p") ||
		!strings.Contains(got, "index p_by_tag (tag:str| | k:str) was passed over: index p_by_tag is not built, so its entries may not match p (BUILD INDEX p_by_tag ON p fills it).") {
		t.Fatalf("reads around the unbuilt index:\n%s", got)
	}
	got = runText(t, e, "SHOW TABLES; CHECK INDEX p_by_tag")
	if !strings.Contains(got, "'p_by_tag' | 'index of p, not built' |") ||
		!strings.HasSuffix(got, "5 | 1 | 0 | 4 | 0 | 0 | 0 | 0\nerror: index p_by_tag is not built, and does not match table p: 4 missing entries (BUILD INDEX p_by_tag ON p fills it)\n") {
		t.Fatalf("SHOW TABLES and CHECK INDEX of the unbuilt index:\n%s", got)
	}
	res, err := e.Run(context.Background(), mustParse(t, "DESCRIBE p"))
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "Index p_by_tag (HBase table p_by_tag): tag:str| | k:str (not built: BUILD INDEX p_by_tag ON p fills it)") {
		t.Fatalf("DESCRIBE p:\n%s", notes)
	}
	got = runText(t, e, "BUILD INDEX p_by_tag ON p; SELECT k, n FROM p WHERE tag = 'red'; CHECK INDEX p_by_tag")
	if want := "BUILD INDEX 5\n'a' | 1\n'b' | 2\n'c' | 3\n'd' | 4\n'e' | 5\n5 | 5 | 0 | 0 | 0 | 0 | 0 | 0\n"; got != want {
		t.Fatalf("after BUILD INDEX: got\n%s\nwant\n%s", got, want)
	}
	if src := string(e.CatalogSource()); strings.Contains(src, "state:") {
		t.Fatalf("BUILD INDEX left the state in the catalog:\n%s", src)
	}
	if got := runText(t, e, "EXPLAIN SELECT k, n FROM p WHERE tag = 'red'"); !strings.Contains(got, "INDEX LOOKUP OVER p_by_tag") {
		t.Fatalf("the built index is not read:\n%s", got)
	}
}

// An index made over an empty table is built from the start: writes keep
// it, and queries read it.
func TestIndexOverEmptyTableBuilt(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte("tables: []\n"))
	got := runText(t, e, `CREATE TABLE p (k STRING, tag STRING, n BIGINT) ROWKEY (k) FAMILIES (d);
CREATE INDEX p_by_tag ON p ROWKEY (tag, '|', k) COVERING (n);
INSERT INTO p (k, tag, n) VALUES ('a', 'red', 1), ('b', 'blue', 2);
SELECT k, n FROM p WHERE tag = 'red';
CHECK INDEX p_by_tag`)
	if want := "CREATE TABLE\nCREATE INDEX\nINSERT 2\n'a' | 1\n2 | 2 | 0 | 0 | 0 | 0 | 0 | 0\n"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(string(e.CatalogSource()), "state:") {
		t.Fatalf("an index over an empty table is recorded unbuilt:\n%s", e.CatalogSource())
	}
}

// An index that leaves the catalog while its stored table stays, then
// writes, then the same CREATE INDEX: the stored table's entries are not trusted
// (the index is unbuilt, and CREATE INDEX says so once), and BUILD INDEX
// leaves exactly the entries the rows give, deleting the stale ones.
func TestIndexOverStaleTable(t *testing.T) {
	dir := t.TempDir()
	e := ddlEngine(t, dir, []byte("tables: []\n"))
	index := "CREATE INDEX p_by_tag ON p ROWKEY (tag, '|', k) COVERING (n)"
	if got := runText(t, e, tagsDDL+";\n"+index); !strings.HasSuffix(got, "CREATE INDEX\nwarning: index p_by_tag is not built: no query reads it until BUILD INDEX p_by_tag ON p writes the entries of the rows p holds\n") {
		t.Fatalf("setup:\n%s", got)
	}
	if got := runText(t, e, "BUILD INDEX p_by_tag ON p"); got != "BUILD INDEX 4\n" {
		t.Fatalf("BUILD INDEX: %s", got)
	}
	// The index leaves the catalog and its HBase table stays, as a DROP
	// INDEX that keeps it, or an edit of the catalog file, leaves them.
	src, err := catalog.DropIndex(e.CatalogSource(), "p", "p_by_tag")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "catalog.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e = ddlEngine(t, dir, nil)
	got := runText(t, e, "DELETE FROM p WHERE k = 'a'; UPDATE p SET n = 20 WHERE k = 'b'; "+index+"; SELECT k, n FROM p WHERE tag = 'red'")
	want := `DELETE 1
UPDATE 1
CREATE INDEX
warning: HBase table p_by_tag exists already and holds rows, which an index cannot trust: index p_by_tag is not built, and no query reads it until BUILD INDEX p_by_tag ON p replaces them with the entries of the rows of p
error: query on p would read the whole table (FULL SCAN): index p_by_tag would serve it, but it is not built (BUILD INDEX p_by_tag ON p fills it); or add ALLOW FULL SCAN to read the table anyway: SELECT k, n FROM p WHERE tag = 'red' ALLOW FULL SCAN
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	got = runText(t, e, "CHECK INDEX p_by_tag")
	if want := "3 | 4 | 0 | 0 | 1 | 0 | 1 | 0\nerror: index p_by_tag is not built, and does not match table p: 1 orphan, 1 stale entries (BUILD INDEX p_by_tag ON p fills it)\n"; got != want {
		t.Fatalf("CHECK INDEX of the stale index: got\n%s\nwant\n%s", got, want)
	}
	got = runText(t, e, "BUILD INDEX p_by_tag ON p; SELECT k, n FROM p WHERE tag = 'red'; CHECK INDEX p_by_tag")
	want = `BUILD INDEX 3
'b' | 20
'c' | 3
'd' | 4
3 | 3 | 0 | 0 | 0 | 0 | 0 | 0
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func mustParse(t *testing.T, text string) parser.Stmt {
	t.Helper()
	st, err := parser.ParseOne(text)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// BUILD INDEX of an index unique on its key fails, and leaves it unbuilt,
// when two rows would share an entry: the index would lose one of them.
func TestBuildUniqueIndexRefusesSharedEntry(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte("tables: []\n"))
	got := runText(t, e, `CREATE TABLE q (k STRING, e STRING) ROWKEY (k) FAMILIES (d);
INSERT INTO q (k, e) VALUES ('1', 'x'), ('2', 'x'), ('3', 'y');
CREATE INDEX q_by_e ON q ROWKEY (e) UNIQUE;
BUILD INDEX q_by_e ON q;
SELECT k FROM q WHERE e = 'y'`)
	want := `error: BUILD INDEX q_by_e stopped after 0 entries, and the index stays unbuilt: index q_by_e: two rows of q have e = 'x', and the index's key must be unique (it leaves out key fields of q)
error: query on q would read the whole table (FULL SCAN): index q_by_e would serve it, but it is not built (BUILD INDEX q_by_e ON q fills it); or add ALLOW FULL SCAN to read the table anyway: SELECT k FROM q WHERE e = 'y' ALLOW FULL SCAN
`
	if !strings.HasSuffix(got, want) {
		t.Fatalf("got\n%s\nwant it to end\n%s", got, want)
	}
}
