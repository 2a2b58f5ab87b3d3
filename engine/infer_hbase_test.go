package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestInferTableHBaseJava: an orders table that HBase's Java client
// wrote (MessageDigest, Bytes.toBytes, 16 regions) and that the catalog
// does not describe is inferred on the real HBase, saved, and read back:
// every row Java wrote, and the same key bytes as the hand-written
// orders entry for a point lookup and a range scan.
func TestInferTableHBaseJava(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/InferOrders.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	name := hbasetest.TableName("infer_orders")
	t.Cleanup(func() { java.Run(t, "InferOrders", "drop", host, port, name) })
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(java.Run(t, "InferOrders", "write", host, port, name, "600")), "\n") {
		f := strings.Split(l, "\t")
		ms, _ := strconv.ParseInt(f[1], 10, 64)
		amount, _ := strconv.ParseFloat(f[4], 64)
		want = append(want, strings.Join([]string{f[0], catalog.TimestampMillis(ms).Text(), f[2], f[3], catalog.Double(amount).Text(), f[5]}, " "))
	}
	slices.Sort(want)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, examples.CatalogYAML, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: examples.CatalogYAML, CatalogFile: file,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	out := runText(t, e, "INFER TABLE '"+name+"' SAMPLE 300 AS jorders SAVE;")
	t.Logf("%s", out)
	for _, s := range []string{"sampled from 16 regions", "{hash: md5, of: [k1], width: 4}", "verified", "# saved to"} {
		if !strings.Contains(out, s) {
			t.Fatalf("INFER TABLE does not say %q:\n%s", s, out)
		}
	}
	rows, _, err := e.Exec(ctx, "SELECT k1, ts, k2, buyer, amount, status FROM jorders ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		var f []string
		for _, v := range r {
			f = append(f, v.Text())
		}
		got = append(got, strings.Join(f, " "))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("read back %d rows, Java wrote %d; first read %q, first written %q", len(got), len(want), got[:min(1, len(got))], want[0])
	}
	f := strings.Fields(want[0])
	seller, ts, id := "'"+f[0]+"'", "'"+f[1]+" "+f[2]+"'", f[3]
	for _, w := range [][2]string{
		{"seller = " + seller + " AND ts = " + ts + " AND order_id = " + id, "k1 = " + seller + " AND ts = " + ts + " AND k2 = " + id},
		{"seller = " + seller + " AND ts >= '2024-05-02' AND ts < '2024-05-04'", "k1 = " + seller + " AND ts >= '2024-05-02' AND ts < '2024-05-04'"},
	} {
		hand, inf := explainRanges(t, e, "SELECT * FROM orders WHERE "+w[0]), explainRanges(t, e, "SELECT * FROM jorders WHERE "+w[1])
		if hand != inf || hand == "" {
			t.Errorf("WHERE %s plans %s, the hand-written orders %s", w[1], inf, hand)
		}
	}
}
