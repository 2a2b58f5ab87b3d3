package engine_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

const maintCatalog = `
tables:
  - name: morders
    hbase: %s
    families: [{name: d}]
    columns:
      - {name: seller, type: STRING}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP}
      - {name: amount, type: DOUBLE, column: "d:amount"}
    rowkey:
      - {hash: md5, of: [seller], width: 4}
      - {field: seller}
      - {literal: "|"}
      - {field: ts, encoding: java, order: desc}
      - {field: order_id, encoding: java}
`

const maintPreSplit = `
  - name: mpre
    hbase: %s
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {field: k}
    split: {algorithm: HexStringSplit, regions: 4}
`

// runNotes runs one statement and returns its outcome: the notes, the
// warnings and the tag, one a line, then the rows.
func runNotes(t *testing.T, e *engine.Engine, sql string) (string, error) {
	t.Helper()
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	res, err := e.Run(context.Background(), st)
	if err != nil {
		return "", err
	}
	defer res.Close()
	var b strings.Builder
	for _, n := range res.Notes {
		b.WriteString(n + "\n")
	}
	if res.Tag != "" {
		b.WriteString(res.Tag + "\n")
	}
	b.WriteString(res.Text)
	if res.Rows != nil {
		for {
			r, err := res.Rows.Next(context.Background())
			if err != nil {
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
	return b.String(), nil
}

// TestMaintenanceHBaseJava runs FLUSH, MAJOR COMPACT, SPLIT … AT, MERGE
// REGIONS and BALANCER on the local HBase, and checks each effect through
// HBase's Java client: the store files its region servers report, the
// region start keys its RegionLocator sees, the balancer's state.
func TestMaintenanceHBaseJava(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/RegionCheck.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	check := java.Start(t, "RegionCheck")
	name := hbasetest.TableName("maint_orders")
	preName := hbasetest.TableName("maint_pre")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), name) })
	src := fmt.Sprintf(maintCatalog, name) + fmt.Sprintf(maintPreSplit, preName)
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	confirm := true
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src),
		Open: func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(_ context.Context, q string) (bool, error) {
			asked = append(asked, q)
			return confirm, nil
		}})
	must := func(sql string) string {
		t.Helper()
		begin := time.Now()
		out, err := runNotes(t, e, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		t.Logf("%s: %v", sql, time.Since(begin).Round(time.Millisecond))
		return out
	}
	expect := func(sql string, want ...string) string {
		t.Helper()
		out := must(sql)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("%s does not say %q:\n%s", sql, w, out)
			}
		}
		return out
	}
	// javaSees has the Java client check until it prints want: region
	// servers report their store files every few seconds.
	javaSees := func(want string, args ...string) {
		t.Helper()
		begin := time.Now()
		defer func() { t.Logf("RegionCheck %v: %v", args[0], time.Since(begin).Round(time.Millisecond)) }()
		got := strings.TrimSpace(check.Ask(append([]string{"until", strings.ReplaceAll(want, "\n", `\n`), "90"}, args...)...))
		if got != want {
			t.Fatalf("RegionCheck %v: %q, want %q", args, got, want)
		}
	}
	insert := func(round int) {
		t.Helper()
		var rows []string
		for i := range 10 {
			rows = append(rows, fmt.Sprintf("('s%d', %d, %d, %d.5)", i, round*100+i, 1714521600000+int64(round*1000+i), i))
		}
		must("INSERT INTO morders (seller, order_id, ts, amount) VALUES " + strings.Join(rows, ", "))
	}

	must("CREATE TABLE morders")
	insert(0)
	expect("FLUSH morders", "FLUSH "+name+": done; store files 0 before, 1 after")
	javaSees("1", "storefiles", host, port, name)
	insert(1)
	expect("FLUSH morders", "store files 1 before, 2 after")
	javaSees("2", "storefiles", host, port, name)

	confirm = false
	if _, err := runNotes(t, e, "MAJOR COMPACT morders"); err == nil || !strings.Contains(err.Error(), "not confirmed") {
		t.Fatalf("MAJOR COMPACT refused at the question: %v", err)
	}
	javaSees("2", "storefiles", host, port, name)
	confirm = true
	expect("MAJOR COMPACT morders", "MAJOR COMPACT "+name+": done; store files 2 before, 1 after")
	javaSees("1", "storefiles", host, port, name)
	expect("COMPACT morders", "COMPACT "+name+": done")

	// The split key is the start of every key of seller s5, as an INSERT
	// computes it.
	sum := md5.Sum([]byte("s5"))
	split := hex.EncodeToString(sum[:])[:4] + "s5|"
	tb, _ := cat.Table("morders")
	row := tb.NewRow()
	for col, v := range map[string]catalog.Value{"seller": catalog.String("s5"), "order_id": catalog.Bigint(5), "ts": catalog.TimestampMillis(1714521600005)} {
		c, _ := tb.Column(col)
		row[c] = v
	}
	insertKey, err := tb.EncodeRowKey(row, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(insertKey), split) {
		t.Fatalf("the key of an INSERT of s5 is %q, which does not start with %q", insertKey, split)
	}
	asked = nil
	out := expect("SPLIT morders AT (seller = 's5')", "SPLIT "+name+" at '"+split+"' (seller = 's5'): done", "seller=''s5''")
	if len(asked) != 1 || !strings.Contains(asked[0], split) {
		t.Errorf("SPLIT did not show its key before applying it: asked %q", asked)
	}
	if n := strings.Count(out, name+","); n != 2 {
		t.Errorf("SPLIT lists %d regions after it, want 2:\n%s", n, out)
	}
	javaSees("-\n"+hex.EncodeToString([]byte(split)), "starts", host, port, name)
	expect("SELECT COUNT(*) FROM morders WHERE seller = 's5'", "2")
	expect("SELECT COUNT(*) FROM morders ALLOW FULL SCAN", "20")

	if _, err := runNotes(t, e, "SPLIT morders AT (ts = 5)"); err == nil || !strings.Contains(err.Error(), "seller") {
		t.Errorf("SPLIT AT a field after one missing: %v", err)
	}
	if _, err := runNotes(t, e, "SPLIT morders AT '"+split+"'"); err == nil || !strings.Contains(err.Error(), "already starts a region") {
		t.Errorf("SPLIT at a region's start: %v", err)
	}

	// Daughters of a split keep references to their parent's files, and
	// are not mergeable until compacted and the compacted files archived
	// (every few minutes): the merge is done, or refused with the hint.
	merged := false
	if out, err := runNotes(t, e, "MERGE REGIONS morders '', x'"+hex.EncodeToString([]byte(split))+"'"); err != nil && !strings.Contains(err.Error(), "MAJOR COMPACT first") {
		t.Errorf("MERGE of regions just split: %v", err)
	} else if err == nil {
		merged = strings.Contains(out, "MERGE REGIONS "+name+" '', '"+split+"': done")
		if !merged {
			t.Errorf("MERGE does not say it is done:\n%s", out)
		}
	}
	if merged {
		javaSees("-", "starts", host, port, name)
	}

	// A table split when it was created merges at once.
	must("CREATE TABLE mpre")
	pre := preName
	t.Cleanup(func() { _ = st.DropTable(context.Background(), pre) })
	javaSees("-\n"+hex.EncodeToString([]byte("40000000"))+"\n"+hex.EncodeToString([]byte("80000000"))+"\n"+hex.EncodeToString([]byte("c0000000")), "starts", host, port, pre)
	asked = nil
	out = expect("MERGE REGIONS mpre '', '40000000'", "MERGE REGIONS "+pre+" '', '40000000': done")
	if len(asked) != 1 || !strings.Contains(asked[0], "merge the regions of "+pre) {
		t.Errorf("MERGE did not ask first: %q", asked)
	}
	if n := strings.Count(out, pre+","); n != 3 {
		t.Errorf("MERGE lists %d regions after it, want 3:\n%s", n, out)
	}
	javaSees("-\n"+hex.EncodeToString([]byte("80000000"))+"\n"+hex.EncodeToString([]byte("c0000000")), "starts", host, port, pre)
	if _, err := runNotes(t, e, "MERGE REGIONS morders '', 'nowhere'"); err == nil || !strings.Contains(err.Error(), "no region of") {
		t.Errorf("MERGE of a region that does not exist: %v", err)
	}

	was := strings.TrimSpace(check.Ask("balancer", host, port))
	t.Cleanup(func() {
		sw := map[string]string{"on": "ON", "off": "OFF"}[was]
		if _, err := runNotes(t, e, "BALANCER "+sw); err != nil {
			t.Errorf("restoring the balancer: %v", err)
		}
	})
	other, sw := "off", "OFF"
	if was == "off" {
		other, sw = "on", "ON"
	}
	expect("BALANCER", "the balancer is "+was)
	expect("BALANCER "+sw, "the balancer is "+other+" (it was "+was+")")
	javaSees(other, "balancer", host, port)

	snap := name + "_snap"
	t.Cleanup(func() { _, _ = runNotes(t, e, "DROP SNAPSHOT "+snap) })
	expect("SNAPSHOT morders AS "+snap, "SNAPSHOT", "snapshot "+snap+" of "+name+" taken")
	javaSees(snap, "snapshots", host, port, name)
	expect("SHOW SNAPSHOTS", "'"+snap+"' | '"+name+"' | 'morders' | ")
	before := must("SELECT seller, order_id, amount FROM morders ALLOW FULL SCAN")
	insert(2)
	must("DELETE FROM morders WHERE seller = 's1'")
	if must("SELECT seller, order_id, amount FROM morders ALLOW FULL SCAN") == before {
		t.Fatal("the writes after the snapshot changed nothing")
	}
	asked = nil
	expect("RESTORE SNAPSHOT "+snap, "RESTORE SNAPSHOT", "HBase table "+name+" restored from snapshot "+snap)
	if len(asked) != 1 || !strings.Contains(asked[0], "restore HBase table "+name) {
		t.Errorf("RESTORE SNAPSHOT asked %q", asked)
	}
	if after := must("SELECT seller, order_id, amount FROM morders ALLOW FULL SCAN"); after != before {
		t.Errorf("after RESTORE SNAPSHOT the rows are\n%s\nwant those of the snapshot\n%s", after, before)
	}
	javaSees("20", "rows", host, port, name)
	asked = nil
	expect("DROP SNAPSHOT "+snap, "DROP SNAPSHOT")
	if len(asked) != 1 || asked[0] != "drop snapshot "+snap {
		t.Errorf("DROP SNAPSHOT asked %q", asked)
	}
	javaSees("-", "snapshots", host, port, name)
	if _, err := runNotes(t, e, "DROP SNAPSHOT "+snap); err == nil {
		t.Error("a snapshot dropped twice")
	}

	servers := strings.TrimSpace(check.Ask("servers", host, port))
	expect("SHOW CLUSTER", "; "+servers+" live region servers; ", "balancer "+other, "regions in transition: ")
}

