package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/expr"
)

// overflowSites holds a visits count that overflows when one is added.
const overflowSites = "INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'o1', 9223372036854775807), ('b.com', 'o2', 5)"

// TestConditionOverflowFails: an integer overflow in a condition fails
// the statement with the select list's error, wherever the condition is
// evaluated: in the embedded store's cursor loop, in the client (pushdown
// off, or a store that cannot push arithmetic, as HBase), over an index,
// or after grouping. A term that decides the row without the value (here
// owner = 'o2') keeps the statement from failing. UPDATE and DELETE
// change nothing.
func TestConditionOverflowFails(t *testing.T) {
	ctx := context.Background()
	for _, st := range []struct {
		name string
		p    exec.Pushdown
	}{{"embedded", embedded.Pushdown{}}, {"hbase", hbasestore.Pushdown{}}} {
		for _, push := range []bool{true, false} {
			name := st.name + "/pushdown-off"
			if push {
				name = st.name + "/pushdown-on"
			}
			t.Run(name, func(t *testing.T) {
				e := newEngine(t, st.p)
				e.SetPushdown(push)
				if _, _, err := e.Exec(ctx, overflowSites); err != nil {
					t.Fatal(err)
				}
				_, _, err := e.Exec(ctx, "SELECT visits + 1 FROM sites ALLOW FULL SCAN")
				if !errors.Is(err, expr.ErrOverflow) {
					t.Fatalf("the select list: got %v, want an overflow", err)
				}
				want := err.Error()
				for _, q := range []string{
					"SELECT domain FROM sites WHERE visits + 1 > 0 ALLOW FULL SCAN",
					"SELECT domain FROM sites WHERE owner != 'o2' AND visits + 1 > 0 ALLOW FULL SCAN",
					"SELECT domain FROM sites WHERE owner = 'o1' AND visits + 1 > 0",
					"SELECT domain FROM sites NO INDEX WHERE owner = 'o1' AND visits + 1 > 0 ALLOW FULL SCAN",
					"SELECT domain FROM sites WHERE domain = 'a.com' AND visits + 1 > 0",
					"SELECT COUNT(*) FROM sites WHERE visits + 1 > 0 ALLOW FULL SCAN",
					"SELECT owner, COUNT(*) FROM sites GROUP BY owner HAVING MAX(visits) + 1 > 0 ALLOW FULL SCAN",
					"UPDATE sites SET owner = 'o3' WHERE visits + 1 > 0 ALLOW FULL SCAN",
					"DELETE FROM sites WHERE visits + 1 > 0 ALLOW FULL SCAN",
					"DELETE FROM sites WHERE NOT (visits + 1 < 0) ALLOW FULL SCAN",
				} {
					rows, _, err := e.Exec(ctx, q)
					if err == nil || err.Error() != want {
						t.Errorf("%s: got %d rows and %v, want %q", q, len(rows), err, want)
					}
				}
				checkRows(t, e, "SELECT domain, owner FROM sites ALLOW FULL SCAN", "a.com o1; b.com o2")
				checkRows(t, e, "SELECT domain FROM sites WHERE visits + 1 > 0 AND owner = 'o2' ALLOW FULL SCAN", "b.com")
				checkRows(t, e, "SELECT domain FROM sites WHERE owner = 'o2' OR visits + 1 > 0 AND owner = 'o2' ALLOW FULL SCAN", "b.com")
			})
		}
	}
}

// checkRows runs q and checks its rows, values joined by " " and rows by
// "; ".
func checkRows(t *testing.T, e *engine.Engine, q, want string) {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Errorf("%s: %v", q, err)
		return
	}
	if got := rowsText(rows); got != want {
		t.Errorf("%s:\n got %s\nwant %s", q, got, want)
	}
}
