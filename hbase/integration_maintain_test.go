package hbase_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase"
)

// TestFlushAndCompact flushes twice, so that a region's family holds two
// store files, then major-compacts them into one.
func TestFlushAndCompact(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	count := func() (files, most int) {
		t.Helper()
		n, m, err := a.StoreFiles(ctx, e.table)
		if err != nil {
			t.Fatalf("store files: %v", err)
		}
		for name, k := range n {
			files += k
			most = max(most, m[name])
		}
		return files, most
	}
	if files, _ := count(); files != 0 {
		t.Fatalf("a new table has %d store files", files)
	}
	for round := range 2 {
		for i := range 10 {
			mustPut(t, e, fmt.Appendf(nil, "r%03d", i*10), cell("cf", "q", fmt.Sprint(round)))
		}
		if err := a.Flush(ctx, e.table); err != nil {
			t.Fatalf("flush: %v", err)
		}
		// Keys r000…r090 fall in all 5 regions, in family cf only.
		if files, most := count(); files != 5*(round+1) || most != round+1 {
			t.Fatalf("after flush %d: %d store files, at most %d in a family; want %d and %d", round+1, files, most, 5*(round+1), round+1)
		}
	}
	var reports []string
	if err := a.Compact(ctx, e.table, true, func(done, total int) { reports = append(reports, fmt.Sprintf("%d/%d", done, total)) }); err != nil {
		t.Fatalf("major compact: %v", err)
	}
	if files, most := count(); files != 5 || most != 1 {
		t.Errorf("after the major compaction: %d store files, at most %d in a family; want 5 and 1", files, most)
	}
	if len(reports) == 0 || reports[len(reports)-1] != "5/5" {
		t.Errorf("progress reports %v, want the last to be 5/5", reports)
	}
	if err := a.Compact(ctx, e.table, false, nil); err != nil {
		t.Errorf("minor compact: %v", err)
	}
}

// TestMergeRegions merges the first two regions of a table into one.
func TestMergeRegions(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	regions, err := a.Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(ctx, e.table, regions[0].Name, regions[1].Name); err != nil {
		t.Fatalf("merge: %v", err)
	}
	after, err := a.Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	var starts []string
	for _, r := range after {
		starts = append(starts, string(r.StartKey))
	}
	if got := strings.Join(starts, " "); got != " r040 r060 r080" {
		t.Errorf("region starts after the merge: %q", got)
	}
	if err := a.Merge(ctx, e.table, after[0].Name); err == nil {
		t.Error("a merge of one region was accepted")
	}
}

// TestBalancerSwitch turns the balancer to the other state and back.
func TestBalancerSwitch(t *testing.T) {
	c := newClient(t, hbase.Config{})
	ctx := ctxT(t)
	a := c.Admin()
	was, err := a.BalancerEnabled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := a.SetBalancer(ctxT(t), was); err != nil {
			t.Errorf("restoring the balancer: %v", err)
		}
	})
	prev, err := a.SetBalancer(ctx, !was)
	if err != nil {
		t.Fatal(err)
	}
	if prev != was {
		t.Errorf("SetBalancer reports the state before as %v, IsBalancerEnabled said %v", prev, was)
	}
	if now, err := a.BalancerEnabled(ctx); err != nil || now == was {
		t.Errorf("after switching: enabled %v (%v), want %v", now, err, !was)
	}
}

// TestClusterStatus: the local cluster has a live region server holding
// the regions of a new table, and a master.
func TestClusterStatus(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	st, err := e.c.Admin().ClusterStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Master == "" || len(st.Live) == 0 {
		t.Fatalf("status %+v: want a master and a live server", st)
	}
	regions := 0
	for _, s := range st.Live {
		regions += s.Regions
		if !strings.Contains(s.Server, ":") || s.MaxHeapMB == 0 {
			t.Errorf("server %+v: want host:port and a heap size", s)
		}
	}
	// hbase:meta at least; a new table's regions once reported, seconds
	// later.
	if regions < 1 {
		t.Errorf("servers report %d regions, want hbase:meta's at least", regions)
	}
	on, err := e.c.Admin().BalancerEnabled(ctx)
	if err != nil || on != st.BalancerOn {
		t.Errorf("status says balancer %v, IsBalancerEnabled %v (%v)", st.BalancerOn, on, err)
	}
}

// TestSnapshots takes a snapshot of a table, finds it in the list, and
// deletes it.
func TestSnapshots(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	mustPut(t, e, []byte("r001"), cell("cf", "q", "v"))
	name := e.table + "_snap"
	t.Cleanup(func() { _ = a.DeleteSnapshot(ctxT(t), name) })
	if err := a.TakeSnapshot(ctx, e.table, name); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	has := func() bool {
		t.Helper()
		list, err := a.Snapshots(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			if s.Name == name {
				if s.Table != e.table || s.Created.IsZero() {
					t.Errorf("snapshot %+v: want table %s and a time", s, e.table)
				}
				return true
			}
		}
		return false
	}
	if !has() {
		t.Fatalf("snapshot %s is not listed", name)
	}
	if err := a.TakeSnapshot(ctx, e.table, name); err == nil {
		t.Error("a second snapshot of the same name was taken")
	}
	mustPut(t, e, []byte("r002"), cell("cf", "q", "later"))
	if err := a.RestoreSnapshot(ctx, e.table, name); err != nil {
		t.Fatalf("restore: %v", err)
	}
	for key, want := range map[string]int{"r001": 1, "r002": 0} {
		g, _ := hbase.NewGet(e.table, []byte(key))
		res, err := e.c.Get(ctx, g)
		if err != nil || len(res.Cells) != want {
			t.Errorf("after the restore, %s has %v cells (%v), want %d", key, res, err, want)
		}
	}
	if err := a.DeleteSnapshot(ctx, name); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if has() {
		t.Errorf("snapshot %s is listed after its deletion", name)
	}
}

// TestCheckTablesHealthy: a new pre-split table has no fault, and its
// region rows are those Regions lists; a table that does not exist fails
// the check with ErrTableNotFound; every table is checked when none is
// named, the new one among them.
func TestCheckTablesHealthy(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	want, err := a.Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := a.CheckTables(ctx, []string{e.table})
	if err != nil || len(hs) != 1 {
		t.Fatalf("CheckTables: %v %v", hs, err)
	}
	h := hs[0]
	if h.Table != e.table || h.State != "ENABLED" || len(h.Faults) != 0 || len(h.Regions) != len(want) || len(want) < 2 {
		t.Fatalf("CheckTables of a new table: %+v, want ENABLED, no faults and its %d regions", h, len(want))
	}
	for i, r := range h.Regions {
		if string(r.Name) != string(want[i].Name) {
			t.Errorf("region %d: %s, Regions lists %s", i, r.Name, want[i].Name)
		}
	}
	if _, err := a.CheckTables(ctx, []string{e.table + "_nope"}); !errors.Is(err, hbase.ErrTableNotFound) {
		t.Errorf("CheckTables of no table: %v, want ErrTableNotFound", err)
	}
	all, err := a.CheckTables(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range all {
		if h.Table == "hbase:meta" {
			t.Errorf("CheckTables of every table checks hbase:meta")
		}
		if h.Table == e.table {
			found = len(h.Faults) == 0
		}
	}
	if !found {
		t.Errorf("CheckTables of every table does not find %s healthy: %+v", e.table, all)
	}
}
