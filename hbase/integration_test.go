package hbase_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// testEnv is a client and a fresh pre-split table, deleted at the end.
type testEnv struct {
	c     *hbase.Client
	table string
}

// splitKeys divide the keys "r000".."r099" into five regions.
var splitKeys = [][]byte{[]byte("r020"), []byte("r040"), []byte("r060"), []byte("r080")}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	c := newClient(t, hbase.Config{})
	table := hbasetest.TableName("hbase_it")
	createTable(t, c, hbase.TableSpec{
		Name: table,
		Families: []hbase.FamilySpec{
			{Name: "cf", Versions: 3, BloomFilter: "ROW", BlockSize: 32768, InMemory: true},
			{Name: "meta", TTL: 24 * time.Hour, Compression: "NONE", BlockCache: new(bool)},
		},
		SplitKeys: splitKeys,
	})
	return &testEnv{c: c, table: table}
}

// newClient connects to the test cluster with cfg, its quorum and root
// filled in; the client closes when t ends.
func newClient(t *testing.T, cfg hbase.Config) *hbase.Client {
	t.Helper()
	cfg.ZKQuorum, cfg.ZKRoot = hbasetest.Quorum(t), hbasetest.Root()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := hbase.NewClient(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// createTable creates spec's table, dropped when t ends (before the
// client closes, when newClient made it). A region server that cannot
// load a coprocessor the spec names skips t, or fails it under
// RKQL_REQUIRE_HBASE=1.
func createTable(t *testing.T, c *hbase.Client, spec hbase.TableSpec) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Admin().CreateTable(ctx, spec); err != nil {
		if len(spec.Coprocessors) > 0 && hbasetest.CoprocessorMissing(err) {
			hbasetest.NoCoprocessor(t, spec.Coprocessors[0], err)
		}
		t.Fatalf("create %s: %v", spec.Name, err)
	}
	hbasetest.DropAtEnd(t, c.Admin(), spec.Name)
}

func rowKey(i int) []byte { return []byte(fmt.Sprintf("r%03d", i)) }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustPut(t *testing.T, e *testEnv, key []byte, cells ...hbase.Cell) {
	t.Helper()
	p, err := hbase.NewPut(e.table, key, cells)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.Mutate(ctxT(t), p); err != nil {
		t.Fatalf("put %q: %v", key, err)
	}
}

func cell(fam, qual, val string) hbase.Cell {
	return hbase.Cell{Family: []byte(fam), Qualifier: []byte(qual), Value: []byte(val)}
}

func TestIntegrationAdminAndPutGet(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	regions, err := e.c.Admin().Regions(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 5 {
		t.Fatalf("got %d regions, want 5", len(regions))
	}
	for i, r := range regions {
		if r.Server == "" || r.Table != e.table {
			t.Errorf("region %d: %+v", i, r)
		}
		if i > 0 && string(r.StartKey) != string(splitKeys[i-1]) {
			t.Errorf("region %d starts at %q", i, r.StartKey)
		}
	}
	tables, err := e.c.Admin().ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tables, e.table) {
		t.Errorf("ListTables = %v, missing %s", tables, e.table)
	}
	ok, err := e.c.Admin().TableExists(ctx, e.table)
	if err != nil || !ok {
		t.Errorf("TableExists = %v, %v", ok, err)
	}
	ok, err = e.c.Admin().TableExists(ctx, e.table+"_nope")
	if err != nil || ok {
		t.Errorf("TableExists(missing) = %v, %v", ok, err)
	}

	desc, err := e.c.Admin().DescribeTable(ctx, e.table)
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Families) != 2 {
		t.Fatalf("describe: %+v", desc)
	}
	cf, meta := desc.Families[0], desc.Families[1]
	if cf.Name != "cf" || cf.Versions != 3 || cf.BloomFilter != "ROW" || cf.BlockSize != 32768 || !cf.InMemory {
		t.Errorf("family cf: %+v", cf)
	}
	if meta.Name != "meta" || meta.TTL != 24*time.Hour || meta.Compression != "NONE" || meta.BlockCache == nil || *meta.BlockCache {
		t.Errorf("family meta: %+v", meta)
	}
	enabled, err := e.c.Admin().TableEnabled(ctx, e.table)
	if err != nil || !enabled {
		t.Errorf("TableEnabled = %v, %v", enabled, err)
	}

	mustPut(t, e, rowKey(42), cell("cf", "a", "v1"), cell("cf", "b", "v2"), cell("meta", "m", "x"))
	g, err := hbase.NewGet(e.table, rowKey(42))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.c.Get(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Row) != "r042" || len(res.Cells) != 3 || string(res.Value("cf", "b")) != "v2" {
		t.Errorf("get = %+v", res)
	}
	g, _ = hbase.NewGet(e.table, rowKey(43))
	if res, err = e.c.Get(ctx, g); err != nil || res.Row != nil || len(res.Cells) != 0 {
		t.Errorf("get missing row = %+v, %v", res, err)
	}

	d, _ := hbase.NewDelete(e.table, rowKey(42), hbase.Columns("cf", "a"))
	if err := e.c.Mutate(ctx, d); err != nil {
		t.Fatal(err)
	}
	g, _ = hbase.NewGet(e.table, rowKey(42))
	if res, err = e.c.Get(ctx, g); err != nil || len(res.Cells) != 2 || res.Value("cf", "a") != nil {
		t.Errorf("after column delete: %+v, %v", res, err)
	}
	d, _ = hbase.NewDelete(e.table, rowKey(42))
	if err := e.c.Mutate(ctx, d); err != nil {
		t.Fatal(err)
	}
	if res, err = e.c.Get(ctx, g); err != nil || len(res.Cells) != 0 {
		t.Errorf("after row delete: %+v, %v", res, err)
	}
}

