package hbasestore_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationRaw runs SELECT RAW on the real HBase: unmapped cells,
// versions, an index, a row that does not fit, and the qualifier
// "\x70\x87" stored byte-exact.
func TestIntegrationRaw(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	name := hbasetest.TableName("rkql_raw")
	dropAtEnd(t, st, []string{name, name + "_by_n"})
	exectest.RunRaw(t, st, name)
}
