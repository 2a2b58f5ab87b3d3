package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

const atomicCatalog = `
tables:
  - name: items
    hbase: %s
    families:
      - {name: f}
    columns:
      - {name: id, type: BIGINT}
      - {name: tag, type: STRING, column: 'f:tag'}
      - {name: n, type: BIGINT, column: 'f:n'}
    rowkey:
      - {field: id}
    indexes:
      - name: items_by_tag
        hbase: %s
        rowkey:
          - {field: tag}
          - {literal: '|'}
          - {field: id}
  - name: plain
    hbase: %s
    families:
      - {name: f}
    columns:
      - {name: id, type: BIGINT}
      - {name: tag, type: STRING, column: 'f:tag'}
      - {name: n, type: BIGINT, column: 'f:n'}
    rowkey:
      - {field: id}
`

// cutStore cancels a statement once its cutAfter-th Mutate call has
// returned, as Ctrl-C or --timeout does in the middle of a write.
type cutStore struct {
	exec.Store
	cutAfter, calls int
	cancel          context.CancelFunc
}

func (s *cutStore) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	err := s.Store.Mutate(ctx, table, muts)
	if s.calls++; s.calls == s.cutAfter {
		s.cancel()
	}
	return err
}

// txnCutStore is a cutStore over a store with transactions.
type txnCutStore struct{ *cutStore }

func (s txnCutStore) Atomically(ctx context.Context, fn func() error) error {
	return s.Store.(exec.Transactor).Atomically(ctx, fn)
}

// TestWriteCancelledMidway cancels UPDATE, DELETE and a multi-row INSERT
// after some of their batches were written. On the embedded store each is
// one transaction: nothing of it stays, and the error says so. On a store
// without transactions, as HBase, the error says how many rows were
// written, and the table holds exactly those.
func TestWriteCancelledMidway(t *testing.T) {
	forEachCut(t, func(t *testing.T, atomic bool) (exec.Store, [3]string) {
		st := tempStore(t)
		return st, [3]string{"items", "items_by_tag", "plain"}
	}, []bool{true, false}, []string{"items", "plain"}, nil)
}

// TestIntegrationWriteCancelledMidway is TestWriteCancelledMidway on a
// real HBase, which has no transactions.
func TestIntegrationWriteCancelledMidway(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	forEachCut(t, func(t *testing.T, atomic bool) (exec.Store, [3]string) {
		names := [3]string{hbasetest.TableName("rkql_cut_items"), hbasetest.TableName("rkql_cut_by_tag"), hbasetest.TableName("rkql_cut_plain")}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			for _, n := range names {
				if err := st.DropTable(ctx, n); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
					t.Errorf("clean-up: %v", err)
				}
			}
		})
		return st, names
	}, []bool{false}, []string{"items"}, func(verb string, midBatch bool) bool {
		// The table with an index, cut between batches and inside one:
		// each case creates and drops two HBase tables, which is slow.
		return verb == "DELETE" && !midBatch || verb == "UPDATE" && midBatch
	})
}

