package parser

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, that every error is
// an *Error with a sane position, and that whatever parses prints back to
// text that parses to an equal tree.
func FuzzParse(f *testing.F) {
	f.Add("SELECT * FROM t WHERE a = 1")
	f.Add("SELECT a, COUNT(*) AS n FROM t WHERE NOT (a = 1 OR b IN (1, 2)) LIMIT 5")
	f.Fuzz(func(t *testing.T, src string) {
		_ = Complete(src) // must not panic on any input
		checkScan(t, src, 0)
		checkScan(t, src, ScanComments)
		stmts, err := Parse(src)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("error %v is %T, not *Error", err, err)
			}
			if perr.Line < 1 || perr.Col < 1 {
				t.Fatalf("error %v has position %d:%d", err, perr.Line, perr.Col)
			}
			perr.Context(src)
			return
		}
		checkRoundTrip(t, stmts)
	})
}

// checkScan checks that the scanner moves forward through src, ends with
// EOF, and returns tokens that are the source text at their offsets.
func checkScan(t *testing.T, src string, mode Mode) {
	s := NewScanner(src, mode)
	end := Pos(0)
	for range len(src) + 1 {
		tok, err := s.Next()
		if (tok.Kind == Illegal) != (err != nil) {
			t.Fatalf("token %v comes with error %v", tok, err)
		}
		if tok.Pos < end || tok.End() > Pos(len(src)) || tok.Text != src[tok.Pos:tok.End()] {
			t.Fatalf("token %v is not the source at its offset, or goes back before %d", tok, end)
		}
		if tok.Kind == EOF {
			if tok.Pos != Pos(len(src)) {
				t.Fatalf("EOF at %d, want %d", tok.Pos, len(src))
			}
			return
		}
		if tok.End() == tok.Pos {
			t.Fatalf("empty token %v", tok)
		}
		end = tok.End()
	}
	t.Fatalf("no EOF after %d tokens", len(src)+1)
}

const corpusDir = "testdata/fuzz/FuzzParse"

// seedName is the corpus file name for a datadriven input.
func seedName(src string) string {
	return fmt.Sprintf("seed-%x", sha256.Sum256([]byte(src)))[:21]
}

// TestFuzzCorpus checks that every datadriven input is in FuzzParse's seed
// corpus. With -rewrite it writes the missing seeds.
func TestFuzzCorpus(t *testing.T) {
	rewrite := false
	if fl := flag.Lookup("rewrite"); fl != nil {
		rewrite = fl.Value.String() == "true"
	}
	inputs := testInputs(t)
	var missing []string
	for _, src := range inputs {
		path := filepath.Join(corpusDir, seedName(src))
		want := fmt.Sprintf("go test fuzz v1\nstring(%q)\n", src)
		got, err := os.ReadFile(path)
		if err == nil && string(got) == want {
			continue
		}
		if !rewrite {
			missing = append(missing, path)
			continue
		}
		if err := os.MkdirAll(corpusDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Fatalf("%d seeds missing or stale (run with -rewrite), first %s", len(missing), missing[0])
	}
}
