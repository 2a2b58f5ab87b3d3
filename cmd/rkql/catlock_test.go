package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// createAtOnce starts n rkql processes at once, with args, each creating
// table names[i] of catFile and inserting a row into it, then, withIndex,
// creating and building an index of it; and waits for them all. Every
// one must succeed.
func createAtOnce(t *testing.T, catFile string, names []string, withIndex bool, args ...string) {
	t.Helper()
	cmds := make([]*exec.Cmd, len(names))
	outs := make([]*bytes.Buffer, len(names))
	for i, name := range names {
		sql := []string{
			"-e", "CREATE TABLE " + name + " (k STRING, v BIGINT) ROWKEY (k)",
			"-e", fmt.Sprintf("INSERT INTO %s (k, v) VALUES ('k', %d)", name, i),
		}
		if withIndex {
			sql = append(sql, "-e", "CREATE INDEX "+name+"_by_v ON "+name+" ROWKEY (v, k)", "-e", "BUILD INDEX "+name+"_by_v ON "+name)
		}
		cmd := command(t, rkqlBin, append(append([]string{"--catalog", catFile}, args...), sql...)...)
		outs[i] = &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting process %d: %v", i, err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d (%s): %v\n%s", i, names[i], err, outs[i])
		}
	}
}

// checkCreated checks that every table of names is in catFile, with its
// index built if it has one, and reads back the row its process wrote.
func checkCreated(t *testing.T, catFile string, names []string, args ...string) {
	t.Helper()
	cat, err := catalog.LoadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	var sql []string
	for _, name := range names {
		tb, ok := cat.Table(name)
		if !ok {
			t.Errorf("table %s is not in the catalog, which holds %v", name, cat.Names())
			continue
		}
		for _, ix := range tb.Indexes {
			if ix.Unbuilt {
				t.Errorf("index %s is unbuilt after BUILD INDEX", ix.Name)
			}
		}
		sql = append(sql, "SELECT v FROM "+name+" WHERE k = 'k'")
	}
	if t.Failed() {
		return
	}
	r := rkql(t, "", append(append([]string{"--catalog", catFile, "--format", "csv"}, args...), "-e", strings.Join(sql, "; "))...)
	var want []string
	for i := range names {
		want = append(want, "v", fmt.Sprint(i))
	}
	if got := strings.Fields(r.stdout); r.code != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("reading the tables back: exit %d, stdout %q, stderr %q; want the values %v", r.code, r.stdout, r.stderr, want)
	}
}

// Eight processes started at once on one catalog and one embedded store,
// each creating a table, writing a row into it, and creating and building
// an index of it, all keep their table and index: each catalog edit reads
// the file, changes it and writes it under the lock beside the catalog,
// so none writes over another's.
func TestCatalogEditsAcrossProcesses(t *testing.T) {
	catFile := writeFile(t, "catalog.yaml", "tables: []\n")
	store := t.TempDir()
	var names []string
	for i := range 8 {
		names = append(names, fmt.Sprintf("t%d", i))
	}
	createAtOnce(t, catFile, names, true, "--store", store, "--lock-timeout", "2m", "--timeout", "2m")
	checkCreated(t, catFile, names, "--store", store)
}

// On HBase there is no store lock, and the lock beside the catalog alone
// keeps six processes' tables.
func TestClusterCatalogEditsAcrossProcesses(t *testing.T) {
	q := hbasetest.Quorum(t)
	catFile := writeFile(t, "catalog.yaml", "tables: []\n")
	conn := []string{"--zk", q, "--zk-root", hbasetest.Root()}
	var names []string
	for i := range 6 {
		names = append(names, hbasetest.TableName(fmt.Sprintf("rkql_catlock%d", i)))
	}
	t.Cleanup(func() {
		for _, name := range names {
			rkql(t, "", append([]string{"--catalog", catFile, "--allow-writes", "--yes", "-e", "DROP TABLE " + name}, conn...)...)
		}
	})
	createAtOnce(t, catFile, names, false, append([]string{"--allow-writes", "--lock-timeout", "5m", "--timeout", "5m"}, conn...)...)
	checkCreated(t, catFile, names, conn...)
}
