package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const cutCatalog = `tables:
  - name: plain
    families:
      - {name: f, versions: 3}
    columns:
      - {name: id, type: BIGINT}
      - {name: tag, type: STRING, column: 'f:tag'}
      - {name: n, type: BIGINT, column: 'f:n'}
    rowkey:
      - {field: id}
  - name: indexed
    families:
      - {name: f}
    columns:
      - {name: id, type: BIGINT}
      - {name: tag, type: STRING, column: 'f:tag'}
    rowkey:
      - {field: id}
    indexes:
      - name: indexed_by_tag
        rowkey:
          - {field: tag}
          - {literal: '|'}
          - {field: id}
`

// TestImportKilled kills an import into a table without indexes with
// SIGKILL once it says it writes in parts, which it says just before its
// second write. The table then holds a prefix of the input in key order,
// whole parts of it, as the note says; running the same import again
// leaves exactly the input, as it says too.
func TestImportKilled(t *testing.T) {
	const rows = 400_000
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(cat, []byte(cutCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString("id,tag,n\n")
	for i := range rows {
		fmt.Fprintf(&in, "%d,t%d,%d\n", i, i%7, i)
	}
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	args := []string{"import", "--store", store, "--catalog", cat, "--table", "plain", file}
	cmd := exec.Command(rkqlBin, args...)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("the import ended without a note: %q, %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	const note = "rkql: note: plain is written in parts, each committed as it is written: an import cut short (Ctrl-C, a timeout, a crash) leaves the rows of the parts before, and running it again finishes it, writing the same keys again\n"
	if line != note {
		t.Fatalf("stderr %q, want %q", line, note)
	}

	sel := "SELECT COUNT(*), COALESCE(MIN(id), -1), COALESCE(MAX(id), -1), COALESCE(SUM(n), 0) FROM plain ALLOW FULL SCAN"
	r := rkql(t, "", "--store", store, "--catalog", cat, "--format", "csv", "-e", sel)
	if r.code != 0 {
		t.Fatalf("after the kill: %s", r.stderr)
	}
	var n, lo, hi, sum int64
	if _, err := fmt.Sscanf(strings.Split(r.stdout, "\n")[1], "%d,%d,%d,%d", &n, &lo, &hi, &sum); err != nil {
		t.Fatalf("%q: %v", r.stdout, err)
	}
	t.Logf("the kill left %d of %d rows", n, rows)
	// The keys are 8-byte sortable integers, so key order is id order:
	// a prefix is ids 0 to n-1, and the sum of n over them is known.
	if n == 0 || n == rows || n%10_000 != 0 || lo != 0 || hi != n-1 || sum != n*(n-1)/2 {
		t.Fatalf("after the kill: %d rows, ids %d to %d, sum %d; want a prefix of whole parts of 10,000, neither none nor all", n, lo, hi, sum)
	}

	r = rkql(t, "", args...)
	want := fmt.Sprintf("imported %d rows into plain, %d of them replacing a row with the same key\n", rows, n)
	if r.code != 0 || r.stdout != want {
		t.Fatalf("import again: exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	r = rkql(t, "", "--store", store, "--catalog", cat, "--format", "csv", "-e",
		"SELECT COUNT(*), MIN(id), MAX(id), SUM(n), SUM(CAST(SUBSTR(tag, 2) AS BIGINT)) FROM plain ALLOW FULL SCAN")
	tags := int64(0)
	for i := range int64(rows) {
		tags += i % 7
	}
	if got := fmt.Sprintf("%d,0,%d,%d,%d", rows, rows-1, int64(rows)*(rows-1)/2, tags); r.code != 0 || strings.Split(r.stdout, "\n")[1] != got {
		t.Fatalf("after the second import: exit %d, %q (%s); want %s", r.code, r.stdout, r.stderr, got)
	}
}

// TestImportTimeoutBoundsWrites checks what --timeout means to an import:
// it bounds each write of a batch, not the whole import. An import whose
// input arrives slowly runs past it, and ends well, with every row.
func TestImportTimeoutBoundsWrites(t *testing.T) {
	const timeout = time.Second
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(cat, []byte(cutCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	cmd := exec.Command(rkqlBin, "import", "--store", store, "--catalog", cat, "--timeout", timeout.String(), "--table", "indexed", "-")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rows := func(from, to int) {
		var b strings.Builder
		if from == 0 {
			b.WriteString("id,tag\n")
		}
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, "%d,t%d\n", i, i%7)
		}
		if _, err := stdin.Write([]byte(b.String())); err != nil {
			t.Fatal(err)
		}
	}
	// Two batches and a row: the import writes the first, and says so
	// before it writes the second; the third waits for more input.
	rows(0, 10_001)
	errs := bufio.NewReader(stderr)
	if line, err := errs.ReadString('\n'); err != nil || !strings.HasPrefix(line, "rkql: note: indexed is written in parts") {
		t.Fatalf("stderr %q, %v; want the note before the second write", line, err)
	}
	// The time that passes is what is tested: the import, waiting on
	// its input, outlives --timeout.
	<-time.After(2 * timeout)
	rows(10_001, 12_000)
	stdin.Close()
	rest, _ := io.ReadAll(errs)
	if err := cmd.Wait(); err != nil || stdout.String() != "imported 12000 rows into indexed\n" || len(rest) != 0 {
		t.Fatalf("import: %v, stdout %q, stderr %q; want 12000 rows imported", err, stdout.String(), rest)
	}
	if took := time.Since(begin); took < 2*timeout {
		t.Fatalf("the import took %v, less than the %v it waited", took, 2*timeout)
	}
	r := rkql(t, "", "--store", store, "--catalog", cat, "--format", "csv", "-e", "SELECT COUNT(*) FROM indexed ALLOW FULL SCAN; CHECK INDEX indexed_by_tag")
	want := "count\n12000\n\ndata_rows,entries,no_entry,missing,orphans,unverified,stale,repaired\n12000,12000,0,0,0,0,0,0\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("after the import: exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
}

// TestUpdateTimeoutUndone runs an UPDATE of 400,000 rows of the embedded
// store under a --timeout far shorter than it takes: it is one
// transaction, so the error says it was undone and every row keeps its
// value.
func TestUpdateTimeoutUndone(t *testing.T) {
	const rows = 400_000
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(cat, []byte(cutCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString("id,tag,n\n")
	for i := range rows {
		fmt.Fprintf(&in, "%d,old,%d\n", i, i)
	}
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	if r := rkql(t, "", "import", "--store", store, "--catalog", cat, "--table", "plain", file); r.code != 0 {
		t.Fatalf("import: %s", r.stderr)
	}
	r := rkql(t, "", "--store", store, "--catalog", cat, "--timeout", "100ms", "--yes", "-e", "UPDATE plain SET tag = 'new' WHERE n >= 0 ALLOW FULL SCAN")
	want := "rkql: UPDATE timed out and was undone: no row was updated (the --timeout limit, 100ms; 0 turns it off)\n"
	if r.code != 1 || r.stderr != want {
		t.Fatalf("exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
	r = rkql(t, "", "--store", store, "--catalog", cat, "--format", "csv", "-e", "SELECT COUNT(*) FROM plain WHERE tag = 'old' ALLOW FULL SCAN")
	if r.code != 0 || r.stdout != fmt.Sprintf("count\n%d\n", rows) {
		t.Fatalf("after the timeout: exit %d, stdout %q, stderr %q; want every row unchanged", r.code, r.stdout, r.stderr)
	}
}

// TestStoreRepairHalfFile imports 200,000 rows, cuts the store file in
// half, removes the copy of its tables' metadata, and repairs it: the
// rows of the intact pages come back, placed by the catalog's tables, and
// each is a row of the input.
func TestStoreRepairHalfFile(t *testing.T) {
	const rows = 200_000
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog.yaml")
	// One table: two whose families have the same names could not be told
	// apart, and their rows would be counted, not saved.
	one := cutCatalog[:strings.Index(cutCatalog, "  - name: indexed")]
	if err := os.WriteFile(cat, []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString("id,tag,n\n")
	for i := range rows {
		fmt.Fprintf(&in, "%d,t,%d\n", i, i)
	}
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	if r := rkql(t, "", "import", "--store", store, "--catalog", cat, "--table", "plain", file); r.code != 0 {
		t.Fatalf("import: %s", r.stderr)
	}
	db := filepath.Join(store, "rkql.db")
	st, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, st.Size()/2/4096*4096); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(db + ".tables"); err != nil {
		t.Fatal(err)
	}
	r := rkql(t, "", "store", "repair", "--store", store, "--catalog", cat)
	m := regexp.MustCompile(`(?m)^table plain: saved (\d+) rows`).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil {
		t.Fatalf("store repair: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	saved, _ := strconv.Atoi(m[1])
	t.Logf("saved %d of %d rows:\n%s", saved, rows, r.stdout)
	if saved < rows/4 {
		t.Errorf("saved %d of %d rows from a file cut in half", saved, rows)
	}
	r = rkql(t, "", "--store", store, "--catalog", cat, "--format", "csv", "-e",
		"SELECT COUNT(*) FROM plain WHERE n != id OR tag != 't' OR id < 0 OR id >= 200000 ALLOW FULL SCAN; SELECT COUNT(*) FROM plain ALLOW FULL SCAN")
	if want := fmt.Sprintf("count\n0\n\ncount\n%d\n", saved); r.code != 0 || r.stdout != want {
		t.Fatalf("after repair: exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
}
