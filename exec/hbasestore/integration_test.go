package hbasestore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/planner"
)

// env is the HBase store and an embedded store holding the same rows of
// the scratch catalog's tables.
type env struct {
	hb  *hbasestore.Store
	emb *embedded.Store
	cat *catalog.Catalog
	pl  *planner.Planner
}

// openStore opens the HBase store of the test cluster, or skips.
func openStore(t testing.TB, opts hbasestore.Options) *hbasestore.Store {
	t.Helper()
	return openStoreAt(t, hbasetest.Quorum(t), opts)
}

// openStoreAt opens the HBase store of the cluster at quorum q.
func openStoreAt(t testing.TB, q string, opts hbasestore.Options) *hbasestore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// dropAtEnd drops the named tables when the test ends, whatever happened.
func dropAtEnd(t testing.TB, st *hbasestore.Store, names []string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		have, err := st.Tables(ctx)
		if err != nil {
			t.Errorf("list tables for clean-up: %v", err)
			return
		}
		for _, n := range names {
			if !slices.Contains(have, n) {
				continue
			}
			if err := st.DropTable(ctx, n); err != nil {
				t.Errorf("clean-up: %v", err)
			}
		}
	})
}

// scratchExample makes table name of a fresh scratch catalog (the example
// catalog under unique physical names) on st, every table of the catalog
// dropped when t ends, and returns the catalog, the table and an executor
// over st.
func scratchExample(t testing.TB, st *hbasestore.Store, name string) (*catalog.Catalog, *catalog.Table, *exec.Executor) {
	t.Helper()
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	tb, _ := cat.Table(name)
	return cat, tb, ensureTable(t, st, tb)
}

// ensureTable creates tb on st and returns an executor over st. A region
// server that cannot load the aggregation endpoint a store asks for skips
// t, or fails it under RKQL_REQUIRE_HBASE=1.
func ensureTable(t testing.TB, st exec.Store, tb *catalog.Table) *exec.Executor {
	t.Helper()
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(context.Background(), tb); err != nil {
		if hbasetest.CoprocessorMissing(err) {
			hbasetest.NoCoprocessor(t, hbase.AggregateClass, err)
		}
		t.Fatal(err)
	}
	return x
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, openStore(t, hbasestore.Options{CompressionFallback: true}))
}

// newEnvOn is newEnv on the HBase store st.
func newEnvOn(t *testing.T, st *hbasestore.Store) *env {
	t.Helper()
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	emb, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	return &env{hb: st, emb: emb, cat: cat, pl: planner.New(cat, planner.Options{})}
}

