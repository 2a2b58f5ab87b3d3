package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/parser"
)

// runStatement parses, plans and runs one statement of a chunk; stmtText
// starts at offset off of the chunk. Every failure, a panic included, is
// reported as one line.
func (s *Session) runStatement(ctx context.Context, in IO, src source, off int, stmtText string) {
	stmts, err := parser.Parse(stmtText)
	if err != nil {
		s.reportErr(in, src, off, err)
		return
	}
	for _, st := range stmts {
		if s.outErr {
			return
		}
		s.runOne(ctx, in, src, off, st)
	}
}

func (s *Session) runOne(ctx context.Context, in IO, src source, off int, st parser.Stmt) {
	begin := s.cfg.Clock()
	ctx, cancel := s.statementContext(ctx)
	defer cancel()
	if s.cfg.ReleaseStore {
		defer s.releaseStore(in)
	}
	defer func() {
		if r := recover(); r != nil {
			s.fail(in, src.prefix(off+int(max(st.Pos(), 0)))+fmt.Sprintf("internal error: %v", r), "")
		}
	}()
	p := s.progressFor(in, st)
	if p != nil {
		s.eng.SetProgress(p.report)
		s.progress = p
		defer func() {
			p.stop()
			s.eng.SetProgress(nil)
			s.progress = nil
		}()
	}
	s.eng.SetConfirm(s.confirmer(in))
	defer s.eng.SetConfirm(nil)
	res, err := s.eng.Run(ctx, st)
	if err == nil {
		dst := s.resultOut(in)
		var paged *pagedWriter
		if pw := s.pagerFor(in); pw != nil {
			paged, dst = pw, pw
		}
		if p != nil {
			dst = &stopOnWrite{w: dst, p: p}
		}
		out := &checkedWriter{w: dst}
		err = s.write(ctx, out, res, !in.Interactive())
		if paged != nil && out.err == nil {
			if s.cfg.ReleaseStore && err == nil {
				// The whole result is in the pager: other processes
				// may use the store while the user reads it.
				s.releaseStore(in)
			}
			out.err = paged.close()
		}
		if out.err == nil {
			out.err = flushOut(s.resultOut(in))
		}
		if errors.Is(out.err, errPagerClosed) {
			out.err, err = nil, nil
			_ = paged.close()
		}
		if p != nil {
			p.stop() // before an error, a warning or the timing
		}
		if out.err != nil {
			s.outputFailed(in, out.err)
			return
		}
		if res.Warnings != nil {
			for _, w := range res.Warnings() {
				fmt.Fprintf(in.Stderr(), "rkql: warning: %s\n", w)
			}
		}
	}
	if err != nil {
		if p != nil {
			p.stop()
		}
		s.reportErr(in, src, off, stmtError(ctx, err, st, s.set.Timeout))
		return
	}
	if s.set.Timing {
		fmt.Fprintf(in.Stdout(), "Time: %.3f ms\n", float64(s.cfg.Clock().Sub(begin).Microseconds())/1000)
	}
}

// stmtErr is a failed statement's error with where to point: pos is an
// offset in the statement's text, or parser.NoPos when the error has none;
// start is where the statement begins.
type stmtErr struct {
	pos, start parser.Pos
	msg        string
}

func (e *stmtErr) Error() string { return e.msg }

// stmtError gives an error its position in the statement, and says plainly
// when the statement was cancelled or timed out.
func stmtError(ctx context.Context, err error, st parser.Stmt, timeout time.Duration) *stmtErr {
	e := &stmtErr{pos: parser.NoPos, start: st.Pos(), msg: err.Error()}
	var (
		pe *parser.Error
		we *engine.WriteError
	)
	switch {
	case errors.As(err, &pe):
		e.pos, e.msg = pe.Pos, pe.Msg
	case errors.As(err, &we) && errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		e.msg = fmt.Sprintf("%s timed out %s (the --timeout limit, %s; 0 turns it off)", we.Verb, we.Left(), timeout)
	case errors.As(err, &we) && errors.Is(err, context.Canceled) && ctx.Err() != nil:
		e.msg = fmt.Sprintf("%s cancelled %s", we.Verb, we.Left())
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		e.msg = fmt.Sprintf("statement timed out after %s (the --timeout limit; 0 turns it off)", timeout)
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		e.msg = "statement cancelled"
	}
	return e
}

