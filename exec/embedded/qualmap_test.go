package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

// TestDifferentialQualifiers runs the differential suite over seed 002's
// tables whose qualifiers are data: an inverted index (each cell a row)
// and user profiles whose tags are a MAP column.
func TestDifferentialQualifiers(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := exectest.Options{}
	if testing.Short() {
		o.Rows, o.Queries = 500, 60
	}
	exectest.RunQualifierDiff(t, st, "", o)
}
