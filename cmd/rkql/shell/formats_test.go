package shell

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// selectTexts runs q and returns its rows, each as its values' String()
// joined by " | ", so that NULL, ” and x” differ.
func selectTexts(t *testing.T, s *Session, q string) []string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Engine().Run(ctx, mustParse(t, q))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var out []string
	for {
		r, err := res.Rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		vs := make([]string, len(r))
		for i, v := range r {
			vs[i] = v.String()
		}
		out = append(out, strings.Join(vs, " | "))
	}
}

// fuzzSession is a session over an empty embedded store and fuzzCatalog.
func fuzzSession(t *testing.T) *Session {
	t.Helper()
	cat, err := fuzzCatalog()
	if err != nil {
		t.Fatal(err)
	}
	s := importSession(t, nil)
	return New(Config{Catalog: cat, CreateOnDemand: true, Open: s.cfg.Open})
}

// In CSV an unquoted empty field (or \N) is NULL and a quoted one is
// text: "" is the empty string, as the CSV writer writes it, so a row
// with an empty key imports again.
func TestImportCSVQuotedEmptyIsText(t *testing.T) {
	s := fuzzSession(t)
	in := "k,n,raw,i\n\"\",1,\"\",\nx,2,,\n\"\\N\",3,\\N,\\N\n\"\",4,\"a\r\nb\",5\r\n"
	if _, err := s.Import(context.Background(), strings.NewReader(in), ImportOptions{Table: "t", Name: "in.csv"}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(selectTexts(t, s, "SELECT k, n, raw, i FROM t ALLOW FULL SCAN"), "\n")
	want := strings.Join([]string{
		`'\N' | 3 | NULL | NULL`,
		`'x' | 2 | NULL | NULL`,
		`'' | 1 | x'' | NULL`,
		`'' | 4 | x'610d0a62' | 5`,
	}, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The CSV reader reads every record encoding/csv reads as encoding/csv
// does, and refuses what it refuses, but for a CR in a quoted field,
// which it keeps.
func FuzzCSVReader(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "a,\"b\"\n\"x\"\"y\",\"\"\n", "a\n\n\nb\n", "\"multi\nline\",x\n", "a,b\r\n1,2\r\n",
		"a\"b\n", "\"a\"b\n", "\"open\n", ",\n", "\"\"\n", "a,\"b\n\nc\",d\n", " \"a\"\n", "\"a\" \n", "a,b",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.IndexByte(data, '\r') >= 0 {
			return
		}
		want := csv.NewReader(bytes.NewReader(data))
		want.FieldsPerRecord = -1
		got := &csvReader{inputLines: inputLines{r: bufio.NewReaderSize(bytes.NewReader(data), 16)}}
		for {
			wrec, werr := want.Read()
			grec, _, gerr := got.read()
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("encoding/csv: %q, %v; csvReader: %v, %v", wrec, werr, grec, gerr)
			}
			if werr != nil {
				return
			}
			if len(wrec) != len(grec) {
				t.Fatalf("encoding/csv: %q; csvReader: %v", wrec, grec)
			}
			for i := range wrec {
				if wrec[i] != grec[i].s {
					t.Fatalf("field %d: encoding/csv %q, csvReader %q", i, wrec[i], grec[i].s)
				}
			}
		}
	})
}

