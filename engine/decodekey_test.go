package engine_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
)

// TestDecodeKey checks DECODE KEY over the example and OpenTSDB catalogs
// against testdata/decodekey: one line per output column, name, type and
// value. Regenerate with -rewrite.
func TestDecodeKey(t *testing.T) {
	cats := map[string]func() (*catalog.Catalog, error){
		"example":  func() (*catalog.Catalog, error) { return catalog.LoadFile("../examples/catalog.yaml") },
		"opentsdb": func() (*catalog.Catalog, error) { return catalog.Parse(examples.OpenTSDBPairsYAML) },
	}
	engines := map[string]*engine.Engine{}
	datadriven.RunTest(t, "testdata/decodekey", func(t *testing.T, d *datadriven.TestData) string {
		name := "example"
		d.MaybeScanArgs(t, "catalog", &name)
		e := engines[name]
		if e == nil {
			load, ok := cats[name]
			if !ok {
				return "unknown catalog " + name
			}
			cat, err := load()
			if err != nil {
				t.Fatal(err)
			}
			st := tempStore(t)
			e = engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
			engines[name] = e
		}
		stmt, err := parser.ParseOne(d.Input)
		if err != nil {
			return "error: " + err.Error()
		}
		res, err := e.Run(context.Background(), stmt)
		if err != nil {
			return "error: " + err.Error()
		}
		defer res.Close()
		var b strings.Builder
		for {
			row, err := res.Rows.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				return "error: " + err.Error()
			}
			if len(row) != len(res.Columns) {
				t.Fatalf("%d values for %d columns", len(row), len(res.Columns))
			}
			for i, c := range res.Columns {
				fmt.Fprintf(&b, "%s %s = %s\n", c.Name, c.Type, row[i])
			}
		}
		return b.String()
	})
}
