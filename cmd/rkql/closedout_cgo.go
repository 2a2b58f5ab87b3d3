//go:build linux && cgo

package main

// Go's runtime reopens a standard stream that the process started without
// on /dev/null before any Go code runs, and that /dev/null looks exactly
// like one opened on purpose (say by Python's subprocess.DEVNULL). A C
// constructor runs before the runtime starts, so it sees the streams as
// they were given.

/*
#include <errno.h>
#include <fcntl.h>

// rkql_closed_fds has bit i set when file descriptor i was closed as the
// process started.
int rkql_closed_fds = 0;

__attribute__((constructor)) static void rkql_check_fds(void) {
	for (int i = 0; i < 3; i++) {
		if (fcntl(i, F_GETFD) < 0 && errno == EBADF) {
			rkql_closed_fds |= 1 << i;
		}
	}
}
*/
import "C"

// stdoutClosed reports whether the process started with file descriptor 1
// closed (rkql … >&-).
func stdoutClosed() bool { return C.rkql_closed_fds&2 != 0 }