// A malformed CSV line is refused with its line and column, and a header
// that leaves out a key column names it before any row is read.
func TestImportCSVErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"k,n\na,1\nb\"c,2\n", `^in\.csv:3:2: bare " in non-quoted field \(0 rows written\)$`},
		{"k,n\na,1\n\"b\"c,2\n", `^in\.csv:3:4: extraneous or missing " in quoted-field \(0 rows written\)$`},
		{"k,n\na,1\n\"b\nc,2\n", `^in\.csv:4:4: extraneous or missing " in quoted-field \(0 rows written\)$`},
		{"k,n\na,1,2\n", `^in\.csv:2: wrong number of fields: 3, and the header has 2 \(0 rows written\)$`},
		{"k,i\na,1\n", `^in\.csv:1: header: key column n is missing, and every row needs it for its key \(0 rows written\)$`},
		{"i,raw\n", `^in\.csv:1: header: key columns k, n are missing, and every row needs them for its key \(0 rows written\)$`},
		{"k,n\n\\N,1\n", `^in\.csv:2: key field k: a key field cannot be NULL \(0 rows written\)$`},
		{"k,n,i\na,1,\"\"\n", `^in\.csv:2: column i: '' is not a valid INT \(\"\" is the empty string; NULL is a field left empty, without quotes\) \(0 rows written\)$`},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%.12q", tc.in), func(t *testing.T) {
			_, err := fuzzSession(t).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "in.csv"})
			checkImportErr(t, err, tc.want)
		})
	}
}

// A one-column row that is NULL is \N in CSV, not the blank line that
// separates result sets, and a text that is \N is quoted; a one-column row
// that is the empty string is \E in TSV. Each reads back as written.
func TestLoneValues(t *testing.T) {
	cols := []column{{Name: "v", Type: catalog.TypeString}}
	rows := []catalog.Row{{catalog.Null(catalog.TypeString)}, {catalog.String("")}, {catalog.String(`\N`)}, {catalog.String(`\E`)}, {catalog.String("x")}}
	for _, tc := range []struct {
		f    Format
		want string
	}{
		{FormatCSV, "v\n\\N\n\"\"\n\"\\N\"\n\\E\nx\n"},
		{FormatTSV, "v\n\\N\n\\E\n\\\\N\n\\\\E\nx\n"},
	} {
		var b bytes.Buffer
		writeRows(t, newRowWriter(tc.f, &b, false), cols, rows)
		if b.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.f, b.String(), tc.want)
		}
		if strings.Contains(b.String(), "\n\n") {
			t.Errorf("%s: a row is a blank line: %q", tc.f, b.String())
		}
	}
	// Reading back goes through a table whose key is a literal, so that
	// its one column may be NULL.
	for _, f := range []Format{FormatCSV, FormatTSV} {
		for _, r := range rows {
			s := oneSession(t)
			var b bytes.Buffer
			writeRows(t, newRowWriter(f, &b, false), cols, []catalog.Row{r})
			if _, err := s.Import(context.Background(), &b, ImportOptions{Table: "one", Format: f.String(), Name: "in"}); err != nil {
				t.Fatalf("%s %s: %v", f, r[0], err)
			}
			if got := selectTexts(t, s, "SELECT v FROM one ALLOW FULL SCAN"); len(got) != 1 || got[0] != r[0].String() {
				t.Errorf("%s: wrote %s, read back %v", f, r[0], got)
			}
		}
	}
}

