package embedded

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/rkql/rkql/exec"
)

// FuzzOpenStore opens store files of arbitrary bytes. Open must never
// panic; when it accepts a file, scanning every table must not panic or
// fault either (scan errors are fine).
func FuzzOpenStore(f *testing.F) {
	file, _ := makeDamageStore(f, 40)
	f.Add(file)
	f.Add(file[:8192])
	f.Add([]byte{})
	for _, id := range []int{2, 3, 4} {
		if (id+1)*4096 <= len(file) {
			f.Add(zeroPage(id)(append([]byte(nil), file...)))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := openNoPanic(t, dir)
		if err != nil {
			return
		}
		defer s.Close()
		prev := debug.SetPanicOnFault(true)
		defer debug.SetPanicOnFault(prev)
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("scan of a store Open accepted panicked: %v\n%s", r, debug.Stack())
			}
		}()
		ctx := context.Background()
		names, _ := s.Tables(ctx)
		for _, name := range names {
			it, err := s.Scan(ctx, name, exec.Range{}, exec.ReadOptions{})
			if err != nil {
				continue
			}
			_, _ = drain(ctx, it)
			_, _ = s.Count(ctx, name)
		}
	})
}
