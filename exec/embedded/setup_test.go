package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// planSelect plans the SELECT q as the engine does, failing tb on an
// error.
func planSelect(tb testing.TB, pl *planner.Planner, q string) *planner.Select {
	tb.Helper()
	sel, err := exectest.Plan(pl, q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return sel
}

// openStore opens an empty embedded store in a directory of the test's,
// closed when the test ends.
func openStore(tb testing.TB) *embedded.Store {
	tb.Helper()
	st, err := embedded.Open(tb.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
