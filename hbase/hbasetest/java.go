package hbasetest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// EnvClasspath optionally names the file that holds the local HBase's
// resolved classpath (default: .cache/hbase/classpath.txt at the
// repository root, which scripts/hbase/up writes).
const EnvClasspath = "RKQL_HBASE_CLASSPATH"

// Java runs Java programs against the local HBase's jars: the tooling the
// HBase project itself ships, used as an oracle.
type Java struct {
	classpath string
	dir       string // compiled classes
}

// noJava skips t for the missing Java tooling format and args say, or
// fails it when $RKQL_REQUIRE_HBASE=1.
func noJava(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("Java tooling is required (%s=1): "+format, append([]any{EnvRequire}, args...)...)
	}
	t.Skipf("no Java tooling: "+format, args...)
}

// CompileJava compiles the Java sources with the local HBase's classpath.
// It skips the test when Java or the classpath is missing, and fails it
// when $RKQL_REQUIRE_HBASE=1.
func CompileJava(t testing.TB, sources ...string) *Java {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		noJava(t, "javac is not on PATH")
	}
	cpFile := os.Getenv(EnvClasspath)
	if cpFile == "" {
		root, err := repoRoot()
		if err != nil {
			noJava(t, "%v", err)
		}
		cpFile = filepath.Join(root, ".cache", "hbase", "classpath.txt")
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		noJava(t, "the local HBase's classpath (run scripts/hbase/up, or set %s): %v", EnvClasspath, err)
	}
	j := &Java{classpath: strings.TrimSpace(string(cp)), dir: t.TempDir()}
	args := append([]string{"-d", j.dir, "-cp", j.classpath}, sources...)
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac %v: %v\n%s", sources, err, out)
	}
	return j
}

// Run runs class main with args and returns its standard output.
func (j *Java) Run(t testing.TB, class string, args ...string) string {
	t.Helper()
	cmd := exec.Command("java", append([]string{"-cp", j.dir + string(os.PathListSeparator) + j.classpath, class}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java %s %v: %v\n%s", class, args, err, stderr.String())
	}
	return string(out)
}

// Batch runs class main once with the argument "batch", feeding it the
// commands one per line, and returns each command's output: the program
// prints "--" after each. One JVM start instead of one per command.
func (j *Java) Batch(t testing.TB, class string, commands [][]string) []string {
	t.Helper()
	var in strings.Builder
	for _, c := range commands {
		in.WriteString(strings.Join(c, " ") + "\n")
	}
	cmd := exec.Command("java", "-cp", j.dir+string(os.PathListSeparator)+j.classpath, class, "batch")
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java %s batch: %v\n%s", class, err, stderr.String())
	}
	parts := strings.SplitAfter(string(out), "--\n")
	if len(parts) != len(commands)+1 {
		t.Fatalf("java %s batch: %d outputs for %d commands:\n%s", class, len(parts)-1, len(commands), out)
	}
	for i := range commands {
		parts[i] = strings.TrimSuffix(parts[i], "--\n")
	}
	return parts[:len(commands)]
}

// repoRoot finds the directory holding go.mod, from the working directory
// up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
