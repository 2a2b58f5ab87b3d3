package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// fuzzEngine is an engine over an empty embedded store and fuzzCatalog.
func fuzzEngine(t *testing.T) *Engine {
	t.Helper()
	cat, err := fuzzCatalog()
	if err != nil {
		t.Fatal(err)
	}
	e := importEngine(t, nil)
	return New(Config{Catalog: cat, CreateOnDemand: true, Open: e.cfg.Open})
}

// In CSV an unquoted empty field (or \N) is NULL and a quoted one is
// text: "" is the empty string, as the CSV writer writes it, so a row
// with an empty key imports again.
func TestImportCSVQuotedEmptyIsText(t *testing.T) {
	s := fuzzEngine(t)
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
			_, err := fuzzEngine(t).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "in.csv"})
			checkImportErr(t, err, tc.want)
		})
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
			_, err := importEngine(t, nil).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "in.tsv"})
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
		s := importEngine(t, nil)
		if _, err := s.Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "stdin", Format: tc.format}); err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if got := selectTexts(t, s, "SELECT k, v FROM t ALLOW FULL SCAN"); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
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
			_, err := importEngine(t, nil).Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: tc.name})
			checkImportErr(t, err, tc.want)
		})
	}
	// A pair of surrogates is one character, and U+FFFD itself is text.
	s := importEngine(t, nil)
	if _, err := s.Import(context.Background(), strings.NewReader(`{"k":"a","v":"\ud83d\ude00 \ufffd �"}`), ImportOptions{Table: "t", Name: "in.jsonl"}); err != nil {
		t.Fatal(err)
	}
	if got := selectTexts(t, s, "SELECT v FROM t ALLOW FULL SCAN"); len(got) != 1 || got[0] != "'😀 \ufffd \ufffd'" {
		t.Errorf("got %q", got)
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
