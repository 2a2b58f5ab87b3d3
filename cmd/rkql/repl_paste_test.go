package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

const keyCtrlR = "\x12"

// A block pasted at the prompt, written to the terminal at once, runs
// each statement as its line end arrives, with no second Enter; an
// unfinished statement at its end stays in the editor, its second line
// behind rkql's continuation prompt. Up then recalls whole statements,
// one per key, and Ctrl-R finds an earlier statement by the text typed.
func TestREPLPaste(t *testing.T) {
	store := t.TempDir()
	if r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "-e",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+
			"('s1', 'b1', 1, '2024-05-01 12:00:00', 10.5, 'new'), ('s1', 'b2', 2, '2024-05-01 13:00:00', 3, 'paid'), "+
			"('s2', 'b1', 3, '2024-05-02 09:30:00', 99.99, 'new');"); r.code != 0 {
		t.Fatalf("loading rows: %+v", r)
	}
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"}
	p := startPty(t, env, "--store", store, "--catalog", fixedCatalog, "--history", filepath.Join(t.TempDir(), "history"))
	p.waitFor(0, `rkql> `)

	from := p.mark()
	p.press("SELECT order_id FROM orders WHERE seller = 's1';\r"+
		"SELECT count(*) FROM orders WHERE seller = 's2';\r"+
		"SELECT buyer\rFROM orders WHERE seller = 's2'",
		`rkql> SELECT buyer\n   -> FROM orders WHERE seller = 's2'$`)
	p.waitFor(from, `order_id\n-+\n +2\n +1\n\(2 rows\)\n\n[\s\S]*rkql> SELECT count\(\*\) FROM orders WHERE seller = 's2';\n count\n-+\n +1\n\(1 row\)\n\n[\s\S]*rkql> SELECT buyer`)

	p.press(";", `'s2';$`)
	p.press("\r", ` buyer\n-+\n b1\n\(1 row\)\n\nrkql> $`)

	p.press(keyUp, regexp.QuoteMeta("rkql> SELECT buyer\n   -> FROM orders WHERE seller = 's2';")+`$`)
	p.press(keyUp, regexp.QuoteMeta("rkql> SELECT count(*) FROM orders WHERE seller = 's2';")+`$`)
	p.press(keyCtrlC, `rkql> $`)

	p.typeLine("rkql> ", "ORDER_ID")
	p.press(keyCtrlR, regexp.QuoteMeta("rkql> SELECT order_id FROM orders WHERE seller = 's1';")+`$`)
	p.press("\r", ` +2\n +1\n\(2 rows\)\n\nrkql> $`)

	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
}
