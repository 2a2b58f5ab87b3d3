// Command load fills an embedded store with the example tables' generated
// rows, for `make demo`, through engine.ImportRows: the rows are checked,
// batched, sorted and written as `rkql import` writes the rows it reads.
// It does nothing for a table that already has rows; --tables loads only
// the tables it names.
// With --jsonl it instead writes --rows generated rows of one --table to a
// JSON lines file, as `rkql import` reads them. With --opentsdb it writes
// a day of OpenTSDB points into the tables of examples/opentsdb.yaml, byte
// for byte as OpenTSDB writes them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

func main() {
	store := flag.String("store", "", "embedded store directory")
	cat := flag.String("catalog", "examples/catalog.yaml", "catalog file")
	jsonl := flag.String("jsonl", "", "write generated rows of --table to this JSON lines file instead")
	table := flag.String("table", "logs", "with --jsonl, the table whose rows are written")
	rows := flag.Int("rows", 1_000_000, "with --jsonl, how many rows to write")
	only := flag.String("tables", "", "comma-separated tables to load (default: every table of the catalog)")
	tsdb := flag.Bool("opentsdb", false, "write OpenTSDB's tsdb and tsdb-uid rows instead (catalog examples/opentsdb.yaml)")
	flag.Parse()
	var err error
	if *tsdb {
		err = runOpenTSDB(*store)
	} else if *jsonl != "" {
		err = runJSONL(*jsonl, *cat, *table, *rows)
	} else {
		var tables []string
		if *only != "" {
			tables = strings.Split(*only, ",")
		}
		err = run(*store, *cat, tables)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(dir, catFile string, tables []string) error {
	if dir == "" {
		return fmt.Errorf("--store is required")
	}
	c, err := catalog.LoadFile(catFile)
	if err != nil {
		return err
	}
	st, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	return load(context.Background(), c, st, tables, os.Stdout)
}

// store is a store that counts a table's rows: the embedded one.
type store interface {
	exec.Store
	Count(ctx context.Context, table string) (int64, error)
}

// load writes the generated rows of each table of c named in tables (all
// when none is) into st, through engine.ImportRows, as `rkql import` writes
// the rows it reads, and reports each table on out.
func load(ctx context.Context, c *catalog.Catalog, st store, tables []string, out io.Writer) error {
	var todo []*catalog.Table
	for _, t := range c.Tables {
		if len(tables) > 0 && !slices.Contains(tables, t.Name) {
			continue
		}
		if t.Wide != nil {
			// Generated rows would not hold one point per cell, as a
			// wide table's rows must; OpenTSDB's loader writes its cells.
			return fmt.Errorf("table %s has wide rows, which generated rows cannot fill; for examples/opentsdb.yaml use --opentsdb (make demo-opentsdb)", t.Name)
		}
		todo = append(todo, t)
	}
	for _, name := range tables {
		if _, err := tableOf(c, name); err != nil {
			return err
		}
	}
	eng := engine.New(engine.Config{Catalog: c, CreateOnDemand: true, Open: engine.Opened(st)})
	for _, t := range todo {
		if err := loadTable(ctx, eng, st, t, out); err != nil {
			return err
		}
	}
	return nil
}

// loadTable writes t's generated rows, unless it has rows already.
func loadTable(ctx context.Context, eng *engine.Engine, st store, t *catalog.Table, out io.Writer) error {
	n := examples.DemoRows[t.Name]
	if n == 0 {
		n = 10_000
	}
	if have, err := st.Count(ctx, t.Physical); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
		return err
	} else if have > 0 {
		fmt.Fprintf(out, "%-22s already has %d rows\n", t.Name, have)
		return nil
	}
	// Generated rows may share a key: the later one replaces the earlier,
	// and the report says how many did.
	var replaced int64
	_, err := eng.ImportRows(ctx, slices.Values(examples.Rows(t, n, 1)), engine.ImportOptions{
		Table: t.Name, Name: t.Name + " (generated rows)",
		Progress: func(done int64) { fmt.Fprintf(out, "\r%-22s %d/%d rows", t.Name, done, n) },
		Replaced: func(r int64) { replaced = r },
	})
	if err != nil {
		fmt.Fprintln(out)
		return err
	}
	tail := fmt.Sprintf("%d replaced a row with the same key", replaced)
	if _, ok, _ := engine.RowKeys(t, nil); !ok {
		tail = "replaced rows unknown: the key has a random part"
	}
	fmt.Fprintf(out, " written, %s\n", tail)
	return nil
}

func runJSONL(path, catFile, table string, n int) error {
	c, err := catalog.LoadFile(catFile)
	if err != nil {
		return err
	}
	t, err := tableOf(c, table)
	if err != nil {
		return err
	}
	return writeJSONL(path, t, n)
}

// runOpenTSDB writes examples.OpenTSDBDemo's cells into tsdb and tsdb-uid.
func runOpenTSDB(dir string) error {
	if dir == "" {
		return fmt.Errorf("--store is required")
	}
	c, err := catalog.Parse(examples.OpenTSDBYAML)
	if err != nil {
		return err
	}
	st, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	_, o := examples.OpenTSDBDemo()
	for name, cells := range map[string][]examples.RawCell{"tsdb": o.Points, "tsdb_uid": o.UID} {
		t, _ := c.Table(name)
		if err := x.EnsureTable(ctx, t); err != nil {
			return err
		}
		muts := make([]exec.Mutation, len(cells))
		for i, cl := range cells {
			muts[i] = exec.Mutation{Key: cl.Key, Cells: []exec.Cell{{Family: string(cl.Family), Qualifier: string(cl.Qualifier), Value: cl.Value}}}
		}
		if err := st.Mutate(ctx, t.Physical, muts); err != nil {
			return err
		}
		fmt.Printf("%-10s %d cells\n", t.Physical, len(cells))
	}
	return nil
}
