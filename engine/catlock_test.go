package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// catalogEngine is an engine over store whose catalog is the file
// catFile, as a process started now would read it.
func catalogEngine(t *testing.T, catFile string, open func(context.Context) (exec.Store, error)) *engine.Engine {
	t.Helper()
	src, err := os.ReadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Config{
		Catalog: cat, CatalogSource: src, CatalogFile: catFile, CreateOnDemand: true, Open: open,
		Confirm: func(context.Context, string) (bool, error) { return true, nil },
	})
}

// Engines that edit one catalog file at once lose none of each other's
// tables, indexes or index states: each edit, BUILD INDEX's marks
// included, reads the file, changes it and writes it under the lock
// beside it.
func TestCatalogEditsAtOnce(t *testing.T) {
	const n = 8
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(catFile, []byte("tables: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open := func(context.Context) (exec.Store, error) { return noClose{st}, nil }
	engines := make([]*engine.Engine, n)
	for i := range engines {
		engines[i] = catalogEngine(t, catFile, open)
	}
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for _, sql := range []string{
				"CREATE TABLE t%d (k STRING, v BIGINT) ROWKEY (k)",
				"INSERT INTO t%d (k, v) VALUES ('a', 1)",
				"CREATE INDEX t%[1]d_by_v ON t%[1]d ROWKEY (v, k)",
				"BUILD INDEX t%[1]d_by_v ON t%[1]d",
			} {
				if _, _, errs[i] = e.Exec(context.Background(), fmt.Sprintf(sql, i)); errs[i] != nil {
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("engine %d: %v", i, err)
		}
	}
	cat, err := catalog.LoadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		tb, ok := cat.Table(fmt.Sprintf("t%d", i))
		switch {
		case !ok:
			t.Errorf("table t%d is not in the catalog; it holds %v", i, cat.Names())
		case len(tb.Indexes) != 1:
			t.Errorf("table t%d has %d indexes, want its one", i, len(tb.Indexes))
		case tb.Indexes[0].Unbuilt:
			t.Errorf("index %s is unbuilt after BUILD INDEX", tb.Indexes[0].Name)
		}
	}
}

// noClose is a store shared by several engines, which none of them
// closes.
type noClose struct{ *embedded.Store }

func (noClose) Close() error { return nil }

// The catalog's lock comes before the store's. An engine that holds the
// embedded store and finds the catalog locked lets go of the store before
// it waits, so that the process holding the catalog, waiting for the
// store, finishes; then the first engine edits the catalog too.
func TestCatalogLockBeforeStoreLock(t *testing.T) {
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(catFile, []byte("tables: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	storeDir := filepath.Join(dir, "store")
	open := func(opened chan<- struct{}) func(context.Context) (exec.Store, error) {
		return func(context.Context) (exec.Store, error) {
			if opened != nil {
				opened <- struct{}{}
			}
			return embedded.Open(storeDir, embedded.Options{NoSync: true, LockTimeout: time.Minute})
		}
	}
	ctx := context.Background()
	a := catalogEngine(t, catFile, open(nil))
	defer a.Close()
	if _, _, err := a.Exec(ctx, "CREATE TABLE a (k STRING, v BIGINT) ROWKEY (k)"); err != nil {
		t.Fatal(err)
	}
	// a holds the store now. b takes the catalog lock and opens the store,
	// which waits for a.
	bOpens := make(chan struct{}, 1)
	b := catalogEngine(t, catFile, open(bOpens))
	bDone := make(chan error, 1)
	go func() {
		_, _, err := b.Exec(ctx, "CREATE TABLE b (k STRING, v BIGINT) ROWKEY (k)")
		bDone <- err
		b.Close()
	}()
	<-bOpens
	if _, _, err := a.Exec(ctx, "CREATE INDEX a_by_v ON a ROWKEY (v, k)"); err != nil {
		t.Fatalf("the engine holding the store, with the catalog locked: %v", err)
	}
	if err := <-bDone; err != nil {
		t.Fatalf("the engine holding the catalog, waiting for the store: %v", err)
	}
	cat, err := catalog.LoadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "a_by_v", "b"} {
		if _, ok := cat.Table(name); !ok {
			t.Errorf("%s is not in the catalog; it holds %v", name, cat.Names())
		}
	}
}

// A layout statement is planned against the catalog file as it is when
// it runs, read again under the lock: an engine that loaded the file
// before another engine changed it indexes, alters, shows and drops the
// other's table, and refuses a name the other has taken since.
func TestLayoutPlannedAgainstFile(t *testing.T) {
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(catFile, []byte("tables: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open := func(context.Context) (exec.Store, error) { return noClose{st}, nil }
	ctx := context.Background()
	a, b := catalogEngine(t, catFile, open), catalogEngine(t, catFile, open)
	if _, _, err := b.Exec(ctx, "CREATE TABLE t (k STRING, v BIGINT) ROWKEY (k)"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Exec(ctx, "CREATE TABLE t (k STRING) ROWKEY (k)"); err == nil || !strings.Contains(err.Error(), "table t is already in the catalog") {
		t.Fatalf("CREATE TABLE of a name another engine took: %v", err)
	}
	for _, sql := range []string{
		"CREATE INDEX t_by_v ON t ROWKEY (v, k)",
		"ALTER TABLE t ADD COLUMN w STRING",
		"SHOW CATALOG t",
	} {
		if _, _, err := a.Exec(ctx, sql); err != nil {
			t.Fatalf("%s on a table another engine made: %v", sql, err)
		}
	}
	if _, _, err := b.Exec(ctx, "DROP INDEX t_by_v"); err != nil {
		t.Fatalf("DROP INDEX of an index another engine made: %v", err)
	}
	if _, _, err := a.Exec(ctx, "DROP INDEX t_by_v"); err == nil || !strings.Contains(err.Error(), `no table has an index "t_by_v"`) {
		t.Fatalf("DROP INDEX of an index another engine dropped: %v", err)
	}
	if _, _, err := a.Exec(ctx, "DROP TABLE t"); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	if names := cat.Names(); len(names) != 0 {
		t.Errorf("the catalog holds %v after DROP TABLE t", names)
	}
}
