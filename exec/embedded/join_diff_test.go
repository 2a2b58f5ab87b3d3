package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialJoins runs the join suite on the embedded store:
// random joins of the example tables against the reference's nested
// loops.
func TestDifferentialJoins(t *testing.T) {
	t.Parallel()
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	exectest.RunJoins(t, st, cat, exectest.Options{Rows: exectest.Size(300, 400, 1000), Queries: exectest.Size(100, 200, 600)})
}
