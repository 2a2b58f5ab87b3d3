package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialOpenTSDB runs the differential suite over OpenTSDB's
// tsdb table, with points written as OpenTSDB writes them.
func TestDifferentialOpenTSDB(t *testing.T) {
	st := openStore(t)
	o := exectest.Options{}
	if testing.Short() {
		o.Rows, o.Queries = 1000, 80
	}
	exectest.RunOpenTSDBDiff(t, st, "tsdb", o)
}
