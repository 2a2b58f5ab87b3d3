package embedded_test

import (
	"context"
	"errors"
	"github.com/rkql/rkql/exec"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
)

// openSQLite starts the sqlite3 shell, the second oracle. Without it the
// test is skipped, except under CI or RKQL_REQUIRE_HBASE=1, where the set-up
// installs it and its absence fails.
func openSQLite(t *testing.T) *exectest.SQLite {
	t.Helper()
	db, err := exectest.OpenSQLite()
	if errors.Is(err, exectest.ErrNoSQLite) && os.Getenv("CI") == "" && os.Getenv("RKQL_REQUIRE_HBASE") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestSQLiteOracle loads the same adversarial rows into the embedded store
// and into sqlite3, over the example catalog and the layouts beyond it,
// and compares the whole table and random SELECTs, for seeds 1 to 3 (or
// $RKQL_DIFF_SEED alone).
func TestSQLiteOracle(t *testing.T) {
	db := openSQLite(t)
	seeds := []uint64{1, 2, 3}
	if os.Getenv("RKQL_DIFF_SEED") != "" {
		seeds = []uint64{0}
	}
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
		t.Logf("seed %d: %s", seed, all.Summary())
	}
}

// TestSQLiteOracleSeesChange changes one row of the store behind sqlite's
// back: the oracle must report the whole table, and queries, as
// different.
func TestSQLiteOracleSeesChange(t *testing.T) {
	db := openSQLite(t)
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
