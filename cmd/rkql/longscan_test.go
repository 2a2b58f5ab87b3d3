package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// longScanStore returns a store of the test's own holding longScanRows
// rows of devices: a copy of one loaded, with rkql import, once per run of
// the package (the tests that use it write to their copy).
func longScanStore(t *testing.T) string {
	t.Helper()
	longScan.once.Do(func() { longScan.dir, longScan.err = loadLongScanStore() })
	if longScan.err != nil {
		t.Fatalf("loading rows: %v", longScan.err)
	}
	store := t.TempDir()
	if err := os.CopyFS(store, os.DirFS(longScan.dir)); err != nil {
		t.Fatal(err)
	}
	return store
}

// longScan is the store longScanStore copies, loaded on first use.
var longScan struct {
	once sync.Once
	dir  string
	err  error
}

// loadLongScanStore writes longScanRows rows of devices as JSON lines and
// imports them into a new store beside rkqlBin, which TestMain removes.
func loadLongScanStore() (string, error) {
	dir, err := os.MkdirTemp(filepath.Dir(rkqlBin), "longscan-")
	if err != nil {
		return "", err
	}
	rows := filepath.Join(dir, "devices.jsonl")
	f, err := os.Create(rows)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	for i := range longScanRows {
		fmt.Fprintf(w, `{"site":"s%03d","seq":%d,"label":"device %d","n":%d,"score":%d.5}`+"\n", i%1000, i, i, i%977, i)
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	store := filepath.Join(dir, "store")
	cmd := exec.Command(rkqlBin, "import", "--store", store, "--catalog", fixedCatalog, "--table", "devices", rows)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("imported %d rows", longScanRows)) {
		return "", fmt.Errorf("rkql import: %v: %s", err, out)
	}
	return store, nil
}

// scanInREPL starts the REPL on store and in it the scan that takes
// seconds; it returns the REPL, and its screen's mark from before the
// scan.
func scanInREPL(t *testing.T, store string) (*ptyTerm, int) {
	t.Helper()
	p := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"},
		"--store", store, "--catalog", fixedCatalog, "--timeout", "5m")
	p.waitFor(0, `rkql> `)
	from := p.mark()
	p.press(longScanQuery+"\r", `\(Ctrl-C cancels\)`)
	return p, from
}

// Ctrl-C during a scan of the embedded store that takes seconds cancels
// it: the REPL says so, and the next statement runs.
func TestREPLCtrlCCancelsLongScan(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 400,000 rows")
	}
	p, from := scanInREPL(t, longScanStore(t))
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
