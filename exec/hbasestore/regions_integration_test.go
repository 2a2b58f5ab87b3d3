package hbasestore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/parser"
)

// TestShowRegionsLoad writes orders of two sellers only, then waits for
// SHOW REGIONS orders to show the regions that hold them with more writes
// than any other region.
func TestShowRegionsLoad(t *testing.T) {
	e, tb, x := emptyOrders(t, nil)
	ctx := context.Background()
	var rows []catalog.Row
	for _, r := range ordersRows(tb) {
		if s := r[0].S; s == "s1" || s == "s7" {
			rows = append(rows, r)
		}
	}
	// One statement per row, so each row is a write request.
	for i := 0; i < len(rows); i += 10 {
		if err := x.Insert(ctx, tb, rows[i:i+1], 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	hot := map[string]bool{}
	for _, s := range []string{"s1", "s7"} {
		row := tb.NewRow()
		row[0] = catalog.String(s)
		k, err := tb.Key.Components[0].Compute(tb.Columns, row)
		if err != nil {
			t.Fatal(err)
		}
		hot[string(k[:1])] = true
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := showRegions(t, ctx, e)
		reported := got != nil
		hotWrites, coldMax := int64(-1), int64(0)
		for _, r := range got {
			start := r[1].S
			w := r[7]
			if w.Null {
				// A region its server has not reported yet.
				reported = false
				continue
			}
			first := "0"
			if start != "" {
				first = start[:1]
			}
			if hot[first] {
				if hotWrites < 0 || w.I < hotWrites {
					hotWrites = w.I
				}
			} else {
				coldMax = max(coldMax, w.I)
			}
		}
		if reported && hotWrites > coldMax {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s the written regions show %d writes at least, another region %d (every region reported: %v)", hotWrites, coldMax, reported)
		}
		time.Sleep(time.Second)
	}
}

func showRegions(t *testing.T, ctx context.Context, e *engine.Engine) []catalog.Row {
	t.Helper()
	st, err := parser.ParseOne("SHOW REGIONS orders")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if len(res.Columns) == 6 {
		// No region of the table has been reported yet: no load columns.
		return nil
	}
	if len(res.Columns) != 11 || res.Columns[7].Name != "writes" || res.Columns[10].Name != "load" {
		t.Fatalf("SHOW REGIONS columns: %v", res.Columns)
	}
	var out []catalog.Row
	for {
		r, err := res.Rows.Next(ctx)
		if err != nil {
			break
		}
		out = append(out, r)
	}
	if len(out) != 16 {
		t.Fatalf("%d regions, want 16", len(out))
	}
	if !strings.Contains(fmt.Sprint(res.Notes), "reads and writes are requests") {
		t.Errorf("SHOW REGIONS notes: %v", res.Notes)
	}
	return out
}

// TestRegionsLeaveLoadOut: Regions, which EXPLAIN and other readers of
// region boundaries call, does not ask the master for loads, whose answer
// holds every region of the cluster; RegionsWithLoad, for SHOW REGIONS,
// does.
func TestRegionsLeaveLoadOut(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	_, tb, _ := scratchExample(t, st, "orders")
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		loaded, err := st.RegionsWithLoad(ctx, tb.Physical)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range loaded {
			if r.Load != nil {
				n++
			}
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no region of %d has a load after 60 s", len(loaded))
		}
		time.Sleep(time.Second)
	}
	plain, err := st.Regions(ctx, tb.Physical)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) < 2 {
		t.Fatalf("%d regions; the scratch orders table is split", len(plain))
	}
	for _, r := range plain {
		if r.Load != nil {
			t.Fatalf("Regions gave region %s a load", r.Name)
		}
	}
}