// load writes rows into both stores. Tables without indexes are written
// with one seeded random source per store, so random key parts come out
// the same on both.
func (e *env) load(ctx context.Context, tb *catalog.Table, rows []catalog.Row) error {
	for _, st := range []exec.Store{e.hb, e.emb} {
		x := &exec.Executor{Store: st}
		if err := x.EnsureTable(ctx, tb); err != nil {
			return err
		}
		if len(tb.Indexes) > 0 {
			if err := x.Insert(ctx, tb, rows, 0, nil); err != nil {
				return err
			}
			continue
		}
		rnd := rand.New(rand.NewPCG(3, 4))
		for from := 0; from < len(rows); from += 5000 {
			var muts []exec.Mutation
			for _, r := range rows[from:min(from+5000, len(rows))] {
				m, err := exec.RowMutation(tb, r, 0, rnd.Int64N, nil)
				if err != nil {
					return err
				}
				muts = append(muts, m)
			}
			if err := st.Mutate(ctx, tb.Physical, muts); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestIntegration loads every example table into HBase, pre-split, and
// checks that queries return what the embedded store returns: the
// differential suite against its reference, the full contents of each
// table, statements built from the data, and access paths that cross
// regions.
//
// Its tables are its own (scratchCatalog names them for the run), so it
// runs beside the other parallel tests. 3,000 rows a table fill every
// region of each split (testSame wants at least 2,000, testPaths spreads
// keys over 16 regions); each random query costs round trips, so the
// normal run asks 120 a table and RKQL_LONG=1 asks 200.
func TestIntegration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	begin := time.Now()
	t.Run("create", e.testCreate)
	t.Logf("create: %v", time.Since(begin).Round(time.Millisecond))
	if t.Failed() {
		return
	}
	begin = time.Now()
	t.Run("differential", func(t *testing.T) {
		exectest.Run(t, e.hb, e.cat, exectest.Options{Rows: 3000, Queries: exectest.Size(80, 120, 200), Load: e.load, Parallel: 4})
	})
	t.Logf("load and differential suite: %v", time.Since(begin).Round(time.Millisecond))
	begin = time.Now()
	t.Run("same-as-embedded", e.testSame)
	t.Run("paths", e.testPaths)
	t.Logf("cross-store checks: %v", time.Since(begin).Round(time.Millisecond))
}

// testCreate creates every table with its splits and checks its regions.
func (e *env) testCreate(t *testing.T) {
	ctx := context.Background()
	x := &exec.Executor{Store: e.hb}
	var all []*catalog.Table
	for _, tb := range e.cat.Tables {
		all = append(all, tb)
		for _, ix := range tb.Indexes {
			all = append(all, ix.Table)
		}
	}
	for _, tb := range all {
		if err := e.hb.CreateTable(ctx, exec.Spec(tb)); err != nil {
			t.Fatalf("create %s: %v", tb.Name, err)
		}
	}
	if fb := e.hb.Fallbacks(); len(fb) > 0 {
		t.Logf("compression fallbacks (the cluster lacks the codec): %v", fb)
	}
	names, err := e.hb.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range all {
		if !slices.Contains(names, tb.Physical) {
			t.Errorf("Tables does not list %s", tb.Physical)
		}
		regions, err := e.hb.Regions(ctx, tb.Physical)
		if err != nil {
			t.Fatal(err)
		}
		splits := tb.SplitKeys()
		if len(regions) != len(splits)+1 {
			t.Errorf("%s: %d regions, want %d", tb.Name, len(regions), len(splits)+1)
			continue
		}
		for i, r := range regions[1:] {
			if string(r.StartKey) != string(splits[i]) || string(regions[i].EndKey) != string(splits[i]) {
				t.Errorf("%s: region %d starts at %q, want %q", tb.Name, i+1, r.StartKey, splits[i])
			}
		}
	}
	if err := e.hb.CreateTable(ctx, exec.Spec(e.cat.Tables[0])); !errors.Is(err, exec.ErrTableExists) {
		t.Errorf("second create: %v, want exec.ErrTableExists", err)
	}
	if _, err := e.hb.Regions(ctx, "rkql_no_such_table"); !errors.Is(err, exec.ErrTableNotFound) {
		t.Errorf("regions of a missing table: %v, want exec.ErrTableNotFound", err)
	}
	if err := x.EnsureTable(ctx, e.cat.Tables[0]); err != nil {
		t.Errorf("EnsureTable on an existing table: %v", err)
	}
}

// testSame compares each table's full contents, and statements built
// from its rows, between the two stores.
func (e *env) testSame(t *testing.T) {
	ctx := context.Background()
	for _, tb := range e.cat.Tables {
		t.Run(tb.Name, func(t *testing.T) {
			xh, xe := &exec.Executor{Store: e.hb}, &exec.Executor{Store: e.emb}
			got, err := exectest.Loaded(ctx, xh, e.pl, tb)
			if err != nil {
				t.Fatal(err)
			}
			want, err := exectest.Loaded(ctx, xe, e.pl, tb)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameRows(got, want); err != nil {
				t.Fatalf("full contents differ: %v", err)
			}
			if len(got) < 2000 {
				t.Fatalf("only %d rows of %s", len(got), tb.Name)
			}
			n := 0
			for _, q := range statements(tb, want) {
				if _, err := e.compare(ctx, q, nil); err != nil {
					t.Errorf("%s\n  %v", q, err)
				} else {
					n++
				}
			}
			t.Logf("%s: %d rows and %d statements agree", tb.Name, len(got), n)
		})
	}
}

// statements builds queries over tb from some of its rows: each prefix of
// the key fields bound to a row's values, forward and reversed.
func statements(tb *catalog.Table, rows []catalog.Row) []string {
	r := rand.New(rand.NewPCG(11, uint64(len(tb.Name))))
	keys := tb.KeyColumns()
	var out []string
	for range 4 {
		row := rows[r.IntN(len(rows))]
		var terms []string
		for _, k := range keys {
			terms = append(terms, tb.Columns[k].Name+" = "+exectest.Literal(row[k]))
			where := strings.Join(terms, " AND ")
			out = append(out,
				"SELECT * FROM "+tb.Name+" WHERE "+where,
				"SELECT * FROM "+tb.Name+" WHERE "+where+" ORDER BY "+tb.Columns[keys[len(keys)-1]].Name+" DESC LIMIT 7",
			)
		}
		out = append(out, "SELECT * FROM "+tb.Name+" WHERE "+tb.Columns[keys[0]].Name+" >= "+exectest.Literal(row[keys[0]])+" LIMIT 25 ALLOW FULL SCAN")
	}
	return append(out, "SELECT COUNT(*) FROM "+tb.Name+" ALLOW FULL SCAN")
}

// compare runs q on both stores and checks they return the same rows in
// the same order. It returns the HBase run's plan and stats.
func (e *env) compare(ctx context.Context, q string, stats *exec.Stats) (*planner.Select, error) {
	sel, err := plan(e.pl, q)
	if err != nil {
		return nil, err
	}
	got, err := run(ctx, e.hb, sel, stats)
	if err != nil {
		return sel, fmt.Errorf("hbase: %w", err)
	}
	want, err := run(ctx, e.emb, sel, nil)
	if err != nil {
		return sel, fmt.Errorf("embedded: %w", err)
	}
	if err := sameRows(got, want); err != nil {
		return sel, fmt.Errorf("%w\n%s", err, sel.String())
	}
	return sel, nil
}

func plan(pl *planner.Planner, q string) (*planner.Select, error) { return exectest.Plan(pl, q) }

func run(ctx context.Context, st exec.Store, sel *planner.Select, stats *exec.Stats) ([]catalog.Row, error) {
	return exectest.Drain(ctx, &exec.Executor{Store: st}, sel, stats)
}

// sameRows checks two results hold the same rows in the same order.
func sameRows(got, want []catalog.Row) error {
	for i := range min(len(got), len(want)) {
		if g, w := rowText(got[i]), rowText(want[i]); g != w {
			return fmt.Errorf("row %d: hbase %s, embedded %s", i, g, w)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("hbase returned %d rows, embedded %d", len(got), len(want))
	}
	return nil
}

func rowText(r catalog.Row) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
