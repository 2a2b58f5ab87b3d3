package engine_test

import (
	"context"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialDerived runs the derived table suite on the embedded
// store: random derived tables in FROM and JOIN, each the reference's
// nested loops and sqlite3's answer.
func TestDifferentialDerived(t *testing.T) {
	t.Parallel()
	st := tempStore(t)
	e := exampleEngine(t, engine.Config{Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunDerived(t, st, e.Catalog(), exectest.Options{Rows: exectest.Size(200, 300, 1000), Queries: exectest.Size(80, 160, 500)}, engineRunner(e))
}
