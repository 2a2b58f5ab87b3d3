package hbase_test

import (
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
)

// TestModifyFamily changes one family's TTL and versions, as ALTER TABLE
// … SET FAMILY does on a cluster, and reads the descriptor back: the
// other family keeps its settings.
func TestModifyFamily(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	if err := a.ModifyFamily(ctx, e.table, hbase.FamilySpec{Name: "meta", Versions: 5, TTL: 2 * time.Hour, Compression: "NONE"}); err != nil {
		t.Fatalf("modify family: %v", err)
	}
	desc, err := a.DescribeTable(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Families) != 2 {
		t.Fatalf("describe: %+v", desc)
	}
	cf, meta := desc.Families[0], desc.Families[1]
	if meta.Name != "meta" || meta.TTL != 2*time.Hour || meta.Versions != 5 {
		t.Errorf("family meta after the change: %+v", meta)
	}
	if cf.Name != "cf" || cf.Versions != 3 || cf.BloomFilter != "ROW" {
		t.Errorf("family cf changed too: %+v", cf)
	}
	if err := a.ModifyFamily(ctx, e.table, hbase.FamilySpec{Name: "nope", Versions: 1}); err == nil {
		t.Errorf("modifying a family the table lacks succeeded")
	}
}
