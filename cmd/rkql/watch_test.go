package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// \watch 1 on a count in the REPL, on a terminal, while a second rkql
// process imports batches into the same HBase table: each batch's rows
// show in a later run (the count grows), and Ctrl-C ends the watch and
// brings the prompt back for the next statement. Each batch is imported
// only once the watch showed the previous one: the test waits for what
// is drawn, never for a time.
func TestWatchCountDuringImport(t *testing.T) {
	q := hbasetest.Quorum(t)
	name := hbasetest.TableName("watch_import_rows")
	cat := writeFile(t, "catalog.yaml", `tables:
  - name: rows
    hbase: `+name+`
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {field: k}
`)
	flags := []string{"--zk", q, "--allow-writes", "--catalog", cat}
	dropAtEnd(t, q, []string{name})
	rkqlOK(t, append(flags, "-e", "CREATE TABLE rows")...)

	const batches, each = 3, 50
	dir := t.TempDir()
	batch := func(b int) string {
		var sb strings.Builder
		for i := range each {
			fmt.Fprintf(&sb, `{"k":"b%d-%03d","v":"x"}`+"\n", b, i)
		}
		p := filepath.Join(dir, fmt.Sprintf("batch%d.jsonl", b))
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	p := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm", "NO_COLOR=1"}, flags...)
	p.waitFor(0, `rkql> `)
	p.press("SELECT COUNT(*) AS n FROM rows ALLOW FULL SCAN;\r", `\(1 row\)\n\n[\s\S]*rkql> $`)
	from := p.mark()
	p.press(`\watch 1`+"\r", `\(every 1s\)\n\n +n\n-+\n +0\n\(1 row\)`)
	counts := regexp.MustCompile(`\(every 1s\)\r?\n\r?\n +n\r?\n-+\r?\n +(\d+)\r?\n\(1 row\)`)
	for b := 1; b <= batches; b++ {
		out := rkqlOK(t, append(append([]string{"import"}, flags...), "--table", "rows", batch(b))...)
		if !strings.Contains(out, fmt.Sprintf("imported %d rows", each)) {
			t.Fatalf("rkql import of batch %d: %s", b, out)
		}
		p.waitFor(from, fmt.Sprintf(`\(every 1s\)\n\n +n\n-+\n +%d\n\(1 row\)`, b*each))
	}
	prev, grew := -1, 0
	for _, m := range counts.FindAllStringSubmatch(p.screen(from), -1) {
		n, _ := strconv.Atoi(m[1])
		if n < prev {
			t.Fatalf("the count fell from %d to %d:\n%s", prev, n, p.screen(from))
		}
		if n > prev && prev >= 0 {
			grew++
		}
		prev = n
	}
	if grew < batches {
		t.Fatalf("the count grew %d times, want %d:\n%s", grew, batches, p.screen(from))
	}

	p.press(keyCtrlC, `rkql> $`)
	stopped := p.mark()
	p.press("SELECT COUNT(*) AS total FROM rows ALLOW FULL SCAN;\r", fmt.Sprintf(` total\n-+\n +%d\n\(1 row\)\n\n[\s\S]*rkql> $`, batches*each))
	if strings.Contains(p.screen(stopped), "every 1s") {
		t.Fatalf("the watch ran on after Ctrl-C:\n%s", p.screen(stopped))
	}
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
}
