package hbasestore_test

import (
	"context"
	"testing"
	"time"

	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
)

// TestSQLiteOracleHBase loads the same adversarial rows into the real
// HBase and into sqlite3, for each example table, and compares the whole
// table and random SELECTs: the sqlite oracle over the store that pushes
// filters and aggregates into the region servers. One seed, small: the
// embedded store's run covers seeds 1 to 3.
func TestSQLiteOracleHBase(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	db := exectest.OpenSQLiteT(t)
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	o := exectest.SQLiteOptions{Rows: 300, Queries: 60, Now: time.Now().UnixMilli()}
	s := exectest.RunSQLite(t, st, db, cat, o)
	t.Logf("%s\n%s", s.Summary(), s.Reasons())
}

// TestSQLiteOracleHBaseParallel is TestSQLiteOracleHBase with another
// seed and parallel reads of four scanners over the tables' regions.
func TestSQLiteOracleHBaseParallel(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	db := exectest.OpenSQLiteT(t)
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	o := exectest.SQLiteOptions{Rows: 300, Queries: 60, Seed: 2, Now: time.Now().UnixMilli(), Parallel: 4}
	s := exectest.RunSQLite(t, st, db, cat, o)
	t.Logf("%s\n%s", s.Summary(), s.Reasons())
}

// TestSQLiteWritesHBase runs random INSERTs, UPDATEs and DELETEs over the
// example catalog's indexed tables on HBase, which keeps delete markers,
// and in sqlite3, and compares the whole table, without an index and
// through each one, after each. (Index DDL runs on the embedded store:
// its CREATE INDEX edits a catalog file.)
func TestSQLiteWritesHBase(t *testing.T) {
	db := exectest.OpenSQLiteT(t)
	cat, sess := writeSession(t)
	var all exectest.SQLiteStats
	for _, name := range []string{"orders", "sites"} {
		tb, _ := cat.Table(name)
		s, err := exectest.SQLiteWrites(context.Background(), sess, db, tb, exectest.SQLiteWriteOptions{Ops: 60})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s", name, s.Summary())
		for _, d := range s.Differ {
			t.Error(d)
		}
		all.Add(s)
	}
	t.Logf("%s\n%s", all.Summary(), all.Reasons())
}
