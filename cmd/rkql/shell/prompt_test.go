package shell

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	prompt "github.com/elk-language/go-prompt"
	"github.com/google/go-cmp/cmp"
	"github.com/pkg/term/termios"
)

func TestEnterRuns(t *testing.T) {
	tests := []struct {
		text string
		runs bool
	}{
		{"", true},
		{"   ", true},
		{"\n  ", true},
		{"SELECT * FROM t", false},
		{"SELECT * FROM t;", true},
		{"SELECT *\n  FROM t\n  WHERE k = 'a';", true},
		{"SELECT *\n  FROM t;  \n", true},
		{"SELECT * FROM t; -- done", true},
		{"SELECT * FROM t WHERE k = 'a;", false},
		{"SELECT * FROM t WHERE k = 'a;'", false},
		{"SELECT * FROM t /* ; */", false},
		{"SELECT 1; SELECT 2", false},
		{`\d`, true},
		{`  \d t`, true},
		{"\\d\nSELECT", true},
		{"quit", true},
		{"EXIT;", true},
		{"quitter", false},
		{"SELECT 1\n\\d", false},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			if got := enterRuns(tc.text); got != tc.runs {
				t.Fatalf("enterRuns(%q) = %t, want %t", tc.text, got, tc.runs)
			}
		})
	}
}

func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "rkql", "history")
	var warnings []error
	warn := func(err error) { warnings = append(warnings, err) }

	h := openHistory(path, 3, warn)
	for _, s := range []string{"SELECT 1;", "SELECT 1;", "SELECT *\n  FROM t\n  WHERE k = 'a\\b';\n", `\d t`, "  ", "SELECT 2;  "} {
		h.Add(s)
		h.save()
	}
	want := []string{"SELECT *\n  FROM t\n  WHERE k = 'a\\b';", `\d t`, "SELECT 2;"}
	if diff := cmp.Diff(want, h.Entries()); diff != "" {
		t.Errorf("entries in memory (-want +got):\n%s", diff)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantFile := "SELECT 1;\nSELECT *\\n  FROM t\\n  WHERE k = 'a\\\\b';\n\\\\d t\nSELECT 2;\n"
	if string(raw) != wantFile {
		t.Errorf("file is\n%q, want\n%q", raw, wantFile)
	}

	// The next session reads the newest entries and cuts the file back.
	h2 := openHistory(path, 3, warn)
	if diff := cmp.Diff(want, h2.Entries()); diff != "" {
		t.Errorf("entries read back (-want +got):\n%s", diff)
	}
	raw, _ = os.ReadFile(path)
	if n := strings.Count(string(raw), "\n"); n != 3 {
		t.Errorf("file has %d lines after opening, want 3:\n%s", n, raw)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v (%v), want 0600", fi.Mode(), err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
}

// A history file that cannot be created is never written and gives one
// warning, however many statements follow.
func TestHistoryFileUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "state")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var warnings []error
	h := openHistory(filepath.Join(blocker, "rkql", "history"), 0, func(err error) { warnings = append(warnings, err) })
	for i := 0; i < 3; i++ {
		h.Add("SELECT 1;")
		h.Add("SELECT 2;")
		h.save()
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0].Error(), "history is not saved: ") {
		t.Fatalf("warnings %v, want one", warnings)
	}
	if got := len(h.Entries()); got != 6 {
		t.Errorf("%d entries in memory, want 6", got)
	}
	if _, err := os.Stat(filepath.Join(blocker, "rkql")); err == nil {
		t.Errorf("a directory was created under %s", blocker)
	}
}

// Up and Down walk the entries; edits made while browsing stay until the
// history is cleared (Enter or Ctrl-C).
func TestHistoryBrowse(t *testing.T) {
	h := openHistory("", 0, nil)
	h.Add("SELECT 1;")
	h.Add("SELECT\n  2;")
	buf := prompt.NewBuffer()
	buf.InsertTextMoveCursor("typing", 80, 24, false)
	steps := []struct {
		older bool
		want  string
		moved bool
	}{
		{true, "SELECT\n  2;", true},
		{true, "SELECT 1;", true},
		{true, "SELECT 1;", false},
		{false, "SELECT\n  2;", true},
		{false, "typing", true},
		{false, "typing", false},
	}
	for i, st := range steps {
		var moved bool
		if st.older {
			buf, moved = h.Older(buf, 80, 24)
		} else {
			buf, moved = h.Newer(buf, 80, 24)
		}
		if buf.Text() != st.want || moved != st.moved {
			t.Fatalf("step %d: %q moved=%t, want %q moved=%t", i, buf.Text(), moved, st.want, st.moved)
		}
	}
	h.Clear()
	if buf, _ = h.Older(prompt.NewBuffer(), 80, 24); buf.Text() != "SELECT\n  2;" {
		t.Fatalf("after Clear, Older gives %q", buf.Text())
	}
}

// Should the editor panic with the terminal raw, ReadLine puts the
// terminal's mode back, bracketed paste off, and returns an error.
func TestPromptIOPanicRestoresTerminal(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	mode, err := termios.Tcgetattr(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var drawn bytes.Buffer
	p := &PromptIO{out: &out, errw: &out, term: &drawn, tty: tty, mode: mode, hist: openHistory("", 0, nil)}
	p.input = func() string {
		raw := *mode
		termios.Cfmakeraw(&raw)
		if err := termios.Tcsetattr(tty.Fd(), termios.TCSANOW, &raw); err != nil {
			t.Fatal(err)
		}
		panic("index out of range")
	}
	text, err := p.ReadLine(PromptMain)
	if text != "" || err == nil || err.Error() != "line editor failed: index out of range" {
		t.Fatalf("ReadLine = %q, %v", text, err)
	}
	now, err := termios.Tcgetattr(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	if now.Lflag != mode.Lflag || now.Iflag != mode.Iflag {
		t.Fatalf("terminal mode %#x/%#x after the panic, want %#x/%#x", now.Lflag, now.Iflag, mode.Lflag, mode.Iflag)
	}
	if got := drawn.String(); got != "\x1b[?2004h\x1b[?2004l" {
		t.Fatalf("bracketed paste mode: drew %q, want it on and then off", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
