package hbasestore_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestMain drops the tables of the shared orders fixtures after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	dropSharedOrders()
	os.Exit(code)
}

// sharedOrders holds, per list of coprocessors, the orders table with
// ordersRows loaded, built once per run of the package: the tests that
// only read it share it, which saves a 16-region create, a load and a
// drop per test.
var sharedOrders struct {
	mu sync.Mutex
	m  map[string]*ordersFixture
}

// ordersFixture is one shared orders table; err is why it could not be
// built, for every test that asks.
type ordersFixture struct {
	once  sync.Once
	st    *hbasestore.Store
	cat   *catalog.Catalog
	tb    *catalog.Table
	rows  []catalog.Row
	names []string
	err   error
}

// sharedOrdersFor returns the fixture for coprocessors, building it on
// the quorum q at first use.
func sharedOrdersFor(t *testing.T, q string, coprocessors []string) *ordersFixture {
	key := strings.Join(coprocessors, ",")
	sharedOrders.mu.Lock()
	if sharedOrders.m == nil {
		sharedOrders.m = map[string]*ordersFixture{}
	}
	f := sharedOrders.m[key]
	if f == nil {
		f = &ordersFixture{}
		sharedOrders.m[key] = f
	}
	sharedOrders.mu.Unlock()
	f.once.Do(func() {
		// Set first: a t.Fatal in build leaves it for the tests after.
		f.err = errors.New("the shared orders table could not be built (see the first test that used it)")
		f.err = f.build(t, q, coprocessors)
	})
	return f
}

// build makes the table; t is the first test to ask, which scratchCatalog
// fails on a catalog that does not parse.
func (f *ordersFixture) build(t *testing.T, q string, coprocessors []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()},
		hbasestore.Options{CompressionFallback: true, Coprocessors: coprocessors})
	if err != nil {
		return err
	}
	f.st = st
	f.cat, f.names = scratchCatalog(t)
	f.tb, _ = f.cat.Table("orders")
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, f.tb); err != nil {
		return err
	}
	f.rows = ordersRows(f.tb)
	return x.Insert(ctx, f.tb, f.rows, 0, nil)
}

// dropSharedOrders drops the fixtures' tables and closes their stores.
func dropSharedOrders() {
	sharedOrders.mu.Lock()
	defer sharedOrders.mu.Unlock()
	for _, f := range sharedOrders.m {
		if f.st == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		if have, err := f.st.Tables(ctx); err == nil {
			for _, n := range f.names {
				if slices.Contains(have, n) {
					_ = f.st.DropTable(ctx, n)
				}
			}
		}
		cancel()
		f.st.Close()
	}
}
