package hbasestore_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/parser"
)

// analyzed is what EXPLAIN ANALYZE measured of one statement.
type analyzed struct {
	bytes, rpcs, rowsReceived int64
	text                      string
}

var analyzeLine = regexp.MustCompile(`rows received (\d+), rows returned \d+, cells \d+, bytes received (\d+), RPCs (\d+)`)

// explainAnalyze runs EXPLAIN ANALYZE q through the engine.
func explainAnalyze(ctx context.Context, e *engine.Engine, q string) (analyzed, error) {
	st, err := parser.ParseOne("EXPLAIN ANALYZE " + q)
	if err != nil {
		return analyzed{}, err
	}
	res, err := e.Run(ctx, st)
	if err != nil {
		return analyzed{}, err
	}
	m := analyzeLine.FindStringSubmatch(res.Text)
	if m == nil {
		return analyzed{}, fmt.Errorf("no ANALYZE figures in\n%s", res.Text)
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	return analyzed{rowsReceived: n(m[1]), bytes: n(m[2]), rpcs: n(m[3]), text: res.Text}, nil
}

// result runs q through the engine and renders its rows.
func result(ctx context.Context, e *engine.Engine, q string) ([]string, error) {
	st, err := parser.ParseOne(q)
	if err != nil {
		return nil, err
	}
	res, err := e.Run(ctx, st)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var out []string
	for {
		r, err := res.Rows.Next(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		out = append(out, rowText(r))
	}
}

// ordersRows are 60 sellers' orders: 150 each, with e-mail buyers.
func ordersRows(tb *catalog.Table) []catalog.Row {
	r := rand.New(rand.NewPCG(8, 9))
	statuses := []string{"paid", "shipped", "pending", "refunded"}
	var out []catalog.Row
	for s := range 60 {
		for o := range 150 {
			row := tb.NewRow()
			set := func(name string, v catalog.Value) {
				i, _ := tb.Column(name)
				row[i] = v
			}
			set("seller", catalog.String(fmt.Sprintf("s%d", s)))
			set("buyer", catalog.String(fmt.Sprintf("buyer%05d@example.com", r.IntN(5000))))
			set("order_id", catalog.Bigint(int64(s*1000+o)))
			set("ts", catalog.TimestampMillis(1_700_000_000_000+r.Int64N(365*86_400_000)))
			set("amount", catalog.Double(float64(r.IntN(100_000))/100))
			set("status", catalog.String(statuses[r.IntN(len(statuses))]))
			out = append(out, row)
		}
	}
	return out
}

// TestExplainAnalyzePushdown measures, through the engine's EXPLAIN
// ANALYZE, the bytes and RPCs of reads of the orders table with pushdown
// off and on, and checks both give the same rows.
func TestExplainAnalyzePushdown(t *testing.T) {
	t.Parallel() // it only reads the shared orders table
	e, _, _ := ordersEngine(t, nil)
	ctx := context.Background()
	var sellers []string
	for s := range 50 {
		sellers = append(sellers, fmt.Sprintf("'s%d'", s))
	}
	cases := []struct {
		name, q string
		// minBytes is the least ratio of bytes received without pushdown
		// to bytes with it; minRPCs the same for RPCs (0: not checked).
		minBytes, minRPCs float64
	}{
		// A keys-only row is still one cell carrying the whole key (about
		// 60 bytes on the wire) against three cells of about 200 bytes
		// for a full orders row: 3x is what a cell-based read can save.
		{"count", "SELECT COUNT(*) FROM orders WHERE seller = 's1'", 3, 0},
		{"projection-and-filter", "SELECT order_id FROM orders WHERE seller = 's1' AND status = 'paid'", 5, 0},
		{"like-on-key", "SELECT order_id, amount FROM orders WHERE seller LIKE 's1_' ALLOW FULL SCAN", 5, 0},
		{"skip-scan-50", "SELECT order_id FROM orders WHERE seller IN (" + strings.Join(sellers, ", ") + ")", 2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var runs [2]analyzed
			var rows [2][]string
			for i, on := range []bool{false, true} {
				e.SetPushdown(on)
				a, err := explainAnalyze(ctx, e, c.q)
				if err != nil {
					t.Fatal(err)
				}
				if rows[i], err = result(ctx, e, c.q); err != nil {
					t.Fatal(err)
				}
				runs[i] = a
			}
			if strings.Join(rows[0], "\n") != strings.Join(rows[1], "\n") {
				t.Fatalf("pushdown changed the result: %d rows off, %d on", len(rows[0]), len(rows[1]))
			}
			off, on := runs[0], runs[1]
			br, rr := float64(off.bytes)/float64(on.bytes), float64(off.rpcs)/float64(on.rpcs)
			t.Logf("%s\n  %d rows; bytes received %d off, %d on (%.1fx fewer); RPCs %d off, %d on; rows received %d off, %d on\n%s",
				c.q, len(rows[1]), off.bytes, on.bytes, br, off.rpcs, on.rpcs, off.rowsReceived, on.rowsReceived, on.text)
			if br < c.minBytes {
				t.Errorf("%.1fx fewer bytes with pushdown, want at least %.0fx", br, c.minBytes)
			}
			if c.minRPCs > 0 && rr < c.minRPCs {
				t.Errorf("%.1fx fewer RPCs with pushdown, want at least %.0fx", rr, c.minRPCs)
			}
		})
	}
}
