package engine

import (
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
	"github.com/rkql/rkql/parser"
)

// renderTable returns the CREATE TABLE and CREATE INDEX statements of t as
// one script.
func renderTable(t *catalog.Table) (string, error) {
	st, err := CreateTable(t)
	if err != nil {
		return "", err
	}
	stmts := []string{st.String()}
	for _, ix := range t.Indexes {
		is, err := CreateIndex(t, ix)
		if err != nil {
			return "", err
		}
		stmts = append(stmts, is.String())
	}
	return strings.Join(stmts, ";\n"), nil
}

// createCatalog runs a script of CREATE TABLE and CREATE INDEX statements
// as the engine does, on an empty catalog, and returns the catalog.
func createCatalog(script string) (*catalog.Catalog, error) {
	stmts, err := parser.Parse(script)
	if err != nil {
		return nil, err
	}
	src := []byte("tables: []\n")
	c, err := catalog.Parse(src)
	for _, st := range stmts {
		switch s := st.(type) {
		case *parser.CreateTableStmt:
			spec, err := tableSpec(s)
			if err != nil {
				return nil, err
			}
			if src, err = catalog.AddTable(src, spec); err != nil {
				return nil, err
			}
		case *parser.CreateIndexStmt:
			t, ok := c.Table(s.Table.Name)
			if !ok {
				return nil, fmt.Errorf("no table %s", s.Table.Name)
			}
			spec, err := indexSpec(s, t)
			if err != nil {
				return nil, err
			}
			if src, err = catalog.AddIndex(src, t.Name, spec); err != nil {
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

// checkRoundTrip renders t, runs the statements and compares the table
// they make with t. It returns the statements, or the renderer's error,
// which must say that CREATE TABLE cannot express t.
func checkRoundTrip(t *testing.T, where string, tb *catalog.Table) string {
	t.Helper()
	script, err := renderTable(tb)
	if err != nil {
		if !errors.Is(err, ErrNotExpressible) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: table %s: %v, want one line wrapping ErrNotExpressible", where, tb.Name, err)
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
	return script
}

// TestCreateTable runs testdata/ddlstmt: each table of a catalog file as
// CREATE TABLE and CREATE INDEX statements, which made into a catalog
// again give the same table, or the error that says what CREATE TABLE
// cannot express. Regenerate with go test ./engine -run TestCreateTable
// -rewrite.
func TestCreateTable(t *testing.T) {
	datadriven.RunTest(t, "testdata/ddlstmt", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "render" {
			t.Fatalf("unknown command %s", d.Cmd)
		}
		var file string
		d.ScanArgs(t, "file", &file)
		c := loadCatalog(t, file)
		var b strings.Builder
		for _, tb := range c.Tables {
			b.WriteString(checkRoundTrip(t, file, tb) + "\n")
		}
		return b.String()
	})
}

func loadCatalog(t *testing.T, file string) *catalog.Catalog {
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
				if _, err := CreateTable(tb); err == nil {
					t.Errorf("%s: CreateTable of index table %s gives no error", file, name)
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
