package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialOpenTSDB runs the differential suite over OpenTSDB's
// tsdb table, with points written as OpenTSDB writes them.
func TestDifferentialOpenTSDB(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := exectest.Options{}
	if testing.Short() {
		o.Rows, o.Queries = 1000, 80
	}
	exectest.RunOpenTSDBDiff(t, st, "tsdb", o)
}
