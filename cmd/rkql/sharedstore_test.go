package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/rkql/rkql/exec/embedded"
)

// With the REPL open on an embedded store, scripts in other processes
// read and write it between the REPL's statements, and the REPL sees
// what they wrote.
func TestSharedStoreREPLAndScript(t *testing.T) {
	store := t.TempDir()
	insert := func(id int) string {
		return fmt.Sprintf("INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', %d, '2024-05-01 12:00:00', 1, 'new');", id)
	}
	if r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "-e", insert(1)); r.code != 0 {
		t.Fatalf("loading rows: %+v", r)
	}
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"}
	p := startPty(t, env, "--store", store, "--catalog", fixedCatalog)
	p.waitFor(0, `rkql> `)
	count := "SELECT count(*) FROM orders WHERE seller = 's1';"
	p.press(count+"\r", ` count\n-+\n +1\n\(1 row\)\n\n[\s\S]*rkql> $`)

	// The REPL is open and idle: a script reads and writes.
	r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "--lock-timeout", "0", "-e", count+insert(2)+count)
	if r.code != 0 || r.stdout != "count\n1\nINSERT 1\n\ncount\n2\n" {
		t.Fatalf("script beside the REPL: %+v", r)
	}
	// The REPL sees the script's row.
	p.press(count+"\r", ` count\n-+\n +2\n\(1 row\)\n\n[\s\S]*rkql> $`)
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// A process that finds the store locked says which process holds it,
// waits up to --lock-timeout, and goes on when the lock is released in
// time; it fails with the holder and the limit when it is not.
func TestSharedStoreWaitsForLock(t *testing.T) {
	store := t.TempDir()
	st, err := embedded.Open(store, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	holder := fmt.Sprintf("process %d ", os.Getpid())

	r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "--lock-timeout", "200ms", "-e", "SELECT count(*) FROM orders WHERE seller = 's1';")
	want := regexp.MustCompile(`^rkql: store ` + regexp.QuoteMeta(store) + ` is in use by ` + regexp.QuoteMeta(holder) + `\([^\n]*\); waiting up to 200ms \(--lock-timeout\)\n` +
		`rkql: store ` + regexp.QuoteMeta(store) + ` is in use by ` + regexp.QuoteMeta(holder) + `\([^\n]*\): gave up after 200ms \(--lock-timeout\): embedded: store is in use by another rkql process\n$`)
	if r.code != 1 || !want.MatchString(r.stderr) {
		t.Fatalf("locked store: code %d, stderr:\n%s", r.code, r.stderr)
	}

	// This time the lock goes away while rkql waits.
	cmd, out, line := startRkql(t, "--store", store, "--catalog", fixedCatalog, "--lock-timeout", "30s", "-e",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', 1, '2024-05-01 12:00:00', 1, 'new');")
	if !strings.Contains(line, "is in use by "+holder) || !strings.Contains(line, "waiting up to 30s (--lock-timeout)") {
		t.Fatalf("first line on stderr %q, want the holder and the wait", line)
	}
	// rkql says it waits only once it found the store locked: the lock
	// goes away now, while it waits.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil || out.String() != "INSERT 1\n" {
		t.Fatalf("writer after the lock was released: %v, stdout %q", err, out.String())
	}
}

// Readers share the embedded store. While the REPL runs a scan that takes
// seconds, a script reads the same store at once, with --lock-timeout 0;
// a writer says that the REPL holds the store, waits, and writes once the
// scan is over; the REPL then sees its row.
func TestSharedStoreReadersAndWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 400,000 rows")
	}
	store := longScanStore(t)
	p, from := scanInREPL(t, store)
	scanning := func(when string) {
		t.Helper()
		if regexp.MustCompile(longScanDone).MatchString(p.screen(from)) {
			t.Fatalf("the REPL's scan ended before %s; the test needs a slower scan", when)
		}
	}

	count := "SELECT count(*) FROM devices WHERE site = 's001';"
	r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "--lock-timeout", "0", "-e", count)
	if r.code != 0 || r.stdout != "count\n400\n" || r.stderr != "" {
		t.Fatalf("script reading beside the REPL's scan: %+v", r)
	}
	scanning("the script's read ended")

	cmd, out, line := startRkql(t, "--store", store, "--catalog", fixedCatalog, "--lock-timeout", "5m", "-e",
		"INSERT INTO devices (site, seq, n) VALUES ('zz', 1, 1);")
	holder := fmt.Sprintf("is in use by process %d (", p.cmd.Process.Pid)
	if !strings.Contains(line, holder) || !strings.HasSuffix(line, "; waiting up to 5m0s (--lock-timeout)\n") {
		t.Fatalf("writer's first line on stderr %q, want %q and the wait", line, holder)
	}
	scanning("the writer found the store in use")
	p.waitFor(from, longScanDone+`\n\n[\s\S]*rkql> $`)
	if err := cmd.Wait(); err != nil || out.String() != "INSERT 1\n" {
		t.Fatalf("writer after the scan: %v, stdout %q", err, out.String())
	}
	p.press("SELECT count(*) FROM devices WHERE site = 'zz';\r", ` count\n-+\n +1\n\(1 row\)\n\n[\s\S]*rkql> $`)
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// startRkql starts rkql with args and returns it running, its stdout
// (whole once Wait returns) and the first line it writes on stderr.
func startRkql(t *testing.T, args ...string) (*exec.Cmd, *strings.Builder, string) {
	t.Helper()
	cmd := command(t, rkqlBin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("first line on stderr %q: %v", line, err)
	}
	return cmd, out, line
}
