package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// stdoutClosed reports whether the process started with file descriptor 1
// closed, as `rkql … >&-` starts it. Go's runtime does not leave a
// standard descriptor closed: at start-up it opens /dev/null in its place
// with open("/dev/null", O_RDWR) (runtime.checkfds), so every write to it
// would succeed and be lost. Such a descriptor is /dev/null open for
// reading and writing with no other flag (but O_LARGEFILE, which the
// kernel adds). A
// shell's >/dev/null opens it write-only, and >>/dev/null with O_APPEND,
// so both still count as open; 1<>/dev/null cannot be told apart and
// counts as closed.
func stdoutClosed() bool {
	if target, err := os.Readlink("/proc/self/fd/1"); err != nil || target != os.DevNull {
		return false
	}
	info, err := os.ReadFile("/proc/self/fdinfo/1")
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(info))
	for sc.Scan() {
		v, ok := bytes.CutPrefix(sc.Bytes(), []byte("flags:"))
		if !ok {
			continue
		}
		flags, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 32)
		// O_LARGEFILE is left out: Go's syscall calls it 0 where the
		// kernel shows it (0100000 on amd64).
		const others = syscall.O_APPEND | syscall.O_NONBLOCK | syscall.O_CLOEXEC | syscall.O_SYNC | syscall.O_DIRECT | syscall.O_ASYNC
		return err == nil && flags&syscall.O_ACCMODE == syscall.O_RDWR && flags&others == 0
	}
	return false
}
