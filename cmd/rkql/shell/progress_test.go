package shell

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/planner"
)

// stmtIO runs fixed lines and keeps stdout and stderr apart.
type stmtIO struct {
	in       []string
	out, err bytes.Buffer
}

func (l *stmtIO) ReadLine(string) (string, error) {
	if len(l.in) == 0 {
		return "", io.EOF
	}
	s := l.in[0]
	l.in = l.in[1:]
	return s, nil
}
func (l *stmtIO) Stdout() io.Writer { return &l.out }
func (l *stmtIO) Stderr() io.Writer { return &l.err }
func (l *stmtIO) Interactive() bool { return false }

// BUILD INDEX and CHECK INDEX show their progress on stderr when asked
// to, and erase it before the result.
func TestIndexProgress(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := Config{Catalog: importCatalog(t), CreateOnDemand: true, ProgressInterval: time.Nanosecond,
		Open:     engine.Opened(st),
		Settings: Settings{Format: FormatTSV, Progress: true}}
	s := New(cfg)
	in := regexp.MustCompile(`"k(\d+)","v":"x"`).ReplaceAllString(jsonLines(12_000), `"k$1","e":"e$1"`)
	if _, err := s.Engine().Import(context.Background(), strings.NewReader(in), engine.ImportOptions{Table: "u", Name: "u.jsonl"}); err != nil {
		t.Fatal(err)
	}
	io := &stmtIO{in: []string{"BUILD INDEX u_by_e ON u;", "CHECK INDEX u_by_e;"}}
	if err := s.Run(context.Background(), io); err != nil {
		t.Fatalf("Run: %v; stderr %q", err, io.err.String())
	}
	if want := "BUILD INDEX 12000\ndata_rows\tentries\tno_entry\tmissing\torphans\tunverified\tstale\trepaired\n12000\t12000\t0\t0\t0\t0\t0\t0\n"; io.out.String() != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", io.out.String(), want)
	}
	e := io.err.String()
	for _, want := range []string{"\rbuilding index: 5000 rows…", "\rbuilding index: 10000 rows…", "\rchecking index: 24000 entries and rows…"} {
		if !strings.Contains(e, want) {
			t.Errorf("stderr %q does not hold %q", e, want)
		}
	}
	// Each report is erased before the result is written.
	if !strings.HasSuffix(e, "\r\x1b[K") || strings.Count(e, "\r\x1b[K") != 2 {
		t.Errorf("stderr %q does not end with the line erased", e)
	}

	// Without Progress, nothing is shown.
	cfg.Settings.Progress = false
	io = &stmtIO{in: []string{"CHECK INDEX u_by_e;"}}
	if err := New(cfg).Run(context.Background(), io); err != nil || io.err.Len() != 0 {
		t.Fatalf("Run: %v; stderr %q", err, io.err.String())
	}
}

// A SELECT and a DELETE show their progress on stderr too, erased before
// the first result is written; with nothing but the clock to go by, the
// line still shows the time spent.
func TestStatementProgress(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, RowsPerTx: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := Config{Catalog: importCatalog(t), CreateOnDemand: true, ProgressInterval: time.Nanosecond,
		Planner:  planner.Options{AllowFullScan: true},
		Open:     engine.Opened(st),
		Settings: Settings{Format: FormatTable, Footer: true, Progress: true, Yes: true}}
	s := New(cfg)
	if _, err := s.Engine().Import(context.Background(), strings.NewReader(jsonLines(12_000)), engine.ImportOptions{Table: "t", Name: "t.jsonl"}); err != nil {
		t.Fatal(err)
	}
	io := &stmtIO{in: []string{"SELECT k FROM t;"}}
	if err := s.Run(context.Background(), io); err != nil {
		t.Fatalf("Run: %v; stderr %q", err, io.err.String())
	}
	e := io.err.String()
	if !regexp.MustCompile(`^\rreading: 256 rows returned… \S+ \(Ctrl-C cancels\)`).MatchString(e) ||
		!strings.HasSuffix(e, "\r\x1b[K") || strings.Contains(e, "10240 rows") {
		t.Errorf("stderr %q: want the rows returned, erased before the first 10000 rows are written", e)
	}
	if !strings.HasSuffix(io.out.String(), "(12000 rows)\n\n") {
		t.Errorf("stdout ends %q", io.out.String()[max(0, io.out.Len()-40):])
	}

	io = &stmtIO{in: []string{"DELETE FROM t WHERE k >= 'k0';"}}
	if err := s.Run(context.Background(), io); err != nil {
		t.Fatalf("Run: %v; stderr %q", err, io.err.String())
	}
	if e := io.err.String(); !strings.Contains(e, "\rdeleting: 1000 rows…") || !strings.HasSuffix(e, "\r\x1b[K") {
		t.Errorf("stderr %q: want the rows deleted, then the line erased", e)
	}
	if io.out.String() != "DELETE 12000\n" {
		t.Errorf("stdout %q", io.out.String())
	}

	// A slow statement that reports nothing still shows the time.
	w := &firstWrite{drawn: make(chan struct{})}
	p := newProgressLine(w, "reading: %d rows returned…", time.Millisecond)
	<-w.drawn
	p.stop()
	if e := w.String(); !regexp.MustCompile(`^\rreading: 0 rows returned… [0-9.]+m?s \(Ctrl-C cancels\)`).MatchString(e) {
		t.Errorf("stderr %q: want the time drawn by the clock", e)
	}
}

// firstWrite is a writer that closes drawn at its first write.
type firstWrite struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	drawn chan struct{}
}

func (w *firstWrite) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() == 0 {
		close(w.drawn)
	}
	return w.buf.Write(b)
}

func (w *firstWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestProgressPause: a paused line is erased and not drawn, whatever is
// reported, until it resumes; a message without a count is drawn as it is.
func TestProgressPause(t *testing.T) {
	w := &firstWrite{drawn: make(chan struct{})}
	p := newProgressLine(w, "splitting: waiting for the master…", time.Hour)
	p.report(1) // an hour has not passed: nothing is drawn
	p.mu.Lock()
	p.mu.last = time.Time{} // as if the interval had passed
	p.mu.Unlock()
	p.report(2)
	<-w.drawn
	p.pause()
	drawn := w.String()
	if !regexp.MustCompile(`^\rsplitting: waiting for the master… \S+ \(Ctrl-C cancels\)\r\x1b\[K$`).MatchString(drawn) {
		t.Fatalf("stderr %q: want the line, then erased by pause", drawn)
	}
	p.mu.Lock()
	p.mu.last = time.Time{}
	p.mu.Unlock()
	p.report(3)
	if w.String() != drawn {
		t.Errorf("a paused line was drawn: %q", w.String())
	}
	p.resume()
	p.mu.Lock()
	p.mu.last = time.Time{}
	p.mu.Unlock()
	p.report(4)
	p.stop()
	if after := strings.TrimPrefix(w.String(), drawn); !strings.HasPrefix(after, "\rsplitting: waiting") {
		t.Errorf("after resume, stderr %q: want the line drawn again", after)
	}
}
