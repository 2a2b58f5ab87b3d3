package engine_test

import (
	"context"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialSubqueries runs the subquery suite on the embedded
// store: random semi- and anti-joins and scalar subqueries, each the
// reference's nested loops and sqlite3's answer.
func TestDifferentialSubqueries(t *testing.T) {
	t.Parallel()
	st := tempStore(t)
	e := exampleEngine(t, engine.Config{Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RunSubqueries(t, st, e.Catalog(), exectest.Options{Rows: exectest.Size(200, 300, 1000), Queries: exectest.Size(80, 150, 500)}, engineRunner(e))
}

// engineRunner runs a query on e and returns its rows.
func engineRunner(e *engine.Engine) exectest.SubqueryRunner {
	return func(ctx context.Context, q string) ([]catalog.Row, error) {
		rows, _, err := e.Exec(ctx, q)
		return rows, err
	}
}
