// Command load fills an embedded store with the example tables' generated
// rows, for `make demo`. It does nothing for a table that already has rows.
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
	"os"

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
	tsdb := flag.Bool("opentsdb", false, "write OpenTSDB's tsdb and tsdb-uid rows instead (catalog examples/opentsdb.yaml)")
	flag.Parse()
	var err error
	if *tsdb {
		err = runOpenTSDB(*store)
	} else if *jsonl != "" {
		err = runJSONL(*jsonl, *cat, *table, *rows)
	} else {
		err = run(*store, *cat)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(dir, catFile string) error {
	if dir == "" {
		return fmt.Errorf("--store is required")
	}
	c, err := catalog.LoadFile(catFile)
	if err != nil {
		return err
	}
	for _, t := range c.Tables {
		if t.Wide != nil {
			// Generated rows would not hold one point per cell, as a
			// wide table's rows must; OpenTSDB's loader writes its cells.
			return fmt.Errorf("table %s has wide rows, which generated rows cannot fill; for examples/opentsdb.yaml use --opentsdb (make demo-opentsdb)", t.Name)
		}
	}
	st, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	eng := engine.New(engine.Config{Catalog: c, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	for _, t := range c.Tables {
		n := examples.DemoRows[t.Name]
		if n == 0 {
			n = 10_000
		}
		if have, err := st.Count(ctx, t.Physical); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
			return err
		} else if have > 0 {
			fmt.Printf("%-22s already has %d rows\n", t.Name, have)
			continue
		}
		rows := examples.Rows(t, n, 1)
		// Generated rows may share a key: the later one replaces the
		// earlier, and the report says how many did.
		replaced := "replaced rows unknown: the key has a random part"
		if keys, ok, err := engine.RowKeys(t, rows); err != nil {
			return err
		} else if ok {
			r, err := eng.Replaced(ctx, t, keys)
			if err != nil {
				return err
			}
			replaced = fmt.Sprintf("%d replaced a row with the same key", r)
		}
		err := eng.Write(ctx, t, nil, rows, 0, func(done int) {
			fmt.Printf("\r%-22s %d/%d rows", t.Name, done, n)
		})
		if err != nil {
			fmt.Println()
			return err
		}
		fmt.Printf(" written, %s\n", replaced)
	}
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
