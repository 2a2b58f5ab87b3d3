package hbasetest

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// JavaProc is a Java program kept running to answer commands, one JVM
// for a whole test: it reads a command a line on standard input and
// prints "--" on a line after each answer.
type JavaProc struct {
	t      testing.TB
	class  string
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

// Start runs class main with the argument "serve" until t ends.
func (j *Java) Start(t testing.TB, class string) *JavaProc {
	t.Helper()
	cmd := exec.Command("java", "-cp", j.dir+string(os.PathListSeparator)+j.classpath, class, "serve")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &JavaProc{t: t, class: class, in: in, out: bufio.NewReader(out), stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("java %s: %v", class, err)
	}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return p
}

// Ask sends one command, its words joined by spaces, and returns the
// answer without the "--" line.
func (p *JavaProc) Ask(words ...string) string {
	p.t.Helper()
	if _, err := io.WriteString(p.in, strings.Join(words, " ")+"\n"); err != nil {
		p.t.Fatalf("java %s: %v\n%s", p.class, err, p.stderr.String())
	}
	var b strings.Builder
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("java %s %v: %v\n%s", p.class, words, err, p.stderr.String())
		}
		if line == "--\n" {
			return b.String()
		}
		b.WriteString(line)
	}
}
