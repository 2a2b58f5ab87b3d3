package main

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// runTo runs the binary with stdout going to out, and returns its stderr
// and exit status.
func runTo(t *testing.T, out *os.File, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(rkqlBin, append([]string{"--store", t.TempDir(), "--catalog", fixedCatalog}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
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
