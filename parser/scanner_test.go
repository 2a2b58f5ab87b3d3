package parser

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scanAll renders every token of src, EOF included, as "Kind@off:text" and
// each error as "!line:col: message", with "(unterminated)" when its cause
// is ErrUnterminated.
func scanAll(src string, mode Mode) []string {
	s := NewScanner(src, mode)
	var out []string
	for range len(src) + 2 {
		t, err := s.Next()
		out = append(out, fmt.Sprintf("%s@%d:%s", t.Kind, t.Pos, t.Text))
		if err != nil {
			e := "!" + err.Error()
			if errors.Is(err, ErrUnterminated) {
				e += " (unterminated)"
			}
			out = append(out, e)
		}
		if (t.Kind == Illegal) != (err != nil) {
			out = append(out, "!! an Illegal token and an error must come together")
		}
		if t.Text != src[t.Pos:t.End()] {
			out = append(out, "!! text is not the source between Pos and End")
		}
		if t.Kind == EOF {
			return out
		}
	}
	return append(out, "!! no EOF")
}

func TestScanner(t *testing.T) {
	tests := []struct {
		src  string
		mode Mode
		want []string
	}{
		{src: "", want: []string{"EOF@0:"}},
		{src: "  \t\n", want: []string{"EOF@4:"}},
		{src: "SELECT a_1,\"B c\" FROM t;", want: []string{
			"Word@0:SELECT", "Word@7:a_1", "Op@10:,", `QuotedIdent@11:"B c"`,
			"Word@17:FROM", "Word@22:t", "Op@23:;", "EOF@24:"}},
		// positions are byte offsets: é is two bytes
		{src: "'é' x", want: []string{"String@0:'é'", "Word@5:x", "EOF@6:"}},
		{src: "a<=b<>c!=d>=e<f>g=h", want: []string{
			"Word@0:a", "Op@1:<=", "Word@3:b", "Op@4:<>", "Word@6:c", "Op@7:!=",
			"Word@9:d", "Op@10:>=", "Word@12:e", "Op@13:<", "Word@14:f", "Op@15:>",
			"Word@16:g", "Op@17:=", "Word@18:h", "EOF@19:"}},
		{src: "(*)-", want: []string{"Op@0:(", "Op@1:*", "Op@2:)", "Op@3:-", "EOF@4:"}},
		// numbers
		{src: "12 1.5 .5 1e3 2.5E-3 007", want: []string{
			"Int@0:12", "Float@3:1.5", "Float@7:.5", "Float@10:1e3",
			"Float@14:2.5E-3", "Int@21:007", "EOF@24:"}},
		{src: "-9223372036854775808", want: []string{"Op@0:-", "Int@1:9223372036854775808", "EOF@20:"}},
		{src: "1x 2", want: []string{"Illegal@0:1x", "!1:1: invalid number literal 1x", "Int@3:2", "EOF@4:"}},
		{src: "1.2.3;", want: []string{"Illegal@0:1.2.3", "!1:1: invalid number literal 1.2.3", "Op@5:;", "EOF@6:"}},
		{src: "1e+;", want: []string{"Illegal@0:1e+", "!1:1: invalid number literal 1e+", "Op@3:;", "EOF@4:"}},
		// strings and quoted names: a doubled quote is one quote, and ';'
		// inside does not end anything
		{src: "'it''s; ok';", want: []string{"String@0:'it''s; ok'", "Op@11:;", "EOF@12:"}},
		{src: `"a "" b;"`, want: []string{`QuotedIdent@0:"a "" b;"`, "EOF@9:"}},
		{src: `"" x`, want: []string{`Illegal@0:""`, "!1:1: zero-length quoted identifier", "Word@3:x", "EOF@4:"}},
		{src: "a = 'x;\n y", want: []string{"Word@0:a", "Op@2:=", "Illegal@4:'x;\n y",
			"!1:5: unterminated string literal (unterminated)", "EOF@10:"}},
		{src: "\"abc", want: []string{"Illegal@0:\"abc", "!1:1: unterminated quoted identifier (unterminated)", "EOF@4:"}},
		{src: "x'a'''", want: []string{"Illegal@0:x'a'''", `!1:4: invalid hex digit '\'' in hex literal`, "EOF@6:"}},
		// hex literals
		{src: "x'00fF' X'' xy", want: []string{"Bytes@0:x'00fF'", "Bytes@8:X''", "Word@12:xy", "EOF@14:"}},
		{src: "x'0g' 1", want: []string{"Illegal@0:x'0g'", `!1:4: invalid hex digit 'g' in hex literal`, "Int@6:1", "EOF@7:"}},
		{src: "x'abc' 1", want: []string{"Illegal@0:x'abc'", "!1:1: invalid hex literal x'abc': odd number of hex digits", "Int@7:1", "EOF@8:"}},
		{src: "x'ab", want: []string{"Illegal@0:x'ab", "!1:1: unterminated hex literal (unterminated)", "EOF@4:"}},
		// comments are skipped, and ';' inside them does not count
		{src: "a -- b; c\n/* ; */ d", want: []string{"Word@0:a", "Word@18:d", "EOF@19:"}},
		{src: "a -- b; c\n/* ; */ d", mode: ScanComments, want: []string{
			"Word@0:a", "Comment@2:-- b; c", "Comment@10:/* ; */", "Word@18:d", "EOF@19:"}},
		{src: "a --", mode: ScanComments, want: []string{"Word@0:a", "Comment@2:--", "EOF@4:"}},
		{src: "a/**/b", want: []string{"Word@0:a", "Word@5:b", "EOF@6:"}},
		{src: "a /* b;\n c", want: []string{"Word@0:a", "Illegal@2:/* b;\n c", "!1:3: unterminated comment (unterminated)", "EOF@10:"}},
		// "--" is a comment even right after an operand
		{src: "1--2\n3", want: []string{"Int@0:1", "Int@5:3", "EOF@6:"}},
		// unexpected characters, and scanning goes on after them
		{src: "a ! b", want: []string{"Word@0:a", "Illegal@2:!", "!1:3: unexpected character '!', expected !=", "Word@4:b", "EOF@5:"}},
		{src: "a\n  é;", want: []string{"Word@0:a", "Illegal@4:é", "!2:3: unexpected character 'é'", "Op@6:;", "EOF@7:"}},
		{src: "\xff;", want: []string{"Illegal@0:\xff", "!1:1: unexpected character (invalid UTF-8)", "Op@1:;", "EOF@2:"}},
		{src: `\d`, want: []string{`Illegal@0:\`, `!1:1: unexpected character '\\'`, "Word@1:d", "EOF@2:"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q/%d", tc.src, tc.mode), func(t *testing.T) {
			if diff := cmp.Diff(tc.want, scanAll(tc.src, tc.mode)); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

// EOF comes back however often Next is called.
func TestScannerEOFRepeats(t *testing.T) {
	s := NewScanner("a", 0)
	s.Next()
	for i := range 3 {
		if tok, err := s.Next(); tok.Kind != EOF || tok.Pos != 1 || err != nil {
			t.Fatalf("call %d after the end: %v, %v", i, tok, err)
		}
	}
}

// Scan stops at the first error; the parser's error is the scanner's.
func TestScan(t *testing.T) {
	const src = "SELECT * FROM t; x'1' ;"
	toks, err := Scan(src)
	var pe *Error
	if !errors.As(err, &pe) || pe.Pos != 17 || pe.Msg != "invalid hex literal x'1': odd number of hex digits" {
		t.Fatalf("error %v, want the odd hex literal at 17", err)
	}
	var got []string
	for _, t := range toks {
		got = append(got, t.Text)
	}
	if want := []string{"SELECT", "*", "FROM", "t", ";"}; !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
	if _, perr := Parse(src); perr == nil || perr.Error() != err.Error() {
		t.Errorf("Parse error %v, want the scanner's %v", perr, err)
	}
	if toks, err := Scan("a -- c\n/* d */"); err != nil || len(toks) != 1 {
		t.Errorf("Scan left comments in or failed: %v, %v", toks, err)
	}
}

func TestTokenIdent(t *testing.T) {
	tests := []struct {
		tok  Token
		want string
	}{
		{Token{Kind: Word, Text: "abc"}, "abc"},
		{Token{Kind: QuotedIdent, Text: `"a ""b"""`}, `a "b"`},
		{Token{Kind: String, Text: `'x'`}, `'x'`},
	}
	for _, tc := range tests {
		if got := tc.tok.Ident(); got != tc.want {
			t.Errorf("%v.Ident() = %q, want %q", tc.tok, got, tc.want)
		}
	}
}

// Complete follows the scanner over the text the parser rejects; the
// common cases are in api_test.go.
func TestCompleteMalformed(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`SELECT "a;`, false},
		{"SELECT 1 /* ;", false},
		{"SELECT x'ab;", false},
		{"SELECT x'zz;';", true},
		// bad text is the parser's to report: the statement is typed
		{"SELECT 1x !;", true},
		{"SELECT é;", true},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			if got := Complete(tc.src); got != tc.want {
				t.Errorf("Complete(%q) = %t, want %t", tc.src, got, tc.want)
			}
		})
	}
}