// reportErr reports err of the statement at offset off of the chunk.
func (s *Session) reportErr(in IO, src source, off int, err error) {
	var (
		pe *parser.Error
		se *stmtErr
	)
	switch {
	case src.generated && errors.As(err, &pe):
		s.fail(in, pe.Msg, "")
	case src.generated && errors.As(err, &se):
		s.fail(in, se.msg, "")
	case errors.As(err, &pe):
		p := off + int(pe.Pos)
		s.fail(in, src.position(p)+": "+pe.Msg, src.context(p))
	case errors.As(err, &se) && se.pos >= 0:
		p := off + int(se.pos)
		s.fail(in, src.position(p)+": "+se.msg, src.context(p))
	case errors.As(err, &se):
		s.fail(in, src.prefix(off+int(max(se.start, 0)))+se.msg, "")
	default:
		s.fail(in, src.prefix(off)+err.Error(), "")
	}
}

// write prints a result in the session's format. With separate, a csv or
// tsv result set that follows another is set off by a blank line; at a
// prompt, the prompt does that.
func (s *Session) write(ctx context.Context, out io.Writer, res *engine.Result, separate bool) error {
	defer res.Close()
	switch {
	case res.Text != "":
		_, err := io.WriteString(out, textEscape.String(res.Text))
		return err
	case res.Tag != "":
		if !s.set.Quiet {
			_, err := io.WriteString(out, res.Tag+"\n")
			return err
		}
		return nil
	case res.Rows == nil:
		return nil
	}
	if separate && (s.set.Format == FormatCSV || s.set.Format == FormatTSV) {
		// Result sets one after the other are told apart by a blank line.
		if s.sets > 0 {
			if _, err := io.WriteString(out, "\n"); err != nil {
				return err
			}
		}
		s.sets++
	}
	w := s.rowWriterFor(out, s.set.Footer && !res.NoFooter)
	if err := w.begin(res.Columns); err != nil {
		return err
	}
	res.ReuseRows() // no writer keeps a row past its call
	var n int64
	for {
		r, err := res.Rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// Close what was written so far, then report the error.
			_ = w.end(-1)
			return err
		}
		if err := w.row(r); err != nil {
			return err
		}
		n++
		if s.progress != nil && n%256 == 0 {
			s.progress.report(n)
		}
	}
	if err := w.end(n); err != nil {
		return err
	}
	if len(res.Notes) > 0 && (s.set.Format == FormatTable || s.set.Format == FormatMarkdown) {
		_, err := io.WriteString(out, strings.Join(res.Notes, "\n")+"\n")
		return err
	}
	return nil
}

// rowWriterFor returns the writer of the session's format and display.
func (s *Session) rowWriterFor(out io.Writer, footer bool) rowWriter {
	if s.set.Format != FormatTable {
		return newRowWriter(s.set.Format, out, footer)
	}
	switch s.set.Expanded {
	case ExpandedOn:
		return &expandedWriter{w: out, footer: footer, null: s.set.Null}
	case ExpandedAuto:
		if s.cfg.TermSize != nil {
			if w, _, ok := s.cfg.TermSize(); ok {
				return &autoWriter{w: out, footer: footer, null: s.set.Null, width: w}
			}
		}
	}
	return &tableWriter{w: out, footer: footer, chunk: tableChunk, null: s.set.Null}
}

// pagerFor returns the pager of a result shown on a terminal when the
// pager is on, or nil.
func (s *Session) pagerFor(in IO) *pagedWriter {
	if !s.set.Pager || s.outFile != nil || !in.Interactive() || s.cfg.TermSize == nil {
		return nil
	}
	_, h, ok := s.cfg.TermSize()
	if !ok || h <= 0 {
		return nil
	}
	cmd := s.cfg.PagerCommand
	if cmd == "" {
		cmd = "less -SFX"
	}
	return &pagedWriter{out: in.Stdout(), height: h, cmd: cmd}
}

// releaseStore closes the store between statements (Config.ReleaseStore).
func (s *Session) releaseStore(in IO) {
	if err := s.eng.Close(); err != nil {
		fmt.Fprintf(in.Stderr(), "rkql: closing the store: %v\n", err)
	}
}
