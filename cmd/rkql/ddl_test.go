package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

const probesDDL = "CREATE TABLE probes (host STRING, ts TIMESTAMP, v DOUBLE) ROWKEY (host, '|', ts DESC) FAMILIES (m)"

// A table created in one rkql process is loaded and queried in the next:
// on the embedded store without --catalog, the catalog is kept beside the
// store.
func TestCreateTableAcrossProcesses(t *testing.T) {
	store := t.TempDir()
	r := rkql(t, "", "--store", store, "-e", probesDDL)
	if r.code != 0 || r.stdout != "CREATE TABLE\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	src, err := os.ReadFile(filepath.Join(store, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Parse(src); err != nil {
		t.Fatalf("the catalog beside the store does not load: %v", err)
	}
	if !strings.Contains(string(src), "# The example catalog: one table per common pattern") {
		t.Fatalf("the catalog lost the example catalog's comments:\n%s", src)
	}
	r = rkql(t, "", "--store", store, "--format", "tsv", "-e",
		"INSERT INTO probes (host, ts, v) VALUES ('h1', '2024-05-01 12:00:00', 1.5), ('h1', '2024-05-01 13:00:00', 2.5); SELECT ts, v FROM probes WHERE host = 'h1'")
	want := "INSERT 2\nts\tv\n2024-05-01 13:00:00.000\t2.5\n2024-05-01 12:00:00.000\t1.5\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	// The example tables are still there.
	if r := rkql(t, "", "--store", store, "-e", "DESCRIBE orders"); r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// With --catalog, the layout statements write that file.
func TestCreateTableCatalogFile(t *testing.T) {
	file := writeFile(t, "catalog.yaml", "# my tables\ntables:\n  # the first\n  - name: a\n    columns:\n      - {name: k, type: STRING}\n    rowkey:\n      - {field: k}\n")
	store := t.TempDir()
	r := rkql(t, "", "--store", store, "--catalog", file, "-e", probesDDL+"; CREATE INDEX probes_by_v ON probes ROWKEY (v, host, '|', ts)")
	if r.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), "# my tables\ntables:\n  # the first\n  - name: a\n    columns:\n      - {name: k, type: STRING}\n    rowkey:\n      - {field: k}\n\n  - name: probes\n") {
		t.Fatalf("the file's first table changed:\n%s", src)
	}
	r = rkql(t, "", "--store", store, "--catalog", file, "--format", "tsv", "-e", "INSERT INTO probes (host, ts, v) VALUES ('h', '2024-05-01 12:00:00', 7.5); SELECT host FROM probes WHERE v = 7.5")
	if r.code != 0 || r.stdout != "INSERT 1\nhost\nh\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(store, "catalog.yaml")); err == nil {
		t.Fatalf("with --catalog, no catalog is written beside the store")
	}
}

