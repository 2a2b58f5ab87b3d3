package shell

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// Control characters that would act on a terminal are shown escaped in
// the formats a person reads (table, markdown, tsv); csv and json, which
// programs read, keep every byte as it was.
func TestControlCharactersEscaped(t *testing.T) {
	// ESC [2J clears the screen; BEL rings; CR returns; U+202E reverses
	// what follows; U+0085 is a C1 control; \xff is not UTF-8.
	v := "a\x1b[2J\a\rb\u202Ec\u0085d\x7f\te\nf\xffg\u2066h"
	cols := []column{{Name: "s\x1b]0;x\a", Type: catalog.TypeString}}
	rows := []catalog.Row{{catalog.String(v)}}
	const esc = `a\x1B[2J\x07\rb\u202Ec\u0085d\x7F\te`
	tests := []formatCase{
		{FormatTable, ` s\x1B]0;x\x07` + "\n" + strings.Repeat("-", len(esc)+2) + "\n" +
			" " + esc + "\n" + ` f\xFFg\u2066h` + "\n"},
		{FormatMarkdown, "| s\\x1B]0;x\\x07 |\n| --- |\n| " + `a\x1B[2J\x07<br>b\u202Ec\u0085d\x7F\te<br>f\xFFg\u2066h` + " |\n"},
		{FormatTSV, "s\\x1B]0;x\\x07\n" + esc + `\nf` + "\xffg" + `\u2066h` + "\n"},
		{FormatCSV, "s\x1b]0;x\a\n\"" + v + "\"\n"},
		{FormatJSONL, `{"s\u001b]0;x\u0007":"a\u001b[2J\u0007\rb` + "\u202e" + `c` + "\u0085" + `d` + "\x7f" + `\te\nf\ufffdg` + "\u2066" + `h"}` + "\n"},
	}
	checkFormats(t, cols, rows, tests)
}

// Text without control characters is returned as it is, and so is a
// backslash, but in tsv, where it is doubled so that \N and \t read back.
func TestCtlEscapePlainText(t *testing.T) {
	for _, s := range []string{"", "plain", "käse – ok", `back\slash \x00`} {
		for _, e := range []ctlEscape{tableEscape, markdownEscape, tsvEscape} {
			want := s
			if e.backslash {
				want = strings.ReplaceAll(s, `\`, `\\`)
			}
			if got := e.String(s); got != want {
				t.Errorf("%+v.String(%q) = %q, want %q", e, s, got, want)
			}
		}
	}
}

// EXPLAIN's text shows a literal's control characters escaped, in a form
// that is also valid inside its JSON.
func TestExplainTextEscaped(t *testing.T) {
	for _, q := range []string{
		"EXPLAIN SELECT * FROM t WHERE k = 'a\x1b[2Jb\x7f\u202e';",
		"EXPLAIN (FORMAT JSON) SELECT * FROM t WHERE k = 'a\x1b[2Jb\x7f\u202e';",
	} {
		s := importSession(t)
		s.set.Format = FormatTable
		in := &lines{in: []string{q}}
		_ = s.Run(context.Background(), in)
		out := in.out.String()
		if strings.ContainsAny(out, "\x1b\x7f\u202e") || !strings.Contains(strings.ToUpper(out), `A\U001B[2JB\U007F\U202E`) {
			t.Errorf("%s printed %q", q, out)
		}
		if strings.Contains(q, "JSON") && !json.Valid([]byte(out)) {
			t.Errorf("%s printed JSON that is not valid: %q", q, out)
		}
	}
}
