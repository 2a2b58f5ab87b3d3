package hbase_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/hbase/zk"
)

// TestIntegrationLatencyNet runs a client through a LatencyNet: every
// server it talks to (master, hbase:meta's server, the table's region
// servers) has a proxy, and each Get is a delayed request.
func TestIntegrationLatencyNet(t *testing.T) {
	ln := hbasetest.NewLatencyNet(2 * time.Millisecond)
	t.Cleanup(func() { ln.Close() })
	c := newClient(t, hbase.Config{Dial: ln.Dial})
	table := hbasetest.TableName("bench_cluster_latency")
	createTable(t, c, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "cf"}}, SplitKeys: splitKeys})
	ctx := ctxT(t)
	p, err := hbase.NewPut(table, rowKey(1), []hbase.Cell{cell("cf", "q", "v")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mutate(ctx, p); err != nil {
		t.Fatal(err)
	}

	const gets = 20
	before := ln.Requests()
	for i := 0; i < gets; i++ {
		g, err := hbase.NewGet(table, rowKey(1))
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Get(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Cells) != 1 || string(r.Cells[0].Value) != "v" {
			t.Fatalf("get: %+v", r)
		}
	}
	if d := ln.Requests() - before; d < gets {
		t.Fatalf("%d requests delayed during %d gets", d, gets)
	}

	quorum, err := zk.ParseQuorum(hbasetest.Quorum(t))
	if err != nil {
		t.Fatal(err)
	}
	l := zk.Locator{Quorum: quorum, Root: hbasetest.Root()}
	meta, err := l.Meta(ctx)
	if err != nil {
		t.Fatal(err)
	}
	master, err := l.Master(ctx)
	if err != nil {
		t.Fatal(err)
	}
	regions, err := c.Admin().Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	targets := ln.Targets()
	for _, want := range []string{meta, master, regions[0].Server} {
		if !slices.Contains(targets, want) {
			t.Errorf("no proxy in front of %s; proxied: %v", want, targets)
		}
	}
}
