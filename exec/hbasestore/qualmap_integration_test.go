package hbasestore_test

import (
	"testing"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationDifferentialQualifiers runs the differential suite over
// seed 002's tables whose qualifiers are data (an inverted index, each
// cell a row; user profiles whose tags family is a MAP column) in a real
// HBase.
func TestIntegrationDifferentialQualifiers(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	prefix := hbasetest.TableName("qualmap") + "_"
	dropAtEnd(t, st, []string{prefix + "inverted", prefix + "inverted_text", prefix + "profiles"})
	exectest.RunQualifierDiff(t, st, prefix, exectest.Options{Rows: 1000, Queries: 100})
}
