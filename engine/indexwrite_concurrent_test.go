package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
)

// concurrentStore is a store that says it takes concurrent writes, and
// records the order of the tables written; an index write waits for the
// other index of its phase to arrive, so that the writes are seen side by
// side.
type concurrentStore struct {
	exec.Store
	indexes map[string]bool
	mu      sync.Mutex
	log     []string
	arrived int
	both    chan struct{}
	apart   bool // an index write waited in vain for the other
}

func (s *concurrentStore) ConcurrentWrites() bool { return true }

func (s *concurrentStore) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	if s.indexes[table] {
		s.mu.Lock()
		s.arrived++
		if s.arrived == 1 {
			s.both = make(chan struct{})
		}
		both := s.both
		if s.arrived == 2 {
			close(both)
			s.arrived = 0
		}
		s.mu.Unlock()
		select {
		case <-both:
		case <-time.After(30 * time.Second):
			s.mu.Lock()
			s.apart = true
			s.mu.Unlock()
		}
	}
	err := s.Store.Mutate(ctx, table, muts)
	s.mu.Lock()
	s.log = append(s.log, table)
	s.mu.Unlock()
	return err
}

// The two index tables of orders are written at once in each phase of a
// write, and the phases keep their order: both pending entries before
// the rows, both verified entries after.
func TestIndexPhasesConcurrent(t *testing.T) {
	st := tempStore(t)
	cs := &concurrentStore{Store: st, indexes: map[string]bool{}}
	e := exampleEngine(t, engine.Config{Open: func(context.Context) (exec.Store, error) { return cs, nil }})
	tb, _ := e.Catalog().Table("orders")
	for _, ix := range tb.Indexes {
		cs.indexes[ix.Physical] = true
	}
	if len(cs.indexes) != 2 {
		t.Fatalf("orders has %d index tables, want 2", len(cs.indexes))
	}
	var rows = examples.Rows(tb, 2500, 5)
	if err := e.Write(context.Background(), tb, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	if cs.apart {
		t.Fatal("an index write did not meet the other index's write of its phase")
	}
	// Each batch: two index writes, the rows, two index writes.
	var batches []string
	for i := 0; i+5 <= len(cs.log); i += 5 {
		b := cs.log[i : i+5]
		shape := []string{kind(cs, b[0]), kind(cs, b[1]), kind(cs, b[2]), kind(cs, b[3]), kind(cs, b[4])}
		batches = append(batches, strings.Join(shape, " "))
	}
	if len(cs.log)%5 != 0 || len(batches) == 0 {
		t.Fatalf("writes %v are not batches of five", cs.log)
	}
	for i, b := range batches {
		if b != "index index data index index" {
			t.Errorf("batch %d wrote %s", i, b)
		}
	}
	// The entries are those of the rows: CHECK INDEX (data_rows, entries,
	// no_entry, missing, orphans, unverified, stale) finds an entry for
	// each row with the index's fields, and no problem.
	for _, ix := range tb.Indexes {
		got, _, err := e.Exec(context.Background(), "CHECK INDEX "+ix.Name)
		if err != nil {
			t.Fatal(err)
		}
		r := got[0]
		if r[0].I != int64(len(rows)) || r[1].I+r[2].I != r[0].I || r[3].I+r[4].I+r[5].I+r[6].I != 0 {
			t.Errorf("CHECK INDEX %s: %s", ix.Name, rowsText(got))
		}
	}
}

func kind(cs *concurrentStore, table string) string {
	if cs.indexes[table] {
		return "index"
	}
	return "data"
}
