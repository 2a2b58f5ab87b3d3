package hbasetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CompileMaven compiles the Java sources of the Maven project in dir (a
// path from the repository root: its src/main/java) against the classpath
// Maven resolves for its pom.xml, with src/main/resources on the
// classpath. The classpath and Maven's downloads are kept under
// .cache/NAME at the repository root, NAME being dir's last element, and
// resolved again when the pom is newer. It skips the test when java,
// javac or mvn is missing or Maven cannot resolve the pom, and fails it
// then when $RKQL_REQUIRE_HBASE=1.
func CompileMaven(t testing.TB, dir string) *Java {
	t.Helper()
	for _, tool := range []string{"java", "javac", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			noJava(t, "%s is not on PATH", tool)
		}
	}
	root, err := repoRoot()
	if err != nil {
		noJava(t, "%v", err)
	}
	proj := filepath.Join(root, dir)
	cache := filepath.Join(root, ".cache", filepath.Base(dir))
	cpFile := filepath.Join(cache, "classpath.txt")
	pom, err := os.Stat(filepath.Join(proj, "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if cp, err := os.Stat(cpFile); err != nil || cp.ModTime().Before(pom.ModTime()) {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			t.Fatal(err)
		}
		tmp := cpFile + ".tmp"
		cmd := exec.Command("mvn", "-q", "-B", "-Dmaven.repo.local="+filepath.Join(cache, "m2"),
			"dependency:build-classpath", "-Dmdep.outputFile="+tmp)
		cmd.Dir = proj
		if out, err := cmd.CombinedOutput(); err != nil {
			noJava(t, "maven could not resolve %s/pom.xml: %v\n%s", dir, err, out)
		}
		if err := os.Rename(tmp, cpFile); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(proj, "src", "main", "java", "*.java"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no Java sources in %s/src/main/java: %v", dir, err)
	}
	j := &Java{classpath: filepath.Join(proj, "src", "main", "resources") + string(os.PathListSeparator) + strings.TrimSpace(string(cp)), dir: t.TempDir()}
	args := append([]string{"-d", j.dir, "-cp", j.classpath}, sources...)
	if out, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		t.Fatalf("javac %v: %v\n%s", sources, err, out)
	}
	return j
}

// RunInput is Run with in as the program's standard input.
func (j *Java) RunInput(t testing.TB, in string, class string, args ...string) string {
	t.Helper()
	cmd := exec.Command("java", append([]string{"-cp", j.dir + string(os.PathListSeparator) + j.classpath, class}, args...)...)
	cmd.Stdin = strings.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java %s %v: %v\n%s", class, args, err, stderr.String())
	}
	return string(out)
}
