package main

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitPipeDrained waits (reading the pipe's fill with TIOCINQ) until the reader at the other end has taken every
// byte written to the pipe whose read end is r.
func waitPipeDrained(t *testing.T, r *os.File) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
		if err != nil {
			t.Fatalf("FIONREAD: %v", err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pipe still holds %d unread bytes after a minute", n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
