package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// damagedStore writes a store with one table of n rows, then zeroes one of
// its leaf pages that holds rows, and returns the directory and how many
// rows that page held.
func damagedStore(t *testing.T, n int) (string, int) {
	t.Helper()
	dir := t.TempDir()
	s, err := embedded.Open(dir, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateTable(ctx, exec.TableSpec{Name: "t", Families: []exec.FamilySpec{{Name: "cf"}}}); err != nil {
		t.Fatal(err)
	}
	var muts []exec.Mutation
	for i := range n {
		muts = append(muts, exec.Mutation{Key: fmt.Appendf(nil, "k%05d", i), Cells: []exec.Cell{{Family: "cf", Qualifier: "q", Timestamp: 1, Value: []byte(strings.Repeat("v", 40))}}})
	}
	if err := s.Mutate(ctx, "t", muts); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, embedded.FileName)
	db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	leaf, count := -1, 0
	_ = db.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type == "leaf" && p.Count >= 10 {
				leaf, count = p.ID, p.Count
			}
		}
	})
	db.Close()
	if leaf < 0 {
		t.Fatal("no leaf page with rows")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clear(b[leaf*4096 : (leaf+1)*4096])
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, count
}

func TestStoreCheckRepair(t *testing.T) {
	const n = 600
	dir, lost := damagedStore(t, n)

	r := rkql(t, "", "--store", dir, "--catalog", fixedCatalog, "-e", "SHOW TABLES")
	if r.code != exitFail || !strings.Contains(r.stderr, "is damaged") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("statement on a damaged store: exit %d, stderr %q", r.code, r.stderr)
	}

	r = rkql(t, "", "store", "check", "--store", dir)
	if r.code != exitFail || !strings.Contains(r.stdout, "problem: ") || !strings.Contains(r.stderr, "is damaged") {
		t.Fatalf("store check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = rkql(t, "", "--store", dir, "store", "repair")
	want := fmt.Sprintf("table t: saved %d rows", n-lost)
	if r.code != exitOK || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "rkql.db.damaged-") {
		t.Fatalf("store repair: exit %d, want %q in\n%s%s", r.code, want, r.stdout, r.stderr)
	}

	r = rkql(t, "", "store", "check", "--store", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, fmt.Sprintf("table t: %d rows readable", n-lost)) || !strings.Contains(r.stdout, "is sound") {
		t.Fatalf("store check after repair: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestStoreTruncated(t *testing.T) {
	for _, size := range []int{0, 4096, 8192} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			dir, _ := damagedStore(t, 50)
			if err := os.Truncate(filepath.Join(dir, embedded.FileName), int64(size)); err != nil {
				t.Fatal(err)
			}
			r := rkql(t, "", "--store", dir, "--catalog", fixedCatalog, "-e", "SHOW TABLES")
			if r.code != exitFail || !strings.Contains(r.stderr, "is damaged") || strings.Contains(r.stderr, "goroutine") {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if r = rkql(t, "", "store", "check", "--store", dir); r.code != exitFail {
				t.Fatalf("store check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r = rkql(t, "", "store", "repair", "--store", dir); r.code != exitOK {
				t.Fatalf("store repair: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r = rkql(t, "", "--store", dir, "--catalog", fixedCatalog, "-e", "SHOW TABLES"); r.code != exitOK {
				t.Fatalf("after repair: exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

func TestStoreUsage(t *testing.T) {
	for _, args := range [][]string{
		{"store"},
		{"store", "mend"},
		{"store", "check", "repair"},
		{"store", "check", "--zk", "h:1"},
		{"store", "check", "--bogus"},
	} {
		r := rkql(t, "", args...)
		if r.code != exitUsage || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}