func TestIntegrationErrors(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	g, _ := hbase.NewGet(e.table+"_missing", []byte("k"))
	if _, err := e.c.Get(ctx, g); !errors.Is(err, hbase.ErrTableNotFound) {
		t.Errorf("get from missing table: %v", err)
	}
	p, _ := hbase.NewPut(e.table, []byte("k"), []hbase.Cell{cell("nosuch", "q", "v")})
	err := e.c.Mutate(ctx, p)
	if !errors.Is(err, hbase.ErrNoSuchFamily) {
		t.Errorf("put to missing family: %v", err)
	}
	g, _ = hbase.NewGet(e.table, []byte("k"), hbase.Families("nosuch"))
	if _, err := e.c.Get(ctx, g); !errors.Is(err, hbase.ErrNoSuchFamily) {
		t.Errorf("get of missing family: %v", err)
	}
	err = e.c.Admin().CreateTable(ctx, hbase.TableSpec{Name: e.table, Families: []hbase.FamilySpec{{Name: "cf"}}})
	if !errors.Is(err, hbase.ErrTableExists) {
		t.Errorf("create existing table: %v", err)
	}
	if err := e.c.Admin().DeleteTable(ctx, e.table); !errors.Is(err, hbase.ErrTableNotDisabled) {
		t.Errorf("delete enabled table: %v", err)
	}

	// A disabled table fails fast instead of retrying until attempts run out.
	if err := e.c.Admin().DisableTable(ctx, e.table); err != nil {
		t.Fatal(err)
	}
	g, _ = hbase.NewGet(e.table, []byte("k"))
	start := time.Now()
	if _, err := e.c.Get(ctx, g); !errors.Is(err, hbase.ErrTableNotEnabled) {
		t.Errorf("get from disabled table: %v", err)
	}
	s, _ := hbase.NewScan(e.table, nil, nil)
	sc := e.c.Scan(s)
	if _, err := sc.Next(ctx); !errors.Is(err, hbase.ErrTableNotEnabled) {
		t.Errorf("scan of disabled table: %v", err)
	}
	sc.Close()
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("disabled-table errors took %v", el)
	}
	if err := e.c.Admin().EnableTable(ctx, e.table); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Get(ctx, g); err != nil {
		t.Errorf("get after enable: %v", err)
	}
}
