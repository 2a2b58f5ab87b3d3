//go:build !linux

package main

// stdoutClosed reports whether the process started with file descriptor 1
// closed; only Linux can tell (see closedout_linux.go), elsewhere it is
// taken to be open.
func stdoutClosed() bool { return false }
