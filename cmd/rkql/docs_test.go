package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/cmd/rkql/shell"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// A runnable example in the docs is a fenced block right after the line
//
//	<!-- rkql-run -->            (the example catalog and its demo rows)
//	<!-- rkql-run opentsdb -->   (examples/opentsdb.yaml and its day of points)
//
// holding a REPL session: lines behind "rkql> " and "   -> " are typed,
// the others are what the REPL prints. TestDocsExamples types them into a
// session on a store holding `make demo`'s rows of the tables the examples
// name, and compares what it prints with the block.

// docFiles are the markdown files whose examples run, from cmd/rkql.
func docFiles(t *testing.T) []string {
	files := []string{"../../README.md", "../../DESIGN.md"}
	err := filepath.WalkDir("../../docs", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// docExample is one runnable block of a markdown file.
type docExample struct {
	file     string
	line     int // of the block's first line, from 1
	opentsdb bool
	start    int // index of the block's first line in the file's lines
	end      int // index of its closing fence
	body     string
	typed    []string // the lines typed, prompts taken off
	first    []bool   // whether typed[i] starts a statement
}

var runMarker = regexp.MustCompile(`^<!-- rkql-run( opentsdb)? -->$`)

// parseExamples finds the runnable blocks of one file's lines.
func parseExamples(file string, lines []string) ([]docExample, error) {
	var out []docExample
	for i := 0; i < len(lines); i++ {
		m := runMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			return nil, fmt.Errorf("%s:%d: rkql-run is not followed by a fenced block", file, i+1)
		}
		ex := docExample{file: file, line: i + 3, opentsdb: m[1] != "", start: i + 2}
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			l := lines[j]
			switch {
			case strings.HasPrefix(l, shell.PromptMain):
				ex.typed = append(ex.typed, strings.TrimPrefix(l, shell.PromptMain))
				ex.first = append(ex.first, true)
			case strings.HasPrefix(l, shell.PromptCont):
				ex.typed = append(ex.typed, strings.TrimPrefix(l, shell.PromptCont))
				ex.first = append(ex.first, false)
			}
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: the block does not end", file, i+2)
		}
		if len(ex.typed) == 0 {
			return nil, fmt.Errorf("%s:%d: the block types nothing (no line starts with %q)", file, ex.line, shell.PromptMain)
		}
		ex.end = j
		ex.body = strings.Join(lines[ex.start:j], "\n")
		out = append(out, ex)
		i = j
	}
	return out, nil
}

// docStore is a store loaded once for every example of one catalog.
type docStore struct {
	dir string
	cat *catalog.Catalog
	src []byte
}

// fixedClock makes region names and cell timestamps the same on every run.
func fixedClock() time.Time { return time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC) }

func openDocStore(dir string) (*embedded.Store, error) {
	return embedded.Open(dir, embedded.Options{Clock: fixedClock, NoSync: true})
}

// openDocCatalog parses src and opens the store in dir, which the caller
// closes once it has written its rows: the examples open it again.
func openDocCatalog(t *testing.T, dir string, src []byte) (*catalog.Catalog, *embedded.Store) {
	t.Helper()
	c, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	st, err := openDocStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, st
}

