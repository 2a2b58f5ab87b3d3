package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// ddlEngine is an engine over a new embedded store whose catalog file
// starts as src.
func ddlEngine(t testing.TB, dir string, src []byte) *engine.Engine {
	t.Helper()
	file := filepath.Join(dir, "catalog.yaml")
	if _, err := os.Stat(file); err != nil {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return engine.New(engine.Config{
		Catalog: cat, CatalogSource: text, CatalogFile: file, CreateOnDemand: true,
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil },
	})
}

// runText runs the statements of a script and prints what each returns:
// its text, tag, rows, warnings, or error.
func runText(t testing.TB, e *engine.Engine, script string) string {
	t.Helper()
	stmts, err := parser.Parse(script)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var b strings.Builder
	ctx := context.Background()
	for _, st := range stmts {
		res, err := e.Run(ctx, st)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
			continue
		}
		b.WriteString(res.Text)
		if res.Tag != "" {
			b.WriteString(res.Tag + "\n")
		}
		if res.Rows != nil {
			for {
				r, err := res.Rows.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					fmt.Fprintf(&b, "error: %v\n", err)
					break
				}
				var cells []string
				for _, v := range r {
					cells = append(cells, v.String())
				}
				b.WriteString(strings.Join(cells, " | ") + "\n")
			}
		}
		if res.Warnings != nil {
			for _, w := range res.Warnings() {
				b.WriteString("warning: " + w + "\n")
			}
		}
		res.Close()
	}
	return b.String()
}

// TestDDL runs testdata/ddl: statements on the example catalog, with the
// YAML each layout statement writes shown by SHOW CATALOG. Regenerate with
// go test ./engine -run TestDDL -rewrite.
func TestDDL(t *testing.T) {
	dir := t.TempDir()
	e := ddlEngine(t, dir, examples.CatalogYAML)
	var asked strings.Builder
	datadriven.RunTest(t, "testdata/ddl", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "sql":
			out := runText(t, e, d.Input)
			defer asked.Reset()
			return asked.String() + out
		case "answer":
			// What the session answers the questions of the statements
			// that follow, which are shown.
			yes := strings.TrimSpace(d.Input) == "yes"
			e.SetConfirm(func(_ context.Context, q string) (bool, error) {
				fmt.Fprintf(&asked, "asked: %s?\n", q)
				return yes, nil
			})
			return "ok\n"
		case "reopen":
			// A new engine reads the catalog file the last one wrote.
			e.Close()
			e = ddlEngine(t, dir, nil)
			return "ok\n"
		}
		t.Fatalf("unknown command %s", d.Cmd)
		return ""
	})
	// Every comment of the example catalog is still in the file, in order.
	text, err := os.ReadFile(filepath.Join(dir, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rest := string(text)
	for _, l := range strings.Split(string(examples.CatalogYAML), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		i := strings.Index(rest, l+"\n")
		if i < 0 {
			t.Fatalf("comment line %q is gone from the catalog file, or out of order", l)
		}
		rest = rest[i+len(l):]
	}
}

// TestDDLRoundTripExamples: for every example table, SHOW CREATE TABLE's
// whole text, its statements and the HBase shell comments after them, run
// on an empty catalog, writes YAML that loads to a table whose keys are
// the same bytes for the same rows, with the same columns, families,
// splits, HBase table and index keys.
func TestDDLRoundTripExamples(t *testing.T) {
	orig, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	shown := ddlEngine(t, t.TempDir(), examples.CatalogYAML)
	for _, want := range orig.Tables {
		t.Run(want.Name, func(t *testing.T) {
			script := runText(t, shown, "SHOW CREATE TABLE "+want.Name)
			if strings.HasPrefix(script, "error") || !strings.Contains(script, ";\n-- in the HBase shell:\n-- create ") {
				t.Fatalf("want the statements, then the HBase shell's as comments:\n%s", script)
			}
			e := ddlEngine(t, t.TempDir(), []byte("tables: []\n"))
			if out := runText(t, e, script); strings.Contains(out, "error") {
				t.Fatalf("%s\n%s", script, out)
			}
			got := showCatalogTable(t, runText(t, e, "SHOW CATALOG "+want.Name), want.Name)
			sameTable(t, want, got)
			for i, ix := range want.Indexes {
				sameTable(t, ix.Table, got.Indexes[i].Table)
				if fmt.Sprint(ix.Carries, ix.Covers) != fmt.Sprint(got.Indexes[i].Carries, got.Indexes[i].Covers) {
					t.Errorf("index %s: carries, covers %v %v, want %v %v", ix.Name, got.Indexes[i].Carries, got.Indexes[i].Covers, ix.Carries, ix.Covers)
				}
			}
		})
	}
}

// showCatalogTable loads the YAML of one table that SHOW CATALOG printed.
func showCatalogTable(t *testing.T, text, name string) *catalog.Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("tables:\n")
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	c, err := catalog.Parse([]byte(b.String()))
	if err != nil {
		t.Fatalf("SHOW CATALOG %s does not load: %v\n%s", name, err, text)
	}
	tb, ok := c.Table(name)
	if !ok {
		t.Fatalf("SHOW CATALOG %s has no table %s:\n%s", name, name, text)
	}
	return tb
}