// The keyword table is the grammar's: every quoted word of the grammar is
// in it, and it holds no other words but those matched by token type (OR
// as a Logic token, DATE as a Typed one, INTERVAL as an Interval one).
func TestKeywordsAreTheGrammars(t *testing.T) {
	grammar := map[string]bool{"OR": true, "DATE": true, "INTERVAL": true}
	for _, m := range regexp.MustCompile(`"([A-Z][A-Z_]*)"`).FindAllStringSubmatch(stmtParser().String(), -1) {
		grammar[m[1]] = true
	}
	table := map[string]bool{}
	for _, k := range Keywords() {
		table[k.Word] = true
		if !grammar[k.Word] {
			t.Errorf("%s is in the keyword table but not in the grammar", k.Word)
		}
		if len(k.Word) > maxKeyword {
			t.Errorf("%s is longer than maxKeyword", k.Word)
		}
	}
	for w := range grammar {
		if !table[w] {
			t.Errorf("%s is in the grammar but not in the keyword table", w)
		}
	}
}

// A keyword is reserved exactly when it cannot name a table, and a starter
// exactly when a statement can begin with it.
func TestKeywordClasses(t *testing.T) {
	kws := Keywords()
	if !slices.IsSortedFunc(kws, func(a, b Keyword) int { return strings.Compare(a.Word, b.Word) }) {
		t.Errorf("Keywords() is not in alphabetical order")
	}
	for _, k := range kws {
		w := strings.ToLower(k.Word)
		if _, err := Parse("SELECT a FROM " + w + ";"); (err != nil) != k.Reserved {
			t.Errorf("%s: Reserved is %t, but as a table name it parses with error %v", k.Word, k.Reserved, err)
		}
		_, err := ParseOne(w + " x")
		var pe *Error
		starts := err == nil || (errors.As(err, &pe) && pe.Pos > 0)
		if starts != k.Starter {
			t.Errorf("%s: Starter is %t, but %q parses with error %v", k.Word, k.Starter, w+" x", err)
		}
		if got, ok := LookupKeyword(w); !ok || got != k {
			t.Errorf("LookupKeyword(%q) = %v, %t", w, got, ok)
		}
	}
	for _, w := range []string{"", "SELECTS", "TIMESTAMPS", "x", "ÉTAT"} {
		if k, ok := LookupKeyword(w); ok {
			t.Errorf("LookupKeyword(%q) = %v, want none", w, k)
		}
	}
	kws[0].Word = "CHANGED"
	if Keywords()[0].Word == "CHANGED" {
		t.Errorf("Keywords() hands out the table itself")
	}
}

