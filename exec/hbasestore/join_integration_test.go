package hbasestore_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
)

// TestIntegrationJoins runs the join suite on HBase, over tables of its
// own: lookup joins there are multi-gets and scans across the tables'
// regions, and each result must equal the reference's nested loops.
func TestIntegrationJoins(t *testing.T) {
	t.Parallel()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	exectest.RunJoins(t, st, cat, exectest.Options{Rows: 300, Queries: exectest.Size(60, 100, 300)})
}