// On a cluster the layout statements need --allow-writes and --catalog;
// with both, the table is created on HBase and queried by the next process.
func TestClusterCreateTable(t *testing.T) {
	r := rkql(t, "", "--zk", "127.0.0.1:1", "--catalog", writeFile(t, "c.yaml", "tables: []\n"), "-e", probesDDL)
	if r.code != 1 || !strings.Contains(r.stderr, "CREATE TABLE refused: writes to the HBase cluster at 127.0.0.1:1 need --allow-writes") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = rkql(t, "", "--zk", "127.0.0.1:1", "--allow-writes", "-e", probesDDL)
	if r.code != 1 || !strings.Contains(r.stderr, "no catalog file") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	q := hbasetest.Quorum(t)
	name := hbasetest.TableName("rkql_ddl")
	file := writeFile(t, "catalog.yaml", "tables: []\n")
	sh := func(args ...string) result {
		return rkql(t, "", append([]string{"--catalog", file, "--zk", q, "--zk-root", hbasetest.Root(), "--format", "tsv"}, args...)...)
	}
	ddl := strings.Replace(probesDDL, "probes", name, 1) + " SPLITS ('h5')"
	if r := sh("--allow-writes", "-e", ddl); r.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	t.Cleanup(func() { sh("--allow-writes", "--yes", "-e", "DROP TABLE "+name) })
	r = sh("--allow-writes", "-e", "INSERT INTO "+name+" (host, ts, v) VALUES ('h1', '2024-05-01 12:00:00', 1.5), ('h9', '2024-05-01 12:00:00', 9.5)")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = sh("-e", "SELECT host, v FROM "+name+" WHERE host = 'h9'; SHOW REGIONS "+name)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "host\tv\nh9\t9.5\n") || strings.Count(r.stdout, name+",") != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = sh("--allow-writes", "--yes", "-e", "TRUNCATE TABLE "+name+"; SELECT COUNT(*) FROM "+name+" ALLOW FULL SCAN; SHOW REGIONS "+name)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "TRUNCATE TABLE\ncount\n0\n") || strings.Count(r.stdout, name+",") != 2 {
		t.Fatalf("truncate: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// SET FAMILY changes the HBase family too.
	r = sh("--allow-writes", "-e", "ALTER TABLE "+name+" SET FAMILY m TTL '1 day'")
	if r.code != 0 || strings.Contains(r.stderr, "keeps its family settings") {
		t.Fatalf("alter: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := hbase.NewClient(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	desc, err := c.Admin().DescribeTable(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Families) != 1 || desc.Families[0].Name != "m" || desc.Families[0].TTL != 24*time.Hour {
		t.Errorf("after SET FAMILY m TTL '1 day' the HBase family is %+v", desc.Families)
	}
}

// rkql import says how many rows replaced a row with the same key: one
// the table held, or an earlier row of the input.
func TestImportReplaced(t *testing.T) {
	store := t.TempDir()
	first := writeFile(t, "first.csv", "site,seq,label\nef,4,x\nef,5,y\n")
	r := rkql(t, "", "import", "--catalog", fixedCatalog, "--store", store, "--table", "devices", first)
	if r.code != 0 || r.stdout != "imported 2 rows into devices\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	again := writeFile(t, "again.csv", "site,seq,label\nef,4,x\nef,5,y\nzz,9,a\nzz,9,b\n")
	r = rkql(t, "", "import", "--catalog", fixedCatalog, "--store", store, "--table", "devices", again)
	if want := "imported 4 rows into devices, 3 of them replacing a row with the same key\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	// An indexed table is written batch by batch, and counted the same way.
	sites := writeFile(t, "sites.jsonl", `{"domain":"a.com","owner":"o1"}`+"\n"+`{"domain":"b.com","owner":"o1"}`+"\n")
	for i, want := range []string{"imported 2 rows into sites\n", "imported 2 rows into sites, 2 of them replacing a row with the same key\n"} {
		r = rkql(t, "", "import", "--store", store, "--table", "sites", sites)
		if r.code != 0 || r.stdout != want {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q; want %q", i, r.code, r.stdout, r.stderr, want)
		}
	}
}

// CHECK INDEX that finds the index and its table apart shows its report
// and exits 1, as rkql store check does on damage; once REPAIR has mended
// it, both exit 0.
func TestCheckIndexExit(t *testing.T) {
	store := t.TempDir()
	run := func(stmts string) result {
		return rkql(t, "", "--store", store, "--format", "tsv", "-e", stmts)
	}
	r := run("INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', 1, '2024-05-01 12:00:00', 1, 'new');" +
		"INSERT INTO orders_by_id (order_id, seller, ts) VALUES (99, 's9', '2024-05-01 12:00:00') ALLOW INDEX WRITE")
	if r.code != 0 {
		t.Fatalf("setup: exit %d, stderr %q", r.code, r.stderr)
	}
	head := "data_rows\tentries\tno_entry\tmissing\torphans\tunverified\tstale\trepaired\n"
	r = run("CHECK INDEX orders_by_id")
	if r.code != 1 || r.stdout != head+"1\t2\t0\t0\t1\t0\t0\t0\n" ||
		r.stderr != "rkql: index orders_by_id does not match table orders: 1 orphan entry (CHECK INDEX orders_by_id REPAIR rewrites them)\n" {
		t.Fatalf("CHECK INDEX of a damaged index: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r = run("CHECK INDEX orders_by_id REPAIR"); r.code != 0 || r.stdout != head+"1\t2\t0\t0\t1\t0\t0\t1\n" {
		t.Fatalf("CHECK INDEX … REPAIR: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r = run("CHECK INDEX orders_by_id"); r.code != 0 || r.stdout != head+"1\t1\t0\t0\t0\t0\t0\t0\n" {
		t.Fatalf("CHECK INDEX after the repair: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// rkql import refuses a row whose key would be empty at its line, before
// it writes anything: no index entry is left without its row.
func TestImportEmptyKey(t *testing.T) {
	store := t.TempDir()
	in := writeFile(t, "sites.jsonl", `{"domain": "a.com", "owner": "ann", "visits": 1}
{"domain": "", "owner": "bob", "visits": 2}
`)
	r := rkql(t, "", "import", "--store", store, "--table", "sites", in)
	if r.code != 1 || r.stderr != "rkql: "+in+":2: the row key of sites would be empty (domain = ''): HBase keeps no row under an empty key (0 rows written)\n" {
		t.Fatalf("import: exit %d, stderr %q", r.code, r.stderr)
	}
	r = rkql(t, "", "--store", store, "--format", "tsv", "-e", "CHECK INDEX sites_by_owner")
	if r.code != 0 || !strings.HasSuffix(r.stdout, "\n0\t0\t0\t0\t0\t0\t0\t0\n") {
		t.Fatalf("CHECK INDEX after the import: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
