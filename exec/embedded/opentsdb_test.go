package embedded_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/tsdbtest"
)

func TestOpenTSDB(t *testing.T) {
	st := openStore(t)
	exectest.RunOpenTSDB(t, st, "tsdb")
}

// TestOpenTSDBPointForms: seconds, milliseconds and compacted cells.
func TestOpenTSDBPointForms(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunPointForms(t, st, "tsdb")
}

// TestOpenTSDBAppends: append cells beside point cells.
func TestOpenTSDBAppends(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunAppends(t, st, "tsdb")
}
