//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package embedded

import (
	"os"
	"time"
)

// lockFile does nothing where there is no flock; bbolt's own lock still
// guards Open.
func lockFile(*os.File, bool, time.Duration) error { return nil }

func unlockFile(*os.File) {}
