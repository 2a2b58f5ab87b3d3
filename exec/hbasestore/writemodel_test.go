package hbasestore_test

import (
	"context"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
)

// writeSession opens the HBase store and an engine over a fresh copy of
// the example catalog (tables renamed for this run), dropped at the end.
func writeSession(t *testing.T) (*catalog.Catalog, exectest.Session) {
	cat, sess, _ := writeSessionClock(t)
	return cat, sess
}

// writeSessionClock is writeSession with the engine reading a clock the
// caller sets (exectest.WriteOptions.WriteClock), which starts at the
// wall time.
func writeSessionClock(t *testing.T) (*catalog.Catalog, exectest.Session, *exectest.Clock) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	clock := exectest.NewClock(time.Now())
	return cat, engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Clock: clock.Now,
		Open: func(context.Context) (exec.Store, error) { return st, nil }}), clock
}

// TestWriteModelHBase runs the write model over the example catalog's
// indexed tables on HBase, which keeps delete markers. Every write carries
// a TIMESTAMP (HBase's clock is not the test's) but UPDATE, which names
// none: the engine reads a clock the run sets to the wall time before each
// operation, so that the model knows the one it writes at. The TTL part is left
// out: HBase expires cells by its own clock, which a test cannot move, so
// the table with a TTL (exec/embedded's testdata/writes.yaml) runs on the
// embedded store only. Puts a marker hides must be among the writes, and
// index upkeep must see them hidden.
//
// Its tables are its own, so it runs beside the other parallel tests. 400
// operations still hide puts behind markers and refuse UPDATEs (both
// checked below); RKQL_LONG=1 runs 1,000.
func TestWriteModelHBase(t *testing.T) {
	t.Parallel()
	cat, sess, clock := writeSessionClock(t)
	ops := exectest.Size(200, 400, 1000)
	st := exectest.RunWrites(t, cat, exectest.WriteOptions{Ops: ops, Tables: []string{"orders", "sites"}, Markers: true, WriteClock: clock,
		Open: func(*testing.T) exectest.Session { return sess }})
	t.Logf("%d operations, %d queries checked", st.Ops, st.Queries)
	if st.Updates == 0 || st.UpdatedRows == 0 || st.UpdatesRefused == 0 {
		t.Errorf("%d updates of %d rows, %d refused: the run did not check UPDATE", st.Updates, st.UpdatedRows, st.UpdatesRefused)
	}
	if st.Hidden == 0 {
		t.Error("no put was hidden by a delete marker: the run did not check index upkeep against markers")
	}
}

// TestKnownWriteDivergencesHBase runs the reproduction of each entry of
// exectest.KnownWriteDivergences that shows on a store keeping delete
// markers: each must still give its wrong answer. One that no longer does
// has been fixed, and its entry must go.
func TestKnownWriteDivergencesHBase(t *testing.T) {
	for _, d := range exectest.KnownWriteDivergences {
		if !d.Markers {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			if d.Catalog != "examples/catalog.yaml" || d.Start != 0 {
				t.Fatalf("%s: only reproductions over the example catalog at the wall clock run on HBase", d.Name)
			}
			_, sess := writeSession(t)
			exectest.CheckWriteDivergence(t, sess, &d)
		})
	}
}
