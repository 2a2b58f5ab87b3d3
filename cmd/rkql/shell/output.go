package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// outputError is a failed write or flush of results: the disk is full,
// or whatever reads the output has gone. It ends the session, since every
// later result would be lost the same way.
type outputError struct{ err error }

func (e *outputError) Error() string { return "writing results: " + e.err.Error() }

func (e *outputError) Unwrap() error { return e.err }

// newOutputError wraps err, leaving out the "write /dev/stdout" an
// *os.File adds: the message says results, and the cause is what counts.
func newOutputError(err error) *outputError {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &outputError{err: err}
}

// checkedWriter remembers the first error of its writer, so that a failed
// write of results is told apart from a failed statement.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// flushOut flushes w if it buffers, and returns the error of the flush.
func flushOut(w io.Writer) error {
	if f, ok := w.(flusher); ok {
		if err := f.Flush(); err != nil {
			return newOutputError(err)
		}
	}
	return nil
}

// outputFailed reports a failed write of results once, and stops the
// session.
func (s *Session) outputFailed(in IO, err error) {
	if s.outErr {
		return
	}
	s.outErr = true
	var oe *outputError
	if !errors.As(err, &oe) {
		oe = newOutputError(err)
	}
	s.fail(in, fmt.Sprint(oe), "")
}
