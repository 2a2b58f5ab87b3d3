//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package engine

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive flock if no other open file holds it, and
// reports whether it did.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// unlock drops f's flock.
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
