package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/exec"
)

// TestRepairHalfFile cuts a store file of many pages in half, where its
// root page and table metadata are lost, and repairs it: every row on an
// intact leaf page of a table whose families tell it apart comes back
// exactly, the rows of two tables that share their families are counted
// as not placed, and nothing is invented.
func TestRepairHalfFile(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, dir, Options{})
	ctx := context.Background()
	specs := []exec.TableSpec{
		{Name: "t1", Families: []exec.FamilySpec{{Name: "a", Versions: 2}}},
		{Name: "t2", Families: []exec.FamilySpec{{Name: "b"}}},
		{Name: "t3", Families: []exec.FamilySpec{{Name: "b"}}},
	}
	for _, spec := range specs {
		if err := s.CreateTable(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	// Each table is written in commits of 2000 rows, taking turns, so
	// that their pages mix in the file.
	const rows, commit = 20_000, 2000
	for c := 0; c < rows/commit; c++ {
		for ti, spec := range specs {
			var muts []exec.Mutation
			for i := c * commit; i < (c+1)*commit; i++ {
				k := fmt.Sprintf("k%06d", i)
				fam := spec.Families[0].Name
				muts = append(muts, exec.Mutation{Key: []byte(k), Cells: []exec.Cell{cell(fam+":v", int64(1+i), fmt.Sprintf("%s-%d-%s", spec.Name, ti, k))}})
			}
			mustMutate(t, s, spec.Name, muts...)
		}
	}
	want := map[string][]string{}
	for _, spec := range specs {
		want[spec.Name] = scanRows(t, s, spec.Name, rng("-", "-"), exec.ReadOptions{})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := int64(len(file) / 2 / 4096 * 4096)
	cut = min(cut, rootPage(t, path)*4096) // the cut takes the root page
	intact := intactRows(t, path, uint64(cut/4096))
	if err := os.Truncate(path, cut); err != nil {
		t.Fatal(err)
	}

	rep, saved := checkRepairWith(t, dir, want, Options{})
	if len(rep.Problems) == 0 {
		t.Fatal("repair found no damage in a file cut in half")
	}
	got := map[string]TableReport{}
	for _, tr := range rep.Tables {
		got[tr.Name] = tr
	}
	t.Logf("cut at page %d of %d: %d rows on intact leaves (t1 %d, t2 %d, t3 %d); saved %d, salvaged t1 %d; %d not placed",
		cut/4096, len(file)/4096, intact["t1"]+intact["t2"]+intact["t3"], intact["t1"], intact["t2"], intact["t3"],
		saved, got["t1"].Salvaged, rep.Unattributed)
	if intact["t1"] < rows/4 {
		t.Fatalf("only %d rows of t1 lie on intact pages: the test proves little", intact["t1"])
	}
	if tr := got["t1"]; tr.Rows < intact["t1"] || tr.Salvaged != tr.Rows || tr.Conflicting != 0 {
		t.Errorf("t1: %+v; want all %d rows of its intact leaves saved", tr, intact["t1"])
	}
	if n := got["t2"].Rows + got["t3"].Rows + rep.Unattributed; n < intact["t2"]+intact["t3"] {
		t.Errorf("t2 and t3: %d rows saved or counted as not placed, want at least the %d on intact leaves", n, intact["t2"]+intact["t3"])
	}
	if rep.Unattributed == 0 {
		t.Errorf("no row counted as not placed, though t2 and t3 share their family")
	}
	if want := fmt.Sprintf("%d rows on intact pages fit tables t2, t3 alike: not saved", rep.Unattributed); !slices.Contains(rep.Problems, want) {
		t.Errorf("problems %q, want %q", rep.Problems, want)
	}
}

// intactRows counts, per table, the rows on the leaf pages of the intact
// store file at path that lie wholly below page cut.
func intactRows(t *testing.T, path string, cut uint64) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	withPageFile(t, path, func(pf *pageFile) {
		w := newWalk(pf)
		refs, _ := w.buckets()
		for _, ref := range refs {
			if ref.name == metaBucket || ref.root == 0 {
				continue
			}
			var loss treeLoss
			w.descend(ref.name, ref.root, 0, &loss, func(e *element, page uint64) {
				if page+1 <= cut {
					out[ref.name]++
				}
			})
		}
		if len(w.problems) > 0 {
			t.Fatalf("the intact file: %s", strings.Join(w.problems, "; "))
		}
	})
	return out
}

// TestRepairHalfFileAfterRewrites cuts in half a store whose rows were
// rewritten, and some deleted, after they were loaded, so that old copies
// of its leaf pages lie in the file, and repairs it: with the copy of the
// tables' metadata beside the file, or without it with the catalog's
// tables, of which it creates only the one that gets rows. Every row of an
// intact live leaf comes back, and every row saved is one that was
// written; an old version, or a deleted row, only where the report says
// that the freelist, which tells old pages from live ones, is lost.
func TestRepairHalfFileAfterRewrites(t *testing.T) {
	for _, withCopy := range []bool{true, false} {
		t.Run(fmt.Sprintf("copy=%v", withCopy), func(t *testing.T) {
			dir := t.TempDir()
			s := openTest(t, dir, Options{})
			ctx := context.Background()
			spec := exec.TableSpec{Name: "t1", Families: []exec.FamilySpec{{Name: "a"}}}
			if err := s.CreateTable(ctx, spec); err != nil {
				t.Fatal(err)
			}
			const rows = 20_000
			put := func(from, to int, ts int64, val string) {
				var muts []exec.Mutation
				for i := from; i < to; i++ {
					k := fmt.Sprintf("k%06d", i)
					muts = append(muts, exec.Mutation{Key: []byte(k), Cells: []exec.Cell{cell("a:v", ts, val+k)}})
				}
				mustMutate(t, s, "t1", muts...)
			}
			for c := range rows / 2000 {
				put(c*2000, (c+1)*2000, 100, "old-")
			}
			for c := 0; c < rows/2000; c += 2 {
				put(c*2000, (c+1)*2000, 200, "new-")
			}
			for i := 0; i < 4000; i += 7 {
				if err := s.Mutate(ctx, "t1", []exec.Mutation{{Key: []byte(fmt.Sprintf("k%06d", i)), DeleteRow: true}}); err != nil {
					t.Fatal(err)
				}
			}
			current := map[string]bool{}
			for _, r := range scanRows(t, s, "t1", rng("-", "-"), exec.ReadOptions{}) {
				current[r] = true
			}
			// Every version ever written, as fmtRow prints it.
			var ever []string
			for i := range rows {
				k := fmt.Sprintf("k%06d", i)
				ever = append(ever, k+" a:v@100=old-"+k, k+" a:v@200=new-"+k)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, FileName)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			cut := min(st.Size()/2/4096*4096, rootPage(t, path)*4096)
			intact := intactRows(t, path, uint64(cut/4096))
			if err := os.Truncate(path, cut); err != nil {
				t.Fatal(err)
			}
			var opts Options
			if !withCopy {
				if err := os.Remove(filepath.Join(dir, TablesFileName)); err != nil {
					t.Fatal(err)
				}
				// The catalog's tables stand in for the lost metadata,
				// with one that never was a table of the store.
				opts.RepairTables = []exec.TableSpec{spec, {Name: "other", Families: []exec.FamilySpec{{Name: "z"}}}}
			}
			rep, saved := checkRepairWith(t, dir, map[string][]string{"t1": ever}, opts)
			if len(rep.Tables) != 1 || rep.Tables[0].Name != "t1" {
				t.Fatalf("tables %+v, want t1 alone", rep.Tables)
			}
			r := openTest(t, dir, Options{})
			var live, old int64
			for _, row := range scanRows(t, r, "t1", rng("-", "-"), exec.ReadOptions{}) {
				if current[row] {
					live++
				} else {
					old++
				}
			}
			t.Logf("saved %d rows (%d current, %d old) of %d, %d on intact live leaves; freelist lost: %v; %+v",
				saved, live, old, len(current), intact["t1"], rep.FreelistLost, rep.Tables)
			if live < intact["t1"] {
				t.Errorf("saved %d current rows, want at least the %d on intact live leaves", live, intact["t1"])
			}
			if old > 0 && !rep.FreelistLost {
				t.Errorf("%d old versions or deleted rows came back, and the report does not warn of it", old)
			}
		})
	}
}

// rootPage is the root bucket's page in the store file at path.
func rootPage(t *testing.T, path string) int64 {
	t.Helper()
	var root int64
	withPageFile(t, path, func(pf *pageFile) { root = int64(pf.meta.root) })
	return root
}

// withPageFile opens the store file at path as a page file for fn, and
// closes it when fn returns.
func withPageFile(t *testing.T, path string, fn func(pf *pageFile)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := openPageFile(f)
	if err != nil {
		t.Fatal(err)
	}
	fn(pf)
}
