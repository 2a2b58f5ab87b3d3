package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestInferTableSave: rows of device_metrics written into the embedded
// store are inferred through the statement, saved, and then planned and
// read over the saved entry as over the hand-written one. The copy's
// keys name rows of device_metrics, so its columns take their names.
func TestInferTableSave(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := ddlEngine(t, dir, examples.CatalogYAML)
	dm, _ := e.Catalog().Table("device_metrics")
	rows := examples.Rows(dm, 3000, 1)
	if err := e.Write(ctx, dm, nil, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	// The same rows in a table no catalog entry describes, written as
	// a Java application would (the hand-written entry's encoders).
	st, err := e.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(ctx, exec.TableSpec{Name: "ns:devices", Families: []exec.FamilySpec{{Name: "meta"}, {Name: "metrics"}},
		Splits: dm.SplitKeys()}); err != nil {
		t.Fatal(err)
	}
	var muts []exec.Mutation
	for _, r := range rows {
		key, err := dm.EncodeRowKey(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := exec.Mutation{Key: key}
		for i, c := range dm.Columns {
			if c.Family != "" && !r[i].Null {
				m.Cells = append(m.Cells, exec.Cell{Family: c.Family, Qualifier: c.Qualifier, Value: c.EncodeCell(r[i])})
			}
		}
		muts = append(muts, m)
	}
	if err := st.Mutate(ctx, "ns:devices", muts); err != nil {
		t.Fatal(err)
	}
	if out := runText(t, e, "INFER TABLE 'user_ts' SAVE;"); !strings.Contains(out, "already describes HBase table user_ts as device_metrics") {
		t.Errorf("SAVE of a table the catalog describes: %s", out)
	}
	out := runText(t, e, "INFER TABLE 'ns:devices' SAMPLE 400 AS dm2;")
	t.Logf("%s", out)
	for _, want := range []string{"{hash: md5, of: [device_id], width: 2}", "an index-like table of device_metrics", "verified", "{field: ts, encoding: java, order: desc}", "- name: dm2", "hbase: 'ns:devices'", "sampled from 16 regions"} {
		if !strings.Contains(out, want) {
			t.Errorf("INFER TABLE does not say %q:\n%s", want, out)
		}
	}
	if _, ok := e.Catalog().Table("dm2"); ok {
		t.Fatal("INFER TABLE without SAVE changed the catalog")
	}
	if out := runText(t, e, "INFER TABLE 'ns:devices' SAMPLE 400 AS dm2 SAVE;"); !strings.Contains(out, "# saved to") {
		t.Fatalf("SAVE did not save:\n%s", out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "- name: dm2") || !strings.Contains(string(src), "- name: device_metrics") {
		t.Fatalf("the catalog file does not hold both tables:\n%s", src)
	}
	r := rows[7]
	dev, ts := r[0].String(), r[1].String()
	plans := []struct{ hand, inferred string }{
		{"device_id = " + dev + " AND ts = " + ts, "device_id = " + dev + " AND ts = " + ts},
		{"device_id = " + dev + " AND ts >= '2024-05-02' AND ts < '2024-05-04'", "device_id = " + dev + " AND ts >= '2024-05-02' AND ts < '2024-05-04'"},
	}
	for _, p := range plans {
		want := explainRanges(t, e, "SELECT * FROM device_metrics WHERE "+p.hand)
		got := explainRanges(t, e, "SELECT * FROM dm2 WHERE "+p.inferred)
		if want != got || want == "" {
			t.Errorf("WHERE %s plans %s over the saved entry, %s over the hand-written one", p.inferred, got, want)
		}
		hand := runText(t, e, "SELECT device_id, ts, model, firmware, temperature, humidity FROM device_metrics WHERE "+p.hand+";")
		inf := runText(t, e, "SELECT device_id, ts, model, firmware, temperature, humidity FROM dm2 WHERE "+p.inferred+";")
		if hand != inf || !strings.Contains(hand, dev[1:len(dev)-1]) {
			t.Errorf("WHERE %s reads\n%s\nover the saved entry, and\n%s\nover the hand-written one", p.inferred, inf, hand)
		}
	}
	if out := runText(t, e, "EXPLAIN SELECT * FROM dm2 WHERE "+plans[0].inferred+";"); !strings.Contains(out, "POINT LOOKUP") {
		t.Errorf("EXPLAIN over the saved entry:\n%s", out)
	}
	if out := runText(t, e, "INFER TABLE 'ns:devices' AS dm2 SAVE;"); !strings.Contains(out, "already describes HBase table ns:devices as dm2") {
		t.Errorf("a second SAVE under the same name: %s", out)
	}
}

// explainRanges plans text and renders the key ranges of its accesses.
func explainRanges(t *testing.T, e *engine.Engine, text string) string {
	t.Helper()
	st, err := parser.ParseOne(text)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Plan(context.Background(), st)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	var b strings.Builder
	for _, a := range p.(*planner.Select).Accesses() {
		for _, r := range a.Ranges {
			fmt.Fprintf(&b, "[%s %s %t]", catalog.ToStringBinary(r.Start), catalog.ToStringBinary(r.Stop), r.Point)
		}
	}
	return b.String()
}

// TestInferTableNoLayout: a table of random bytes that no catalog entry
// describes gets no layout, and the raw entry.
func TestInferTableNoLayout(t *testing.T) {
	ctx := context.Background()
	e := ddlEngine(t, t.TempDir(), examples.CatalogYAML)
	st, err := e.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(ctx, exec.TableSpec{Name: "ns:noise", Families: []exec.FamilySpec{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var muts []exec.Mutation
	for range 300 {
		key := make([]byte, 3+r.IntN(30))
		val := make([]byte, r.IntN(9))
		for i := range key {
			key[i] = byte(r.Uint32())
		}
		for i := range val {
			val[i] = byte(r.Uint32())
		}
		muts = append(muts, exec.Mutation{Key: key, Cells: []exec.Cell{{Family: "f", Qualifier: "q", Value: val}}})
	}
	if err := st.Mutate(ctx, "ns:noise", muts); err != nil {
		t.Fatal(err)
	}
	out := runText(t, e, "INFER TABLE 'ns:noise';")
	for _, want := range []string{"no layout found", "- {field: key}", "{name: key, type: BYTES}", "{name: q, type: BYTES, column: 'f:q'}"} {
		if !strings.Contains(out, want) {
			t.Errorf("INFER TABLE does not say %q:\n%s", want, out)
		}
	}
	if out := runText(t, e, "INFER TABLE 'ns:absent';"); !strings.Contains(out, `the store has no table "ns:absent"`) {
		t.Errorf("INFER of a missing table: %s", out)
	}
}
