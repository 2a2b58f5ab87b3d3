package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rkqlBin is the binary built once by TestMain.
var rkqlBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rkql-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rkqlBin = filepath.Join(dir, "rkql")
	build := exec.Command("go", "build", "-o", rkqlBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building rkql:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// rkql runs the binary with args and stdin, on a fresh store unless args
// name one.
func rkql(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	hasStore := false
	for _, a := range args {
		if a == "--store" || strings.HasPrefix(a, "--store=") {
			hasStore = true
		}
	}
	if !hasStore && (len(args) == 0 || args[0] != "import") {
		args = append([]string{"--store", t.TempDir()}, args...)
	}
	cmd := command(t, rkqlBin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitCode(t, cmd)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// command is name with args, in an environment whose XDG_DATA_HOME is a
// directory of the test's: no history or state of the user's is read or
// written.
func command(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	return cmd
}

// exitCode runs cmd and returns its exit status; a command that does not
// start fails t.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// buildPkg builds the command pkg (a path from this directory) into a
// temporary directory and returns the binary's path.
func buildPkg(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// runBin runs bin with args and fails the test unless it succeeds; it
// returns the standard output.
func runBin(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout %q\nstderr %q", filepath.Base(bin), strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

const fixedCatalog = "testdata/catalog.yaml"

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestErrors checks that each failure is exactly one line on stderr, with
// line:col where it applies, and exit status 1.
func TestErrors(t *testing.T) {
	script := writeFile(t, "bad.sql", "SHOW TABLES;\n\nSELECT *\nFROM devices\nWHERE sit = 'ab';\n")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string // regexp of the one stderr line, without "rkql: "
	}{
		{"syntax error", "", []string{"-e", "SELEC * FROM devices"}, `^1:1: unexpected "SELEC"`},
		{"syntax error on line 2", "", []string{"-e", "SELECT *\nFROM devices WHERE site = = 'a'"}, `^2:27: `},
		{"unknown table", "", []string{"-e", "SELECT * FROM nope WHERE a = 1"}, `^1:15: table "nope" does not exist`},
		{"unknown column", "", []string{"-e", "SELECT nope FROM devices WHERE site = 'ab'"}, `^1:8: column "nope" does not exist in table devices`},
		{"wrong type", "", []string{"-e", "INSERT INTO devices (site, seq, n) VALUES ('ab', 1, 'seven')"}, `^1:53: column n is INT, and 'seven' is not a valid INT$`},
		{"too long for fixed width", "", []string{"-e", "INSERT INTO devices (site, seq) VALUES ('abcde', 1)"}, `^1:41: key field site: 'abcde' is 5 bytes, longer than the field's fixed width of 4$`},
		{"file position", "", []string{"-f", script}, regexp.QuoteMeta(script) + `:5:7: column "sit" does not exist`},
		{"stdin position", "SHOW TABLES;\nSELECT * FROM devices WHERE\n  site = 'ab' AND x = 1;\n", nil, `^3:19: column "x" does not exist`},
		{"full scan refused", "", []string{"-e", "SELECT * FROM devices WHERE label = 'x'"}, `^1:15: `},
		{"timeout", "", []string{"--timeout", "1ns", "-e", "SHOW TABLES"}, `^statement timed out after 1ns \(the --timeout limit; 0 turns it off\)$`},
		{"zk unreachable", "", []string{"--zk", "127.0.0.1:1", "-e", "SHOW TABLES"}, `^cannot reach HBase through ZooKeeper 127.0.0.1:1: .*connection refused$`},
		{"missing file", "", []string{"-f", "/nonexistent/x.sql"}, `^open /nonexistent/x.sql: no such file or directory$`},
		{"bad catalog", "", []string{"--catalog", "/nonexistent/c.yaml", "-e", "SHOW TABLES"}, `^catalog: open /nonexistent/c.yaml: `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !hasArg(args, "--catalog") {
				args = append([]string{"--catalog", fixedCatalog}, args...)
			}
			r := rkql(t, tc.stdin, args...)
			if r.code != 1 {
				t.Errorf("exit status %d, want 1", r.code)
			}
			checkOneLine(t, r.stderr, tc.want)
		})
	}
}

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

func checkOneLine(t *testing.T, stderr, want string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("stderr is not exactly one line:\n%s", stderr)
	}
	msg, ok := strings.CutPrefix(strings.TrimSuffix(stderr, "\n"), "rkql: ")
	if !ok {
		t.Fatalf("stderr does not start with \"rkql: \": %q", stderr)
	}
	if !regexp.MustCompile(want).MatchString(msg) {
		t.Fatalf("stderr %q does not match %q", msg, want)
	}
}

// TestExitStatus covers the statuses and what runs after a failure: -e
// stops at the first failed statement, -f and stdin go on.
func TestExitStatus(t *testing.T) {
	insert := "INSERT INTO devices (site, seq, label) VALUES ('ab', 1, 'one');"
	sel := "SELECT label FROM devices WHERE site = 'ab';"
	bad := "SELECT nope FROM devices WHERE site = 'ab';"
	script := writeFile(t, "s.sql", insert+"\n"+bad+"\n"+sel+"\n")
	tests := []struct {
		name    string
		stdin   string
		args    []string
		code    int
		stdout  string
		errLine int // number of stderr lines
	}{
		{"ok", "", []string{"-e", insert + sel}, 0, "INSERT 1\nlabel\none\n", 0},
		{"quiet", "", []string{"-q", "-e", insert + sel}, 0, "label\none\n", 0},
		{"-e stops", "", []string{"-e", insert + bad + sel}, 1, "INSERT 1\n", 1},
		{"-e stops later -e", "", []string{"-e", bad, "-e", sel}, 1, "", 1},
		{"-f goes on", "", []string{"-f", script}, 1, "INSERT 1\nlabel\none\n", 1},
		{"-f stop-on-error", "", []string{"--stop-on-error", "-f", script}, 1, "INSERT 1\n", 1},
		{"stdin goes on", insert + "\n" + bad + "\n" + sel + "\n", nil, 1, "INSERT 1\nlabel\none\n", 1},
		{"-f - is stdin", insert + sel, []string{"-f", "-"}, 0, "INSERT 1\nlabel\none\n", 0},
		{"no final semicolon", "", []string{"-e", insert + "SELECT label FROM devices WHERE site = 'ab'"}, 0, "INSERT 1\nlabel\none\n", 0},
		{"meta-command in -e", "", []string{"-e", `\d devices`}, 0, "", 0},
		{"comments only", "-- nothing\n/* at all */\n", nil, 0, "", 0},
		{"usage: bad flag", "", []string{"--nope"}, 2, "", 1},
		{"usage: bad format", "", []string{"--format", "xml", "-e", sel}, 2, "", 1},
		{"usage: stray argument", "", []string{"x.sql"}, 2, "", 1},
		{"usage: import without table", "", []string{"import", "x.csv"}, 2, "", 1},
		{"usage: import without file", "", []string{"import", "--table", "devices"}, 2, "", 1},
		{"usage: import with a bad format", "", []string{"import", "--format", "xml", "--table", "devices", "x.csv"}, 2, "", 1},
		// An unset variable must not send writes to the embedded store.
		{"usage: empty --zk", "", []string{"--zk", "", "-e", insert}, 2, "", 1},
		{"usage: blank --zk for import", "", []string{"import", "--zk", " ", "--table", "devices", "/dev/null"}, 2, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rkql(t, tc.stdin, append([]string{"--catalog", fixedCatalog}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if tc.name != "meta-command in -e" && r.stdout != tc.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, tc.stdout)
			}
			if tc.name == "meta-command in -e" && !strings.HasPrefix(r.stdout, "column\ttype\tstored\nsite\tSTRING\tkey\n") {
				t.Errorf("\\d devices printed:\n%s", r.stdout)
			}
			if n := strings.Count(r.stderr, "\n"); n != tc.errLine {
				t.Errorf("%d stderr lines, want %d:\n%s", n, tc.errLine, r.stderr)
			}
		})
	}
}

// TestJSON checks the JSON rules: RFC 3339 UTC timestamps with
// milliseconds, dates, numbers, null and BYTES as toStringBinary text.
func TestJSON(t *testing.T) {
	store := t.TempDir()
	ins := `INSERT INTO devices (site, seq, label, seen, day, raw, ok, score, n) VALUES
		('ab', 1, 'x', '2024-05-01 12:00:00.5', '2024-05-02', x'00ff5c41', true, 1.25, -7),
		('ab', 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`
	sel := "SELECT * FROM devices WHERE site = 'ab'"
	r := rkql(t, "", "--catalog", fixedCatalog, "--store", store, "-q", "--format", "json", "-e", ins+";"+sel)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := `[
{"site":"ab","seq":1,"label":"x","seen":"2024-05-01T12:00:00.500Z","day":"2024-05-02","raw":"\\x00\\xFF\\x5CA","ok":true,"score":1.25,"n":-7},
{"site":"ab","seq":2,"label":null,"seen":null,"day":null,"raw":null,"ok":null,"score":null,"n":null}
]
`
	if r.stdout != want {
		t.Fatalf("json:\n%s\nwant:\n%s", r.stdout, want)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("not one JSON array: %v", err)
	}
	r = rkql(t, "", "--catalog", fixedCatalog, "--store", store, "--format", "jsonl", "-e", sel)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("jsonl gave %d lines:\n%s", len(lines), r.stdout)
	}
	for _, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatalf("jsonl line %q: %v", l, err)
		}
	}
	r = rkql(t, "", "--catalog", fixedCatalog, "--store", store, "--format", "json", "-e", "SELECT * FROM devices WHERE site = 'zz'")
	if r.stdout != "[]\n" {
		t.Fatalf("empty result as json: %q", r.stdout)
	}
}

