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

// TestIntegrationDerived runs the derived table suite on HBase through
// the engine, over tables of its own: each derived table in FROM and
// JOIN must equal the reference's nested loops.
func TestIntegrationDerived(t *testing.T) {
	t.Parallel()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunDerived(t, st, cat, exectest.Options{Rows: 200, Queries: exectest.Size(40, 80, 300)},
		func(ctx context.Context, q string) ([]catalog.Row, error) {
			rows, _, err := e.Exec(ctx, q)
			return rows, err
		})
}
