package shell

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rkql/rkql/parser"
)

// progressLine shows how far a long statement has got on one terminal
// line, at most once per interval, overwriting itself; clear erases it
// before anything else is written.
type progressLine struct {
	w     io.Writer
	msg   string // a format of the row count: "building index: %d rows…"
	every time.Duration
	last  time.Time
	width int
}

func (p *progressLine) report(n int64) {
	if time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	msg := fmt.Sprintf(p.msg, n)
	pad := ""
	if len(msg) < p.width {
		pad = strings.Repeat(" ", p.width-len(msg))
	}
	fmt.Fprintf(p.w, "\r%s%s", msg, pad)
	flush(p.w)
	p.width = max(p.width, len(msg))
}

func (p *progressLine) clear() {
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		flush(p.w)
		p.width = 0
	}
}

// progressFor returns the progress line of a statement that reports its
// progress, or nil.
func (s *Session) progressFor(in IO, st parser.Stmt) *progressLine {
	if !s.set.Progress {
		return nil
	}
	var msg string
	switch st.(type) {
	case *parser.BuildIndexStmt:
		msg = "building index: %d rows…"
	case *parser.CheckIndexStmt:
		msg = "checking index: %d entries and rows…"
	default:
		return nil
	}
	every := s.cfg.ProgressInterval
	if every == 0 {
		every = time.Second
	}
	return &progressLine{w: in.Stderr(), msg: msg, every: every, last: time.Now()}
}
