package hbasestore_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// rawRead runs a raw read through the engine and returns its cells as
// the Java oracle prints them (key/family:qualifier/ts/value,
// toStringBinary), and what EXPLAIN ANALYZE measured of the same read:
// rows received, rows returned, cells and bytes received.
func rawRead(t *testing.T, e *engine.Engine, q string) (string, [4]int64) {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var b strings.Builder
	for _, row := range rows {
		fmt.Fprintf(&b, "%s/%s:%s/%d/%s\n", row[0].Text(), row[1].S, row[2].Text(), row[3].I, row[4].Text())
	}
	st, err := parser.ParseOne("EXPLAIN ANALYZE " + q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), st)
	if err != nil {
		t.Fatalf("EXPLAIN ANALYZE %s: %v", q, err)
	}
	m := rawAnalyzed.FindStringSubmatch(res.Text)
	if m == nil {
		t.Fatalf("EXPLAIN ANALYZE %s: no ANALYZE line:\n%s", q, res.Text)
	}
	var figs [4]int64
	for i := range figs {
		figs[i], _ = strconv.ParseInt(m[i+1], 10, 64)
	}
	if !strings.Contains(res.Text, "HBASE SHELL ") {
		t.Errorf("EXPLAIN %s gives no HBase shell command:\n%s", q, res.Text)
	}
	return b.String(), figs
}

var rawAnalyzed = regexp.MustCompile(`rows received (\d+), rows returned (\d+), cells (\d+), bytes received (\d+)`)

// TestIntegrationRawReadJava: a table the HBase Java client created and
// wrote (two families, several qualifiers, timestamps and versions,
// binary keys, two regions), which no catalog describes, read raw. A
// _key prefix, ranges, Gets, a _ts range, column projections and a
// reversed scan each return exactly the cells the Java client's own Scan
// or Get with the same bounds returns, in the same order; and only those
// cells travelled: the cells and rows received are the oracle's, and the
// bytes fewer than a full scan's.
func TestIntegrationRawReadJava(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/RawCells.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	name := hbasetest.TableName("raw_cells")
	dropAtEnd(t, st, []string{name})
	h := func(s string) string { return hex.EncodeToString([]byte(s)) }
	cases := []struct {
		sql  string
		java []string // the oracle's command after QUORUM PORT TABLE
	}{
		{`SELECT * FROM RAW '%s' WHERE _key LIKE 'u1%%'`, []string{"scan", h("u1"), h("u2"), "-", "-", "-", "1", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key >= 'u10' AND _key < 'u2' AND _family = 'f'`, []string{"scan", h("u10"), h("u2"), "f", "-", "-", "1", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key BETWEEN 'u1' AND 'u20' AND _family IN ('f', 'g') AND _qualifier = 'a' VERSIONS 2`,
			[]string{"scan", h("u1"), h("u20\x00"), "f:a,g:a", "-", "-", "2", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key > x'00' AND _key <= 'u1\x00\xFF' AND _qualifier = 'b'`,
			[]string{"scan", h("\x00\x00"), h("u1\x00\xff\x00"), "f:b,g:b", "-", "-", "1", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key = 'u100' VERSIONS 3`, []string{"get", h("u100"), "-", "-", "-", "3"}},
		{`SELECT * FROM RAW '%s' WHERE _key = x'fffe' AND _family = 'g'`, []string{"get", "fffe", "g", "-", "-", "1"}},
		{`SELECT * FROM RAW '%s' WHERE _key = 'u1\x00\x00\x00\x00\x00\x00\x00*' AND _qualifier IN ('a', '\x01q') AND _family = 'g' VERSIONS 5`,
			[]string{"get", h("u1\x00\x00\x00\x00\x00\x00\x00*"), `g:a,g:\x01q`, "-", "-", "5"}},
		{`SELECT * FROM RAW '%s' WHERE _key LIKE 'u%%' AND _ts >= 3000 AND _ts < 6050 VERSIONS 5`,
			[]string{"scan", h("u"), h("v"), "-", "3000", "6050", "5", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key LIKE 'u2%%' AND _ts BETWEEN TIMESTAMP '1970-01-01 00:00:06.100' AND TIMESTAMP '1970-01-01 00:00:07.101' VERSIONS 3`,
			[]string{"scan", h("u2"), h("u3"), "-", "6100", "7102", "3", "0"}},
		{`SELECT * FROM RAW '%s' WHERE _key LIKE 'u2%%' ORDER BY _key DESC`, []string{"scan", h("u3"), h("u1\xff\xff\xff"), "-", "-", "-", "1", "1"}},
	}
	cmds := [][]string{{"write", host, port, name}}
	for _, c := range cases {
		cmds = append(cmds, append([]string{c.java[0], host, port, name}, c.java[1:]...))
	}
	cmds = append(cmds, []string{"scan", host, port, name, "-", "-", "-", "-", "-", "5", "0"})
	outs := java.Batch(t, "RawCells", cmds)
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})

	full, fullFigs := rawRead(t, e, fmt.Sprintf(`SELECT * FROM RAW '%s' VERSIONS 5 ALLOW FULL SCAN`, name))
	if full != outs[len(outs)-1] {
		t.Fatalf("full raw scan:\n%s\nwant the Java client's:\n%s", full, outs[len(outs)-1])
	}
	if n := strings.Count(full, "\n"); n < 80 {
		t.Fatalf("the Java client wrote only %d cells", n)
	}
	for i, c := range cases {
		sql := fmt.Sprintf(c.sql, name)
		want := outs[i+1]
		if want == "" {
			t.Fatalf("%s: the oracle returns no cell; the case tests nothing", sql)
		}
		got, figs := rawRead(t, e, sql)
		if got != want {
			t.Errorf("%s:\n%s\nwant the Java client's:\n%s", sql, got, want)
			continue
		}
		cells, rows := int64(strings.Count(want, "\n")), int64(distinctKeys(want))
		if figs[0] != rows || figs[1] != cells || figs[2] != cells {
			t.Errorf("%s: EXPLAIN ANALYZE: %d rows received, %d returned, %d cells; want only the asked-for %d rows, %d cells", sql, figs[0], figs[1], figs[2], rows, cells)
		}
		if figs[3] <= 0 || figs[3] >= fullFigs[3] {
			t.Errorf("%s: %d bytes received, want some and fewer than a full scan's %d", sql, figs[3], fullFigs[3])
		}
	}
}

// distinctKeys counts the rows of the oracle's cell lines.
func distinctKeys(lines string) int {
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		k, _, _ := strings.Cut(l, "/")
		seen[k] = true
	}
	return len(seen)
}

// TestIntegrationRawReadDifferential: the raw reads of the embedded
// store's differential test, on the real HBase, equal the model of the
// written cells: key points and ranges, time ranges, families and
// qualifiers as HBase applies them, the rest in the client.
func TestIntegrationRawReadDifferential(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	ctx := context.Background()
	name := hbasetest.TableName("raw_diff")
	dropAtEnd(t, st, []string{name})
	r := rand.New(rand.NewSource(22))
	cells := exectest.RandomRawCells(r)
	if err := st.CreateTable(ctx, exectest.RawTableSpec(name)); err != nil {
		t.Fatal(err)
	}
	if err := st.Mutate(ctx, name, exectest.RawMutations(cells)); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	exectest.RawDifferential(t, r, cells, name, 200, func(q string) ([]catalog.Row, error) {
		rows, _, err := e.Exec(ctx, q)
		return rows, err
	})
}
