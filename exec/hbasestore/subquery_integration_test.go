package hbasestore_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/parser"
)

// TestIntegrationSubqueries runs the subquery suite on HBase through the
// engine, over tables of its own: each semi-join, anti-join and scalar
// subquery, correlated or not, must equal the reference's nested loops;
// then a correlated lookup's reads must be measured.
func TestIntegrationSubqueries(t *testing.T) {
	t.Parallel()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunSubqueries(t, st, cat, exectest.Options{Rows: 200, Queries: exectest.Size(40, 80, 300)},
		func(ctx context.Context, q string) ([]catalog.Row, error) {
			rows, _, err := e.Exec(ctx, q)
			return rows, err
		})
	// A correlated scalar subquery by the key of orders, for the sellers
	// of one buyer: its reads on HBase measured by EXPLAIN ANALYZE.
	rows, _, err := e.Exec(context.Background(), "SELECT buyer FROM orders_by_buyer WHERE buyer IS NOT NULL LIMIT 1 ALLOW FULL SCAN")
	if err != nil || len(rows) != 1 {
		t.Fatalf("a buyer: %v, %d rows", err, len(rows))
	}
	q := "EXPLAIN ANALYZE SELECT o.order_id, (SELECT MAX(p.amount) FROM orders p WHERE p.seller = o.seller) FROM orders o WHERE o.buyer = '" + rows[0][0].S + "'"
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer res.Close()
	for _, re := range []string{`CLIENT LOOKUP SCALAR SUBQUERY PER GROUP`, `INNER PLAN (?:SKIP SCAN ON \d+ RANGES|RANGE SCAN) OVER orders`, `reads 1 in (\d+) RPCs`, `STORE CALLS (\d+)`, `ROWS RECEIVED (\d+)`} {
		m := regexp.MustCompile(re).FindStringSubmatch(res.Text)
		if m == nil {
			t.Errorf("EXPLAIN ANALYZE lacks %s:\n%s", re, res.Text)
			continue
		}
		if len(m) > 1 {
			if n, _ := strconv.Atoi(m[1]); n == 0 {
				t.Errorf("EXPLAIN ANALYZE measured no %s:\n%s", re, res.Text)
			}
		}
	}
}
