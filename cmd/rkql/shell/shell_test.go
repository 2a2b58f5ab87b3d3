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
	"github.com/rkql/rkql/exec"
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
	tests := []struct {
		f    Format
		want string
	}{
		{FormatCSV, "s,n\n\"a\tb|c\nd,\"\"e\"\"\",1\n,\n"},
		{FormatTSV, "s\tn\na\\tb|c\\nd,\"e\"\t1\n\\N\t\\N\n"},
		{FormatJSONL, "{\"s\":\"a\\tb|c\\nd,\\\"e\\\"\",\"n\":1}\n{\"s\":null,\"n\":null}\n"},
		{FormatJSON, "[\n{\"s\":\"a\\tb|c\\nd,\\\"e\\\"\",\"n\":1},\n{\"s\":null,\"n\":null}\n]\n"},
		{FormatMarkdown, "| s | n |\n| --- | ---: |\n| a\\tb\\|c<br>d,\"e\" | 1 |\n| NULL | NULL |\n"},
	}
	for _, tc := range tests {
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
		{`\i`, 0, "", `\i takes a file name`},
		{`\o`, intentOutput, "", ""},
		{`\e`, intentEdit, "", ""},
		{`\h select`, intentPrint, "", ""},
		{`\h nope`, 0, "", `no help for nope (statements: ADVISE, ALTER, BUILD, CHECK, CREATE, DECODE, DELETE, DESCRIBE, DROP, ENCODE, EXPLAIN, INFER, INSERT, LINT, SELECT, SHOW, SIMULATE, TRUNCATE, UPDATE, UPSERT)`},
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

// Statements are split at each ';' outside strings and comments; every
// statement runs even after one fails, and the error names its line.
func TestRunSplitsStatements(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV}})
	in := &lines{in: []string{
		"ENCODE KEY t (k = 'a;b'); -- a comment; with a semicolon",
		"ENCODE KEY t (k = /* ; */ 'c');",
		"ENCODE KEY t (nope = 'x'); ENCODE KEY t (k = 'd')",
	}}
	err := s.RunNamed(context.Background(), in, "x.sql")
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	got := strings.Split(in.out.String(), "\n")
	// A blank line separates result sets.
	want := []string{"key\thex", "a;b\t613b62", "", "key\thex", "c\t63", "rkql: x.sql:3:15: ", "", "key\thex", "d\t64", ""}
	if len(got) != len(want) {
		t.Fatalf("got:\n%s", in.out.String())
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || (i != 5 && got[i] != want[i]) {
			t.Fatalf("line %d is %q, want %q\n%s", i+1, got[i], want[i], in.out.String())
		}
	}
}

// Malformed text fails its own statement only: the split goes on at the
// next ';', and a ';' in an open string is no split.
func TestRunSplitsAfterBadText(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV}})
	in := &lines{in: []string{
		"ENCODE KEY t (k = 'a') ! é; ENCODE KEY t (k = 1x);ENCODE KEY t (k = 'b');",
		"ENCODE KEY t (k = 'c;",
	}}
	err := s.RunNamed(context.Background(), in, "x.sql")
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	want := "rkql: x.sql:1:24: unexpected character '!', expected !=\n" +
		"rkql: x.sql:1:47: invalid number literal 1x\n" +
		"key\thex\nb\t62\n" +
		"rkql: x.sql:2:19: unterminated string literal\n"
	if got := in.out.String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A panic inside a statement becomes one line, and the session goes on.
func TestPanicIsOneLine(t *testing.T) {
	open := func(context.Context) (exec.Store, error) { panic("broken invariant") }
	s := New(Config{Catalog: testCatalog(t), Open: open, Settings: Settings{Format: FormatTSV}})
	in := &lines{in: []string{"SHOW TABLES;", "ENCODE KEY t (k = 'a');"}}
	if err := s.Run(context.Background(), in); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	want := "rkql: internal error: broken invariant\nkey\thex\na\t61\n"
	if in.out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", in.out.String(), want)
	}
}

// The timeout ends one statement; the next runs under a new one.
func TestTimeoutPerStatement(t *testing.T) {
	calls := 0
	open := func(ctx context.Context) (exec.Store, error) {
		calls++
		if calls == 1 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("store %d is down", calls)
	}
	s := New(Config{Catalog: testCatalog(t), Open: open, Settings: Settings{Format: FormatTSV, Timeout: 20 * time.Millisecond}})
	in := &lines{in: []string{"SHOW TABLES;", "SHOW TABLES;"}}
	if err := s.Run(context.Background(), in); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	want := "rkql: statement timed out after 20ms (the --timeout limit; 0 turns it off)\nrkql: store 2 is down\n"
	if in.out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", in.out.String(), want)
	}
}

func TestConvertText(t *testing.T) {
	col := func(typ catalog.Type) *catalog.Column { return &catalog.Column{Name: "c", Type: typ} }
	tests := []struct {
		typ  catalog.Type
		in   string
		want string // Value.String(), or the error
	}{
		{catalog.TypeString, " a ", "' a '"},
		{catalog.TypeBigint, " 42 ", "42"},
		{catalog.TypeInt, "2147483648", "column c: '2147483648' is not a valid INT"},
		{catalog.TypeDouble, "1e3", "1000"},
		{catalog.TypeDouble, "abc", "column c: 'abc' is not a valid DOUBLE"},
		{catalog.TypeBoolean, "TRUE", "TRUE"},
		{catalog.TypeTimestamp, "1714564800000", "'2024-05-01 12:00:00.000'"},
		{catalog.TypeTimestamp, "2024-05-01 12:00:00.5", "'2024-05-01 12:00:00.500'"},
		{catalog.TypeTimestamp, "2024-05-01T14:00:00+02:00", "'2024-05-01 12:00:00.000'"},
		{catalog.TypeDate, "2024-05-01", "'2024-05-01'"},
		{catalog.TypeDate, "May 1", "column c: 'May 1' is not a valid DATE"},
		{catalog.TypeBytes, `\x00A\x5C`, "x'00415c'"},
		{catalog.TypeBytes, `\xZZ`, `column c: '\xZZ' is not a valid BYTES: bad escape`},
	}
	for _, tc := range tests {
		t.Run(tc.typ.String()+"/"+tc.in, func(t *testing.T) {
			v, err := convertText(col(tc.typ), tc.in)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = v.String()
			}
			if got != tc.want && !(err != nil && strings.HasPrefix(got, tc.want)) {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestLineTracker(t *testing.T) {
	src := "[\n{\"a\":1},\n\n{\"a\":2}\n]"
	lt := &lineTracker{r: strings.NewReader(src)}
	b, _ := io.ReadAll(lt)
	// lineAt(off) is the line of byte off-1: where a value that ends at
	// off ends.
	for off, want := range map[int64]int{1: 1, 2: 1, 9: 2, 19: 4, int64(len(b)): 5} {
		l := &lineTracker{r: strings.NewReader(src)}
		_, _ = io.ReadAll(l)
		if got := l.lineAt(off); got != want {
			t.Errorf("lineAt(%d) = %d, want %d", off, got, want)
		}
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
	w := &csvWriter{w: &got}
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
