package hbasestore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
)

// TestIntegrationCheckIndexCounts compares CHECK INDEX's counts with
// those of raw scans of the data and index tables on HBase, whose index
// upkeep reads rows as HBase shows them: imports that repeat keys, rows
// whose indexed field is NULL, a damaged index and its repair.
func TestIntegrationCheckIndexCounts(t *testing.T) {
	t.Parallel()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunIndexCounts(t, cat, exectest.IndexCountsOptions{Store: st, Session: e,
		Load: func(tb *catalog.Table, rows []catalog.Row) error {
			_, err := e.ImportRows(context.Background(), slices.Values(rows), engine.ImportOptions{Table: tb.Name, Name: tb.Name})
			return err
		}})
}
