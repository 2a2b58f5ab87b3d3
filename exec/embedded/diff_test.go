package embedded_test

import (
	"context"

	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// openCatalog loads a catalog file and opens an empty store for it.
func openCatalog(t *testing.T, file string) (*catalog.Catalog, *embedded.Store) {
	return openCatalogB(t, file)
}

func openCatalogB(t testing.TB, file string) (*catalog.Catalog, *embedded.Store) {
	t.Helper()
	cat, err := catalog.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return cat, openStore(t)
}

// TestDifferential runs the differential suite over the example catalog
// on the embedded store.
//
// 3,000 rows a table still fill many b-tree pages and every region of the
// catalog's splits, and 300 queries reach every plan kind the long run's
// 10,000 rows and 500 queries do (RKQL_LONG=1).
func TestDifferential(t *testing.T) {
	t.Parallel()
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	o := exectest.Options{Rows: exectest.Size(2000, 3000, 10_000), Queries: exectest.Size(100, 300, 500)}
	exectest.Run(t, st, cat, o)
}

// TestDifferentialParallel runs the suite with parallel reads of four
// scanners: a read over several regions (or, in a table without splits,
// slices) of the embedded store runs the code a cluster runs, and must
// still equal the reference.
func TestDifferentialParallel(t *testing.T) {
	t.Parallel()
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	o := exectest.Options{Rows: exectest.Size(2000, 3000, 10_000), Queries: exectest.Size(100, 300, 500), Seed: 5, Parallel: 4}
	exectest.Run(t, st, cat, o)
}

// TestDifferentialLayouts runs the suite over layouts the example catalog
// lacks: a Phoenix salt, murmur3, descending text, left padding, a text
// bucket, and BOOLEAN, DATE and BYTES key fields.
func TestDifferentialLayouts(t *testing.T) {
	t.Parallel()
	cat, st := openCatalog(t, "testdata/layouts.yaml")
	o := exectest.Options{Rows: exectest.Size(1000, 2000, 3000), Queries: exectest.Size(100, 200, 300)}
	exectest.Run(t, st, cat, o)
}

// TestDifferentialCaps runs the suite with tiny expansion caps, so that IN
// lists fall back to wider ranges and fan-outs to full scans.
func TestDifferentialCaps(t *testing.T) {
	t.Parallel()
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	o := exectest.Options{Rows: exectest.Size(1000, 2000, 4000), Queries: exectest.Size(100, 150, 300), Seed: 11,
		Planner: planner.Options{Limits: planner.Limits{MaxKeys: 3, MaxFanout: 4}}}
	exectest.Run(t, st, cat, o)
}

// TestKnownDivergences runs the reproduction of each entry of
// exectest.KnownDivergences: each must still differ from the reference.
// One that no longer does has been fixed, and its entry must go, so that
// the differential suite checks its shape again.
func TestKnownDivergences(t *testing.T) {
	for i := range exectest.KnownDivergences {
		d := &exectest.KnownDivergences[i]
		t.Run(d.Name, func(t *testing.T) {
			cat, st := openCatalog(t, "../../"+d.Catalog)
			diff, err := exectest.Reproduce(context.Background(), st, cat, d)
			if err != nil {
				t.Fatal(err)
			}
			if diff == "" {
				t.Fatalf("%s: no longer differs from the reference; remove it from exectest.KnownDivergences\n  %s", d.Name, d.Query)
			}
			t.Logf("%s\n  %s\n  %s", d.Why, d.Query, diff)
		})
	}
}
