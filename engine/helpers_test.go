package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// tempStore opens an embedded store in a directory of the test's, closed
// when the test ends.
func tempStore(t testing.TB) *embedded.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// exampleEngine returns an engine with cfg's settings over the example
// catalog, its tables created on demand (with their splits), and, when
// cfg opens no store, over an empty embedded one.
func exampleEngine(t testing.TB, cfg engine.Config) *engine.Engine {
	t.Helper()
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Catalog, cfg.CreateOnDemand = cat, true
	if cfg.Open == nil {
		st := tempStore(t)
		cfg.Open = func(context.Context) (exec.Store, error) { return st, nil }
	}
	return engine.New(cfg)
}

// writeOrders writes n generated orders rows (examples.Rows with seed)
// through e and returns the table and the rows.
func writeOrders(t testing.TB, e *engine.Engine, n int, seed uint64) (*catalog.Table, []catalog.Row) {
	t.Helper()
	tb, _ := e.Catalog().Table("orders")
	rows := examples.Rows(tb, n, seed)
	if err := e.Write(context.Background(), tb, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	return tb, rows
}

// rowsText renders rows as their values' text, space-separated, one row
// after the other with "; " between.
func rowsText(rows []catalog.Row) string {
	texts := make([]string, len(rows))
	for i, r := range rows {
		vs := make([]string, len(r))
		for j, v := range r {
			vs[j] = v.Text()
		}
		texts[i] = strings.Join(vs, " ")
	}
	return strings.Join(texts, "; ")
}
