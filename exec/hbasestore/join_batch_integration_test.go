package hbasestore_test

import (
	"context"
	"testing"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/planner"
)

// TestIntegrationLookupJoinBatches reads 1,000 orders by number through
// the index table and joins each to its row of orders, by its whole key:
// a scan of orders_by_id and ten multi-gets of 100 keys, each one RPC
// per region server, which must return every one of them, as the read of
// the index table alone does.
// Its time against that read is BenchmarkHBaseLookupJoin's, not a test's.
func TestIntegrationLookupJoinBatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, tb, x := scratchExample(t, st, "orders")
	if err := x.Insert(ctx, tb, examples.Rows(tb, 3000, 1), 0, nil); err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	_, n1, _ := timedRead(ctx, t, x, pl, joinBenchSingle, nil)
	_, n2, p := timedRead(ctx, t, x, pl, joinBenchJoin, nil)
	if n1 != 1000 || n2 != 1000 {
		t.Fatalf("got %d rows alone and %d joined, want 1,000 each", n1, n2)
	}
	j, ok := planner.Find[*planner.Join](p.Select().Root)
	if !ok || len(j.Steps) != 1 || j.Steps[0].Kind != planner.LookupJoin {
		t.Fatalf("the join is not planned as one lookup join: %+v", j)
	}
	r := p.JoinRun(j.Steps[0])
	if r == nil || r.LeftRows != 1000 || r.Batches != 10 || r.Keys != 1000 || r.RightRows != 1000 || r.Rows != 1000 {
		t.Fatalf("lookup join measured %+v, want 1,000 left rows in 10 reads of 100 keys finding 1,000 rows", r)
	}
	// Each read is one multi-get: one RPC to each region server holding
	// some of its keys, at most every server of orders.
	regions, err := st.Regions(ctx, tb.Physical)
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]bool{}
	for _, rg := range regions {
		servers[rg.Server] = true
	}
	if r.RPCs < r.Batches || r.RPCs > r.Batches*int64(len(servers)) {
		t.Errorf("the 10 multi-gets made %d RPCs, want 10 to %d (one per region server of orders, %d servers, per batch)", r.RPCs, 10*len(servers), len(servers))
	}
}
