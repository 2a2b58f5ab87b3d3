package hbasestore_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// TestIntegrationStoredTables: tables the HBase Java client made, in a
// namespace of their own, which the catalog does not describe, are listed
// by SHOW TABLES beside the catalog's table in the same namespace; and
// DESCRIBE shows their families with the settings Java reads back from
// the descriptor, their regions, and the keys a Java Scan finds first in
// each region.
func TestIntegrationStoredTables(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/ClusterTables.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	ns := hbasetest.TableName("firstlook_ns")
	out := java.Batch(t, "ClusterTables", [][]string{
		{"setup", host, port, ns},
		{"sample", host, port, ns + ":plain"},
	})
	t.Cleanup(func() { java.Run(t, "ClusterTables", "drop", host, port, ns) })
	javaFamilies, javaSample := strings.Split(strings.TrimSpace(out[0]), "\n"), strings.TrimSpace(out[1])

	st := openStore(t, hbasestore.Options{})
	cat, err := catalog.Parse([]byte(`tables:
  - name: described
    hbase: "` + ns + `:other"
    families: [{name: x}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "x:v"}]
    rowkey: [{field: k}]
`))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	run := func(q string) (rows [][]string, notes []string) {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		res, err := e.Run(ctx, stmt)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer res.Close()
		for {
			r, err := res.Rows.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var cells []string
			for _, v := range r {
				cells = append(cells, v.Text())
			}
			rows = append(rows, cells)
		}
		return rows, res.Notes
	}

	rows, _ := run("SHOW TABLES")
	listed := map[string]string{}
	for _, r := range rows {
		listed[r[2]] = r[0] + " | " + r[1] + " | " + r[4]
	}
	for table, want := range map[string]string{
		ns + ":plain": "NULL | not in the catalog | TRUE",
		ns + ":other": "described | table | TRUE",
		"hbase:meta":  "NULL | not in the catalog | TRUE",
	} {
		if listed[table] != want {
			t.Errorf("SHOW TABLES row of %s: %q, want %q", table, listed[table], want)
		}
	}

	// Each family's settings, as Java reads the descriptor back.
	descs := map[string]map[string]string{}
	for _, table := range []string{"plain", "other"} {
		rows, _ := run(`DESCRIBE "` + ns + ":" + table + `"`)
		descs[ns+":"+table] = map[string]string{}
		for _, r := range rows {
			descs[ns+":"+table][r[0]] = r[1]
		}
	}
	if len(javaFamilies) != 3 {
		t.Fatalf("Java printed %d families, want 3:\n%s", len(javaFamilies), out[0])
	}
	for _, line := range javaFamilies {
		f := strings.Fields(line)
		got, ok := descs[f[0]][f[1]]
		if !ok {
			t.Errorf("DESCRIBE %s shows no family %s (families %v)", f[0], f[1], descs[f[0]])
			continue
		}
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			if want := k + " => '" + v + "'"; !strings.Contains(strings.ToUpper(got), strings.ToUpper(want)) {
				t.Errorf("DESCRIBE %s family %s: %s lacks %s", f[0], f[1], got, want)
			}
		}
	}
	for table, fams := range descs {
		if n := map[string]int{ns + ":plain": 2, ns + ":other": 1}[table]; len(fams) != n {
			t.Errorf("DESCRIBE %s: %d families, want %d: %v", table, len(fams), n, fams)
		}
	}

	_, notes := run(`DESCRIBE "` + ns + `:plain"`)
	text := strings.Join(notes, "\n")
	t.Logf("DESCRIBE %s:plain: %v\n%s\nJava: %s", ns, descs[ns+":plain"], text, out[0])
	for _, w := range []string{"HBase table " + ns + ":plain, not described by the catalog", "Regions: 3\n  [first, 'g')", "  ['g', 'p')", "  ['p', last)",
		"Sample keys (Bytes.toStringBinary):\n  " + strings.ReplaceAll(javaSample, "\n", "\n  ") + "\n"} {
		if !strings.Contains(text+"\n", w) {
			t.Errorf("DESCRIBE %s:plain lacks %q:\n%s", ns, w, text)
		}
	}
	_, notes = run(`DESCRIBE "` + ns + `:other"`)
	if text := strings.Join(notes, "\n"); !strings.Contains(text, "described by the catalog as described") || !strings.Contains(text, "Sample keys: none") {
		t.Errorf("DESCRIBE %s:other:\n%s", ns, text)
	}
}
