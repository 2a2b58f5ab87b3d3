package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
)

func TestCreateTable(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{})
	fam := []exec.FamilySpec{{Name: "f"}}
	tests := []struct {
		spec exec.TableSpec
		want string // error text, "" for success
	}{
		{exec.TableSpec{Name: "plain", Families: fam}, ""},
		{exec.TableSpec{Name: "ns:table_1.x-y", Families: fam}, ""},
		{exec.TableSpec{Name: "plain", Families: fam}, "embedded: create table plain: exec: table already exists"},
		{exec.TableSpec{Name: "", Families: fam}, `embedded: invalid table name ""`},
		{exec.TableSpec{Name: "#meta", Families: fam}, `embedded: invalid table name "#meta"`},
		{exec.TableSpec{Name: ":t", Families: fam}, `embedded: invalid table name ":t"`},
		{exec.TableSpec{Name: "a:b:c", Families: fam}, `embedded: invalid table name "a:b:c"`},
		{exec.TableSpec{Name: ".t", Families: fam}, `embedded: invalid table name ".t"`},
		{exec.TableSpec{Name: "nofam"}, "embedded: create table nofam: no column families"},
		{exec.TableSpec{Name: "dup", Families: []exec.FamilySpec{{Name: "f"}, {Name: "f"}}},
			"embedded: create table dup: family f given twice"},
		{exec.TableSpec{Name: "colon", Families: []exec.FamilySpec{{Name: "a:b"}}},
			`embedded: create table colon: family name "a:b" contains ':' or a NUL byte`},
		{exec.TableSpec{Name: "neg", Families: []exec.FamilySpec{{Name: "f", TTL: -1}}},
			"embedded: create table neg: family f: negative TTL"},
		{exec.TableSpec{Name: "splits", Families: fam, Splits: [][]byte{[]byte("b"), []byte("a")}},
			"embedded: create table splits: split keys not strictly ascending at a"},
		{exec.TableSpec{Name: "splits", Families: fam, Splits: [][]byte{{}}},
			"embedded: create table splits: empty split key"},
	}
	for _, tc := range tests {
		err := s.CreateTable(ctx, tc.spec)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("create %q: %v", tc.spec.Name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("create %q: got %v, want %q", tc.spec.Name, err, tc.want)
		}
	}
	if err := s.CreateTable(ctx, exec.TableSpec{Name: "plain", Families: fam}); !errors.Is(err, exec.ErrTableExists) {
		t.Errorf("create twice: %v, want ErrTableExists", err)
	}
	tables, err := s.Tables(ctx)
	if err != nil || !slices.Equal(tables, []string{"ns:table_1.x-y", "plain"}) {
		t.Errorf("tables = %q, %v", tables, err)
	}
}

func TestUnknownTable(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, Options{})
	calls := map[string]func() error{
		"get": func() error { _, err := s.Get(ctx, "nope", nil, exec.ReadOptions{}); return err },
		"scan": func() error {
			_, err := s.Scan(ctx, "nope", exec.Range{}, exec.ReadOptions{})
			return err
		},
		"mutate":  func() error { return s.Mutate(ctx, "nope", []exec.Mutation{put("a", cell("cf:q", 1, "x"))}) },
		"regions": func() error { _, err := s.Regions(ctx, "nope"); return err },
		"count":   func() error { _, err := s.Count(ctx, "nope"); return err },
		"drop":    func() error { return s.DropTable(ctx, "nope") },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, exec.ErrTableNotFound) || err.Error() != "embedded: table nope: exec: table not found" {
			t.Errorf("%s: got %v, want table not found", name, err)
		}
	}
}

