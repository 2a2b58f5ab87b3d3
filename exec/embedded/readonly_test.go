package embedded

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
)

// Readers share the store; a writer waits for them, and they for it.
func TestReadOnlySharesLock(t *testing.T) {
	dir := t.TempDir()
	w := openTest(t, dir, Options{})
	if err := w.CreateTable(context.Background(), testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	putKeys(t, w, "t1", "a", "b")
	if _, err := Open(dir, Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("read-only open beside a writer: %v, want ErrInUse", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	r1 := openTest(t, dir, Options{ReadOnly: true, LockTimeout: -1})
	r2 := openTest(t, dir, Options{ReadOnly: true, LockTimeout: -1})
	for _, r := range []*Store{r1, r2} {
		if got := scanKeys(t, r, "t1", rng("-", "-"), exec.ReadOptions{}); got != "a,b" {
			t.Errorf("reader sees %q, want a,b", got)
		}
	}
	if _, err := Open(dir, Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("writer beside readers: %v, want ErrInUse", err)
	}
	// Check reads under the same shared lock; Repair writes.
	if rep, err := Check(dir, Options{LockTimeout: 50 * time.Millisecond}); err != nil || rep.Damaged() {
		t.Fatalf("check beside readers: %v", err)
	}
	if _, err := Repair(dir, Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("repair beside readers: %v, want ErrInUse", err)
	}
	_ = r1.Close()
	_ = r2.Close()
	w = openTest(t, dir, Options{LockTimeout: -1})
	putKeys(t, w, "t1", "c")
}

// A read-only store writes nothing: not a missing store, not a table it
// is asked to create, not a row.
func TestReadOnlyWritesNothing(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "none")
	s, err := Open(missing, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, testSpec("t1")); err != nil {
		t.Fatalf("create table in memory: %v", err)
	}
	checkEmptyTable(t, s, "t1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read-only open of a missing store made %s (%v)", missing, err)
	}

	dir := t.TempDir()
	w := openTest(t, dir, Options{})
	if err := w.CreateTable(ctx, testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	putKeys(t, w, "t1", "a")
	_ = w.Close()
	file := filepath.Join(dir, FileName)
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := openTest(t, dir, Options{ReadOnly: true})
	if err := r.CreateTable(ctx, testSpec("t1")); !errors.Is(err, exec.ErrTableExists) {
		t.Errorf("create of a stored table: %v, want ErrTableExists", err)
	}
	if err := r.CreateTable(ctx, testSpec("t2")); err != nil {
		t.Fatalf("create table in memory: %v", err)
	}
	checkEmptyTable(t, r, "t2")
	if names, err := r.Tables(ctx); err != nil || len(names) != 1 || names[0] != "t1" {
		t.Errorf("tables %v (%v), want the stored t1 only", names, err)
	}
	if got := scanKeys(t, r, "t1", rng("-", "-"), exec.ReadOptions{}); got != "a" {
		t.Errorf("t1 reads %q, want a", got)
	}
	if err := r.Mutate(ctx, "t1", []exec.Mutation{{Key: []byte("b"), Cells: []exec.Cell{cell("cf:q", 1, "b")}}}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write: %v, want ErrReadOnly", err)
	}
	if err := r.DropTable(ctx, "t1"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("drop: %v, want ErrReadOnly", err)
	}
	_ = r.Close()
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("a read-only store changed its file")
	}
	w = openTest(t, dir, Options{})
	if names, err := w.Tables(ctx); err != nil || len(names) != 1 {
		t.Errorf("tables after the read-only store: %v (%v), want t1 only", names, err)
	}
}

// checkEmptyTable checks that every read of table finds nothing.
func checkEmptyTable(t *testing.T, s *Store, table string) {
	t.Helper()
	ctx := context.Background()
	if got := scanKeys(t, s, table, rng("-", "-"), exec.ReadOptions{}); got != "" {
		t.Errorf("scan of %s: %q, want nothing", table, got)
	}
	if rows, err := s.Get(ctx, table, [][]byte{[]byte("a")}, exec.ReadOptions{}); err != nil || len(rows) != 0 {
		t.Errorf("get from %s: %d rows, %v", table, len(rows), err)
	}
	n := 0
	err := s.ScanKeys(ctx, table, exec.Range{}, exec.ReadOptions{Columns: []int{}}, func([]byte) error { n++; return nil })
	if err != nil || n != 0 {
		t.Errorf("keys of %s: %d, %v", table, n, err)
	}
	if c, err := s.Count(ctx, table); err != nil || c != 0 {
		t.Errorf("count of %s: %d, %v", table, c, err)
	}
	if regions, err := s.Regions(ctx, table); err != nil || len(regions) != 3 {
		t.Errorf("regions of %s: %d, %v, want the 3 of its splits", table, len(regions), err)
	}
}

// A read-only open checks the file as an open for writing does.
func TestDamagedStoreReadOnly(t *testing.T) {
	file, _ := makeDamageStore(t, 100)
	for _, tc := range damageCases(t, file) {
		t.Run(tc.name, func(t *testing.T) {
			dir := damagedDir(t, tc.damage(append([]byte(nil), file...)))
			s, err := Open(dir, Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond})
			if err == nil {
				_ = s.Close()
			}
			if errors.Is(err, ErrDamaged) != tc.damaged || (err != nil && !tc.damaged) {
				t.Fatalf("read-only open: %v, damaged %v", err, tc.damaged)
			}
		})
	}
}