// oneSession is a session over an empty store with table one, whose key
// is a literal and whose one column is v.
func oneSession(t *testing.T) *Session {
	t.Helper()
	cat, err := catalog.Parse([]byte(`
tables:
  - name: one
    families: [{name: d}]
    columns:
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {literal: "x"}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := importSession(t, nil)
	return New(Config{Catalog: cat, CreateOnDemand: true, Open: s.cfg.Open})
}

// TSV escapes the backslash, so that the text \N is not NULL and a tab is
// not the text \t; every escape reads back exactly.
func TestTSVEscapes(t *testing.T) {
	cols := []column{{Name: "k", Type: catalog.TypeString}, {Name: "v", Type: catalog.TypeString}}
	vals := []string{`\N`, "a\tb", `a\tb`, `\`, "", "\\\n\r\x00\x1b\u0085\u202e\xff", `\x41`, `\u0041`, `\E`}
	var rows []catalog.Row
	for i, v := range vals {
		rows = append(rows, catalog.Row{catalog.String(fmt.Sprint(i)), catalog.String(v)})
	}
	rows = append(rows, catalog.Row{catalog.String("n"), catalog.Null(catalog.TypeString)})
	var b bytes.Buffer
	writeRows(t, newRowWriter(FormatTSV, &b, false), cols, rows)
	want := "k\tv\n0\t\\\\N\n1\ta\\tb\n2\ta\\\\tb\n3\t\\\\\n4\t\n5\t\\\\\\n\\r\\x00\\x1B\\u0085\\u202E\xff\n6\t\\\\x41\n7\t\\\\u0041\n8\t\\\\E\nn\t\\N\n"
	if b.String() != want {
		t.Fatalf("got:\n%q\nwant:\n%q", b.String(), want)
	}
	s := importSession(t, nil)
	if _, err := s.Import(context.Background(), &b, ImportOptions{Table: "t", Name: "in.tsv"}); err != nil {
		t.Fatal(err)
	}
	got := selectTexts(t, s, "SELECT k, v FROM t ALLOW FULL SCAN")
	for i, r := range rows {
		if w := r[0].String() + " | " + r[1].String(); i >= len(got) || got[i] != w {
			t.Errorf("row %d: got %q, want %q", i, got, w)
		}
	}
}

// A TSV backslash that is not one of the escapes is refused where it is.
func TestImportTSVErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"k\tv\na\tb\\qc\n", `^in\.tsv:2:4: bad escape \\q \(want .*\) \(0 rows written\)$`},
		{"k\tv\na\tb\\\n", `^in\.tsv:2:4: a field ends in a lone backslash .*\(0 rows written\)$`},
		{"k\tv\na\t\\x4\n", `^in\.tsv:2:3: bad escape \\x: want 2 hex digits after it \(0 rows written\)$`},
		{"k\tv\na\t\\uD800\n", `^in\.tsv:2:3: bad escape \\uD800: a surrogate is not a character \(0 rows written\)$`},
		{"k\tv\na\tx\\N\n", `^in\.tsv:2:4: \\N is only a whole field .*\(0 rows written\)$`},
		{"k\tv\na\n", `^in\.tsv:2: wrong number of fields: 1, and the header has 2 \(0 rows written\)$`},
		{"v\tv\n", `^in\.tsv:1: header: column "v" is both field 1 and field 2 \(0 rows written\)$`},
		{"v\na\n", `^in\.tsv:1: header: key column k is missing, and every row needs it for its key \(0 rows written\)$`},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%.12q", tc.in), func(t *testing.T) {
			_, err := importSession(t, nil).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "in.tsv"})
			checkImportErr(t, err, tc.want)
		})
	}
}

// Without a format or an extension, a first line holding a tab is TSV.
func TestImportFormatFromInput(t *testing.T) {
	for _, tc := range []struct{ in, format, want string }{
		{"k\tv\na\t\\\\\n", "", `'a' | '\'`},
		{"k,v\na,\\\\\n", "", `'a' | '\\'`},
		{"k\na\n", "tsv", `'a' | NULL`},
		{"{\"k\":\"a\",\"v\":\"\\\\\"}\n", "", `'a' | '\'`},
	} {
		s := importSession(t, nil)
		if _, err := s.Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "stdin", Format: tc.format}); err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if got := selectTexts(t, s, "SELECT k, v FROM t ALLOW FULL SCAN"); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Two columns of one name are keyed name and name_2 in the formats that
// key by name, passing over a name another column has.
func TestUniqueNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a b", "a b"},
		{"upper upper", "upper upper_2"},
		{"a a a", "a a_2 a_3"},
		{"a a a_2", "a a_3 a_2"},
		{"a_2 a a", "a_2 a a_3"},
	} {
		var cols []column
		for _, n := range strings.Fields(tc.in) {
			cols = append(cols, column{Name: n})
		}
		if got := strings.Join(uniqueNames(cols), " "); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		f    Format
		want string
	}{
		{FormatJSONL, `{"upper":"A","upper_2":"B"}` + "\n"},
		{FormatJSON, "[\n" + `{"upper":"A","upper_2":"B"}` + "\n]\n"},
		{FormatCSV, "upper,upper_2\nA,B\n"},
		{FormatTSV, "upper\tupper_2\nA\tB\n"},
	} {
		s := importSession(t, nil)
		s.set.Format = tc.f
		in := &stmtIO{in: []string{"SELECT UPPER(k), UPPER(v) FROM t WHERE k = 'a';"}}
		if _, err := s.Import(context.Background(), strings.NewReader("k,v\na,b\n"), ImportOptions{Table: "t", Name: "in.csv"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), in); err != nil || in.out.String() != tc.want {
			t.Errorf("%s: got %q (%v, %s), want %q", tc.f, in.out.String(), err, in.err.String(), tc.want)
		}
	}
}

