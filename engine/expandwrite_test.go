package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
)

// TestWriteExpandingRefused checks that DELETE and UPDATE of OpenTSDB's
// tsdb are refused and change nothing. Both write whole stored rows: a
// DELETE of one point for one tag pair removed every point and tag pair
// of its row, and an UPDATE of one wrote a new row with one tag pair.
func TestWriteExpandingRefused(t *testing.T) {
	ctx := context.Background()
	tsdb, st, run := tsdbEngine(t)
	_, o := examples.OpenTSDBDemo()
	var muts []exec.Mutation
	for _, c := range o.Points {
		muts = append(muts, exec.Mutation{Key: c.Key, Cells: []exec.Cell{{Family: "t", Qualifier: string(c.Qualifier), Timestamp: 1000, Value: c.Value}}})
	}
	if err := st.Mutate(ctx, tsdb.Physical, muts); err != nil {
		t.Fatal(err)
	}
	const count = "SELECT COUNT(*) FROM tsdb WHERE metric = 1 AND base = '2024-05-01 10:00:00'"
	before, err := run(count)
	if err != nil || before != "48" {
		t.Fatalf("%s: %s, %v; want 48 (24 points, 2 tag pairs each)", count, before, err)
	}
	const where = " WHERE metric = 1 AND base = '2024-05-01 10:00:00' AND tagk = 2 AND tagv = 2 AND \"offset\" = 0"
	for _, q := range []string{"DELETE FROM tsdb" + where, "UPDATE tsdb SET value = 7" + where} {
		verb := strings.Fields(q)[0]
		tag, err := run(q)
		if err == nil || !strings.Contains(err.Error(), verb+" of tsdb is not supported: each cell of family t is a row and each repetition of") {
			t.Errorf("%s: %q, %v; want it refused", q, tag, err)
		}
		if after, err := run(count); err != nil || after != before {
			t.Errorf("after %s: %s rows, %v; want %s", verb, after, err, before)
		}
	}
}
