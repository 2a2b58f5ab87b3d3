package hbase_test

import (
	"testing"
	"time"

	"github.com/rkql/rkql/exec/exectest"
	hbstore "github.com/rkql/rkql/exec/hbase"
)

// TestSQLiteOracleHBase loads the same adversarial rows into the real
// HBase and into sqlite3, for each example table, and compares the whole
// table and random SELECTs: the sqlite oracle over the store that pushes
// filters and aggregates into the region servers. One seed, small: the
// embedded store's run covers seeds 1 to 3.
func TestSQLiteOracleHBase(t *testing.T) {
	st := openStore(t, hbstore.Options{CompressionFallback: true})
	db := exectest.OpenSQLiteT(t)
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	o := exectest.SQLiteOptions{Rows: 300, Queries: 60, Now: time.Now().UnixMilli()}
	s := exectest.RunSQLite(t, st, db, cat, o)
	t.Logf("%s\n%s", s.Summary(), s.Reasons())
}
