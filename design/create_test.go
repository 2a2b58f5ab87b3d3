package design_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// createCatalog runs a script of CREATE TABLE and CREATE INDEX statements
// as the engine does, on an empty catalog: each is planned against the
// catalog the statements before it made, and its plan's entry added to
// the catalog's text. It returns the catalog.
func createCatalog(script string) (*catalog.Catalog, error) {
	stmts, err := parser.Parse(script)
	if err != nil {
		return nil, err
	}
	src := []byte("tables: []\n")
	c, err := catalog.Parse(src)
	for _, st := range stmts {
		p, err := planner.New(c, planner.Options{}).Plan(context.Background(), st)
		if err != nil {
			return nil, err
		}
		switch p := p.(type) {
		case *planner.DefineTable:
			if src, err = catalog.AddTable(src, p.Spec); err != nil {
				return nil, err
			}
		case *planner.CreateIndex:
			if src, err = catalog.AddIndex(src, p.Table.Name, p.Spec); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unexpected statement %s", st)
		}
		if c, err = catalog.Parse(src); err != nil {
			return nil, err
		}
	}
	return c, err
}

// sameLayout compares two tables field by field, unexported ones too,
// but for the doc text, which the statements do not hold, and the back
// pointers of index tables, which are compared by name.
var sameLayout = []cmp.Option{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmpopts.IgnoreFields(catalog.Table{}, "Doc", "IndexOf"),
}

// checkRoundTrip renders t with SHOW CREATE TABLE, runs the whole text,
// HBase shell comments included, and compares the table it makes with t.
// It returns the text's statements without the comments, or the
// renderer's error, which must say that CREATE TABLE cannot express t;
// then the text must make nothing, and its first line say why.
func checkRoundTrip(t *testing.T, where string, tb *catalog.Table) string {
	t.Helper()
	script := design.ShowCreate(tb)
	if !strings.HasSuffix(script, "-- in the HBase shell:\n"+commented(design.HBaseShell(tb))) {
		t.Errorf("%s: table %s: SHOW CREATE TABLE does not end in the HBase shell statements:\n%s", where, tb.Name, script)
	}
	if _, err := design.CreateStatements(tb); err != nil {
		var ne *design.NotExpressibleError
		if !errors.As(err, &ne) || !errors.Is(err, design.ErrNotExpressible) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: table %s: %v, want one line wrapping ErrNotExpressible", where, tb.Name, err)
		}
		if first, _, _ := strings.Cut(script, "\n"); ne == nil || first != "-- "+ne.Stmt+" cannot express "+ne.Entry+": "+ne.Lacks {
			t.Errorf("%s: table %s: SHOW CREATE TABLE starts %q, want the reason for %v", where, tb.Name, first, err)
		}
		if stmts, err := parser.Parse(script); err != nil || len(stmts) != 0 {
			t.Errorf("%s: table %s: SHOW CREATE TABLE is %d statements, %v; want comments only:\n%s", where, tb.Name, len(stmts), err, script)
		}
		return "error: " + err.Error()
	}
	c, err := createCatalog(script)
	if err != nil {
		t.Errorf("%s: table %s: the statements do not run: %v\n%s", where, tb.Name, err, script)
		return script
	}
	got, ok := c.Table(tb.Name)
	if !ok {
		t.Errorf("%s: the statements make no table %s", where, tb.Name)
		return script
	}
	if d := cmp.Diff(tb, got, sameLayout...); d != "" {
		t.Errorf("%s: table %s made by\n%s\ndiffers (-want +got):\n%s", where, tb.Name, script, d)
	}
	for i, ix := range got.Indexes {
		if ix.Table.IndexOf != got || tb.Indexes[i].Table.IndexOf != tb {
			t.Errorf("%s: index %s is not an index of its table", where, ix.Name)
		}
	}
	var stmts strings.Builder
	for _, l := range strings.SplitAfter(script, "\n") {
		if !strings.HasPrefix(l, "--") {
			stmts.WriteString(l)
		}
	}
	return stmts.String()
}

// commented returns text with "-- " before each line.
func commented(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString("-- " + l)
		}
	}
	return b.String()
}

// TestCreateTable runs testdata/create: each table of a catalog file as
// CREATE TABLE and CREATE INDEX statements, which made into a catalog
// again give the same table, or the error that says what CREATE TABLE
// cannot express. Regenerate with go test ./design -run TestCreateTable
// -rewrite.
func TestCreateTable(t *testing.T) {
	datadriven.RunTest(t, "testdata/create", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "render" {
			t.Fatalf("unknown command %s", d.Cmd)
		}
		var file string
		d.ScanArgs(t, "file", &file)
		c := loadCatalogFile(t, file)
		var b strings.Builder
		for _, tb := range c.Tables {
			b.WriteString(strings.TrimSuffix(checkRoundTrip(t, file, tb), "\n") + "\n")
		}
		return b.String()
	})
}

func loadCatalogFile(t *testing.T, file string) *catalog.Catalog {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse(src)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}

// Every table of every catalog file of the repository that loads renders
// to statements that make it again, or to ErrNotExpressible; an index
// table given to CreateTable is an error, never a panic.
func TestCreateTableEveryCatalog(t *testing.T) {
	files := []string{"../examples/catalog.yaml", "../examples/opentsdb.yaml", "../examples/opentsdb_pairs.yaml"}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Base(filepath.Dir(path)) == "testdata" && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tables, rendered := 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c, err := catalog.Parse(src)
		if err != nil {
			t.Logf("%s does not load: %v", file, err)
			continue
		}
		for _, name := range c.Names() {
			tb, _ := c.Table(name)
			if tb.IndexOf != nil {
				if _, err := design.CreateTable(tb); err == nil {
					t.Errorf("%s: CreateTable of index table %s gives no error", file, name)
				}
				if got, want := design.HBaseShell(tb), design.HBaseShell(tb.IndexOf); !strings.Contains(want, got) || strings.Count(got, "\n") != 1 {
					t.Errorf("%s: index table %s: HBase shell statement %q is not one of its data table's:\n%s", file, name, got, want)
				}
				if s := design.ShowCreate(tb); !strings.HasSuffix(s, "\n-- "+design.HBaseShell(tb)) {
					t.Errorf("%s: SHOW CREATE TABLE of index table %s does not end in its HBase shell statement:\n%s", file, name, s)
				}
				continue
			}
			tables++
			if !strings.HasPrefix(checkRoundTrip(t, file, tb), "error: ") {
				rendered++
			}
		}
	}
	t.Logf("%d of %d data tables rendered", rendered, tables)
	if tables < 20 || rendered*2 < tables {
		t.Errorf("%d of %d tables rendered: the catalogs were not found, or most fail", rendered, tables)
	}
}
