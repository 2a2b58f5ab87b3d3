package shell

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	prompt "github.com/elk-language/go-prompt"
	"github.com/google/go-cmp/cmp"
)

// fakeTerm is a prompt.Reader that hands out what was typed, in the
// chunks the terminal delivered it.
type fakeTerm struct {
	prompt.Reader
	chunks []string
}

func (f *fakeTerm) Read(b []byte) (int, error) {
	if len(f.chunks) == 0 {
		return 0, syscall.EAGAIN
	}
	n := copy(b, f.chunks[0])
	f.chunks = f.chunks[1:]
	return n, nil
}

func readChunk(t *testing.T, r *keyReader) string {
	t.Helper()
	b := make([]byte, 1024)
	n, err := r.Read(b)
	if errors.Is(err, syscall.EAGAIN) {
		return "(wait)"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:n])
}

// A pasted block is handed out a line at a time, and nothing follows a
// line end until the editor took it; after the input ended nothing is
// handed out until the next prompt. Up becomes upCode. Bracketed paste's
// marks are dropped.
func TestKeyReader(t *testing.T) {
	r := &keyReader{Reader: &fakeTerm{chunks: []string{"\x1b[200~SELECT 1;\rSELECT 2;\rSEL\x1b[201~", "\x1b[A\x1b[Ax"}}}
	var got []string
	step := func(then func()) {
		got = append(got, readChunk(t, r))
		if then != nil {
			then()
		}
	}
	step(nil)      // SELECT 1;\r
	step(r.taken)  // held: wait
	step(nil)      // SELECT 2;\r
	step(r.stop)   // held
	step(nil)      // stopped
	step(r.resume) // still stopped, then resumed
	step(nil)      // SEL
	step(nil)      // Up
	step(nil)      // Up
	step(nil)      // x
	want := []string{"SELECT 1;\r", "(wait)", "SELECT 2;\r", "(wait)", "(wait)", "(wait)", "SEL", string(upCode), string(upCode), "x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("chunks (-want +got):\n%s", diff)
	}
}

// A paste mark that the terminal's reads cut in two is dropped too, and
// the Insert key, which begins like one, is left alone.
func TestKeyReaderCutPasteMark(t *testing.T) {
	r := &keyReader{Reader: &fakeTerm{chunks: []string{"\x1b[200~SELECT 1;\r\x1b[20", "1~x", "\x1b[2", "00~y\x1b[201~", "\x1b[2~"}}}
	var got []string
	for range 5 {
		got = append(got, readChunk(t, r))
		r.taken()
	}
	want := []string{"SELECT 1;\r", "x", "(wait)", "y", "\x1b[2~"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("chunks (-want +got):\n%s", diff)
	}
}

// Each screen line after the first starts either a line of the text or
// the rest of a line that wrapped.
func TestContWriterLayout(t *testing.T) {
	tests := []struct {
		text string
		want []bool
	}{
		{"SEL;", nil},
		{"SELECT 1;", []bool{false}},
		{"SEL\n  1;", []bool{true}},
		{"0123456789abc", []bool{false, false}},
		{"01234\nab\n", []bool{true, true}},
		{"012\n\nx", []bool{true, true}},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			w := &contWriter{}
			w.layout(tc.text, 5)
			if diff := cmp.Diff(tc.want, w.breaks); diff != "" {
				t.Fatalf("breaks (-want +got):\n%s", diff)
			}
		})
	}
}

type recordWriter struct {
	prompt.Writer
	b strings.Builder
}

func (w *recordWriter) WriteString(s string) (int, error) { return w.b.WriteString(s) }

// go-prompt's dots become PromptCont before a line of the text and blanks
// before a wrapped part; anything else is written as it is.
func TestContWriter(t *testing.T) {
	if dotsFor(PromptMain) != "..... " || dotsFor(PromptCont) != "..... " {
		t.Fatalf("dots %q and %q, want both %q: the prompts must be as wide", dotsFor(PromptMain), dotsFor(PromptCont), "..... ")
	}
	rec := &recordWriter{}
	w := &contWriter{Writer: rec, dots: dotsFor(PromptMain)}
	w.layout("0123456789\nab", 8)
	for _, s := range []string{"rkql> ", "01234567", "..... ", "89", "..... ", "ab", "..... "} {
		_, _ = w.WriteString(s)
	}
	want := "rkql> 01234567      89   -> ab   -> "
	if rec.b.String() != want {
		t.Fatalf("wrote %q, want %q", rec.b.String(), want)
	}
}

// After Tab, Up is go-prompt's, which walks the suggestions; any other
// key ends that.
func TestKeyReaderMenu(t *testing.T) {
	r := &keyReader{Reader: &fakeTerm{chunks: []string{"\t", "\x1b[A", "\x1b[B", "\x1b[A", "x", "\x1b[A"}}}
	var got []string
	for range 6 {
		got = append(got, readChunk(t, r))
	}
	want := []string{"\t", "\x1b[A", "\x1b[B", "\x1b[A", "x", string(upCode)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("chunks (-want +got):\n%s", diff)
	}
}

// Colours come from the parser's scanner; a meta-command is one colour.
func TestColourTokens(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"SELECT a, 'x', 12 FROM t -- c", []string{"SELECT", "'x'", "12", "FROM", "-- c"}},
		{"select 'open", []string{"select", "'open"}},
		{`\d orders`, []string{`\d orders`}},
		{"", nil},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			var got []string
			for _, tok := range colourTokens(tc.text, nil) {
				got = append(got, tc.text[tok.FirstByteIndex():tok.LastByteIndex()+1])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("coloured (-want +got):\n%s", diff)
			}
		})
	}
}
