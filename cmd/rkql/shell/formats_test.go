package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
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
			if _, err := s.Engine().Import(context.Background(), &b, engine.ImportOptions{Table: "one", Format: f.String(), Name: "in"}); err != nil {
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
	s := importSession(t)
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
	s := importSession(t)
	if _, err := s.Engine().Import(context.Background(), &b, engine.ImportOptions{Table: "t", Name: "in.tsv"}); err != nil {
		t.Fatal(err)
	}
	got := selectTexts(t, s, "SELECT k, v FROM t ALLOW FULL SCAN")
	for i, r := range rows {
		if w := r[0].String() + " | " + r[1].String(); i >= len(got) || got[i] != w {
			t.Errorf("row %d: got %q, want %q", i, got, w)
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
		s := importSession(t)
		s.set.Format = tc.f
		in := &stmtIO{in: []string{"SELECT UPPER(k), UPPER(v) FROM t WHERE k = 'a';"}}
		if _, err := s.Engine().Import(context.Background(), strings.NewReader("k,v\na,b\n"), engine.ImportOptions{Table: "t", Name: "in.csv"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), in); err != nil || in.out.String() != tc.want {
			t.Errorf("%s: got %q (%v, %s), want %q", tc.f, in.out.String(), err, in.err.String(), tc.want)
		}
	}
}