// loadDemo writes examples.Rows(t, examples.DemoRows[t], 1) into each named
// table through engine.ImportRows, as examples/load does for `make demo`.
func loadDemo(t *testing.T, dir string, names []string) *docStore {
	src := examples.CatalogYAML
	c, st := openDocCatalog(t, dir, src)
	defer st.Close()
	ctx := context.Background()
	eng := engine.New(engine.Config{Catalog: c, CreateOnDemand: true, Clock: fixedClock,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	for _, name := range names {
		tb, _ := c.Table(name)
		n := examples.DemoRows[name]
		if n == 0 {
			n = 10_000
		}
		if _, err := eng.ImportRows(ctx, slices.Values(examples.Rows(tb, n, 1)), engine.ImportOptions{Table: name}); err != nil {
			t.Fatalf("loading %s: %v", name, err)
		}
	}
	return &docStore{dir: dir, cat: c, src: src}
}

// loadOpenTSDB writes examples.OpenTSDBDemo's cells, as examples/load
// --opentsdb does for `make demo-opentsdb`.
func loadOpenTSDB(t *testing.T, dir string) *docStore {
	c, st := openDocCatalog(t, dir, examples.OpenTSDBYAML)
	defer st.Close()
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	_, o := examples.OpenTSDBDemo()
	for name, cells := range map[string][]examples.RawCell{"tsdb": o.Points, "tsdb_uid": o.UID} {
		tb, _ := c.Table(name)
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		muts := make([]exec.Mutation, len(cells))
		for i, cl := range cells {
			muts[i] = exec.Mutation{Key: cl.Key, Cells: []exec.Cell{{Family: string(cl.Family), Qualifier: string(cl.Qualifier), Value: cl.Value}}}
		}
		if err := st.Mutate(ctx, tb.Physical, muts); err != nil {
			t.Fatal(err)
		}
	}
	return &docStore{dir: dir, cat: c, src: examples.OpenTSDBYAML}
}

// readsRows matches the first line of a statement that reads or writes
// rows; the others (EXPLAIN without ANALYZE, LINT, SIMULATE, DECODE KEY,
// …) need the catalog only.
var readsRows = regexp.MustCompile(`(?i)^\s*(SELECT|EXPLAIN\s+ANALYZE|INSERT|UPSERT|UPDATE|DELETE|INFER|\\d)`)

// demoTables are the data tables of c whose rows the examples read, a
// table standing for its indexes too.
func demoTables(c *catalog.Catalog, exs []docExample) []string {
	words := map[string]bool{}
	for _, ex := range exs {
		if ex.opentsdb {
			continue
		}
		reads := false
		for i, l := range ex.typed {
			if ex.first[i] {
				reads = readsRows.MatchString(l)
			}
			if !reads {
				continue
			}
			for _, w := range regexp.MustCompile(`\w+`).FindAllString(l, -1) {
				words[w] = true
			}
		}
	}
	var names []string
	for _, tb := range c.Tables {
		use := words[tb.Name]
		for _, ix := range tb.Indexes {
			use = use || words[ix.Name]
		}
		if use && tb.Wide == nil {
			names = append(names, tb.Name)
		}
	}
	return names
}

// runExample types an example's lines into a new session on ds and returns
// what the REPL prints, with the block's layout: no trailing blank lines.
func runExample(t *testing.T, ds *docStore, ex docExample) string {
	var out bytes.Buffer
	// The layout statements write a copy of the catalog, so that each
	// example starts from the example catalog.
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, ds.src, 0o644); err != nil {
		t.Fatal(err)
	}
	sess := shell.New(shell.Config{
		Catalog:        ds.cat,
		CatalogSource:  ds.src,
		CatalogFile:    file,
		Open:           func(context.Context) (exec.Store, error) { return openDocStore(ds.dir) },
		CreateOnDemand: true,
		Settings:       shell.Settings{Format: shell.FormatTable, Footer: true, Caret: true, Timeout: time.Minute},
		Clock:          fakeClock(),
		ConnInfo:       "embedded store .cache/demo, catalog examples/catalog.yaml",
		ReleaseStore:   true,
	})
	defer sess.Close()
	in := &scriptIO{lines: slices.Clone(ex.typed), out: &out, interactive: true}
	if err := sess.Run(context.Background(), in); err != nil && !errors.Is(err, shell.ErrFailed) {
		t.Fatalf("%s:%d: %v", ex.file, ex.line, err)
	}
	return strings.TrimRight(out.String(), "\n")
}

// TestDocsExamples runs every runnable example of README.md, DESIGN.md and
// docs/ and compares its output with the docs; -rewrite writes what ran.
func TestDocsExamples(t *testing.T) {
	rewrite := false
	if f := flag.Lookup("rewrite"); f != nil {
		rewrite = f.Value.String() == "true"
	}
	type doc struct {
		file  string
		lines []string
		exs   []docExample
	}
	var docs []*doc
	var all []docExample
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		exs, err := parseExamples(f, lines)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, &doc{file: f, lines: lines, exs: exs})
		all = append(all, exs...)
	}
	if len(all) == 0 {
		t.Fatal("the docs hold no runnable example")
	}
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	demo := loadDemo(t, t.TempDir(), demoTables(c, all))
	var tsdb *docStore
	for _, d := range docs {
		// In order, so that an example sees what the ones before it wrote.
		got := make([]string, len(d.exs))
		for i, ex := range d.exs {
			ds := demo
			if ex.opentsdb {
				if tsdb == nil {
					tsdb = loadOpenTSDB(t, t.TempDir())
				}
				ds = tsdb
			}
			got[i] = runExample(t, ds, ex)
			if got[i] != ex.body && !rewrite {
				t.Errorf("%s:%d: the example's output differs from the docs (go test ./cmd/rkql -run TestDocsExamples -rewrite writes it)\n--- docs\n%s\n--- ran\n%s", ex.file, ex.line, ex.body, got[i])
			}
		}
		if !rewrite {
			continue
		}
		changed := false
		// Backwards, so that a rewritten block leaves earlier indexes valid.
		for i := len(d.exs) - 1; i >= 0; i-- {
			if ex := d.exs[i]; got[i] != ex.body {
				d.lines = slices.Replace(d.lines, ex.start, ex.end, strings.Split(got[i], "\n")...)
				changed = true
			}
		}
		if changed {
			if err := os.WriteFile(d.file, []byte(strings.Join(d.lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDocsCatalogs loads every whole catalog the docs show: a ```yaml block
// that starts with "tables:".
func TestDocsCatalogs(t *testing.T) {
	n := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "```yaml\n")[1:] {
			src, _, ok := strings.Cut(part, "\n```")
			if !ok || !strings.HasPrefix(src, "tables:") {
				continue
			}
			n++
			if _, err := catalog.Parse([]byte(src)); err != nil {
				t.Errorf("%s: a catalog of the docs does not load: %v", f, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("the docs show no catalog")
	}
}
