package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// damageTables are the tables of the store the damage tests break.
var damageTables = []string{"ns:t3", "t1", "t2"}

// makeDamageStore writes a store with three tables of rows rows each and
// returns its file's bytes and every row, by table, as fmtRow prints it.
func makeDamageStore(t testing.TB, rows int) ([]byte, map[string][]string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := map[string][]string{}
	for ti, name := range damageTables {
		spec := exec.TableSpec{Name: name, Families: []exec.FamilySpec{{Name: "cf", Versions: 3}, {Name: "one"}}}
		if err := s.CreateTable(ctx, spec); err != nil {
			t.Fatal(err)
		}
		var muts []exec.Mutation
		for i := range rows {
			key := fmt.Sprintf("row%05d", i)
			muts = append(muts, exec.Mutation{Key: []byte(key), Cells: []exec.Cell{
				cell("cf:a", int64(100+i), strings.Repeat(string(rune('a'+ti)), 20+i%30)),
				cell("one:b", int64(200+i), key),
			}})
		}
		mustMutate(t, s, name, muts...)
		want[name] = scanRows(t, s, name, rng("-", "-"), exec.ReadOptions{})
		if len(want[name]) != rows {
			t.Fatalf("%s: wrote %d rows, read %d", name, rows, len(want[name]))
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	return b, want
}

// pageInfo is bbolt's own view of one page of an intact file.
type pageInfo struct {
	id       int
	typ      string
	count    int
	overflow int
}

// boltPages lists the pages of an intact store file as bbolt sees them.
func boltPages(t testing.TB, file []byte) []pageInfo {
	t.Helper()
	path := filepath.Join(t.TempDir(), "intact.db")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages []pageInfo
	err = db.View(func(tx *bolt.Tx) error {
		for id := 0; ; id++ {
			p, err := tx.Page(id)
			if err != nil {
				return err
			}
			if p == nil {
				return nil
			}
			pages = append(pages, pageInfo{id: p.ID, typ: p.Type, count: p.Count, overflow: p.OverflowCount})
			id += p.OverflowCount
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// damageCase is one way to break the file. lost is the number of rows the
// damage must cost, or -1 when the test cannot tell.
type damageCase struct {
	name    string
	damage  func([]byte) []byte
	damaged bool
	// checkOnly damage leaves the store readable, but check reports it.
	checkOnly bool
	lost      int
}

func damageCases(t testing.TB, file []byte) []damageCase {
	const ps = 4096
	trunc := func(n int) func([]byte) []byte {
		return func(b []byte) []byte { return b[:n] }
	}
	pages := boltPages(t, file)
	hwm := len(pages) * ps
	for _, p := range pages {
		hwm = max(hwm, (p.id+1+p.overflow)*ps)
	}
	older := 0
	if txid := func(id int) uint64 { return ne.Uint64(file[id*ps+pageHeaderSize+48:]) }; txid(1) < txid(0) {
		older = 1
	}
	cases := []damageCase{
		{name: "empty", damage: trunc(0), damaged: true, lost: -1},
		{name: "4KiB", damage: trunc(ps), damaged: true, lost: -1},
		{name: "8KiB", damage: trunc(2 * ps), damaged: true, lost: -1},
		{name: "16KiB", damage: trunc(4 * ps), damaged: true, lost: -1},
		{name: "half", damage: trunc(len(file) / 2 / ps * ps), damaged: true, lost: -1},
		{name: "last-page", damage: trunc(hwm - ps), damaged: true, lost: -1},
		{name: "last-byte", damage: trunc(hwm - 1), damaged: true, lost: -1},
		// bbolt grows the file ahead of its pages.
		{name: "slack", damage: trunc(hwm), lost: 0},
		// Of the two meta pages, the older is a spare.
		{name: "older-meta-zeroed", damage: zeroPage(older), checkOnly: true, lost: 0},
		{name: "metas-zeroed", damage: func(b []byte) []byte { return zeroPage(1)(zeroPage(0)(b)) }, damaged: true, lost: -1},
	}
	freeDone := false
	for i, p := range pages {
		switch {
		case p.typ == "free" && !freeDone:
			freeDone = true
			cases = append(cases, damageCase{name: fmt.Sprintf("free-%d-zeroed", p.id), damage: zeroPage(p.id), lost: 0})
		case p.typ == "branch" || p.typ == "leaf" && p.count >= 10 && i%4 == 0:
			lost := p.count
			if p.typ == "branch" {
				lost = -1
			}
			cases = append(cases,
				damageCase{name: fmt.Sprintf("%s-%d-zeroed", p.typ, p.id), damage: zeroPage(p.id), damaged: true, lost: lost},
				damageCase{name: fmt.Sprintf("%s-%d-id-flipped", p.typ, p.id), damage: flipBit(p.id, 0, 1), damaged: true, lost: lost},
				damageCase{name: fmt.Sprintf("%s-%d-type-flipped", p.typ, p.id), damage: flipBit(p.id, 8, 8), damaged: true, lost: lost},
				damageCase{name: fmt.Sprintf("%s-%d-count-flipped", p.typ, p.id), damage: flipBit(p.id, 11, 0x80), damaged: true, lost: lost},
			)
		}
	}
	if !freeDone {
		t.Fatal("the test store has no free page")
	}
	return cases
}

func zeroPage(id int) func([]byte) []byte {
	return func(b []byte) []byte {
		clear(b[id*4096 : (id+1)*4096])
		return b
	}
}

func flipBit(id, off int, mask byte) func([]byte) []byte {
	return func(b []byte) []byte {
		b[id*4096+off] ^= mask
		return b
	}
}

// openNoPanic opens dir, failing the test if Open panics.
func openNoPanic(t *testing.T, dir string) (s *Store, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Open panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return Open(dir, Options{NoSync: true, LockTimeout: 100 * time.Millisecond})
}

// damagedDir is a new store directory whose store file holds file.
func damagedDir(t *testing.T, file []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), file, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDamagedStore(t *testing.T) {
	file, want := makeDamageStore(t, 400)
	total := 0
	for _, rows := range want {
		total += len(rows)
	}
	for _, tc := range damageCases(t, file) {
		t.Run(tc.name, func(t *testing.T) {
			dir := damagedDir(t, tc.damage(append([]byte(nil), file...)))
			checkOpen(t, dir, tc.damaged, want)
			rep, err := Check(dir, Options{})
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			if rep.Damaged() != (tc.damaged || tc.checkOnly) {
				t.Fatalf("check: damaged = %v, want %v; problems: %q", rep.Damaged(), tc.damaged, rep.Problems)
			}
			for _, p := range rep.Problems {
				if strings.Contains(p, "\n") {
					t.Errorf("problem spans lines: %q", p)
				}
			}
			saved := checkRepair(t, dir, want)
			if tc.lost >= 0 && total-saved != tc.lost {
				t.Errorf("repair saved %d of %d rows, want %d lost", saved, total, tc.lost)
			}
		})
	}
}

// checkOpen opens a damaged store: it must fail with a one-line error that
// names the file, or, for harmless damage, hold every row.
func checkOpen(t *testing.T, dir string, damaged bool, want map[string][]string) {
	t.Helper()
	path := filepath.Join(dir, FileName)
	s, err := openNoPanic(t, dir)
	if !damaged {
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer s.Close()
		for name, rows := range want {
			if got := scanRows(t, s, name, rng("-", "-"), exec.ReadOptions{}); strings.Join(got, "\n") != strings.Join(rows, "\n") {
				t.Fatalf("%s: rows differ after harmless damage", name)
			}
		}
		return
	}
	if err == nil {
		s.Close()
		t.Fatal("open succeeded on a damaged store")
	}
	msg := err.Error()
	if !errors.Is(err, ErrDamaged) || strings.Contains(msg, "\n") || !strings.Contains(msg, path) ||
		!strings.Contains(msg, "rkql store repair") {
		t.Fatalf("open: want a one-line damage error naming %s, got %q", path, msg)
	}
}

// checkRepair repairs dir and checks that the result opens, is sound, and
// holds only rows of the original store, as many as the report says. It
// returns the number of rows saved.
func checkRepair(t *testing.T, dir string, want map[string][]string) int {
	t.Helper()
	_, saved := checkRepairWith(t, dir, want, Options{})
	return saved
}

// checkRepairWith is checkRepair with options, returning the report too.
func checkRepairWith(t *testing.T, dir string, want map[string][]string, opts Options) (*RepairReport, int) {
	t.Helper()
	opts.NoSync = true
	rep, err := Repair(dir, opts)
	if err != nil {
		t.Fatalf("repair: %v", err)
	}
	if _, err := os.Stat(rep.Kept); err != nil {
		t.Fatalf("the damaged file was not kept: %v", err)
	}
	if after, err := Check(dir, Options{}); err != nil || after.Damaged() {
		t.Fatalf("check after repair: %v %q", err, after.Problems)
	}
	s, err := openNoPanic(t, dir)
	if err != nil {
		t.Fatalf("open after repair: %v", err)
	}
	defer s.Close()
	reported := map[string]int64{}
	for _, tr := range rep.Tables {
		reported[tr.Name] = tr.Rows
	}
	names, _ := s.Tables(context.Background())
	saved := 0
	for _, name := range names {
		orig := map[string]bool{}
		for _, r := range want[name] {
			orig[r] = true
		}
		got := scanRows(t, s, name, rng("-", "-"), exec.ReadOptions{})
		for _, r := range got {
			if !orig[r] {
				t.Fatalf("%s: repair invented row %q", name, r)
			}
		}
		if int64(len(got)) != reported[name] {
			t.Errorf("%s: repair reports %d rows saved, the store holds %d", name, reported[name], len(got))
		}
		saved += len(got)
	}
	return rep, saved
}

// TestFailedOpenReleasesLock opens a store that fails its check after
// bbolt took the lock, then the same store mended: the second Open must
// not find the file locked by the first.
func TestFailedOpenReleasesLock(t *testing.T) {
	file, want := makeDamageStore(t, 400)
	var leaf int
	for _, p := range boltPages(t, file) {
		if p.typ == "leaf" && p.count >= 10 {
			leaf = p.id
		}
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		open   func(dir string) error
	}{
		// The pages are checked after bbolt opened the file.
		{"zeroed-leaf", zeroPage(leaf), func(dir string) error {
			s, err := Open(dir, Options{NoSync: true, LockTimeout: 100 * time.Millisecond})
			if err == nil {
				s.Close()
			}
			return err
		}},
		// bbolt itself reads past the end of the file (the quick check
		// that would stop this first is skipped).
		{"truncated-under-bbolt", func(b []byte) []byte { return b[:2*4096] }, func(dir string) error {
			db, err := openBolt(filepath.Join(dir, FileName), &bolt.Options{Timeout: 100 * time.Millisecond})
			if err == nil {
				err = checkSize(db, filepath.Join(dir, FileName))
				db.Close()
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, tc.damage(append([]byte(nil), file...)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.open(dir); !errors.Is(err, ErrDamaged) {
				t.Fatalf("open of the damaged store: %v, want a damage error", err)
			}
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir, Options{NoSync: true, LockTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatalf("open after a failed open: %v", err)
			}
			defer s.Close()
			if got := scanRows(t, s, "t1", rng("-", "-"), exec.ReadOptions{}); len(got) != len(want["t1"]) {
				t.Fatalf("t1 has %d rows, want %d", len(got), len(want["t1"]))
			}
		})
	}
}

// TestMissingFileIsNewStore: no file is a new store; an empty one is not.
func TestMissingFileIsNewStore(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, dir, Options{})
	if names, _ := s.Tables(context.Background()); len(names) != 0 {
		t.Fatalf("new store has tables %v", names)
	}
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir2, Options{})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "file is empty") {
		t.Fatalf("open of an empty file: %v", err)
	}
}
