package engine_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
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

// runRows runs one statement and returns its rows, each cell as text,
// and the error that ended them (nil at their end).
func runRows(t *testing.T, e *engine.Engine, sql string) ([][]string, error) {
	t.Helper()
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	res, err := e.Run(context.Background(), st)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var rows [][]string
	for res.Rows != nil {
		r, err := res.Rows.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rows, err
		}
		var cells []string
		for _, v := range r {
			cells = append(cells, v.Text())
		}
		rows = append(rows, cells)
	}
	return rows, nil
}

// TestCheckClusterHBase: CHECK CLUSTER finds nothing wrong with a
// pre-split table that holds rows; once the master closes a middle
// region (through HBase's Java client) it reports that region as not
// deployed and fails; once the region is assigned again it is healthy.
func TestCheckClusterHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/RegionCheck.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	check := java.Start(t, "RegionCheck")
	name := hbasetest.TableName("check_cluster")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), name) })
	src := "tables:" + fmt.Sprintf(maintPreSplit, name) + "    indexes:\n      - {name: mpre_by_v, hbase: " + name + "_ix, rowkey: [{field: v}], carries: [k]}\n"
	t.Cleanup(func() { _ = st.DropTable(context.Background(), name+"_ix") })
	// A catalog table whose HBase table was never created.
	src += fmt.Sprintf("  - {name: mnone, hbase: %s_none, columns: [{name: k, type: STRING}], rowkey: [{field: k}]}\n", name)
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// Read-only: CHECK CLUSTER writes nothing.
	ro := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src), ReadOnly: true, ReadOnlyHint: "start with --allow-writes",
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	rw := engine.New(engine.Config{Catalog: cat, CatalogSource: []byte(src),
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil }})
	for _, sql := range []string{
		"CREATE TABLE mpre",
		"INSERT INTO mpre (k, v) VALUES ('10', 'a'), ('50', 'b'), ('90', 'c'), ('d0', 'd'), ('ff', 'e')",
	} {
		if _, err := runNotes(t, rw, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	regions, err := runRows(t, ro, "SHOW REGIONS mpre")
	if err != nil || len(regions) != 4 {
		t.Fatalf("SHOW REGIONS mpre: %v %v, want 4 regions", regions, err)
	}
	const (
		colTable, colRegion, colStart, colEnd, colProblem, colDetail = 0, 2, 3, 4, 5, 6
	)
	okRow := func(r []string, table, catalogName, detail string) bool {
		return r[colTable] == table && r[1] == catalogName && r[colRegion] == "" && r[colProblem] == "OK" && r[colDetail] == detail
	}
	const (
		four = "4 regions tile the table, each open on a live region server"
		one  = "1 region covers the table, open on a live region server"
	)
	// CHECK CLUSTER mpre: its HBase table, then its index's.
	healthy := func(rows [][]string) bool {
		return len(rows) == 2 && okRow(rows[0], name, "mpre", four) && okRow(rows[1], name+"_ix", "mpre_by_v", one)
	}
	for _, sql := range []string{"CHECK CLUSTER mpre", "CHECK META mpre"} {
		rows, err := runRows(t, ro, sql)
		if err != nil || !healthy(rows) {
			t.Fatalf("%s of a healthy table: %v, %v; want an OK row of 4 regions, then one of 1 for the index", sql, rows, err)
		}
	}
	// An HBase table by its own name.
	if rows, err := runRows(t, ro, "CHECK CLUSTER "+parser.QuoteIdent(name)); err != nil || len(rows) != 1 || !okRow(rows[0], name, "mpre", four) {
		t.Fatalf("CHECK CLUSTER %s: %v, %v; want one OK row of 4 regions", name, rows, err)
	}
	// Every table: ours among them, healthy.
	all, err := runRows(t, ro, "CHECK CLUSTER")
	var ours [][]string
	for _, r := range all {
		if r[colTable] == name || r[colTable] == name+"_ix" {
			ours = append(ours, r)
		}
	}
	if !healthy(ours) {
		t.Fatalf("CHECK CLUSTER (%v) reports %s as %v", err, name, ours)
	}

	// Close the second region, as an operator's unassign does.
	victim, start, end := regions[1][0], regions[1][1], regions[1][2]
	hexName := hex.EncodeToString([]byte(victim))
	if got := strings.TrimSpace(check.Ask("unassign", host, port, hexName)); got != "ok" {
		t.Fatalf("unassign %s: %q", victim, got)
	}
	reassigned := false
	t.Cleanup(func() {
		if !reassigned {
			check.Ask("assign", host, port, hexName)
		}
	})
	if got := strings.TrimSpace(check.Ask("until", "CLOSED", "90", "metastate", host, port, hexName)); got != "CLOSED" {
		t.Fatalf("after unassign, hbase:meta has region %s %q, want CLOSED", victim, got)
	}
	// The master may still have it in transition, closed in meta.
	rows, err := runRows(t, ro, "CHECK CLUSTER mpre")
	t.Logf("CHECK CLUSTER mpre of a closed region: %v, %v", rows, err)
	var fe *engine.RegionFaultError
	if len(rows) != 2 || !okRow(rows[1], name+"_ix", "mpre_by_v", one) || rows[0][colRegion] != victim || (rows[0][colProblem] != "not deployed" && rows[0][colProblem] != "in transition") ||
		rows[0][colStart] != start || rows[0][colEnd] != end || !strings.Contains(rows[0][colDetail], "its state in hbase:meta is CLOSED") {
		t.Fatalf("CHECK CLUSTER of a closed region: %v\nwant a row %s [%s, %s) not deployed, state CLOSED, then the index's OK row", rows, victim, start, end)
	}
	if !errors.As(err, &fe) || fe.Problems != 1 || !strings.Contains(err.Error(), name+" ("+rows[0][colProblem]+")") || strings.Contains(err.Error(), "\n") {
		t.Errorf("CHECK CLUSTER of a closed region fails with %v, want one line naming %s (%s)", err, name, rows[0][colProblem])
	}
	// The other tables are checked as before, ours with its fault.
	all, _ = runRows(t, ro, "CHECK CLUSTER")
	if !slices.ContainsFunc(all, func(r []string) bool { return r[colTable] == name && r[colRegion] == victim }) {
		t.Errorf("CHECK CLUSTER of every table does not report %s:\n%v", victim, all)
	}

	if got := strings.TrimSpace(check.Ask("assign", host, port, hexName)); got != "ok" {
		t.Fatalf("assign %s: %q", victim, got)
	}
	reassigned = true
	if got := strings.TrimSpace(check.Ask("until", "OPEN", "90", "metastate", host, port, hexName)); got != "OPEN" {
		t.Fatalf("after assign, hbase:meta has region %s %q, want OPEN", victim, got)
	}
	// The master may hold the region in transition a moment longer.
	deadline := time.Now().Add(60 * time.Second)
	for {
		rows, err := runRows(t, ro, "CHECK CLUSTER mpre")
		if err == nil && healthy(rows) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the region opened again CHECK CLUSTER says %v, %v", rows, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got, err := runRows(t, ro, "SELECT k, v FROM mpre ALLOW FULL SCAN"); err != nil || len(got) != 5 {
		t.Errorf("the rows after the region opened again: %v %v, want 5", got, err)
	}

	rows, err = runRows(t, ro, "CHECK CLUSTER mnone")
	if len(rows) != 1 || rows[0][colProblem] != "no table" || !strings.Contains(rows[0][colDetail], name+"_none does not exist") || !errors.As(err, &fe) {
		t.Errorf("CHECK CLUSTER of a table never created: %v, %v; want a no table row, then a RegionFaultError", rows, err)
	}
	// A name neither the catalog nor HBase knows.
	if _, err := runRows(t, ro, "CHECK CLUSTER "+name+"_nope"); err == nil || !strings.Contains(err.Error(), "no table "+name+"_nope") || strings.Contains(err.Error(), "\n") {
		t.Errorf("CHECK CLUSTER of no table: %v, want one line", err)
	}
}
