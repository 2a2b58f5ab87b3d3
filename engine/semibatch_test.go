package engine_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
)

var semiAnalyze = regexp.MustCompile(`ANALYZE outer values (\d+), reads (\d+) in (\d+) RPCs, rows found (\d+)`)

// checkSemiBatches writes 300 orders of seller s1, each of its own
// buyer b0 … b299, and the sites b0 … b149 (keyed by domain), and runs
// EXISTS and NOT EXISTS of a site whose domain is the order's buyer: a
// lookup semi-join of 300 outer values, which must read sites in 3
// batches of up to 100 keys, each one multi-get whose RPCs are between
// one and maxRPCs, measured by EXPLAIN ANALYZE, and find the 150 orders
// with a site (and the 150 without).
func checkSemiBatches(t *testing.T, e *engine.Engine, maxRPCs int) {
	t.Helper()
	var orders, sites []string
	for i := range 300 {
		orders = append(orders, fmt.Sprintf("('s1', 'b%d', %d, %d, 1.5, 'new')", i, i+1, 1000+i))
		if i < 150 {
			sites = append(sites, fmt.Sprintf("('b%d', 'o%d', %d)", i, i, i))
		}
	}
	// Another seller's orders, whose buyers have sites: not read.
	orders = append(orders, "('s2', 'b1', 9001, 5000, 2.5, 'new')", "('s2', 'b2', 9002, 5001, 2.5, 'new')")
	run(t, e, "INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+strings.Join(orders, ", "))
	run(t, e, "INSERT INTO sites (domain, owner, visits) VALUES "+strings.Join(sites, ", "))
	const exists = "SELECT COUNT(*) FROM orders o WHERE o.seller = 's1' AND EXISTS (SELECT 1 FROM sites s WHERE s.domain = o.buyer)"
	const notExists = "SELECT COUNT(*) FROM orders o WHERE o.seller = 's1' AND NOT EXISTS (SELECT 1 FROM sites s WHERE s.domain = o.buyer)"
	if got := readAll(t, e, exists); got != "150" {
		t.Errorf("%s: %s, want 150", exists, got)
	}
	if got := readAll(t, e, notExists); got != "150" {
		t.Errorf("%s: %s, want 150", notExists, got)
	}
	for q, op := range map[string]string{exists: "CLIENT LOOKUP SEMI JOIN", notExists: "CLIENT LOOKUP ANTI JOIN"} {
		text, err := explain(t, e, "EXPLAIN ANALYZE "+q)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			op, "BATCH  one read of the inner table per 100 outer values",
			"COST   one read per batch of 100 outer values, each one multi-get of up to 100 keys, one RPC per region server",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("EXPLAIN ANALYZE %s lacks %q:\n%s", q, want, text)
			}
		}
		m := semiAnalyze.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no semi-join figures in:\n%s", text)
		}
		t.Logf("%s: %s", op, m[0])
		outer, reads, rpcs, found := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4])
		if outer != 300 || reads != 3 || found != 150 {
			t.Errorf("outer values %d, reads %d, rows found %d; want 300 in 3 reads of 100, finding 150:\n%s", outer, reads, found, text)
		}
		if rpcs < reads || rpcs > reads*maxRPCs {
			t.Errorf("%d reads made %d RPCs, want one multi-get each, 1 to %d RPCs:\n%s", reads, rpcs, maxRPCs, text)
		}
	}
}

// TestLookupSemiJoinBatches: on the embedded store a multi-get is one
// store call.
func TestLookupSemiJoinBatches(t *testing.T) {
	checkSemiBatches(t, newEngine(t, embedded.Pushdown{}), 1)
}
