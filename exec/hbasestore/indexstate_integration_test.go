package hbasestore_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// TestIntegrationIndexState: on HBase, an index made over a table with
// rows is unbuilt and not read; after the index leaves the catalog while
// its HBase table stays, and writes, the same CREATE INDEX does not trust
// the stale entries; BUILD INDEX leaves exactly the entries the rows give; CHECK
// INDEX fails on a mismatch and passes after the build.
func TestIntegrationIndexState(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	prefix := hbasetest.TableName("rkql_ixstate")
	data, index := prefix+"_p", prefix+"_p_by_tag"
	dropAtEnd(t, st, []string{data, index})
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	src := []byte("tables: []\n")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(src []byte) *engine.Engine {
		t.Helper()
		cat, err := catalog.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		return engine.New(engine.Config{Catalog: cat, CatalogSource: src, CatalogFile: file, CreateOnDemand: true,
			Open:    func(context.Context) (exec.Store, error) { return st, nil },
			Confirm: func(context.Context, string) (bool, error) { return true, nil }})
	}
	e := open(src)
	ctx := context.Background()
	run := func(q string) string {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(ctx, stmt)
		if err != nil {
			return "error: " + err.Error()
		}
		defer res.Close()
		var out []string
		if res.Tag != "" {
			out = append(out, res.Tag)
		}
		for res.Rows != nil {
			r, err := res.Rows.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				out = append(out, "error: "+err.Error())
				break
			}
			var cells []string
			for _, v := range r {
				cells = append(cells, v.Text())
			}
			out = append(out, strings.Join(cells, " "))
		}
		if res.Warnings != nil {
			for _, w := range res.Warnings() {
				out = append(out, "warning: "+w)
			}
		}
		return strings.Join(out, "\n")
	}
	createIndex := fmt.Sprintf("CREATE INDEX p_by_tag ON p ROWKEY (tag, '|', k) COVERING (n) HBASE '%s'", index)
	unbuilt := "error: query on p would read the whole table (FULL SCAN): index p_by_tag would serve it, but it is not built (BUILD INDEX p_by_tag ON p fills it); or add ALLOW FULL SCAN to read the table anyway: "
	for _, step := range []struct{ q, want string }{
		{fmt.Sprintf("CREATE TABLE p (k STRING, tag STRING, n BIGINT) ROWKEY (k) FAMILIES (d) HBASE '%s'", data), "CREATE TABLE"},
		{"INSERT INTO p (k, tag, n) VALUES ('a', 'red', 1), ('b', 'red', 2), ('c', 'red', 3), ('d', 'red', 4)", "INSERT 4"},
		{createIndex, "CREATE INDEX\nwarning: index p_by_tag is not built: no query reads it until BUILD INDEX p_by_tag ON p writes the entries of the rows p holds"},
		{"SELECT k FROM p WHERE tag = 'red'", unbuilt + "SELECT k FROM p WHERE tag = 'red' ALLOW FULL SCAN"},
		{"BUILD INDEX p_by_tag ON p", "BUILD INDEX 4"},
		{"SELECT k, n FROM p WHERE tag = 'red'", "a 1\nb 2\nc 3\nd 4"},
		{"CHECK INDEX p_by_tag", "4 4 0 0 0 0 0 0"},
	} {
		if got := run(step.q); got != step.want {
			t.Fatalf("%s:\ngot  %s\nwant %s", step.q, got, step.want)
		}
	}
	// The index leaves the catalog and its HBase table stays, as a DROP
	// INDEX that keeps it, or an edit of the catalog file, leaves them.
	src, err := catalog.DropIndex(e.CatalogSource(), "p", "p_by_tag")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	e = open(src)
	for _, step := range []struct{ q, want string }{
		{"DELETE FROM p WHERE k = 'a'", "DELETE 1"},
		{"UPDATE p SET n = 20 WHERE k = 'b'", "UPDATE 1"},
		{createIndex, fmt.Sprintf("CREATE INDEX\nwarning: HBase table %s exists already and holds rows, which an index cannot trust: index p_by_tag is not built, and no query reads it until BUILD INDEX p_by_tag ON p replaces them with the entries of the rows of p", index)},
		{"SELECT k, n FROM p WHERE tag = 'red'", unbuilt + "SELECT k, n FROM p WHERE tag = 'red' ALLOW FULL SCAN"},
		{"CHECK INDEX p_by_tag", "3 4 0 0 1 0 1 0\nerror: index p_by_tag is not built, and does not match table p: 1 orphan, 1 stale entries (BUILD INDEX p_by_tag ON p fills it)"},
		{"BUILD INDEX p_by_tag ON p", "BUILD INDEX 3"},
		{"SELECT k, n FROM p WHERE tag = 'red'", "b 20\nc 3\nd 4"},
		{"CHECK INDEX p_by_tag", "3 3 0 0 0 0 0 0"},
	} {
		if got := run(step.q); got != step.want {
			t.Fatalf("%s:\ngot  %s\nwant %s", step.q, got, step.want)
		}
	}
	if text, err := os.ReadFile(file); err != nil || strings.Contains(string(text), "state:") {
		t.Fatalf("the catalog after BUILD INDEX (%v):\n%s", err, text)
	}
}
