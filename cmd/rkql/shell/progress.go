package shell

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rkql/rkql/parser"
)

// progressLine shows how far a long statement has got on one terminal
// line, overwriting itself: the rows done and the time since the
// statement began. It draws once a statement has run for an interval,
// then again each interval and whenever the statement reports rows an
// interval after the last drawing. stop erases it for good; it must be
// called before anything else is written to the terminal.
type progressLine struct {
	w     io.Writer
	msg   string // a format of the row count: "building index: %d rows…"
	every time.Duration
	begin time.Time
	n     atomic.Int64
	done  chan struct{}
	mu    struct {
		sync.Mutex
		last    time.Time
		width   int
		stopped bool
		paused  bool // while a question waits for its answer
	}
}

// minTick is the shortest interval between two drawings by the clock.
const minTick = 50 * time.Millisecond

func newProgressLine(w io.Writer, msg string, every time.Duration) *progressLine {
	p := &progressLine{w: w, msg: msg, every: every, begin: time.Now(), done: make(chan struct{})}
	p.mu.last = p.begin
	go p.tick(max(every, minTick))
	return p
}

// tick redraws the line each interval until stop.
func (p *progressLine) tick(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.mu.Lock()
			if !p.mu.stopped && !p.mu.paused && time.Since(p.mu.last) >= p.every {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// report is told the rows done so far.
func (p *progressLine) report(n int64) {
	p.n.Store(n)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.mu.stopped && !p.mu.paused && time.Since(p.mu.last) >= p.every {
		p.draw()
	}
}

// pause erases the line and draws none until resume: a question is
// being asked on the terminal.
func (p *progressLine) pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.paused = true
	p.erase()
}

// resume draws again, an interval from now.
func (p *progressLine) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.paused = false
	p.mu.last = time.Now()
}

// draw writes the line; p.mu is held.
func (p *progressLine) draw() {
	p.mu.last = time.Now()
	msg := p.msg
	if strings.Contains(msg, "%d") {
		msg = fmt.Sprintf(msg, p.n.Load())
	}
	msg += fmt.Sprintf(" %s (Ctrl-C cancels)", time.Since(p.begin).Round(100*time.Millisecond))
	pad := ""
	if len(msg) < p.mu.width {
		pad = strings.Repeat(" ", p.mu.width-len(msg))
	}
	fmt.Fprintf(p.w, "\r%s%s", msg, pad)
	flush(p.w)
	p.mu.width = max(p.mu.width, len(msg))
}

// stop erases the line and draws no more.
func (p *progressLine) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mu.stopped {
		return
	}
	p.mu.stopped = true
	close(p.done)
	p.erase()
}

// erase clears the line drawn, if any; p.mu is held.
func (p *progressLine) erase() {
	if p.mu.width > 0 {
		// Erase to the end of the line: a ^C the terminal echoed too.
		fmt.Fprint(p.w, "\r\x1b[K")
		flush(p.w)
		p.mu.width = 0
	}
}

// stopOnWrite stops a progress line before the first write of results.
type stopOnWrite struct {
	w io.Writer
	p *progressLine
}

func (s *stopOnWrite) Write(b []byte) (int, error) {
	s.p.stop()
	return s.w.Write(b)
}

// progressFor returns the progress line of a statement that may run
// long, or nil.
func (s *Session) progressFor(in IO, st parser.Stmt) *progressLine {
	if !s.set.Progress {
		return nil
	}
	var msg string
	switch st := st.(type) {
	case *parser.SelectStmt:
		msg = "reading: %d rows returned…"
	case *parser.DeleteStmt:
		msg = "deleting: %d rows…"
	case *parser.BuildIndexStmt:
		msg = "building index: %d rows…"
	case *parser.CheckIndexStmt:
		msg = "checking index: %d entries and rows…"
	case *parser.InsertStmt:
		if st.Query == nil {
			return nil
		}
		msg = "copying: %d rows written…"
	case *parser.CompactStmt:
		msg = "compacting: %d regions done…"
	case *parser.FlushStmt:
		msg = "flushing…"
	case *parser.SplitStmt:
		msg = "splitting: waiting for the master…"
	case *parser.MergeStmt:
		msg = "merging: waiting for the master…"
	default:
		return nil
	}
	every := s.cfg.ProgressInterval
	if every == 0 {
		every = time.Second
	}
	return newProgressLine(in.Stderr(), msg, every)
}