func TestDropTable(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, Options{ScanBatch: 2})
	putKeys(t, s, "t1", "a", "b", "c", "d", "e")
	it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if _, err := it.Next(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.DropTable(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	// The open scan has one buffered row, then fails on its refill.
	if _, err := it.Next(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Next(ctx); !errors.Is(err, exec.ErrTableNotFound) {
		t.Errorf("scan after drop: %v, want table not found", err)
	}
	if tables, _ := s.Tables(ctx); len(tables) != 0 {
		t.Errorf("tables after drop: %q", tables)
	}
	// The name can be reused, and the new table is empty.
	if err := s.CreateTable(ctx, testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count(ctx, "t1"); err != nil || n != 0 {
		t.Errorf("count after re-create = %d, %v", n, err)
	}

	// A scan opened before a drop and re-create does not read the new
	// table with the old one's families.
	putKeys(t, s, "t1", "a", "b", "c", "d", "e")
	it, err = s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if _, err := it.Next(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.DropTable(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	other := exec.TableSpec{Name: "t1", Families: []exec.FamilySpec{{Name: "other"}}}
	if err := s.CreateTable(ctx, other); err != nil {
		t.Fatal(err)
	}
	_, _ = it.Next(ctx) // the buffered row
	want := "embedded: table t1 was dropped and created again"
	if _, err := it.Next(ctx); err == nil || err.Error() != want {
		t.Errorf("scan across re-create: %v, want %q", err, want)
	}
}

func TestRegions(t *testing.T) {
	clock := newTestClock()
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{Clock: clock.Now})
	spec := exec.TableSpec{Name: "ns:t", Families: []exec.FamilySpec{{Name: "f"}},
		Splits: [][]byte{{0x00, 0xff}, []byte("m\\")}}
	if err := s.CreateTable(ctx, spec); err != nil {
		t.Fatal(err)
	}
	regions, err := s.Regions(ctx, "ns:t")
	if err != nil {
		t.Fatal(err)
	}
	id := clock.Now().UnixMilli()
	want := []exec.Region{
		{Name: fmt.Sprintf("ns:t,,%d.", id), StartKey: nil, EndKey: []byte{0, 0xff}, Server: "embedded"},
		{Name: fmt.Sprintf(`ns:t,\x00\xFF,%d.`, id), StartKey: []byte{0, 0xff}, EndKey: []byte("m\\"), Server: "embedded"},
		{Name: fmt.Sprintf(`ns:t,m\x5C,%d.`, id), StartKey: []byte("m\\"), EndKey: nil, Server: "embedded"},
	}
	if len(regions) != len(want) {
		t.Fatalf("got %d regions, want %d", len(regions), len(want))
	}
	for i, r := range regions {
		w := want[i]
		if r.Name != w.Name || !bytes.Equal(r.StartKey, w.StartKey) || !bytes.Equal(r.EndKey, w.EndKey) || r.Server != w.Server {
			t.Errorf("region %d: got %+v, want %+v", i, r, w)
		}
	}
	// Changing the caller's spec must not change the stored one.
	spec.Splits[0][0] = 'z'
	if regions, _ := s.Regions(ctx, "ns:t"); regions[0].EndKey[0] != 0 {
		t.Error("stored splits alias the caller's")
	}
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, testSpec("ns:t1")); err != nil {
		t.Fatal(err)
	}
	mustMutate(t, s, "ns:t1", put("a", cell("cf:q", 3, "x"), cell("cf:q", 4, "y"), cell("ttl:z", 5, "w")), put("b", cell("one:q", 1, "v")))
	wantRows := scanRows(t, s, "ns:t1", exec.Range{}, exec.ReadOptions{Versions: 3})
	wantRegions, _ := s.Regions(ctx, "ns:t1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Mutate(ctx, "ns:t1", []exec.Mutation{put("c", cell("cf:q", 1, "x"))}); err == nil {
		t.Error("mutate on a closed store succeeded")
	}

	s = openTest(t, dir, Options{})
	got := scanRows(t, s, "ns:t1", exec.Range{}, exec.ReadOptions{Versions: 3})
	if !slices.Equal(got, wantRows) || len(got) != 2 {
		t.Errorf("after reopen: %q, want %q", got, wantRows)
	}
	regions, _ := s.Regions(ctx, "ns:t1")
	if len(regions) != 3 || regions[1].Name != wantRegions[1].Name {
		t.Errorf("regions after reopen: %+v, want %+v", regions, wantRegions)
	}
	spec, err := s.Spec(ctx, "ns:t1")
	if err != nil || len(spec.Families) != 3 || spec.Families[0].Versions != 3 || spec.Families[2].TTL != 60 {
		t.Errorf("spec after reopen: %+v, %v", spec, err)
	}
}

func TestLockTimeout(t *testing.T) {
	dir := t.TempDir()
	openTest(t, dir, Options{})
	start := time.Now()
	s2, err := Open(dir, Options{LockTimeout: 100 * time.Millisecond})
	if err == nil {
		_ = s2.Close()
		t.Fatal("second open succeeded")
	}
	if !errors.Is(err, ErrInUse) {
		t.Errorf("error %v does not match ErrInUse", err)
	}
	want := fmt.Sprintf("embedded: store %s is in use by another rkql process", dir)
	if err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("open took %v", d)
	}
}

func TestClosedStore(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{NoSync: true, ScanBatch: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	putKeys(t, s, "t1", "a", "b")
	it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := it.Next(ctx); err != nil {
		t.Fatal(err)
	}
	// An open scan does not keep Close waiting.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Next(ctx); !errors.Is(err, errClosed) {
		t.Errorf("next after store close: %v", err)
	}
	if _, err := s.Get(ctx, "t1", [][]byte{[]byte("a")}, exec.ReadOptions{}); !errors.Is(err, errClosed) {
		t.Errorf("get after close: %v", err)
	}
}

// TestScanThenWriteSameGoroutine holds a scan open while the same goroutine
// writes enough to make bbolt grow and remap its file. A scan that kept a
// read transaction open would deadlock here.
func TestScanThenWriteSameGoroutine(t *testing.T) {
	s := newTestStore(t, Options{})
	putKeys(t, s, "t1", "a", "b", "c")
	ctx := context.Background()
	finished := make(chan error, 1)
	go func() {
		it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
		if err != nil {
			finished <- err
			return
		}
		defer it.Close()
		if _, err := it.Next(ctx); err != nil {
			finished <- err
			return
		}
		big := bytes.Repeat([]byte("x"), 4096)
		muts := make([]exec.Mutation, 2000)
		for i := range muts {
			muts[i] = exec.Mutation{Key: fmt.Appendf(nil, "z%05d", i), Cells: []exec.Cell{{Family: "cf", Qualifier: "q", Value: big}}}
		}
		if err := s.Mutate(ctx, "t1", muts); err != nil {
			finished <- err
			return
		}
		rows, err := drain(ctx, it)
		if err == nil && len(rows) < 2 {
			err = fmt.Errorf("scan returned %d more rows, want at least 2", len(rows))
		}
		finished <- err
	}()
	select {
	case err := <-finished:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("scan and write in one goroutine deadlocked")
	}
}

func TestConcurrentScansAndWrites(t *testing.T) {
	s := newTestStore(t, Options{RowsPerTx: 200})
	var base []string
	for i := range 2000 {
		base = append(base, fmt.Sprintf("m%05d", i))
	}
	putKeys(t, s, "t1", base...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	value := bytes.Repeat([]byte("v"), 1024)
	for w := range 2 {
		wg.Go(func() {
			for b := range 10 {
				muts := make([]exec.Mutation, 300)
				for i := range muts {
					muts[i] = exec.Mutation{Key: fmt.Appendf(nil, "%c%d-%05d", 'a'+w*20, b, i),
						Cells: []exec.Cell{{Family: "cf", Qualifier: "q", Value: value}}}
				}
				if err := s.Mutate(ctx, "t1", muts); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for r := range 4 {
		wg.Go(func() {
			for range 5 {
				if err := checkScan(ctx, s, r%2 == 1, len(base)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, err := s.Count(context.Background(), "t1"); err != nil || n != int64(len(base)+2*10*300) {
		t.Errorf("count = %d, %v; want %d", n, err, len(base)+6000)
	}
}

// checkScan scans the whole table and checks that keys come out strictly
// in order and that at least min rows were seen.
func checkScan(ctx context.Context, s *Store, reverse bool, min int) error {
	it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{Reverse: reverse})
	if err != nil {
		return err
	}
	defer it.Close()
	var prev []byte
	n := 0
	for {
		row, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if c := bytes.Compare(prev, row.Key); prev != nil && (c == 0 || (c > 0) != reverse) {
			return fmt.Errorf("reverse=%v: key %q after %q", reverse, row.Key, prev)
		}
		prev, n = row.Key, n+1
	}
	if n < min {
		return fmt.Errorf("scan saw %d rows, want at least %d", n, min)
	}
	return nil
}

func TestBinaryString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"abc", "abc"}, {"\x00\x7f\xff", `\x00\x7F\xFF`}, {`a\b`, `a\x5Cb`}, {" ~", " ~"},
	}
	for _, tc := range tests {
		if got := binaryString([]byte(tc.in)); got != tc.want {
			t.Errorf("binaryString(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
