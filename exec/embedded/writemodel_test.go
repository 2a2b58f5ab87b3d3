package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

// openWriteSession opens an empty embedded store and an engine over it,
// both reading clock.
func openWriteSession(t *testing.T, cat *catalog.Catalog, clock *exectest.Clock) exectest.Session {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Clock: clock.Now,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
}

// TestWriteModel runs random INSERTs (older, equal, newer, future and no
// TIMESTAMP; NULLs; partial columns), DELETEs, UPDATEs (and ones the
// engine must refuse) and clock advances past a TTL over the indexed
// tables, and checks after each one queries through
// every index and without one against exectest.Model.
//
// Each check queries the whole table, so a run costs about the square of
// its operations: 600 still see every kind of operation, UPDATEs refused
// among them (checked below); RKQL_LONG=1 runs 1,500.
func TestWriteModel(t *testing.T) {
	t.Parallel()
	ops := exectest.Size(300, 600, 1500)
	for _, c := range []struct {
		file   string
		tables []string
	}{
		{"../../examples/catalog.yaml", []string{"orders", "sites"}},
		{"testdata/writes.yaml", []string{"wm_sessions"}},
	} {
		cat, err := catalog.LoadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		clock := exectest.NewClock(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
		open := func(t *testing.T) exectest.Session { return openWriteSession(t, cat, clock) }
		st := exectest.RunWrites(t, cat, exectest.WriteOptions{Ops: ops, Tables: c.tables, Clock: clock, Open: open, Reopen: open})
		t.Logf("%s: %d operations, %d queries checked", c.file, st.Ops, st.Queries)
		if st.Updates == 0 || st.UpdatedRows == 0 || st.UpdatesRefused == 0 {
			t.Errorf("%s: %d updates of %d rows, %d refused: the run did not check UPDATE", c.file, st.Updates, st.UpdatedRows, st.UpdatesRefused)
		}
	}
}

// TestKnownWriteDivergences runs the reproduction of each entry of
// exectest.KnownWriteDivergences that shows on this store: each must
// still give its wrong answer. One that no longer does has been fixed,
// and its entry must go, so that RunWrites checks its shape again.
func TestKnownWriteDivergences(t *testing.T) {
	for _, d := range exectest.KnownWriteDivergences {
		if d.Markers {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			cat, err := catalog.LoadFile("../../" + d.Catalog)
			if err != nil {
				t.Fatal(err)
			}
			clock := exectest.NewClock(time.UnixMilli(d.Start))
			s := openWriteSession(t, cat, clock)
			exectest.CheckWriteDivergence(t, s, &d)
		})
	}
}
