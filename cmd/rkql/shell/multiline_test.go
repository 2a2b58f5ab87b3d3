package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// texts is an interactive IO whose ReadLine returns whole statements of
// several lines, as the line editor does.
type texts struct {
	in  []string
	out bytes.Buffer
}

func (x *texts) ReadLine(string) (string, error) {
	if len(x.in) == 0 {
		return "", io.EOF
	}
	s := x.in[0]
	x.in = x.in[1:]
	return s, nil
}
func (x *texts) Stdout() io.Writer { return &x.out }
func (x *texts) Stderr() io.Writer { return &x.out }
func (x *texts) Interactive() bool { return true }

// A text of several lines runs as if its lines had been typed one by one:
// error positions count lines within the statement, the caret is under
// the right column, and a meta-command on the first line runs on its own.
func TestSessionTakesMultiLineText(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV, Caret: true}})
	in := &texts{in: []string{
		"ENCODE KEY t (\n  k = 'a',\n  nope = 'x');",
		"\\format csv\nENCODE KEY t (k = 'b');\n",
		"ENCODE KEY t (k = 'c'); ENCODE KEY t (\n\tnope = 1);",
	}}
	err := s.Run(context.Background(), in)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	got := strings.Split(in.out.String(), "\n")
	want := []string{
		"rkql: 3:3: ",
		"  nope = 'x');",
		"  ^",
		"Output format is csv.",
		"key,hex",
		"b,62",
		"key,hex",
		"c,63",
		"rkql: 2:2: ",
		"\tnope = 1);",
		"\t^",
		"",
	}
	if len(got) != len(want) {
		t.Fatalf("got:\n%s", in.out.String())
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || (!strings.HasPrefix(want[i], "rkql:") && got[i] != want[i]) {
			t.Fatalf("line %d is %q, want %q\n%s", i+1, got[i], want[i], in.out.String())
		}
	}
}