func sameTable(t *testing.T, want, got *catalog.Table) {
	t.Helper()
	if fmt.Sprint(got.Columns) != fmt.Sprint(want.Columns) {
		t.Errorf("%s: columns\n%v\nwant\n%v", want.Name, got.Columns, want.Columns)
	}
	if famString(got.Families) != famString(want.Families) {
		t.Errorf("%s: families %v, want %v", want.Name, got.Families, want.Families)
	}
	if fmt.Sprint(got.SplitKeys()) != fmt.Sprint(want.SplitKeys()) {
		t.Errorf("%s: split keys %q, want %q", want.Name, got.SplitKeys(), want.SplitKeys())
	}
	if got.Physical != want.Physical {
		t.Errorf("%s: HBase table %s, want %s", want.Name, got.Physical, want.Physical)
	}
	if got.Key.String() != want.Key.String() {
		t.Errorf("%s: key %s, want %s", want.Name, got.Key, want.Key)
	}
	data := want
	if want.IndexOf != nil {
		data = want.IndexOf
	}
	rnd := func(n int64) int64 { return n - 1 }
	rows := examples.Rows(data, 200, 7)
	for _, r := range rows {
		row := want.NewRow()
		for i, c := range want.Columns {
			j, _ := data.Column(c.Name)
			row[i] = r[j]
		}
		a, errA := want.EncodeKey(row, rnd)
		b, errB := got.EncodeKey(row, rnd)
		if !bytes.Equal(a, b) || (errA == nil) != (errB == nil) {
			t.Fatalf("%s: row %v: key %q (%v), want %q (%v)", want.Name, row, b, errB, a, errA)
		}
	}
}

func famString(fs []catalog.Family) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s;", f.Name, f.Props())
	}
	return b.String()
}

// An UPDATE or DELETE whose OR reads a union of a data-table branch and an
// index branch writes the data rows it finds, with their index entries.
func TestUnionWrites(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), examples.CatalogYAML)
	got := runText(t, e, `INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', 1, '2024-05-01 12:00:00', 10.5, 'paid'), ('s2', 'b2', 2, '2024-05-01 13:00:00', 3, 'paid'), ('s3', 'b1', 3, '2024-05-01 14:00:00', 7, 'new');
UPDATE orders SET status = 'x' WHERE seller = 's1' OR buyer = 'b2';
SELECT order_id, status FROM orders WHERE order_id IN (1, 2, 3) ORDER BY order_id;
DELETE FROM orders WHERE seller = 's1' OR buyer = 'b2';
SELECT order_id, status FROM orders ALLOW FULL SCAN;
CHECK INDEX orders_by_buyer;
CHECK INDEX orders_by_id`)
	want := `INSERT 3
UPDATE 2
1 | 'x'
2 | 'x'
3 | 'new'
DELETE 2
3 | 'new'
1 | 1 | 0 | 0 | 0 | 0 | 0 | 0
1 | 1 | 0 | 0 | 0 | 0 | 0 | 0
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
