package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// dropFixture is a catalog file and an embedded store holding table x,
// with index x_by_v, and one row.
type dropFixture struct {
	catFile string
	st      *embedded.Store
}

func newDropFixture(t *testing.T) *dropFixture {
	t.Helper()
	dir := t.TempDir()
	f := &dropFixture{catFile: filepath.Join(dir, "catalog.yaml")}
	if err := os.WriteFile(f.catFile, []byte("tables: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.st, err = embedded.Open(filepath.Join(dir, "store"), embedded.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.st.Close() })
	e := f.engine(t, false, nil)
	for _, sql := range []string{
		"CREATE TABLE x (k STRING, v BIGINT) ROWKEY (k)",
		"CREATE INDEX x_by_v ON x ROWKEY (v, k)",
		"INSERT INTO x (k, v) VALUES ('a', 1)",
	} {
		if _, _, err := e.Exec(context.Background(), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return f
}

// engine is a new engine on the fixture's catalog file and store, which
// answers its questions with answer (nil: yes).
func (f *dropFixture) engine(t *testing.T, readOnly bool, answer func(q string) bool) *engine.Engine {
	t.Helper()
	return engine.New(f.config(t, readOnly, answer))
}

// config is the Config of engine.
func (f *dropFixture) config(t *testing.T, readOnly bool, answer func(q string) bool) engine.Config {
	t.Helper()
	src, err := os.ReadFile(f.catFile)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if answer == nil {
		answer = func(string) bool { return true }
	}
	return engine.Config{
		Catalog: cat, CatalogSource: src, CatalogFile: f.catFile, CreateOnDemand: true, ReadOnly: readOnly,
		Open:    func(context.Context) (exec.Store, error) { return noClose{f.st}, nil },
		Confirm: func(_ context.Context, q string) (bool, error) { return answer(q), nil },
	}
}

// stored returns the store's tables.
func (f *dropFixture) stored(t *testing.T) []string {
	t.Helper()
	names, err := f.st.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// A DROP that is not confirmed changes nothing, neither the catalog nor
// the store, and says so in its error; confirmed, DROP TABLE drops the
// table's HBase table and those of all its indexes with the catalog
// entry.
func TestDropNotConfirmed(t *testing.T) {
	f := newDropFixture(t)
	before, err := os.ReadFile(f.catFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var asked []string
	no := f.engine(t, false, func(q string) bool { asked = append(asked, q); return false })
	for _, sql := range []string{"DROP TABLE x", "DROP INDEX x_by_v"} {
		_, _, err := no.Exec(ctx, sql)
		if want := sql + " not confirmed: nothing was dropped (in a script, --yes confirms)"; err == nil || err.Error() != want {
			t.Errorf("%s answered no: error %v, want %q", sql, err, want)
		}
	}
	if len(asked) != 2 {
		t.Errorf("asked %q, want one question per statement", asked)
	}
	after, err := os.ReadFile(f.catFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the catalog changed though nothing was confirmed:\n%s", after)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"x", "x_by_v"}) {
		t.Errorf("after the refused drops the store holds %v", got)
	}

	_, tag, err := f.engine(t, false, nil).Exec(ctx, "DROP TABLE x")
	if err != nil || tag != "DROP TABLE" {
		t.Fatalf("DROP TABLE x confirmed: %q, %v", tag, err)
	}
	if got := f.stored(t); len(got) != 0 {
		t.Errorf("after DROP TABLE x the store still holds %v", got)
	}
	cat, err := catalog.LoadFile(f.catFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Tables) != 0 {
		t.Errorf("after DROP TABLE x the catalog holds %v", cat.Names())
	}
}

// A stored table that no table of the catalog describes, as a DROP TABLE
// in a read-only session leaves, is dropped by its name after a
// confirmation. The HBase table of a catalog table is not: its own DROP
// names it.
func TestDropStoredTable(t *testing.T) {
	f := newDropFixture(t)
	ctx := context.Background()
	st, err := parser.ParseOne("DROP TABLE x")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.engine(t, true, nil).Run(ctx, st)
	if err != nil {
		t.Fatalf("DROP TABLE x in a read-only session: %v", err)
	}
	if w := res.Warnings(); len(w) != 1 || !strings.Contains(w[0], "dropping them needs --allow-writes, and then DROP TABLE drops each by its HBase name") {
		t.Errorf("DROP TABLE x in a read-only session warns %q", w)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"x", "x_by_v"}) {
		t.Fatalf("a read-only DROP TABLE left the store with %v", got)
	}
	if _, _, err := f.engine(t, true, nil).Exec(ctx, "DROP TABLE x_by_v"); err == nil || !strings.Contains(err.Error(), "DROP TABLE refused") {
		t.Errorf("DROP TABLE of a stored table in a read-only session: %v, want it refused", err)
	}

	var asked []string
	answer := false
	e := f.engine(t, false, func(q string) bool { asked = append(asked, q); return answer })
	if _, _, err := e.Exec(ctx, "DROP TABLE x_by_v"); err == nil || err.Error() != "DROP TABLE x_by_v not confirmed: nothing was dropped (in a script, --yes confirms)" {
		t.Errorf("DROP TABLE x_by_v answered no: %v", err)
	}
	answer = true
	for _, name := range []string{"x_by_v", "x"} {
		if _, tag, err := e.Exec(ctx, "DROP TABLE "+name); err != nil || tag != "DROP TABLE" {
			t.Errorf("DROP TABLE %s confirmed: %q, %v", name, tag, err)
		}
	}
	if want := "drop HBase table x_by_v, which no table of the catalog describes, with every row"; len(asked) != 3 || asked[0] != want {
		t.Errorf("asked %q, want %q first", asked, want)
	}
	if got := f.stored(t); len(got) != 0 {
		t.Errorf("the store still holds %v", got)
	}
	if _, _, err := e.Exec(ctx, "DROP TABLE x"); err == nil || !strings.Contains(err.Error(), `table "x" does not exist`) {
		t.Errorf("DROP TABLE of a table neither catalogued nor stored: %v", err)
	}

	if _, _, err := e.Exec(ctx, "CREATE TABLE y (k STRING, v BIGINT) ROWKEY (k) HBASE 'y_hbase'"); err != nil {
		t.Fatal(err)
	}
	_, _, err = e.Exec(ctx, "DROP TABLE y_hbase")
	if want := "HBase table y_hbase is the table of y: DROP TABLE y drops it"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("DROP TABLE of a catalog table's HBase name: %v, want %q", err, want)
	}
}
