package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// --help goes to stdout with status 0 and names every word flag with two
// dashes, as docs/cli.md does, then examples, exit statuses and the
// environment; --version prints the version.
func TestHelpAndVersion(t *testing.T) {
	r := rkql(t, "", "--help")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("--help: %+v", r)
	}
	for _, want := range []string{"\n  --store DIR ", "\n  --catalog FILE ", "\n  --zk QUORUM ", "\n  -e STATEMENTS ", "\n  --version ",
		"\nExamples:\n", "\nExit status:\n  0 ", "\n  2  the command line is wrong\n", "\nEnvironment:\n", "XDG_DATA_HOME", "PAGER", "NO_COLOR"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--help lacks %q:\n%s", want, r.stdout)
		}
	}
	if m := regexp.MustCompile(`(?m)^  -[a-z][a-z-]+`).FindString(r.stdout); m != "" {
		t.Errorf("--help shows a word flag with one dash: %q", m)
	}
	r = rkql(t, "", "--version")
	if r.code != 0 || !regexp.MustCompile(`^rkql \S+\n$`).MatchString(r.stdout) {
		t.Fatalf("--version: %+v", r)
	}
}

// The REPL's banner names the version, the store and the catalog, says
// when the store is new and empty, and \conninfo says the same.
func TestBannerNamesStore(t *testing.T) {
	store := filepath.Join(t.TempDir(), "fresh")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"}
	p := startPty(t, env, "--store", store, "--catalog", fixedCatalog)
	abs, err := filepath.Abs(fixedCatalog)
	if err != nil {
		t.Fatal(err)
	}
	p.waitFor(0, `rkql \S+ on embedded store `+regexp.QuoteMeta(store)+`; catalog `+regexp.QuoteMeta(abs)+`\n`+
		`The store is new and empty: [^\n]*make demo[^\n]*\n[^\n]*statements end with ';'\n[\s\S]*rkql> `)
	p.typeLine("rkql> ", `\conninfo`)
	p.press("\r", `embedded store `+regexp.QuoteMeta(store)+`; catalog `+regexp.QuoteMeta(abs)+`; rkql \S+\n[\s\S]*rkql> `)
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// rkql completion writes scripts for bash, zsh and fish; the bash one
// completes flags, formats and subcommands.
func TestCompletionScripts(t *testing.T) {
	r := rkql(t, "", "completion", "bash")
	if r.code != 0 {
		t.Fatalf("completion bash: %+v", r)
	}
	script := writeFile(t, "rkql.bash", r.stdout)
	for _, tc := range []struct{ words, want string }{
		{"rkql --for", "--format"},
		{"rkql --format c", "csv"},
		{"rkql st", "store"},
		{"rkql store r", "repair"},
	} {
		words := strings.Fields(tc.words)
		cmd := exec.Command("bash", "-c", `source "$1"; COMP_WORDS=(${2}); COMP_CWORD=$3; _rkql; echo "${COMPREPLY[*]}"`,
			"bash", script, tc.words, fmt.Sprint(len(words)-1))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v: %s", err, out)
		}
		if strings.TrimSpace(string(out)) != tc.want {
			t.Errorf("completing %q gives %q, want %q", tc.words, strings.TrimSpace(string(out)), tc.want)
		}
	}
	if r := rkql(t, "", "completion", "fish"); r.code != 0 || !strings.Contains(r.stdout, "complete -c rkql -l store -r -F -d") {
		t.Errorf("completion fish: %+v", r)
	}
	if r := rkql(t, "", "completion", "zsh"); r.code != 0 || !strings.Contains(r.stdout, "bashcompinit") {
		t.Errorf("completion zsh: %+v", r)
	}
	if r := rkql(t, "", "completion", "tcsh"); r.code != 2 || !strings.Contains(r.stderr, "completion takes one of bash, zsh, fish") {
		t.Errorf("completion tcsh: %+v", r)
	}
}
