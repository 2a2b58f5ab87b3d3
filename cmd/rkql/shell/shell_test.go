package shell

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

func TestAppendJSONValue(t *testing.T) {
	ts := time.Date(2024, 5, 1, 12, 0, 0, 7_000_000, time.UTC)
	tests := []struct {
		v    catalog.Value
		want string
	}{
		{catalog.Null(catalog.TypeString), `null`},
		{catalog.String(`a"b\c` + "\n\x01<&>\u2028"), `"a\"b\\c\n\u0001<&>\u2028"`},
		{catalog.String("bad \xff utf8"), `"bad \ufffd utf8"`},
		{catalog.Bigint(math.MinInt64), `-9223372036854775808`},
		{catalog.Int(-7), `-7`},
		{catalog.Double(0.1), `0.1`},
		{catalog.Double(1e21), `1e+21`},
		{catalog.Double(math.NaN()), `"NaN"`},
		{catalog.Double(math.Inf(-1)), `"-Infinity"`},
		{catalog.Bool(true), `true`},
		{catalog.Bool(false), `false`},
		{catalog.Timestamp(ts), `"2024-05-01T12:00:00.007Z"`},
		{catalog.TimestampMillis(-1), `"1969-12-31T23:59:59.999Z"`},
		{catalog.DateFromYMD(2024, 2, 29), `"2024-02-29"`},
		{catalog.Bytes([]byte{0, 'A', '\\', 0xff}), `"\\x00A\\x5C\\xFF"`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := string(appendJSONValue(nil, tc.v)); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// writeRows runs rows through the writer of a format.
func writeRows(t *testing.T, w rowWriter, cols []column, rows []catalog.Row) {
	t.Helper()
	if err := w.begin(cols); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.end(int64(len(rows))); err != nil {
		t.Fatal(err)
	}
}

func TestTextWriters(t *testing.T) {
	cols := []column{{Name: "s", Type: catalog.TypeString}, {Name: "n", Type: catalog.TypeBigint}}
	rows := []catalog.Row{
		{catalog.String("a\tb|c\nd,\"e\""), catalog.Bigint(1)},
		{catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeBigint)},
	}
	tests := []formatCase{
		{FormatCSV, "s,n\n\"a\tb|c\nd,\"\"e\"\"\",1\n,\n"},
		{FormatTSV, "s\tn\na\\tb|c\\nd,\"e\"\t1\n\\N\t\\N\n"},
		{FormatJSONL, "{\"s\":\"a\\tb|c\\nd,\\\"e\\\"\",\"n\":1}\n{\"s\":null,\"n\":null}\n"},
		{FormatJSON, "[\n{\"s\":\"a\\tb|c\\nd,\\\"e\\\"\",\"n\":1},\n{\"s\":null,\"n\":null}\n]\n"},
		{FormatMarkdown, "| s | n |\n| --- | ---: |\n| a\\tb\\|c<br>d,\"e\" | 1 |\n| NULL | NULL |\n"},
	}
	checkFormats(t, cols, rows, tests)
}

// formatCase is rows written in format f, and the text they must give.
type formatCase struct {
	f    Format
	want string
}

// checkFormats writes cols and rows in each case's format.
func checkFormats(t *testing.T, cols []column, rows []catalog.Row, cases []formatCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.f.String(), func(t *testing.T) {
			var b bytes.Buffer
			writeRows(t, newRowWriter(tc.f, &b, false), cols, rows)
			if b.String() != tc.want {
				t.Fatalf("got:\n%q\nwant:\n%q", b.String(), tc.want)
			}
		})
	}
}

