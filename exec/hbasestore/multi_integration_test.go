package hbasestore_test

import (
	"context"
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationMultiServerDifferential runs the differential suite on
// the HBase with several region servers, with parallel region reads on:
// every example table, pre-split, with its regions spread over more than
// one server, so that the parallel scanners of one read go to different
// servers side by side. The planned queries must equal brute force, as on
// the single-server HBase, and the tables' full contents must equal the
// embedded store's.
func TestIntegrationMultiServerDifferential(t *testing.T) {
	t.Parallel()
	e := newEnvOn(t, openStoreAt(t, hbasetest.MultiQuorum(t), hbasestore.Options{CompressionFallback: true}))
	t.Run("create", e.testCreate)
	if t.Failed() {
		return
	}
	ctx := context.Background()
	spread := false
	for _, tb := range e.cat.Tables {
		regions, err := e.hb.Regions(ctx, tb.Physical)
		if err != nil {
			t.Fatal(err)
		}
		servers := map[string]bool{}
		for _, r := range regions {
			servers[r.Server] = true
		}
		if len(servers) > 1 {
			spread = true
		}
	}
	if !spread {
		t.Fatal("every example table has all its regions on one region server: the cluster does not spread them")
	}
	t.Run("differential", func(t *testing.T) {
		exectest.Run(t, e.hb, e.cat, exectest.Options{Rows: 3000, Queries: exectest.Size(40, 60, 120), Load: e.load, Parallel: 4})
	})
	t.Run("same-as-embedded", e.testSame)
}
