package main

import "errors"

// errStdoutClosed is what writing results to a standard output that was
// closed when rkql started fails with.
var errStdoutClosed = errors.New("standard output is closed")

// closedWriter stands for a standard output that was closed at start-up:
// every write fails, so that results are not silently lost.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, errStdoutClosed }
