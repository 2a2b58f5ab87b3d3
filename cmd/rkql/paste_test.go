package main

import (
	"regexp"
	"strings"
	"testing"
)

// The line editor turns the terminal's bracketed paste mode on while it
// edits, and off while a statement runs and at exit. A bracketed paste of
// two statements runs both at once, and the terminal's modes after exit
// equal a new terminal's.
func TestREPLBracketedPaste(t *testing.T) {
	store := t.TempDir()
	if r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "-e",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+
			"('s1', 'b1', 1, '2024-05-01 12:00:00', 10.5, 'new'), ('s2', 'b1', 3, '2024-05-02 09:30:00', 99.99, 'new');"); r.code != 0 {
		t.Fatalf("loading rows: %+v", r)
	}
	p := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"}, "--store", store, "--catalog", fixedCatalog)
	p.waitFor(0, `rkql> `)
	raw := func() string {
		p.mu.Lock()
		defer p.mu.Unlock()
		return string(p.mu.out)
	}
	if s := raw(); strings.LastIndex(s, "\x1b[?2004h") < strings.LastIndex(s, "\x1b[?2004l") || !strings.Contains(s, "\x1b[?2004h") {
		t.Fatalf("bracketed paste is not on at the prompt: %q", s)
	}
	from := p.mark()
	p.press("\x1b[200~SELECT order_id FROM orders WHERE seller = 's1';\rSELECT order_id FROM orders WHERE seller = 's2';\r\x1b[201~",
		`order_id\n-+\n +1\n\(1 row\)\n\n[\s\S]*rkql> SELECT order_id FROM orders WHERE seller = 's2';\n order_id\n-+\n +3\n\(1 row\)\n\nrkql> $`)
	if s := p.screen(from); strings.Contains(s, "200~") || strings.Contains(s, "201~") {
		t.Errorf("paste marks reached the screen:\n%q", s)
	}
	// Off while each statement ran, on again at each prompt.
	if n := strings.Count(raw()[from:], "\x1b[?2004l"); n != 2 {
		t.Errorf("bracketed paste turned off %d times for two statements, want 2", n)
	}

	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	// Wait for the last of what rkql wrote to come through the terminal.
	p.drained(regexp.MustCompile(`a^`), 0)
	if s := raw(); !strings.HasSuffix(s[:strings.LastIndex(s, "\x1b[?2004")+8], "\x1b[?2004l") {
		t.Errorf("bracketed paste is left on after exit: %q", s[max(0, len(s)-200):])
	}
	p.checkModesRestored()
}
