package hbasestore_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/tsdbtest"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationOpenTSDB writes OpenTSDB's rows byte for byte into a
// real HBase (tsdb split at its 20 salt buckets) and reads a metric's
// points for one host over one hour back exactly.
func TestIntegrationOpenTSDB(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("rkql_tsdb")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	exectest.RunOpenTSDB(t, st, name)
}

// TestIntegrationOpenTSDBPointForms reads OpenTSDB's second,
// millisecond and compacted cells from a real HBase.
func TestIntegrationOpenTSDBPointForms(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("rkql_tsdbforms")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunPointForms(t, st, name)
}

// TestIntegrationDifferentialOpenTSDB runs the differential suite over
// OpenTSDB's tsdb table in a real HBase, salted (split at its 20
// buckets) and unsalted.
func TestIntegrationDifferentialOpenTSDB(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("rkql_tsdbdiff")
	dropAtEnd(t, st, []string{name, name + "_nosalt"})
	exectest.RunOpenTSDBDiff(t, st, name, exectest.Options{Rows: 2000, Queries: 150})
}

// TestIntegrationOpenTSDBAppends reads OpenTSDB's append cells beside
// point cells, older and newer, from a real HBase.
func TestIntegrationOpenTSDBAppends(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("rkql_tsdbappends")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunAppends(t, st, name)
}

// TestIntegrationOpenTSDBBaseBounds: a range of ts reads only the rows
// of its base hours from a real HBase.
func TestIntegrationOpenTSDBBaseBounds(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("tsdbrows_bounds")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunBaseBounds(t, st, name)
}

// TestIntegrationOpenTSDBNames reads a real HBase's tsdb one row per
// point, the metric and tags by name through tsdb-uid.
func TestIntegrationOpenTSDBNames(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("tsdbrows_names")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunNames(t, st, name)
}

// TestIntegrationOpenTSDBInsertNames: INSERT by name into a real HBase
// writes OpenTSDB's bytes, its uids assigned with Increment and
// checkAndMutate.
func TestIntegrationOpenTSDBInsertNames(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("tsdbrows_insert")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunInsertNames(t, st, name)
}

// TestIntegrationOpenTSDBNamesDiff runs random queries by name over a
// real HBase against a filter of the points themselves.
func TestIntegrationOpenTSDBNamesDiff(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("tsdbrows_namesdiff")
	dropAtEnd(t, st, []string{name, name + "-uid"})
	tsdbtest.RunNamesDiff(t, st, name, 1500, 120, 5)
}