// JSON import refuses what encoding/json would change without a word:
// bytes that are not UTF-8, a lone surrogate, and a key given twice. The
// error says the line and column.
func TestImportJSONRefusesSilentChanges(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"in.jsonl", "{\"k\":\"a\"}\n{\"k\":\"b\",\"v\":\"x\xffy\"}\n", `^in\.jsonl:2:16: invalid UTF-8: the byte 0xFF \(0 rows written\)$`},
		{"in.jsonl", "{\"k\":\"a\xe9\"}\n", `^in\.jsonl:1:8: invalid UTF-8: the byte 0xE9 \(0 rows written\)$`},
		{"in.jsonl", `{"k":"a","v":"\ud800"}`, `^in\.jsonl:1:15: the escape \\ud800 is half of a UTF-16 surrogate pair, not a character \(0 rows written\)$`},
		{"in.jsonl", `{"k":"a","v":"\udc00\ud800"}`, `^in\.jsonl:1:15: the escape \\udc00 is half .*\(0 rows written\)$`},
		{"in.jsonl", `{"k":"a","v":"x","v":"y"}`, `^in\.jsonl:1:18: the key "v" appears twice in the object \(0 rows written\)$`},
		{"in.jsonl", `{"k":"a", "v":null, "v":"y"}`, `^in\.jsonl:1:21: the key "v" appears twice in the object \(0 rows written\)$`},
		{"in.json", "[\n{\"k\":\"a\"},\n{\"k\":\"b\",\n  \"k\":\"c\"}\n]\n", `^in\.json:4:3: the key "k" appears twice in the object \(0 rows written\)$`},
		{"in.json", "[{\"k\":\"a\"}, {\"k\":\"\xc3\"}]", `^in\.json:1:19: invalid UTF-8: the byte 0xC3 \(0 rows written\)$`},
		{"in.jsonl", `{"k":"a","nope":1}`, `^in\.jsonl:1:10: column "nope" does not exist in table t .*\(0 rows written\)$`},
		{"in.jsonl", "{\"k\":\"a\"}\n[1]\n", `^in\.jsonl:2: not a JSON object: an array \(0 rows written\)$`},
		{"in.jsonl", `null`, `^in\.jsonl:1: not a JSON object: null \(0 rows written\)$`},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%.16q", tc.in), func(t *testing.T) {
			_, err := importSession(t, nil).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: tc.name})
			checkImportErr(t, err, tc.want)
		})
	}
	// A pair of surrogates is one character, and U+FFFD itself is text.
	s := importSession(t, nil)
	if _, err := s.Import(context.Background(), strings.NewReader(`{"k":"a","v":"\ud83d\ude00 \ufffd �"}`), ImportOptions{Table: "t", Name: "in.jsonl"}); err != nil {
		t.Fatal(err)
	}
	if got := selectTexts(t, s, "SELECT v FROM t ALLOW FULL SCAN"); len(got) != 1 || got[0] != "'😀 \ufffd \ufffd'" {
		t.Errorf("got %q", got)
	}
}
