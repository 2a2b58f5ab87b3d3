//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package embedded

import "errors"

// mapFile is not available here: the reads that would walk the file's
// pages use bbolt's cursor instead.
func mapFile(string, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmapFile([]byte) error { return nil }