// A table holds at most chunk rows: the rows after them start a new table.
func TestTableChunks(t *testing.T) {
	cols := []column{{Name: "n", Type: catalog.TypeBigint}}
	var rows []catalog.Row
	for i := range 5 {
		rows = append(rows, catalog.Row{catalog.Bigint(int64(i * 5))})
	}
	var b bytes.Buffer
	writeRows(t, &tableWriter{w: &b, footer: true, chunk: 2}, cols, rows)
	want := " n\n---\n 0\n 5\n" + " n\n----\n 10\n 15\n" + " n\n----\n 20\n" + "(5 rows)\n\n"
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestParseMeta(t *testing.T) {
	tests := []struct {
		line string
		kind intentKind
		sql  string
		err  string
	}{
		{`\q`, intentQuit, "", ""},
		{`  quit ;`, intentQuit, "", ""},
		{`EXIT`, intentQuit, "", ""},
		{`\?`, intentHelp, "", ""},
		{`\d`, intentExec, "SHOW TABLES;", ""},
		{`\d orders;`, intentExec, "DESCRIBE orders;", ""},
		{`\d orders ;`, intentExec, "DESCRIBE orders;", ""},
		{`\d a b`, 0, "", `\d takes at most one table name`},
		{`\timing on`, intentSet, "", ""},
		{`\format JSON`, intentSet, "", ""},
		{`\format`, 0, "", `\format takes one of table|csv|tsv|json|jsonl|markdown`},
		{`\q now`, 0, "", `\q takes no arguments`},
		{`\nope`, 0, "", `unknown command \nope (\? lists the commands)`},
		{`help`, intentHelp, "", ""},
		{`\x auto`, intentSet, "", ""},
		{`\x wide`, 0, "", `\x takes on, off or auto, not "wide"`},
		{`\d+ orders`, intentExec, "DESCRIBE orders; SHOW REGIONS orders;", ""},
		{`\d ns:raw`, intentExec, `DESCRIBE "ns:raw";`, ""},
		{`\d "ns:raw"`, intentExec, `DESCRIBE "ns:raw";`, ""},
		{`\d+ ns:raw`, intentExec, `DESCRIBE "ns:raw";`, ""},
		{`\i`, 0, "", `\i takes a file name`},
		{`\o`, intentOutput, "", ""},
		{`\e`, intentEdit, "", ""},
		{`\h select`, intentPrint, "", ""},
		{`\h nope`, 0, "", `no help for nope (statements: ADVISE, ALTER, BALANCER, BUILD, CHECK, CLONE, COMPACT, CREATE, DECODE, DELETE, DESCRIBE, DROP, ENCODE, EXPLAIN, FLUSH, INFER, INSERT, LINT, MAJOR, MERGE, RESTORE, SELECT, SHOW, SIMULATE, SNAPSHOT, SPLIT, TRUNCATE, UPDATE, UPSERT)`},
		{`\set 9x 1`, intentVar, "", ""},
		{`\set a-b 1`, 0, "", `invalid variable name "a-b": use letters, digits and _`},
		{`\pset pager off`, intentSet, "", ""},
		{`\conninfo`, intentConnInfo, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			if !isMeta(tc.line) {
				t.Fatalf("isMeta(%q) is false", tc.line)
			}
			it, err := parseMeta(tc.line, nil)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || it.kind != tc.kind || it.sql != tc.sql {
				t.Fatalf("got %+v, %v; want kind %d sql %q", it, err, tc.kind, tc.sql)
			}
		})
	}
	for _, l := range []string{"SELECT 1;", "quitting;", "-- \\d"} {
		if isMeta(l) {
			t.Errorf("isMeta(%q) is true", l)
		}
	}
}

// lines is an IO over fixed lines that records everything written.
type lines struct {
	in  []string
	out bytes.Buffer
}

func (l *lines) ReadLine(string) (string, error) {
	if len(l.in) == 0 {
		return "", io.EOF
	}
	s := l.in[0]
	l.in = l.in[1:]
	return s, nil
}
func (l *lines) Stdout() io.Writer { return &l.out }
func (l *lines) Stderr() io.Writer { return &l.out }
func (l *lines) Interactive() bool { return false }

