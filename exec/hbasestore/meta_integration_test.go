package hbasestore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationHBaseMeta reads hbase:meta through the example table
// hbase_meta: the regions of a table laid out as orders (16 regions,
// HexStringSplit) are listed with their start keys, region ids, servers
// and states, as the master's own region list has them.
func TestIntegrationHBaseMeta(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	orders, _ := cat.Table("orders")
	name := hbasetest.TableName("rkql_meta_orders")
	dropAtEnd(t, st, []string{name})
	spec := exec.Spec(orders)
	spec.Name = name
	if err := st.CreateTable(ctx, spec); err != nil {
		t.Fatal(err)
	}
	regions, err := st.Regions(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 16 {
		t.Fatalf("%d regions, want 16", len(regions))
	}
	var want []string
	for _, r := range regions {
		id := strings.Split(r.Name, ",")
		want = append(want, fmt.Sprintf("(%s, %s, %s, '%s', 'OPEN')", catalog.String(name), catalog.Bytes(r.StartKey),
			strings.SplitN(id[len(id)-1], ".", 2)[0], r.Server))
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	got, err := result(ctx, e, fmt.Sprintf("SELECT table, start_key, region_id, server, state FROM hbase_meta WHERE table = '%s'", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hbase_meta rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The second region starts where HexStringSplit puts it: 10000000.
	if !strings.Contains(got[1], "x'3130303030303030'") {
		t.Fatalf("second region's start key: %s", got[1])
	}
	// SELECT * reads the whole of hbase:meta; it holds this table's rows,
	// and the table-state rows are skipped as not fitting the layout.
	all, err := result(ctx, e, "SELECT * FROM hbase_meta ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range all {
		if strings.HasPrefix(r, "("+catalog.String(name).String()+",") {
			n++
		}
	}
	if n != 16 {
		t.Fatalf("SELECT * FROM hbase_meta has %d rows of %s, want 16", n, name)
	}
}