// TestImport loads JSON lines and CSV through the binary, including a bad
// line, and reads the rows back.
func TestImport(t *testing.T) {
	store := t.TempDir()
	jsonl := writeFile(t, "devices.jsonl", `{"site":"ab","seq":1,"label":"one","seen":"2024-05-01T12:00:00Z","ok":true}
{"site":"ab","seq":2,"label":"two","seen":1714564800000,"score":2.5}

{"site":"cd","seq":3,"raw":"\\x00A"}
`)
	r := rkql(t, "", "import", "--catalog", fixedCatalog, "--store", store, "--table", "devices", jsonl)
	if r.code != 0 || r.stdout != "imported 3 rows into devices\n" || r.stderr != "" {
		t.Fatalf("import jsonl: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	csvFile := writeFile(t, "more.csv", "site,seq,label,day\nef,4,\"four, with comma\",2024-05-03\nef,5,,\n")
	// Flags may also come before the subcommand.
	r = rkql(t, "", "--catalog", fixedCatalog, "--store", store, "import", "--table", "devices", csvFile)
	if r.code != 0 || r.stdout != "imported 2 rows into devices\n" {
		t.Fatalf("import csv: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = rkql(t, "site,seq,n\ngh,6,1\ngh,7,abc\n", "import", "--table", "devices", "--catalog", fixedCatalog, "--store", store, "-")
	if r.code != 1 {
		t.Fatalf("bad csv on stdin: exit %d", r.code)
	}
	checkOneLine(t, r.stderr, `^stdin:3: column n: 'abc' is not a valid INT \(0 rows written\)$`)
	bad := writeFile(t, "bad.jsonl", `{"site":"ij","seq":8}
{"site":"ij","seq":9,"score":"x"}
`)
	r = rkql(t, "", "import", "--table", "devices", "--catalog", fixedCatalog, "--store", store, bad)
	if r.code != 1 {
		t.Fatalf("bad jsonl: exit %d", r.code)
	}
	checkOneLine(t, r.stderr, regexp.QuoteMeta(bad)+`:2: column score: 'x' is not a valid DOUBLE \(0 rows written\)$`)

	r = rkql(t, "", "--catalog", fixedCatalog, "--store", store, "--format", "csv", "-e",
		"SELECT site, seq, label, seen, day, raw, score FROM devices ALLOW FULL SCAN")
	want := `site,seq,label,seen,day,raw,score
ab,1,one,2024-05-01 12:00:00.000,,,
ab,2,two,2024-05-01 12:00:00.000,,,2.5
cd,3,,,,\x00A,
ef,4,"four, with comma",,2024-05-03,,
ef,5,,,,,
`
	if r.code != 0 || r.stdout != want {
		t.Fatalf("rows after import: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", r.code, r.stderr, r.stdout, want)
	}

	// What rkql prints when stdout is not a terminal (tsv) imports again
	// from stdin: into another store, the rows read the same.
	all := "SELECT * FROM devices ALLOW FULL SCAN"
	exported := rkql(t, "", "--catalog", fixedCatalog, "--store", store, "-e", all)
	other := t.TempDir()
	for i, format := range []string{"", "--format=TSV"} {
		args := []string{"import", "--table", "devices", "--catalog", fixedCatalog, "--store", other, "-"}
		want := "imported 5 rows into devices\n"
		if i > 0 {
			args = append(args, format)
			want = "imported 5 rows into devices, 5 of them replacing a row with the same key\n"
		}
		if r = rkql(t, exported.stdout, args...); r.code != 0 || r.stdout != want {
			t.Fatalf("import %s of tsv: exit %d, stdout %q, stderr %q", format, r.code, r.stdout, r.stderr)
		}
	}
	if r = rkql(t, "", "--catalog", fixedCatalog, "--store", other, "-e", all); r.stdout != exported.stdout {
		t.Fatalf("reimported rows:\n%s\nwant:\n%s", r.stdout, exported.stdout)
	}
}

// TestMalformedRowsSkipped: a row whose key does not fit the layout (here
// written through another table over the same HBase table) is skipped with
// one warning, and the other rows are returned.
func TestMalformedRowsSkipped(t *testing.T) {
	cat := writeFile(t, "shared.yaml", `
tables:
  - name: nums
    hbase: shared
    families: [{name: f}]
    columns:
      - {name: id, type: BIGINT}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {field: id, encoding: decimal, width: 4}
`)
	// Two tables cannot share an HBase table in one catalog, so the stray
	// row is written through a second catalog that maps words onto it.
	cat2 := writeFile(t, "stray.yaml", `
tables:
  - name: words
    hbase: shared
    families: [{name: f}]
    columns:
      - {name: w, type: STRING}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {field: w}
`)
	store := t.TempDir()
	r := rkql(t, "", "--catalog", cat, "--store", store, "-e", "INSERT INTO nums (id, v) VALUES (1, 'a'), (2, 'b')")
	if r.code != 0 {
		t.Fatalf("insert: %d %s", r.code, r.stderr)
	}
	r = rkql(t, "", "--catalog", cat2, "--store", store, "-e", "INSERT INTO words (w, v) VALUES ('zz', 'c')")
	if r.code != 0 {
		t.Fatalf("stray insert: %d %s", r.code, r.stderr)
	}
	r = rkql(t, "", "--catalog", cat, "--store", store, "--format", "csv", "-e", "SELECT id, v FROM nums ALLOW FULL SCAN")
	if r.code != 0 || r.stdout != "id,v\n1,a\n2,b\n" {
		t.Fatalf("select: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	checkOneLine(t, r.stderr, `^warning: skipped 1 row of nums that do not fit its layout \(first: table nums: at byte 0 of key 'zz': .*\)$`)

	// --strict makes the same row an error, and rkql exits 1.
	r = rkql(t, "", "--catalog", cat, "--store", store, "--strict", "--format", "csv", "-e", "SELECT id, v FROM nums ALLOW FULL SCAN")
	if r.code != 1 {
		t.Fatalf("strict select: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	checkOneLine(t, r.stderr, `^a row does not fit its table's layout \(--strict\): table nums: at byte 0 of key 'zz': .*$`)
	r = rkql(t, "", "--catalog", cat, "--store", store, "--strict", "--format", "csv", "-e", "SELECT id, v FROM nums WHERE id = 2")
	if r.code != 0 || r.stdout != "id,v\n2,b\n" {
		t.Fatalf("strict select of a row that fits: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// EXPLAIN ANALYZE counts the row.
	r = rkql(t, "", "--catalog", cat, "--store", store, "-e", "EXPLAIN ANALYZE SELECT id, v FROM nums ALLOW FULL SCAN")
	if r.code != 0 || !strings.Contains(r.stdout, "\nSKIPPED 1 rows that do not fit the layout\n") {
		t.Fatalf("explain analyze: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestDeprecatedEncodingWarns: a catalog using the old name binary loads,
// and rkql says on stderr which new name has the same bytes.
func TestDeprecatedEncodingWarns(t *testing.T) {
	cat := writeFile(t, "old.yaml", `
tables:
  - name: t
    families: [{name: f}]
    columns:
      - {name: id, type: BIGINT}
      - {name: v, type: BIGINT, column: "f:v", encoding: binary}
    rowkey:
      - {field: id, encoding: binary}
`)
	r := rkql(t, "", "--catalog", cat, "--format", "csv", "-e", "ENCODE KEY t (id = 1)")
	if r.code != 0 || r.stdout != "key,hex\n\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x01,8000000000000001\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	want := "rkql: warning: " + cat + `:7: column "v": encoding binary is deprecated: write java, the same bytes (Java's Bytes.toBytes)` + "\n" +
		"rkql: warning: " + cat + `:9: field "id": encoding binary is deprecated: in a rowkey it is sortable (sign bit flipped, in value order); Java's Bytes.toBytes is java` + "\n"
	if r.stderr != want {
		t.Fatalf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
}