// Every word that is not reserved names a column in a select list, a
// condition, an ORDER BY and an assignment, beside the clauses it may also
// begin; printing quotes it, and the printed text parses back the same.
func TestNonReservedNames(t *testing.T) {
	for _, k := range Keywords() {
		if k.Reserved {
			continue
		}
		w := strings.ToLower(k.Word)
		q := QuoteIdent(w)
		for _, c := range []struct{ in, want string }{
			{
				"SELECT " + w + ", b FROM t WHERE " + w + " < 60 ORDER BY " + w + " DESC LIMIT 1 OFFSET 2",
				"SELECT " + q + ", b FROM t WHERE " + q + " < 60 ORDER BY " + q + " DESC LIMIT 1 OFFSET 2",
			},
			{
				"SELECT a " + w + ", -" + w + " FROM t WHERE b = " + w + " GROUP BY " + w,
				"SELECT a AS " + q + ", -" + q + " FROM t WHERE b = " + q + " GROUP BY " + q,
			},
			{
				"UPDATE t SET " + w + " = 1 WHERE " + w + " IS NULL",
				"UPDATE t SET " + q + " = 1 WHERE " + q + " IS NULL",
			},
		} {
			s, err := ParseOne(c.in)
			if err != nil {
				t.Errorf("%s: %v", c.in, err)
				continue
			}
			if got := s.String(); got != c.want {
				t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
			}
		}
	}
}
