package main

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// runTo runs the binary with stdout going to out, and returns its stderr
// and exit status.
func runTo(t *testing.T, out *os.File, args ...string) (string, int) {
	t.Helper()
	cmd := command(t, rkqlBin, append([]string{"--store", t.TempDir(), "--catalog", fixedCatalog}, args...)...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	code := exitCode(t, cmd)
	return errb.String(), code
}

// A full disk fails the statement in every format, however small the
// output: one line on stderr and exit status 1.
func TestOutputToFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	for _, f := range []string{"table", "csv", "tsv", "json", "jsonl", "markdown"} {
		t.Run(f, func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer full.Close()
			stderr, code := runTo(t, full, "--format", f, "-e", "ENCODE KEY devices (site = 'ab', seq = 1)")
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			checkOneLine(t, stderr, `^writing results: no space left on device$`)
		})
	}
	// A command tag is a result too, and nothing runs after the failure.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	stderr, code := runTo(t, full, "-f", writeFile(t, "s.sql", "INSERT INTO devices (site, seq) VALUES ('ab', 1);\nSELECT nope FROM devices WHERE site = 'ab';\n"))
	if code != 1 {
		t.Errorf("-f to a full disk: exit status %d, want 1", code)
	}
	checkOneLine(t, stderr, `^writing results: no space left on device$`)
}

// A closed pipe on stdout is an error that is said, not a silent death by
// SIGPIPE.
func TestOutputToClosedPipe(t *testing.T) {
	for _, f := range []string{"table", "csv", "tsv", "json", "jsonl", "markdown"} {
		t.Run(f, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			defer w.Close()
			stderr, code := runTo(t, w, "--format", f, "-e", "ENCODE KEY devices (site = 'ab', seq = 1)")
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			checkOneLine(t, stderr, `^writing results: broken pipe$`)
		})
	}
}

// Ctrl-C ends an import reading an idle pipe: it does not wait for the
// writer to close it.
func TestImportInterruptIdleStdin(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := command(t, rkqlBin, "import", "--store", t.TempDir(), "--catalog", fixedCatalog, "--table", "devices", "-")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pr, &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if _, err := pw.WriteString("{\"site\":\"ab\",\"seq\":1}\n"); err != nil {
		t.Fatal(err)
	}
	// Once rkql has read the line, it is reading the idle pipe.
	waitPipeDrained(t, pr)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("rkql import ended with %v, want exit status 1; stderr:\n%s", err, errb.String())
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("rkql import still runs a minute after Ctrl-C; stderr:\n%s", errb.String())
	}
	checkOneLine(t, errb.String(), `^import cancelled \(0 rows written\)$`)
	if out.Len() != 0 {
		t.Errorf("stdout: %q", out.String())
	}
}

// A stdout on /dev/null opened for reading and writing, as Python's
// subprocess.DEVNULL and daemons open it, is written to as usual.
func TestOutputToDevNullReadWrite(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if stderr, code := runTo(t, f, "-e", "SHOW TABLES"); code != 0 || stderr != "" {
		t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
}

// runRedirected runs the binary through sh with stdout redirected as redir
// says (">&-" closes it), and returns its stderr and exit status.
func runRedirected(t *testing.T, redir string, args ...string) (string, int) {
	t.Helper()
	args = append([]string{"-c", `exec "$0" "$@" ` + redir, rkqlBin, "--store", t.TempDir(), "--catalog", fixedCatalog}, args...)
	cmd := command(t, "sh", args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	code := exitCode(t, cmd)
	return errb.String(), code
}

// A stdout closed at start-up (Go's runtime puts /dev/null in its place)
// fails a statement that has results, like a full disk; a stdout sent to
// /dev/null on purpose does not, and neither does a run with nothing to
// write.
func TestOutputToClosedStdout(t *testing.T) {
	if !stdoutCheckBuilt() {
		t.Skip("a closed stdout is told apart from /dev/null only on Linux with cgo")
	}
	query := []string{"-e", "ENCODE KEY devices (site = 'ab', seq = 1)"}
	for _, f := range []string{"table", "tsv", "json"} {
		stderr, code := runRedirected(t, ">&-", append([]string{"--format", f}, query...)...)
		if code != 1 {
			t.Errorf("%s to a closed stdout: exit status %d, want 1; stderr %q", f, code, stderr)
			continue
		}
		checkOneLine(t, stderr, `^writing results: standard output is closed$`)
	}
	stderr, code := runRedirected(t, "<&- >&-", query...)
	if code != 1 {
		t.Errorf("stdin and stdout closed: exit status %d, want 1; stderr %q", code, stderr)
	} else {
		checkOneLine(t, stderr, `^writing results: standard output is closed$`)
	}
	for _, redir := range []string{">/dev/null", ">>/dev/null", "1<>/dev/null"} {
		if stderr, code := runRedirected(t, redir, query...); code != 0 || stderr != "" {
			t.Errorf("%s: exit status %d, stderr %q; want 0 and nothing", redir, code, stderr)
		}
	}
	if stderr, code := runRedirected(t, ">&-", "-q", "-e", "INSERT INTO devices (site, seq) VALUES ('ab', 1)"); code != 0 || stderr != "" {
		t.Errorf("nothing to write, stdout closed: exit status %d, stderr %q; want 0 and nothing", code, stderr)
	}
}

// stdoutCheckBuilt reports whether the binary under test can tell a closed
// stdout: it is built for Linux with cgo, as go build does where a C
// compiler is present.
func stdoutCheckBuilt() bool {
	if runtime.GOOS != "linux" {
		return false
	}
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}
