//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package embedded

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of the file at path, read-only. The
// map outlives the file descriptor.
func mapFile(path string, size int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
