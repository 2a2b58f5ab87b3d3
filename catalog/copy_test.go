package catalog

import (
	"strings"
	"testing"
)

func TestCopyTable(t *testing.T) {
	src := `# the orders
tables:
  # orders by seller
  - name: orders
    hbase: "ns:orders"
    families: [{name: d}]
    columns:
      - {name: seller, type: STRING}
      - {name: amount, type: DOUBLE, column: "d:amount"}
    rowkey:
      - {field: seller}
    indexes:
      - name: by_amount
        hbase: orders_by_amount
        rowkey: [{field: amount}]
        covers: [seller]
  - name: plain
    columns: [{name: k, type: STRING}]
    rowkey: [{field: k}]
`
	out, ix, err := CopyTable([]byte(src), "orders", "orders2", "ns:orders2")
	if err != nil {
		t.Fatal(err)
	}
	if len(ix) != 1 || ix[0] != "by_amount" {
		t.Errorf("indexes left out: %v", ix)
	}
	if !strings.HasPrefix(string(out), src) {
		t.Errorf("the copy changed the lines before it:\n%s", out)
	}
	c, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.Table("orders")
	o2, ok := c.Table("orders2")
	if !ok {
		t.Fatalf("no orders2:\n%s", out)
	}
	if o2.Physical != "ns:orders2" || len(o2.Indexes) != 0 || len(o2.Columns) != len(o.Columns) || o2.Key.String() != o.Key.String() {
		t.Errorf("copy: physical %q, %d indexes, %d columns, rowkey %v:\n%s", o2.Physical, len(o2.Indexes), len(o2.Columns), o2.Key, out)
	}
	if len(o.Indexes) != 1 {
		t.Errorf("the original lost its index")
	}
	// A table without hbase: gets one.
	out, _, err = CopyTable([]byte(src), "plain", "plain2", "plain2")
	if err != nil {
		t.Fatal(err)
	}
	c, err = Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if p2, ok := c.Table("plain2"); !ok || p2.Physical != "plain2" {
		t.Errorf("plain2: %v %v\n%s", ok, p2, out)
	}
	if _, _, err := CopyTable([]byte(src), "orders", "plain", "x"); err == nil || !strings.Contains(err.Error(), "in the catalog already") {
		t.Errorf("copy onto an existing name: %v", err)
	}
	if _, _, err := CopyTable([]byte(src), "nope", "n2", "n2"); err == nil {
		t.Error("copy of a missing table")
	}
}