// TestMaintenanceReadOnly: the maintenance verbs that change the cluster
// need --allow-writes; BALANCER alone only reads.
func TestMaintenanceReadOnly(t *testing.T) {
	src := fmt.Sprintf(maintCatalog, "morders")
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src), ReadOnly: true, ReadOnlyHint: "writes need --allow-writes",
		Open: func(context.Context) (exec.Store, error) { return nil, fmt.Errorf("no store in this test") }})
	for _, sql := range []string{"FLUSH morders", "COMPACT morders", "MAJOR COMPACT morders", "SPLIT morders AT x'10'", "MERGE REGIONS morders '', x'10'", "BALANCER OFF", "SNAPSHOT morders AS s1", "DROP SNAPSHOT s1", "RESTORE SNAPSHOT s1", "CLONE SNAPSHOT s1 AS m2"} {
		if _, err := runNotes(t, e, sql); err == nil || !strings.Contains(err.Error(), "--allow-writes") {
			t.Errorf("%s in a read-only session: %v", sql, err)
		}
	}
	// The reads of the cluster are not refused: they reach the store.
	for _, sql := range []string{"CHECK CLUSTER", "CHECK META morders", "SHOW CLUSTER"} {
		if _, err := runNotes(t, e, sql); err == nil || !strings.Contains(err.Error(), "no store in this test") {
			t.Errorf("%s in a read-only session: %v, want it to open the store", sql, err)
		}
	}
}

