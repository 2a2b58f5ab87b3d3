package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkStartup runs `rkql -e 'SHOW TABLES'` on an existing store: as a
// process (the start-up a user waits for), in process (flags, catalog,
// session, store open, statement), and, as the raw baseline, a process that
// does nothing (/bin/true).
//
//	go test -run XXX -bench Startup ./cmd/rkql/
func BenchmarkStartup(b *testing.B) {
	store := b.TempDir()
	args := []string{"--store", store, "--catalog", "../../examples/catalog.yaml", "-e", "SHOW TABLES"}
	if out, err := exec.Command(rkqlBin, args...).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	b.Run("process", func(b *testing.B) {
		for b.Loop() {
			out, err := exec.Command(rkqlBin, args...).Output()
			if err != nil || !bytes.Contains(out, []byte("logs")) {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
	b.Run("inprocess", func(b *testing.B) {
		for b.Loop() {
			var out, errw strings.Builder
			if code := run(context.Background(), args, env{stdout: &out, stderr: &errw, stdin: strings.NewReader("")}); code != 0 || !strings.Contains(out.String(), "logs") {
				b.Fatalf("exit %d: %s", code, errw.String())
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
