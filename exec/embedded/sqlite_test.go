package embedded_test

import (
	"context"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

// TestSQLiteOracle loads the same adversarial rows into the embedded store
// and into sqlite3, over the example catalog and the layouts beyond it,
// and compares the whole table and random SELECTs, for seeds 1 to 3 (or
// $RKQL_DIFF_SEED alone).
func TestSQLiteOracle(t *testing.T) {
	db := exectest.OpenSQLiteT(t)
	seeds := sqliteSeeds(t)
	o := exectest.SQLiteOptions{}
	if testing.Short() {
		o.Rows, o.Queries = 300, 50
	}
	for _, seed := range seeds {
		var all exectest.SQLiteStats
		for _, file := range []string{"../../examples/catalog.yaml", "testdata/layouts.yaml"} {
			cat, err := catalog.LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: func() time.Time { return exectest.SQLiteClock }})
			if err != nil {
				t.Fatal(err)
			}
			o.Seed = seed
			s := exectest.RunSQLite(t, st, db, cat, o)
			st.Close()
			all.Add(s)
		}
		t.Logf("seed %d: %s\n%s", seed, all.Summary(), all.Reasons())
	}
}

// TestSQLiteOracleParallel is TestSQLiteOracle for one seed with
// pushdown on and parallel reads of four scanners.
func TestSQLiteOracleParallel(t *testing.T) {
	db := exectest.OpenSQLiteT(t)
	o := exectest.SQLiteOptions{Seed: 2, Parallel: 4}
	if testing.Short() {
		o.Rows, o.Queries = 300, 50
	}
	for _, file := range []string{"../../examples/catalog.yaml", "testdata/layouts.yaml"} {
		cat, err := catalog.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: func() time.Time { return exectest.SQLiteClock }})
		if err != nil {
			t.Fatal(err)
		}
		s := exectest.RunSQLite(t, st, db, cat, o)
		st.Close()
		t.Logf("%s: %s", file, s.Summary())
	}
}

// sqliteSeeds are the seeds 1 to 3, or $RKQL_DIFF_SEED alone.
func sqliteSeeds(t *testing.T) []uint64 {
	env := os.Getenv("RKQL_DIFF_SEED")
	if env == "" {
		return []uint64{1, 2, 3}
	}
	s, err := strconv.ParseUint(env, 10, 64)
	if err != nil || s == 0 {
		t.Fatalf("RKQL_DIFF_SEED=%q is no seed", env)
	}
	return []uint64{s}
}

// TestSQLiteOracleSeesChange changes one row of the store behind sqlite's
// back: the oracle must report the whole table, and queries, as
// different.
func TestSQLiteOracleSeesChange(t *testing.T) {
	db := exectest.OpenSQLiteT(t)
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	tb, _ := cat.Table("sites")
	visits, _ := tb.Column("visits")
	o := exectest.SQLiteOptions{Rows: 200, Queries: 30, Seed: 1,
		Tamper: func(ctx context.Context, x *exec.Executor, t *catalog.Table, rows []catalog.Row) error {
			r := slices.Clone(rows[0][:len(t.Columns)])
			r[visits] = catalog.Bigint(-7)
			return x.Insert(ctx, t, []catalog.Row{r}, 1_700_090_000_000, nil)
		}}
	s, err := exectest.SQLiteTable(context.Background(), st, db, cat, tb, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Differ) == 0 || !strings.HasPrefix(s.Differ[0], "SELECT *, _ts FROM sites ALLOW FULL SCAN\n") {
		t.Fatalf("the oracle did not see the changed row: %s", s.Summary())
	}
	t.Logf("%s\n%s", s.Summary(), s.Differ[0])
}

// TestSQLiteWrites runs random INSERTs, UPDATEs, DELETEs and CREATE,
// BUILD and DROP INDEX of extra indexes through the engine and in sqlite3,
// and compares the whole table (without an index and through each built
// one) and a random query after each, for seeds 1 to 3 (or
// $RKQL_DIFF_SEED alone).
func TestSQLiteWrites(t *testing.T) {
	db := exectest.OpenSQLiteT(t)
	seeds := sqliteSeeds(t)
	ops := 100
	if testing.Short() {
		ops = 50
	}
	runs := []struct {
		file, table string
		extra       []string // CREATE INDEX statements the run adds, builds and drops
	}{
		{"../../examples/catalog.yaml", "sites", []string{"CREATE INDEX sites_by_visits ON sites ROWKEY (visits, domain)"}},
		{"../../examples/catalog.yaml", "orders", []string{"CREATE INDEX orders_by_status ON orders ROWKEY (status, '|', seller, '|', order_id, ts)"}},
		{"testdata/writes.yaml", "wm_sessions", []string{"CREATE INDEX wm_sessions_by_hits ON wm_sessions ROWKEY (hits, id)"}},
		{"testdata/layouts.yaml", "java_signed", []string{"CREATE INDEX java_signed_by_v ON java_signed ROWKEY (v, acct, '|', id, n)"}},
	}
	for _, seed := range seeds {
		var all exectest.SQLiteStats
		for _, run := range runs {
			t.Run(run.table, func(t *testing.T) {
				src, err := os.ReadFile(run.file)
				if err != nil {
					t.Fatal(err)
				}
				cat, err := catalog.Parse(src)
				if err != nil {
					t.Fatal(err)
				}
				tb, _ := cat.Table(run.table)
				clock := exectest.NewClock(exectest.SQLiteClock)
				st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: clock.Now})
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				sess := engine.New(engine.Config{Catalog: cat, CatalogSource: src, CatalogFile: filepath.Join(t.TempDir(), "catalog.yaml"),
					CreateOnDemand: true, Clock: clock.Now, Open: func(context.Context) (exec.Store, error) { return st, nil }})
				s, err := exectest.SQLiteWrites(context.Background(), sess, db, tb, exectest.SQLiteWriteOptions{Ops: ops, Seed: seed, Indexes: run.extra})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %s", run.table, s.Summary())
				for _, d := range s.Differ {
					t.Error(d)
				}
				all.Add(s)
			})
		}
		t.Logf("seed %d: %s\n%s", seed, all.Summary(), all.Reasons())
	}
}

// TestSQLiteKnownBugs runs the reproduction of each entry of
// exectest.SQLiteKnownBugs: each must still give other rows than sqlite
// does. One that no longer does has been fixed, and its entry must go, so
// that the oracle checks its shape again.
func TestSQLiteKnownBugs(t *testing.T) {
	for name, b := range exectest.SQLiteKnownBugs {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile("../../" + b.Catalog)
			if err != nil {
				t.Fatal(err)
			}
			cat, err := catalog.Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			st := openStore(t)
			sess := engine.New(engine.Config{Catalog: cat, CatalogSource: src, CatalogFile: filepath.Join(t.TempDir(), "catalog.yaml"),
				CreateOnDemand: true, Open: func(context.Context) (exec.Store, error) { return st, nil }})
			ctx := context.Background()
			for _, q := range b.Statements {
				if _, _, err := sess.Exec(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			rows, _, err := sess.Exec(ctx, b.Query)
			fixed := b.Want < 0 && err != nil || b.Want >= 0 && err == nil && len(rows) == b.Want ||
				b.OrError != "" && err != nil && strings.Contains(err.Error(), b.OrError)
			if fixed {
				t.Fatalf("%s: %s answers as sqlite does now (%d rows, %v); remove it from exectest.SQLiteKnownBugs", name, b.Query, len(rows), err)
			}
			t.Logf("%s\n  %s: %d rows (%v), sqlite %d", b.Why, b.Query, len(rows), err, b.Want)
		})
	}
}
