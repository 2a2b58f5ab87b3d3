package shell

import (
	"context"
	"errors"
	"io"
	"strings"
)

// confirmer returns what answers the engine's questions before a statement
// removes rows or tables: --yes answers yes; a person at the REPL is asked
// and must type y or yes; a script is answered no (the statement then
// says what it did not do).
func (s *Session) confirmer(in IO) func(ctx context.Context, question string) (bool, error) {
	return func(ctx context.Context, question string) (bool, error) {
		if s.set.Yes {
			return true, nil
		}
		if !in.Interactive() {
			return false, nil
		}
		if p := s.progress; p != nil {
			p.pause()
			defer p.resume()
		}
		flushOut(in.Stdout())
		line, err := in.ReadLine(question + "? [y/N] ")
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, ctx.Err()
		}
		return false, nil
	}
}