// forEachCut runs checkCut for each write statement (those only accepts,
// when set) and each of tables, over the stores open gives, as they are
// (atomic) or hiding their transactions.
func forEachCut(t *testing.T, open func(t *testing.T, atomic bool) (exec.Store, [3]string), atomics []bool, tables []string, only func(verb string, midBatch bool) bool) {
	const rows = 12_000
	var values strings.Builder
	for i := range rows {
		if i > 0 {
			values.WriteString(", ")
		}
		fmt.Fprintf(&values, "(%d, 'new', %d)", i, i)
	}
	stmts := []struct {
		verb, sql string
		// what a row changed by the statement reads as; "" for gone
		changed string
		// the Mutate calls before the cut, and the rows written by then
		// on a store without transactions
		cutAfter int
		done     int64
		// midBatch cuts after the first of the three writes of the next
		// batch of items, whose rows are then unsure
		midBatch bool
		unsure   int64
	}{
		{"UPDATE", "UPDATE %s SET tag = 'new' WHERE n >= 0 ALLOW FULL SCAN", "new", 4, 4000, false, 0},
		{"DELETE", "DELETE FROM %s WHERE n >= 0 ALLOW FULL SCAN", "", 4, 4000, false, 0},
		{"INSERT", "INSERT INTO %s (id, tag, n) VALUES " + values.String(), "new", 1, 5000, false, 5000},
		{"UPDATE", "UPDATE %s SET tag = 'new' WHERE n >= 0 ALLOW FULL SCAN", "new", 4, 4000, true, 1000},
		{"DELETE", "DELETE FROM %s WHERE n >= 0 ALLOW FULL SCAN", "", 4, 4000, true, 1000},
	}
	for _, tc := range stmts {
		if only != nil && !only(tc.verb, tc.midBatch) {
			continue
		}
		for _, table := range tables {
			if tc.midBatch && table != "items" {
				continue
			}
			for _, atomic := range atomics {
				name := fmt.Sprintf("%s/%s/atomic=%v", tc.verb, table, atomic)
				if tc.midBatch {
					name += "/mid-batch"
				}
				t.Run(name, func(t *testing.T) {
					cut := tc.cutAfter
					if table == "items" {
						cut *= 3 // each batch writes the index, the table, the index
					}
					if tc.midBatch {
						cut++
					}
					st, names := open(t, atomic)
					cat, err := catalog.Parse([]byte(fmt.Sprintf(atomicCatalog, names[0], names[1], names[2])))
					if err != nil {
						t.Fatal(err)
					}
					we := checkCut(t, cat, st, table, fmt.Sprintf(tc.sql, table), tc.verb, tc.changed, cut, atomic, tc.done)
					if !atomic && we.Unsure != tc.unsure {
						t.Errorf("Unsure = %d, want %d: %v", we.Unsure, tc.unsure, we)
					}
				})
			}
		}
	}
}

// checkCut runs sql over cat's table, cut after cutAfter Mutate calls,
// and checks what it left.
func checkCut(t *testing.T, cat *catalog.Catalog, base exec.Store, table, sql, verb, changed string, cutAfter int, atomic bool, done int64) *engine.WriteError {
	const rows = 12_000
	cs := &cutStore{Store: base}
	var st exec.Store = cs
	if atomic {
		st = txnCutStore{cs}
	}
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	e.SetConfirm(func(context.Context, string) (bool, error) { return true, nil })
	tb, _ := cat.Table(table)
	var old []catalog.Row
	for i := range rows {
		old = append(old, catalog.Row{catalog.Bigint(int64(i)), catalog.String("old"), catalog.Bigint(int64(i))})
	}
	if err := e.Write(context.Background(), tb, nil, old, 0, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs.calls, cs.cutAfter, cs.cancel = 0, cutAfter, cancel
	_, _, err := e.Exec(ctx, sql)
	var we *engine.WriteError
	if !errors.As(err, &we) || !errors.Is(err, context.Canceled) || we.Verb != verb {
		t.Fatalf("err = %v, want a %s WriteError of a cancel", err, verb)
	}
	if we.Undone != atomic {
		t.Errorf("Undone = %v, want %v: %v", we.Undone, atomic, err)
	}
	want := done
	if atomic {
		want = 0
	} else if we.Done != done {
		t.Errorf("Done = %d, want %d: %v", we.Done, done, err)
	}
	cs.cutAfter = 0
	got, _, err := e.Exec(context.Background(), fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE tag = 'old' ALLOW FULL SCAN", table))
	if err != nil {
		t.Fatal(err)
	}
	if n := got[0][0].I; n != rows-want {
		t.Errorf("%d rows unchanged after the cut, want %d (%v)", n, rows-want, err)
	}
	if changed != "" {
		got, _, err = e.Exec(context.Background(), fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE tag = '%s' ALLOW FULL SCAN", table, changed))
		if err != nil {
			t.Fatal(err)
		}
		if n := got[0][0].I; n != want {
			t.Errorf("%d rows changed, want %d", n, want)
		}
	}
	if table == "items" && atomic {
		got, _, err = e.Exec(context.Background(), "CHECK INDEX items_by_tag")
		if err != nil {
			t.Fatal(err)
		}
		if r := got[0]; r[0].I != rows || r[1].I != rows || r[2].I+r[3].I+r[4].I+r[5].I+r[6].I != 0 {
			t.Errorf("CHECK INDEX after the undone %s: %v", verb, r)
		}
	}
	return we
}
