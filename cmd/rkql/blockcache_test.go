package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/exec"
)

// --block-cache takes auto, on or off (auto when not given), and a bad
// value is a command-line error that names it.
func TestBlockCacheFlag(t *testing.T) {
	for args, want := range map[string]exec.BlockCache{"": exec.BlockCacheAuto, "--block-cache=off": exec.BlockCacheOff, "--block-cache=ON": exec.BlockCacheOn, "--block-cache=auto": exec.BlockCacheAuto} {
		o, err := parseShellFlags(strings.Fields(args), io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if o.blockCache != want {
			t.Errorf("%q: block cache %v, want %v", args, o.blockCache, want)
		}
	}
	_, err := parseShellFlags([]string{"--block-cache=maybe"}, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("--block-cache=maybe: %v", err)
	}
}
