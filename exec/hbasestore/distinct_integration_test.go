package hbasestore_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

var analyzeRead = regexp.MustCompile(`ANALYZE rows read (\d+), rows received (\d+), rows returned (\d+)`)

// TestLooseScan checks SELECT DISTINCT seller on HBase: each seller
// once, and EXPLAIN ANALYZE shows a few rows read and received per
// seller, not the table's 9,000, with pushdown on and off.
func TestLooseScan(t *testing.T) {
	t.Parallel() // it only reads the shared orders table
	e, rows, _ := ordersEngine(t, nil)
	ctx := context.Background()
	var want []string
	for s := range 60 {
		want = append(want, fmt.Sprintf("('s%d')", s))
	}
	slices.Sort(want)
	for _, on := range []bool{true, false} {
		e.SetPushdown(on)
		got, err := result(ctx, e, "SELECT DISTINCT seller FROM orders ORDER BY seller ALLOW FULL SCAN")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pushdown %v: DISTINCT seller = %v, want %v", on, got, want)
		}
		a, err := explainAnalyze(ctx, e, "SELECT DISTINCT seller FROM orders ALLOW FULL SCAN")
		if err != nil {
			t.Fatal(err)
		}
		m := analyzeRead.FindStringSubmatch(a.text)
		if m == nil {
			t.Fatalf("no ANALYZE figures in\n%s", a.text)
		}
		read, _ := strconv.Atoi(m[1])
		received, _ := strconv.Atoi(m[2])
		returned, _ := strconv.Atoi(m[3])
		t.Logf("pushdown %v: %d rows, %d sellers; rows read %d, received %d\n%s", on, len(rows), len(want), read, received, a.text)
		if returned != len(want) {
			t.Errorf("pushdown %v: rows returned %d, want %d", on, returned, len(want))
		}
		// Without pushdown the store is given no row limit, so each scan
		// may bring a batch of rows before it is closed.
		most := 3 * len(want)
		if !on {
			most = len(rows) / 2
		}
		if received > most || read > most {
			t.Errorf("pushdown %v: rows read %d, received %d for %d sellers: want at most %d", on, read, received, len(want), most)
		}
	}
}
