package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// TestReuseRows reads queries of every shape twice, keeping each row the
// second time with ReuseRows on (cloning it as a reader that keeps rows
// must), and wants the same rows; then checks that ReuseRows did reuse
// the memory of a plain read, so that the test compares something.
func TestReuseRows(t *testing.T) {
	x, pl, _ := loadLogs(t, 3000)
	queries := []string{
		"SELECT * FROM logs ALLOW FULL SCAN",
		"SELECT message, hostname FROM logs ALLOW FULL SCAN",
		"SELECT * FROM logs WHERE message LIKE '%a%' ALLOW FULL SCAN",
		"SELECT * FROM logs LIMIT 700 ALLOW FULL SCAN",
		"SELECT hostname, ts FROM logs WHERE ts >= TIMESTAMP '2024-05-01 00:00:00' ORDER BY ts LIMIT 50",
		"SELECT * FROM logs WHERE ts >= TIMESTAMP '2024-05-01 00:00:00' AND ts < TIMESTAMP '2024-05-02 00:00:00'",
		"SELECT * FROM logs ORDER BY message LIMIT 20 ALLOW FULL SCAN",
		"SELECT COUNT(*) FROM logs ALLOW FULL SCAN",
		newestLogs, // a merge of 16 sorted streams
	}
	reused := 0
	for _, q := range queries {
		want, _ := readRows(t, x, pl, q, false)
		got, same := readRows(t, x, pl, q, true)
		if len(want) == 0 {
			t.Errorf("%s: no rows; the test checks nothing", q)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: with ReuseRows, %d rows differ from the %d without", q, len(got), len(want))
		}
		if same {
			reused++
		}
	}
	if reused == 0 {
		t.Error("no query reused a row's memory")
	}
}

// readRows returns the rows of q, each cloned, and whether two rows in a
// row shared their memory.
func readRows(t *testing.T, x *exec.Executor, pl *planner.Planner, q string, reuse bool) ([]catalog.Row, bool) {
	t.Helper()
	sel := planSelect(t, pl, q)
	ctx := context.Background()
	placed, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := x.Run(ctx, placed, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if reuse {
		rows.(exec.RowReuser).ReuseRows()
	}
	var out []catalog.Row
	var prev catalog.Row
	shared := false
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, shared
		}
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && len(r) > 0 && &r[0] == &prev[0] {
			shared = true
		}
		prev = r
		out = append(out, slices.Clone(r))
	}
}
