//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package embedded

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockFile takes the same flock bbolt takes, shared or exclusive, waiting
// up to timeout (not at all when it is negative).
func lockFile(f *os.File, exclusive bool, timeout time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if timeout < 0 || time.Now().After(deadline) {
			return ErrInUse
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// unlockFile drops f's flock. Closing f is not enough when bbolt left a
// memory map of it behind: the map keeps the file, and so the lock, alive.
func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
