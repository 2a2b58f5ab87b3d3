package hbase_test

import (
	"slices"
	"testing"
)

// TestTableDescriptor reads the descriptor of the test table as the
// master keeps it: each family's attributes as set at creation, with
// nothing interpreted; and ListAllTables lists the table, and HBase's own
// tables only when asked.
func TestTableDescriptor(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a := e.c.Admin()
	d, err := a.TableDescriptor(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != e.table || len(d.Families) != 2 {
		t.Fatalf("descriptor of %s: %+v", e.table, d)
	}
	attrs := func(i int) map[string]string {
		m := map[string]string{}
		for _, a := range d.Families[i].Attributes {
			m[a.Key] = a.Value
		}
		return m
	}
	for i, want := range []map[string]string{
		{"VERSIONS": "3", "BLOOMFILTER": "ROW", "BLOCKSIZE": "32768", "IN_MEMORY": "true"},
		{"TTL": "86400", "COMPRESSION": "NONE", "BLOCKCACHE": "false"},
	} {
		got := attrs(i)
		for k, v := range want {
			if got[k] != v {
				t.Errorf("family %s: %s = %q, want %q (attributes %v)", d.Families[i].Name, k, got[k], v, got)
			}
		}
	}
	if _, err := a.TableDescriptor(ctx, e.table+"_none"); err == nil {
		t.Errorf("the descriptor of a table that does not exist")
	}
	user, err := a.ListAllTables(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	all, err := a.ListAllTables(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(user, e.table) || !slices.Contains(all, e.table) {
		t.Errorf("%s is not listed: %v / %v", e.table, user, all)
	}
	if slices.Contains(user, "hbase:meta") || !slices.Contains(all, "hbase:meta") {
		t.Errorf("hbase:meta: listed among user tables %v, or not among all %v", slices.Contains(user, "hbase:meta"), slices.Contains(all, "hbase:meta"))
	}
}
