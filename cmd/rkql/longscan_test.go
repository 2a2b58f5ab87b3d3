package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// longScanRows is how many rows longScanStore loads: enough for
// longScanQuery to take seconds.
const longScanRows = 400_000

// longScanQuery reads every row of devices and groups them all, one
// group a row, and returns none of them: several seconds of work for a
// line of output.
const longScanQuery = "SELECT label, site, seq, n, score, count(*), sum(score), min(label), max(label) FROM devices " +
	"GROUP BY label, site, seq, n, score HAVING count(*) > 1 ALLOW FULL SCAN;"

// longScanDone is what the REPL draws when longScanQuery ends.
const longScanDone = `label \| site \| seq \| n \| score \| count \| sum \| min \| max\n[-+]+\n\(0 rows\)`

// longScanStore returns an embedded store holding longScanRows rows of
// devices, loaded with rkql import.
func longScanStore(t *testing.T) string {
	t.Helper()
	rows := filepath.Join(t.TempDir(), "devices.jsonl")
	f, err := os.Create(rows)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range longScanRows {
		fmt.Fprintf(w, `{"site":"s%03d","seq":%d,"label":"device %d","n":%d,"score":%d.5}`+"\n", i%1000, i, i, i%977, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	r := rkql(t, "", "import", "--store", store, "--catalog", fixedCatalog, "--table", "devices", rows)
	if r.code != 0 || !strings.Contains(r.stderr+r.stdout, fmt.Sprintf("imported %d rows", longScanRows)) {
		t.Fatalf("loading rows: %+v", r)
	}
	return store
}

// Ctrl-C during a scan of the embedded store that takes seconds cancels
// it: the REPL says so, and the next statement runs.
func TestREPLCtrlCCancelsLongScan(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 400,000 rows")
	}
	store := longScanStore(t)
	p := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"},
		"--store", store, "--catalog", fixedCatalog, "--timeout", "5m")
	p.waitFor(0, `rkql> `)
	from := p.mark()
	p.press(longScanQuery+"\r", `\(Ctrl-C cancels\)`)
	p.press(keyCtrlC, `rkql: statement cancelled\n[\s\S]*rkql> $`)
	if regexp.MustCompile(longScanDone).MatchString(p.screen(from)) {
		t.Fatalf("the scan ended instead of being cancelled:\n%s", p.screen(from))
	}
	p.press("SELECT count(*) FROM devices WHERE site = 's001';\r", ` count\n-+\n +400\n\(1 row\)\n\n[\s\S]*rkql> $`)
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
	if !p.cooked() {
		t.Errorf("the terminal is left raw (lflag %#x)", p.lflag())
	}
}
