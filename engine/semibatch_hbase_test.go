package engine_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// semiCatalog is the example's orders and sites (without their index
// tables) under scratch names; sites is split in four, so that a batch's
// keys fall in several regions.
const semiCatalog = `
tables:
  - name: orders
    hbase: %[1]s_orders
    families: [{name: d, versions: 1}]
    columns:
      - {name: seller, type: STRING}
      - {name: buyer, type: STRING, column: "d:buyer"}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP}
      - {name: amount, type: DOUBLE, column: "d:amount"}
      - {name: status, type: STRING, column: "d:status"}
    rowkey:
      - {hash: md5, of: [seller], width: 4}
      - {field: seller}
      - {literal: "|"}
      - {field: ts, encoding: java, order: desc}
      - {field: order_id, encoding: java}
  - name: sites
    hbase: %[1]s_sites
    families: [{name: s, versions: 1}]
    columns:
      - {name: domain, type: STRING}
      - {name: owner, type: STRING, column: "s:owner"}
      - {name: visits, type: BIGINT, column: "s:visits"}
    rowkey:
      - {field: domain, reverse: true}
    splits: ["3", "6", "9"]
`

// TestLookupSemiJoinBatchesHBase: on HBase each batch's multi-get is one
// RPC per region server holding its keys.
func TestLookupSemiJoinBatchesHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	prefix := hbasetest.TableName("semi")
	src := fmt.Sprintf(semiCatalog, prefix)
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"orders", "sites"} {
		t.Cleanup(func() { _ = st.DropTable(context.Background(), prefix+"_"+n) })
	}
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src),
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	run(t, e, "CREATE TABLE orders")
	run(t, e, "CREATE TABLE sites")
	regions, err := st.Regions(ctx, prefix+"_sites")
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]bool{}
	for _, r := range regions {
		servers[r.Server] = true
	}
	if len(regions) != 4 {
		t.Fatalf("sites has %d regions, want 4", len(regions))
	}
	checkSemiBatches(t, e, len(servers))
}
