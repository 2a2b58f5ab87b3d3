package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/parser"
)

// source is where a chunk of statements came from, for error positions.
type source struct {
	// name is the file name, or "" for -e, stdin and the REPL.
	name string
	// line is the line of the input where the chunk starts; positions in an
	// interactive chunk are relative to the chunk, so it is then 1.
	line int
	// text is the chunk: one or more statements as read.
	text string
	// caret adds the source line and a caret under an error.
	caret bool
	// generated is SQL a meta-command wrote: its positions mean nothing
	// to the user, so errors leave them out.
	generated bool
}

// Run reads lines from in and runs them until the end of input or a quit.
// It returns ErrFailed if a statement failed, and an error of in otherwise.
func (s *Session) Run(ctx context.Context, in IO) error {
	return s.RunNamed(ctx, in, "")
}

// RunNamed is Run for input read from the named file: error positions
// start with the name.
func (s *Session) RunNamed(ctx context.Context, in IO, name string) error {
	if s.outErr {
		// Results can no longer be written: run nothing more.
		return ErrFailed
	}
	s.failed = false
	inter := in.Interactive()
	lines := &lineReader{in: in}
	var buf strings.Builder
	lineNo, start := 0, 1
	for {
		prompt := PromptMain
		if buf.Len() > 0 {
			prompt = PromptCont
		}
		flush(in.Stdout())
		line, err := lines.next(prompt)
		if errors.Is(err, io.EOF) {
			if strings.TrimSpace(buf.String()) != "" {
				s.runChunk(ctx, in, source{name: name, line: start, text: buf.String(), caret: s.set.Caret})
			}
			break
		}
		if err != nil {
			return err
		}
		lineNo++
		line = s.substitute(line)
		if buf.Len() == 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if isMeta(line) {
				if s.meta(ctx, in, line) {
					break
				}
				if s.stop() {
					break
				}
				continue
			}
			start = lineNo
			if inter {
				start = 1
			}
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		if parser.Complete(buf.String()) {
			s.runChunk(ctx, in, source{name: name, line: start, text: buf.String(), caret: s.set.Caret})
			buf.Reset()
			if s.stop() {
				break
			}
		}
	}
	if err := flushOut(in.Stdout()); err != nil {
		s.outputFailed(in, err)
	}
	if s.failed {
		return ErrFailed
	}
	return nil
}

// lineReader hands out the lines of an IO one at a time: an editor that
// lets the user edit a whole statement returns several lines from one
// ReadLine, and each is then taken as if it had been typed on its own, so
// meta-commands, statement ends and positions work as they do for single
// lines.
type lineReader struct {
	in      IO
	pending []string
}

func (r *lineReader) next(prompt string) (string, error) {
	if len(r.pending) == 0 {
		text, err := r.in.ReadLine(prompt)
		if err != nil {
			return "", err
		}
		r.pending = strings.Split(text, "\n")
	}
	line := strings.TrimSuffix(r.pending[0], "\r")
	r.pending = r.pending[1:]
	return line, nil
}

func (s *Session) stop() bool { return s.outErr || s.failed && s.set.StopOnError }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// fail reports a failed statement as one line, with an optional context
// block (source line and caret) under it.
func (s *Session) fail(in IO, msg, context string) {
	s.failed = true
	s.failures++
	flush(in.Stdout())
	w := in.Stderr()
	msg = strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", " ")
	fmt.Fprintf(w, "rkql: %s\n", msg)
	if context != "" {
		fmt.Fprintf(w, "%s\n", context)
	}
	flush(w)
}

// runChunk splits a chunk into statements at each ';' token, and runs them
// in order. A ';' in a string, quoted name or comment is no token, and
// malformed text is left for the parser to report.
func (s *Session) runChunk(ctx context.Context, in IO, src source) {
	text := src.text
	if !src.generated && s.depth == 0 {
		s.last = text
	}
	from := 0
	sc := parser.NewScanner(text, 0)
	for {
		t, _ := sc.Next()
		if t.Kind == parser.EOF {
			break
		}
		if t.Kind != parser.Op || t.Text != ";" {
			continue
		}
		end := int(t.End())
		s.runStatement(ctx, in, src, from, text[from:end])
		from = end
		if s.stop() {
			return
		}
	}
	if strings.TrimSpace(text[from:]) != "" {
		s.runStatement(ctx, in, src, from, text[from:])
	}
}

// position renders offset off of the chunk as "[name:]line:col".
func (src source) position(off int) string {
	line, col := parser.Position(src.text, parser.Pos(off))
	line += src.line - 1
	if src.name != "" {
		return fmt.Sprintf("%s:%d:%d", src.name, line, col)
	}
	return fmt.Sprintf("%d:%d", line, col)
}

// prefix is what a message without a position starts with: the file and
// line of the statement for a file, nothing otherwise.
func (src source) prefix(off int) string {
	if src.name == "" {
		return ""
	}
	line, _ := parser.Position(src.text, parser.Pos(off))
	return fmt.Sprintf("%s:%d: ", src.name, line+src.line-1)
}

// context is the source line and a caret under offset off, when carets
// are on.
func (src source) context(off int) string {
	if !src.caret {
		return ""
	}
	e := &parser.Error{Pos: parser.Pos(off)}
	return e.Context(src.text)
}
