package advise_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/advise"
	"github.com/rkql/rkql/examples"
)

func rank(t *testing.T, src []byte, table, workload string) []advise.Result {
	t.Helper()
	qs, err := advise.ParseWorkload(workload)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table(table)
	ds, err := advise.Designs(src, tb, qs)
	if err != nil {
		t.Fatal(err)
	}
	return advise.Rank(qs, ds, advise.Options{})
}

func find(rs []advise.Result, name string) advise.Result {
	for _, r := range rs {
		if strings.Contains(r.Design.Name, name) {
			return r
		}
	}
	return advise.Result{}
}

// Buyer lookups on orders: the index by buyer serves them, and the table
// alone would scan it all.
func TestAdviseBuyerLookups(t *testing.T) {
	rs := rank(t, examples.CatalogYAML, "orders", "SELECT * FROM orders WHERE buyer = 'b7';\n-- weight 3\nSELECT amount FROM orders WHERE buyer IN ('b1', 'b2');")
	if got := rs[0].Design.Name; got != "orders with index orders_by_buyer only" {
		t.Fatalf("recommended %q, want orders_by_buyer", got)
	}
	alone := find(rs, "alone")
	if alone.Design == nil || alone.Total < 100*rs[0].Total {
		t.Errorf("the table alone costs %.0f, the index %.0f: want at least 100x", alone.Total, rs[0].Total)
	}
	for _, c := range rs[0].Costs {
		if c.Refused || !strings.Contains(c.Plan, "orders_by_buyer") {
			t.Errorf("recommended design's plan: %+v", c)
		}
	}
}

// A filter no key serves gets an index of its own, with its YAML.
func TestAdviseDerivedIndex(t *testing.T) {
	rs := rank(t, examples.CatalogYAML, "orders", "SELECT order_id FROM orders WHERE status = 'paid' ALLOW FULL SCAN")
	best := rs[0]
	if best.Design.Name != "orders with a new index on status" || !strings.Contains(best.Design.YAML, "name: orders_by_status") {
		t.Fatalf("recommended %q:\n%s", best.Design.Name, best.Design.YAML)
	}
	if best.Costs[0].Refused || best.Total >= find(rs, "as it is").Total {
		t.Errorf("the new index does not beat the table: %+v", rs)
	}
}

// A suffix search on a leading text field recommends storing it reversed.
func TestAdviseReversed(t *testing.T) {
	src, err := os.ReadFile("testdata/users.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := rank(t, src, "users", "SELECT name FROM users WHERE email LIKE '%@example.com' ALLOW FULL SCAN")
	if rs[0].Design.Name != "users with email stored reversed" || !strings.Contains(rs[0].Design.YAML, "reverse: true") {
		t.Fatalf("recommended %q:\n%s", rs[0].Design.Name, rs[0].Design.YAML)
	}
}

// Without ALLOW FULL SCAN a design that would scan everything is refused
// for that query, and costs a full scan.
func TestAdviseRefused(t *testing.T) {
	rs := rank(t, examples.CatalogYAML, "orders", "SELECT * FROM orders WHERE buyer = 'b7'")
	alone := find(rs, "alone")
	if !alone.Costs[0].Refused || alone.Total != 10_000_000 {
		t.Errorf("the table alone: %+v", alone)
	}
}

func TestParseWorkload(t *testing.T) {
	qs, err := advise.ParseWorkload("-- weight: 2.5\nSELECT * FROM a WHERE k = 1;\n\n-- a comment\nSELECT * FROM b WHERE k = 2;\n-- weight 7\nSELECT * FROM c WHERE k = 3")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 3 || qs[0].Weight != 2.5 || qs[1].Weight != 1 || qs[2].Weight != 7 || qs[2].Line != 7 {
		t.Errorf("weights and lines: %+v", qs)
	}
	for _, bad := range []struct{ src, want string }{
		{"", "no statements"},
		{"DELETE FROM a WHERE k = 1", "SELECT statements only"},
		{"SELEC * FROM a", "1:1"},
	} {
		if _, err := advise.ParseWorkload(bad.src); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseWorkload(%q) = %v, want %q", bad.src, err, bad.want)
		}
	}
}

// An OR that each branch serves by its own access is planned as a union:
// its cost is the sum of the branches', each far below a full scan.
func TestAdviseUnion(t *testing.T) {
	rs := rank(t, examples.CatalogYAML, "orders", "SELECT * FROM orders WHERE seller = 's1' OR buyer = 'b2'")
	r := find(rs, "as it is")
	if r.Design == nil {
		t.Fatalf("no design with the buyer index: %+v", rs)
	}
	c := r.Costs[0]
	if c.Refused || !strings.HasPrefix(c.Plan, "UNION OF 2 BRANCHES: ") || !strings.Contains(c.Plan, "orders_by_buyer") {
		t.Fatalf("cost of the OR: %+v", c)
	}
	if c.Reads < 2 || c.Rows <= 0 || c.Total() >= 10_000_000/100 {
		t.Errorf("cost of the OR: %+v, total %.0f", c, c.Total())
	}
	if alone := find(rs, "alone"); alone.Design == nil || !alone.Costs[0].Refused {
		t.Errorf("the table alone serves the OR: %+v", alone)
	}
}
