package hbasestore_test

import (
	"context"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
)

// TestIntegrationSubqueries runs the subquery suite on HBase through the
// engine, over tables of its own: each semi-join, anti-join and scalar
// subquery must equal the reference's nested loops.
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
}
