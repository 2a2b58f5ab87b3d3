package embedded_test

import (
	"context"
	"slices"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
)

// TestCheckIndexCounts compares CHECK INDEX's counts with those of raw
// scans of the data and index tables, over imports that repeat keys and
// rows whose indexed field is NULL (which have no entry, and must be
// counted as such, not missing), and over a damaged index.
func TestCheckIndexCounts(t *testing.T) {
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunIndexCounts(t, cat, exectest.IndexCountsOptions{Store: st, Session: e,
		Load: func(tb *catalog.Table, rows []catalog.Row) error {
			_, err := e.ImportRows(context.Background(), slices.Values(rows), engine.ImportOptions{Table: tb.Name, Name: tb.Name})
			return err
		}})
}
