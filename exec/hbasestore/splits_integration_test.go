package hbasestore_test

import (
	"context"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
)

func hexKeys(keys [][]byte) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(hex.EncodeToString(k) + "\n")
	}
	return b.String()
}

// TestSplitKeysMatchHBase checks the catalog's split points against
// HBase's own tooling: RegionSplitter's algorithms give the same keys, and
// a table created through HBase's Java Admin API with a table's SplitKeys
// has the same regions as the one rkql's CREATE TABLE makes.
func TestSplitKeysMatchHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/ShellSplits.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}

	// The algorithms, as the shell's NUMREGIONS and SPLITALGO compute them.
	algs, err := catalog.Parse([]byte(`tables:
  - name: hex16
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: HexStringSplit, regions: 16}
  - name: uniform8
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: UniformSplit, regions: 8}
  - name: decimal10
    families: [{name: f}]
    columns: [{name: k, type: STRING}, {name: v, type: STRING, column: "f:v"}]
    rowkey: [{field: k}]
    split: {algorithm: DecimalStringSplit, regions: 10}
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		table, alg string
		n          int
	}{{"hex16", "HexStringSplit", 16}, {"uniform8", "UniformSplit", 8}, {"decimal10", "DecimalStringSplit", 10}}
	var cmds [][]string
	for _, c := range cases {
		cmds = append(cmds, []string{"algorithm", c.alg, strconv.Itoa(c.n)})
	}
	start := time.Now()
	wants := java.Batch(t, "ShellSplits", cmds)
	t.Logf("RegionSplitter: %v", time.Since(start))
	for i, c := range cases {
		tb, _ := algs.Table(c.table)
		if got := hexKeys(tb.SplitKeys()); got != wants[i] {
			t.Errorf("%s %d: split keys\n%swant HBase's RegionSplitter\n%s", c.alg, c.n, got, wants[i])
		}
	}

	// Regions: rkql's CREATE TABLE against the Java API fed the table's
	// split keys.
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	start = time.Now()
	tables := []string{"user_calendar_record", "logs", "device_metrics"}
	var ours []string
	cmds = nil
	var drops [][]string
	for _, name := range tables {
		tb, _ := cat.Table(name)
		splits := tb.SplitKeys()
		if len(splits) == 0 {
			t.Fatalf("%s: no split keys", name)
		}
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		regions, err := st.Regions(ctx, tb.Physical)
		if err != nil {
			t.Fatal(err)
		}
		var starts [][]byte
		for _, r := range regions {
			starts = append(starts, r.StartKey)
		}
		ours = append(ours, hexKeys(starts))
		javaTable := tb.Physical + "_java"
		cmd := []string{"create", host, port, javaTable}
		for _, s := range splits {
			cmd = append(cmd, hex.EncodeToString(s))
		}
		cmds = append(cmds, cmd)
		drops = append(drops, []string{"drop", host, port, javaTable})
	}
	t.Logf("rkql CREATE TABLE: %v", time.Since(start))
	start = time.Now()
	theirs := java.Batch(t, "ShellSplits", append(cmds, drops...))
	t.Logf("Java create and drop: %v", time.Since(start))
	for i, name := range tables {
		if ours[i] != theirs[i] {
			t.Errorf("%s: CREATE TABLE made regions starting at\n%swhile the Java API given its split keys makes\n%s", name, ours[i], theirs[i])
		}
	}
}
