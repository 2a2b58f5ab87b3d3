package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
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

// --parallel takes auto or a number from 1 to 64 (auto when not given),
// and a bad value is a command-line error that names it.
func TestParallelFlag(t *testing.T) {
	for args, want := range map[string]engine.Parallel{"": engine.ParallelAuto, "--parallel=auto": engine.ParallelAuto, "--parallel=1": 1, "--parallel=4": 4, "--parallel=64": 64} {
		o, err := parseShellFlags(strings.Fields(args), io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if o.parallel != want {
			t.Errorf("%q: parallel %v, want %v", args, o.parallel, want)
		}
	}
	for _, bad := range []string{"0", "65", "-1", "many"} {
		_, err := parseShellFlags([]string{"--parallel=" + bad}, io.Discard)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("--parallel=%s: %v", bad, err)
		}
	}
}

// --parallel reaches the reads: EXPLAIN says the read is parallel with
// it, and not with --parallel 1.
func TestParallelFlagReads(t *testing.T) {
	for _, tt := range []struct {
		flag string
		want bool
	}{{"4", true}, {"1", false}} {
		var out, errw strings.Builder
		args := []string{"--store", t.TempDir(), "--parallel", tt.flag,
			"-e", "INSERT INTO orders (seller, ts, order_id, amount) VALUES ('s1', '2024-01-01', 1, 2.5)", "-e", "EXPLAIN SELECT COUNT(*) FROM orders WHERE amount > 1 ALLOW FULL SCAN"}
		if code := run(context.Background(), args, env{stdout: &out, stderr: &errw, stdin: strings.NewReader("")}); code != 0 {
			t.Fatalf("--parallel %s: exit %d: %s", tt.flag, code, errw.String())
		}
		if got := strings.Contains(out.String(), "CLIENT PARALLEL 16-WAY OVER REGIONS, 4 WORKERS"); got != tt.want {
			t.Errorf("--parallel %s: EXPLAIN says parallel %v, want %v:\n%s", tt.flag, got, tt.want, out.String())
		}
	}
}
