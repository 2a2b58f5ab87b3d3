package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// The examples loader (make demo) and rkql import load rows the same way,
// through the engine's import: the loader's generated rows, and the same
// rows written as JSON lines (load --jsonl) and read by rkql import, leave
// the same rows, index entries and cells in the store, and both count the
// same rows as replacing one with the same key. sites has an index and
// rows that share a key; device_metrics has neither and comes out of the
// generator in no key order.
func TestLoadAndImportAgree(t *testing.T) {
	const catFile = "../../examples/catalog.yaml"
	tables := []string{"sites", "device_metrics"}
	load := buildPkg(t, "../../examples/load")
	loaded, imported := t.TempDir(), t.TempDir()
	report := runBin(t, load, "--store", loaded, "--catalog", catFile, "--tables", strings.Join(tables, ","))
	for _, name := range tables {
		n := examples.DemoRows[name]
		file := filepath.Join(t.TempDir(), name+".jsonl")
		runBin(t, load, "--jsonl", file, "--table", name, "--rows", strconv.Itoa(n), "--catalog", catFile)
		r := rkql(t, "", "import", "--store", imported, "--catalog", catFile, "--table", name, file)
		m := regexp.MustCompile(`^imported (\d+) rows into ` + name + `(?:, (\d+) of them replacing a row with the same key)?\n$`).FindStringSubmatch(r.stdout)
		if r.code != 0 || m == nil || m[1] != strconv.Itoa(n) {
			t.Fatalf("import %s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
		replaced := m[2]
		if replaced == "" {
			replaced = "0"
		}
		want := fmt.Sprintf(`(?m)^\s*%s +%d/%d rows written, %s replaced a row with the same key$`, name, n, n, replaced)
		if !regexp.MustCompile(want).MatchString(strings.ReplaceAll(report, "\r", "\n")) {
			t.Errorf("%s: rkql import counts %s replaced rows; the loader said:\n%s", name, replaced, report)
		}
		if name == "sites" && replaced == "0" {
			t.Errorf("no site replaced another: the counts show nothing")
		}
	}
	c, err := catalog.LoadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	a, b := storeCells(t, loaded, c, tables), storeCells(t, imported, c, tables)
	for _, name := range tables {
		tb, _ := c.Table(name)
		if len(a[tb.Physical]) == 0 {
			t.Fatalf("the loader wrote no row of %s", name)
		}
	}
	for phys, rows := range a {
		if !slices.Equal(rows, b[phys]) {
			t.Errorf("%s: the loader wrote %d rows, rkql import %d, and they differ (first: %.200q and %.200q)",
				phys, len(rows), len(b[phys]), first(rows), first(b[phys]))
		}
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// storeCells reads every stored row of the tables and their indexes, per
// physical table, as key and cells (family, qualifier, value), leaving
// out the cells' write times.
func storeCells(t *testing.T, dir string, c *catalog.Catalog, tables []string) map[string][]string {
	t.Helper()
	st, err := embedded.Open(dir, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	out := map[string][]string{}
	for _, name := range tables {
		tb, _ := c.Table(name)
		phys := []string{tb.Physical}
		for _, ix := range tb.Indexes {
			phys = append(phys, ix.Physical)
		}
		for _, p := range phys {
			it, err := st.Scan(ctx, p, exec.Range{}, exec.ReadOptions{})
			if err != nil {
				t.Fatalf("scan %s: %v", p, err)
			}
			for {
				r, err := it.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("scan %s: %v", p, err)
				}
				var b strings.Builder
				fmt.Fprintf(&b, "%x", r.Key)
				for _, cl := range r.Cells {
					fmt.Fprintf(&b, " %s:%x=%x", cl.Family, cl.Qualifier, cl.Value)
				}
				out[p] = append(out[p], b.String())
			}
			it.Close()
		}
	}
	return out
}