func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse([]byte(`
tables:
  - name: t
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {field: k}
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runFailing runs the lines of input (from the file name, "" for none)
// in s, which must fail, and returns what s wrote.
func runFailing(t *testing.T, s *Session, name string, input ...string) string {
	t.Helper()
	in := &lines{in: input}
	if err := s.RunNamed(context.Background(), in, name); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	return in.out.String()
}

// Statements are split at each ';' outside strings and comments; every
// statement runs even after one fails, and the error names its line.
func TestRunSplitsStatements(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV}})
	out := runFailing(t, s, "x.sql",
		"ENCODE KEY t (k = 'a;b'); -- a comment; with a semicolon",
		"ENCODE KEY t (k = /* ; */ 'c');",
		"ENCODE KEY t (nope = 'x'); ENCODE KEY t (k = 'd')",
	)
	got := strings.Split(out, "\n")
	// A blank line separates result sets.
	want := []string{"key\thex", "a;b\t613b62", "", "key\thex", "c\t63", "rkql: x.sql:3:15: ", "", "key\thex", "d\t64", ""}
	if len(got) != len(want) {
		t.Fatalf("got:\n%s", out)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || (i != 5 && got[i] != want[i]) {
			t.Fatalf("line %d is %q, want %q\n%s", i+1, got[i], want[i], out)
		}
	}
}

// Malformed text fails its own statement only: the split goes on at the
// next ';', and a ';' in an open string is no split.
func TestRunSplitsAfterBadText(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV}})
	out := runFailing(t, s, "x.sql",
		"ENCODE KEY t (k = 'a') ! é; ENCODE KEY t (k = 1x);ENCODE KEY t (k = 'b');",
		"ENCODE KEY t (k = 'c;",
	)
	want := "rkql: x.sql:1:24: unexpected character '!', expected !=\n" +
		"rkql: x.sql:1:47: invalid number literal 1x\n" +
		"key\thex\nb\t62\n" +
		"rkql: x.sql:2:19: unterminated string literal\n"
	if got := out; got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A panic inside a statement becomes one line, and the session goes on.
func TestPanicIsOneLine(t *testing.T) {
	open := engine.OpenWith(func(context.Context) (*embedded.Store, error) { panic("broken invariant") })
	s := New(Config{Catalog: testCatalog(t), Open: open, Settings: Settings{Format: FormatTSV}})
	out := runFailing(t, s, "", "SHOW TABLES;", "ENCODE KEY t (k = 'a');")
	if want := "rkql: internal error: broken invariant\nkey\thex\na\t61\n"; out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

// The timeout ends one statement; the next runs under a new one.
func TestTimeoutPerStatement(t *testing.T) {
	calls := 0
	open := engine.OpenWith(func(ctx context.Context) (*embedded.Store, error) {
		calls++
		if calls == 1 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("store %d is down", calls)
	})
	s := New(Config{Catalog: testCatalog(t), Open: open, Settings: Settings{Format: FormatTSV, Timeout: 20 * time.Millisecond}})
	out := runFailing(t, s, "", "SHOW TABLES;", "SHOW TABLES;")
	if want := "rkql: statement timed out after 20ms (the --timeout limit; 0 turns it off)\nrkql: store 2 is down\n"; out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

// The CSV writer writes what encoding/csv writes for the cells' text, but
// "" for an empty string, which differs from NULL's empty field; the TSV
// writer writes what its escaper makes of the text, and \N for NULL.
func TestCSVAndTSVRows(t *testing.T) {
	strs := []string{"", "a", "a,b", `say "hi"`, "two\nlines", "cr\rlf", " lead", "\tlead", `\.`, `\`, "é", "\u00a0nbsp", "trail "}
	cols := []column{{Name: "s", Type: catalog.TypeString}, {Name: "n", Type: catalog.TypeBigint}, {Name: "f", Type: catalog.TypeDouble},
		{Name: "ts", Type: catalog.TypeTimestamp}, {Name: "b", Type: catalog.TypeBoolean}, {Name: "d", Type: catalog.TypeDate}, {Name: "x", Type: catalog.TypeBytes}}
	var rows []catalog.Row
	for i, s := range strs {
		rows = append(rows, catalog.Row{catalog.String(s), catalog.Bigint(int64(i*7919 - 20000)),
			catalog.Double(float64(i) / 3), catalog.TimestampMillis(int64(i) * 86_400_123),
			catalog.Bool(i%2 == 0), catalog.DateDays(int64(i * 400)), catalog.Bytes([]byte(s + "\x00,"))})
	}
	rows = append(rows, catalog.Row{catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeBigint),
		catalog.Double(math.NaN()), catalog.Null(catalog.TypeTimestamp), catalog.Null(catalog.TypeBoolean),
		catalog.Null(catalog.TypeDate), catalog.Null(catalog.TypeBytes)})
	var want bytes.Buffer
	cw := csv.NewWriter(&want)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Name
	}
	_ = cw.Write(rec)
	const empty = "\x01empty\x01"
	for _, r := range rows {
		for i, v := range r {
			rec[i] = cellText(v, "")
			if !v.Null && rec[i] == "" {
				rec[i] = empty
			}
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	wantCSV := strings.ReplaceAll(want.String(), empty, `""`)
	want.Reset()
	want.WriteString(wantCSV)
	var got bytes.Buffer
	writeRows(t, &csvWriter{w: &got}, cols, rows)
	if got.String() != want.String() {
		t.Errorf("csv:\n%s\nwant:\n%s", got.String(), want.String())
	}
	// TSV rows: what line writes for the cells' text, and \N for NULL.
	var wantTSV, gotTSV bytes.Buffer
	lw, rw := &tsvWriter{w: &wantTSV}, &tsvWriter{w: &gotTSV}
	const null = "\x01null\x01"
	for _, r := range rows {
		for i, v := range r {
			rec[i] = cellText(v, null)
		}
		if err := lw.line(rec); err != nil {
			t.Fatal(err)
		}
		if err := rw.row(r); err != nil {
			t.Fatal(err)
		}
	}
	if want := strings.ReplaceAll(wantTSV.String(), tsvEscape.String(null), `\N`); gotTSV.String() != want {
		t.Errorf("tsv:\n%q\nwant:\n%q", gotTSV.String(), want)
	}
}

// \h knows every statement the grammar starts with a keyword.
func TestSyntaxHelpCoversStatements(t *testing.T) {
	for _, k := range parser.Keywords() {
		if !k.Starter {
			continue
		}
		it, err := syntaxCmd(metaCall{args: []string{strings.ToLower(k.Word)}})
		if err != nil || !strings.Contains(it.text, "Syntax:") {
			t.Errorf(`\h %s: %v %q`, k.Word, err, it.text)
		}
	}
}
