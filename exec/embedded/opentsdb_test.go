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

// TestOpenTSDBBaseBounds: a range of ts reads only its base hours.
func TestOpenTSDBBaseBounds(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunBaseBounds(t, st, "tsdb")
}

// TestOpenTSDBNames: one row per point, the metric and tags by name.
func TestOpenTSDBNames(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunNames(t, st, "tsdb")
}

// TestOpenTSDBInsertNames: INSERT by name writes OpenTSDB's bytes and
// assigns uids as OpenTSDB does.
func TestOpenTSDBInsertNames(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunInsertNames(t, st, "tsdb")
}

// TestOpenTSDBNamesDiff: random queries by name against a filter of the
// points themselves.
func TestOpenTSDBNamesDiff(t *testing.T) {
	st := openStore(t)
	tsdbtest.RunNamesDiff(t, st, "tsdb", 3000, 300, 11)
}
