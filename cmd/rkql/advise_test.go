package main

import (
	"strings"
	"testing"
)

// ADVISE over a workload of buyer lookups on orders recommends the index
// by buyer and says by how much it beats the worst design.
func TestAdvise(t *testing.T) {
	wl := writeFile(t, "workload.sql", "-- weight 5\nSELECT * FROM orders WHERE buyer = 'b7';\nSELECT amount FROM orders WHERE buyer IN ('b1', 'b2');\n")
	r := rkql(t, "", "--store", t.TempDir(), "-e", "ADVISE '"+wl+"'")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"orders: 2 queries, estimated over 10,000,000 rows",
		"Q1 (weight 5, line 2): SELECT * FROM orders WHERE buyer = 'b7'",
		"recommended: orders with index orders_by_buyer only",
		"x less than orders",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("ADVISE output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = rkql(t, "", "--store", t.TempDir(), "-e", "ADVISE '/nonexistent/workload.sql'")
	if r.code != 1 || !strings.Contains(r.stderr, "ADVISE: open /nonexistent/workload.sql: no such file or directory") {
		t.Errorf("missing file: exit %d, stderr %q", r.code, r.stderr)
	}
	bad := writeFile(t, "bad.sql", "SELECT * FROM orders_by_buyer WHERE buyer = 'b1'")
	r = rkql(t, "", "--store", t.TempDir(), "-e", "ADVISE '"+bad+"'")
	if r.code != 1 || !strings.Contains(r.stderr, "is an index table; ask about its data table orders") {
		t.Errorf("index table: exit %d, stderr %q", r.code, r.stderr)
	}
}