// TestCloneSnapshotHBase: a snapshot cloned and restored gives the same
// rows, through rkql and through the Java client, and the clone is a
// catalog table at once.
func TestCloneSnapshotHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/RegionCheck.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	check := java.Start(t, "RegionCheck")
	name := hbasetest.TableName("clone_check_orders")
	clone := name + "_c2"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), name) })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), clone) })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), name+"_ix") })
	src := fmt.Sprintf(maintCatalog, name) + "    indexes:\n      - {name: by_amount, hbase: " + name + "_ix, rowkey: [{field: amount}], carries: [seller, ts, order_id]}\n"
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src), CatalogFile: file,
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil }})
	must := func(sql string) string {
		t.Helper()
		out, err := runNotes(t, e, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	var rows []string
	for i := range 10 {
		rows = append(rows, fmt.Sprintf("('s%d', %d, %d, %d.5)", i, i, 1714521600000+int64(i), i))
	}
	must("CREATE TABLE morders")
	must("INSERT INTO morders (seller, order_id, ts, amount) VALUES " + strings.Join(rows, ", "))
	snap := name + "_snap"
	t.Cleanup(func() { _, _ = runNotes(t, e, "DROP SNAPSHOT "+snap) })
	must("SNAPSHOT morders AS " + snap)
	const sel = "SELECT seller, order_id, ts, amount FROM %s ALLOW FULL SCAN"
	before := must(fmt.Sprintf(sel, "morders"))

	out := must(fmt.Sprintf("CLONE SNAPSHOT %s AS morders2 HBASE '%s'", snap, clone))
	for _, w := range []string{"HBase table " + clone + " cloned from snapshot " + snap, "catalog table morders2 describes it", "without the indexes of morders (by_amount)"} {
		if !strings.Contains(out, w) {
			t.Errorf("CLONE SNAPSHOT does not say %q:\n%s", w, out)
		}
	}
	if got := must(fmt.Sprintf(sel, "morders2")); got != before {
		t.Errorf("the clone's rows are\n%s\nwant the original's\n%s", got, before)
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := catalog.Parse(saved); err != nil {
		t.Fatal(err)
	} else if t2, ok := c.Table("morders2"); !ok || t2.Physical != clone || len(t2.Indexes) != 0 {
		t.Errorf("the saved catalog's morders2: %v %+v", ok, t2)
	}
	orig := strings.TrimSpace(check.Ask("cells", host, port, name))
	if got := strings.TrimSpace(check.Ask("cells", host, port, clone)); got != orig || orig == "-" {
		t.Errorf("the Java client reads the clone as\n%s\nand the original as\n%s", got, orig)
	}

	for _, c := range []struct{ sql, want string }{
		{"CLONE SNAPSHOT " + name + "_nope AS m3", "there is no snapshot"},
		{"CLONE SNAPSHOT " + snap + " AS morders2", "in the catalog already"},
		{fmt.Sprintf("CLONE SNAPSHOT %s AS m3 HBASE '%s'", snap, clone), "both use HBase table"},
	} {
		_, err := runNotes(t, e, c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", c.sql, err, c.want)
		}
	}

	must("DELETE FROM morders WHERE seller = 's1'")
	must("INSERT INTO morders (seller, order_id, ts, amount) VALUES ('s99', 99, 1714521600099, 99.5)")
	if must(fmt.Sprintf(sel, "morders")) == before {
		t.Fatal("the writes after the snapshot changed nothing")
	}
	must("RESTORE SNAPSHOT " + snap)
	if got := must(fmt.Sprintf(sel, "morders")); got != before {
		t.Errorf("after RESTORE SNAPSHOT the rows are\n%s\nwant the snapshot's\n%s", got, before)
	}
	if got := must(fmt.Sprintf(sel, "morders2")); got != before {
		t.Errorf("after RESTORE SNAPSHOT the clone's rows are\n%s\nwant the snapshot's\n%s", got, before)
	}
	if got := strings.TrimSpace(check.Ask("cells", host, port, name)); got != orig {
		t.Errorf("after RESTORE SNAPSHOT the Java client reads\n%s\nwant\n%s", got, orig)
	}
}
