package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const keyCtrlR = "\x12"

// A block pasted at the prompt, written to the terminal at once, runs
// each statement as its line end arrives, with no second Enter; an
// unfinished statement at its end stays in the editor, its second line
// behind rkql's continuation prompt. Up then recalls whole statements,
// one per key, and Ctrl-R finds an earlier statement by the text typed.
func TestREPLPaste(t *testing.T) {
	store := threeOrders(t)
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

// psql's meta-commands on a real terminal: \x, \h SELECT, \o, \i, \e with
// EDITOR set to a script, and the pager for a result taller than the
// terminal. The terminal's modes after exit equal a new terminal's.
func TestREPLMetaCommands(t *testing.T) {
	store := t.TempDir()
	values := make([]string, 60)
	for i := range values {
		values[i] = fmt.Sprintf("('s1', 'b%d', %d, '2024-05-01 12:00:00', %d, 'new')", i, i, i)
	}
	if r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "-e",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+strings.Join(values, ", ")+
			", ('s2', 'b1', 100, '2024-05-02 09:30:00', 99.99, 'new');"); r.code != 0 {
		t.Fatalf("loading rows: %+v", r)
	}
	dir := t.TempDir()
	editor := filepath.Join(dir, "edit")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/s2/s1/' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "count.sql")
	if err := os.WriteFile(script, []byte("SELECT count(*) FROM orders WHERE seller = 's1';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paged := filepath.Join(dir, "paged")
	// Once the pager has the whole result, the REPL holds no lock on the
	// store while the user reads it: flock -n takes the lock at once.
	lock := filepath.Join(dir, "lock")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1", "EDITOR=" + editor,
		"PAGER=cat > " + paged + "; if flock -n -x " + filepath.Join(store, "rkql.db") + " true; then echo free > " + lock +
			"; else echo held > " + lock + "; fi; echo PAGER-DONE"}
	p := startPty(t, env, "--store", store, "--catalog", fixedCatalog)
	p.waitFor(0, `rkql> `)

	p.typeLine("rkql> ", `\x`)
	p.press("\r", `Expanded display is on\.\n[\s\S]*rkql> $`)
	p.press("SELECT seller, order_id FROM orders WHERE seller = 's2';\r", `-\[ RECORD 1 \]-*\+-+\nseller +\| s2\norder_id +\| 100\n\n[\s\S]*rkql> $`)
	p.press(`\x off`+"\r", `Expanded display is off\.\n[\s\S]*rkql> $`)

	p.press(`\h SELECT`+"\r", `Statement: SELECT\n[\s\S]*Syntax:\nSELECT \[DISTINCT\] \* \[, expr[\s\S]*rkql> $`)

	// \e runs what the editor saved: the last statement with s1 for s2.
	p.press("SELECT count(*) FROM orders WHERE seller = 's2';\r", ` count\n-+\n +1\n[\s\S]*rkql> $`)
	p.press(`\e`+"\r", `SELECT count\(\*\) FROM orders WHERE seller = 's1';\n count\n-+\n +60\n\(1 row\)\n\n[\s\S]*rkql> $`)
	// The edited statement is in the history.
	p.press(keyUp, regexp.QuoteMeta("rkql> SELECT count(*) FROM orders WHERE seller = 's1';")+`$`)
	p.press(keyCtrlC, `rkql> $`)

	out := filepath.Join(dir, "out.txt")
	p.press(`\o `+out+"\r", `rkql> $`)
	p.press(`\i `+script+"\r", `rkql> $`)
	p.press(`\o`+"\r", `rkql> $`)
	if b, err := os.ReadFile(out); err != nil || string(b) != " count\n-------\n    60\n(1 row)\n\n" {
		t.Errorf("\\o file holds %q (%v)", b, err)
	}

	// 60 rows do not fit in 40 lines: the pager gets them all.
	p.press("SELECT buyer FROM orders WHERE seller = 's1';\r", `PAGER-DONE\n[\s\S]*rkql> $`)
	if b, err := os.ReadFile(paged); err != nil || !strings.HasSuffix(string(b), " b59\n(60 rows)\n\n") || strings.Count(string(b), "\n") != 64 {
		t.Errorf("the pager got %q (%v)", b, err)
	}
	if b, err := os.ReadFile(lock); err != nil || string(b) != "free\n" {
		t.Errorf("while the pager ran, the store's lock was %q (%v), want free (flock(1) must be installed)", b, err)
	}
	// A short result is written as it is.
	p.press(`\pset pager off`+"\r", `Pager is off\.\n[\s\S]*rkql> $`)

	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	p.checkModesRestored()
}
