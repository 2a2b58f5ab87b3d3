package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rkql/rkql/exec"
)

// BenchmarkOpen opens a store of about 20 MB with every page checked, and,
// as the baseline, with the quick check only.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateTable(ctx, exec.TableSpec{Name: "t", Families: []exec.FamilySpec{{Name: "cf"}}}); err != nil {
		b.Fatal(err)
	}
	muts := make([]exec.Mutation, 0, 200_000)
	for i := range cap(muts) {
		muts = append(muts, exec.Mutation{Key: fmt.Appendf(nil, "key%08d", i), Cells: []exec.Cell{cell("cf:q", 1, fmt.Sprintf("value-%060d", i))}})
	}
	mustMutate(b, s, "t", muts...)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(dir, FileName))
	b.Logf("store file: %d bytes", st.Size())
	for _, bc := range []struct {
		name  string
		limit int64
	}{{"verify", 0}, {"quick", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				s, err := Open(dir, Options{NoSync: true, VerifyLimit: bc.limit})
				if err != nil {
					b.Fatal(err)
				}
				_ = s.Close()
			}
		})
	}
}
