package hbase_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
)

// TestRegionLoads writes only to the region r040..r060 and waits for the
// region servers' reports to show its write count above the others'.
func TestRegionLoads(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	const writes = 40
	for i := range writes {
		p, err := hbase.NewPut(e.table, []byte(fmt.Sprintf("r05%d-%d", i%10, i)), []hbase.Cell{cell("cf", "a", "v")})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.Mutate(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	regions, err := e.c.Admin().Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 5 {
		t.Fatalf("%d regions, want 5", len(regions))
	}
	// Region servers report every 3 s by default; allow a few reports.
	deadline := time.Now().Add(30 * time.Second)
	for {
		loads, err := e.c.Admin().RegionLoads(ctx)
		if err != nil {
			t.Fatalf("region loads: %v", err)
		}
		hot, ok := loads[string(regions[2].Name)]
		if ok && hot.WriteRequests >= writes {
			for i, r := range regions {
				l, ok := loads[string(r.Name)]
				if !ok {
					t.Errorf("no load reported for region %s", r.Name)
				}
				if i != 2 && l.WriteRequests >= hot.WriteRequests {
					t.Errorf("region %d has %d writes, the written region %d", i, l.WriteRequests, hot.WriteRequests)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s the written region reports %+v (found %v), want >= %d writes", hot, ok, writes)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
