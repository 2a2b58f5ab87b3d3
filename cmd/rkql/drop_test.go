package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// dropSetup creates table name with two indexes, name_a and name_b, and
// writes a row, through sh.
func dropSetup(t *testing.T, sh func(args ...string) result, name string) {
	t.Helper()
	r := sh("-e", "CREATE TABLE "+name+" (k STRING, a BIGINT, b STRING) ROWKEY (k)",
		"-e", "CREATE INDEX "+name+"_a ON "+name+" ROWKEY (a, k)",
		"-e", "CREATE INDEX "+name+"_b ON "+name+" ROWKEY (b) UNIQUE",
		"-e", "INSERT INTO "+name+" (k, a, b) VALUES ('k1', 1, 'one')")
	if r.code != 0 {
		t.Fatalf("setting up %s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
	}
}

// In a script, DROP TABLE without --yes fails and changes nothing: the
// catalog keeps the table and the store its rows. With --yes it drops the
// table and the tables of both its indexes.
func TestDropTableScript(t *testing.T) {
	catFile := writeFile(t, "catalog.yaml", "tables: []\n")
	store := t.TempDir()
	sh := func(args ...string) result {
		return rkql(t, "", append([]string{"--catalog", catFile, "--store", store}, args...)...)
	}
	dropSetup(t, sh, "x")
	before, err := os.ReadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	stored := "table x: 1 row readable\ntable x_a: 1 row readable\ntable x_b: 1 row readable\n"
	if r := sh("store", "check"); r.code != 0 || !strings.HasPrefix(r.stdout, stored) {
		t.Fatalf("store check: exit %d, stdout %q", r.code, r.stdout)
	}

	r := sh("-e", "DROP TABLE x")
	if want := "rkql: DROP TABLE x not confirmed: nothing was dropped (in a script, --yes confirms)\n"; r.code != 1 || r.stdout != "" || r.stderr != want {
		t.Errorf("DROP TABLE x without --yes: exit %d, stdout %q, stderr %q; want exit 1 and %q", r.code, r.stdout, r.stderr, want)
	}
	after, err := os.ReadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the catalog changed though the drop was refused:\n%s", after)
	}
	if r := sh("store", "check"); r.code != 0 || !strings.HasPrefix(r.stdout, stored) {
		t.Errorf("store check after the refused drop: exit %d, stdout %q", r.code, r.stdout)
	}

	r = sh("--yes", "-e", "DROP TABLE x")
	if r.code != 0 || r.stdout != "DROP TABLE\n" || r.stderr != "rkql: warning: dropped HBase table x, x_a, x_b\n" {
		t.Errorf("DROP TABLE x --yes: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := sh("store", "check"); r.code != 0 || strings.Contains(r.stdout, "table x") {
		t.Errorf("store check after DROP TABLE x --yes: exit %d, stdout %q", r.code, r.stdout)
	}
}

// On HBase, DROP TABLE --yes drops the table and both its index tables;
// without --yes it fails and keeps all three. A DROP TABLE without
// --allow-writes removes the catalog entry only, and then each HBase table
// it kept is dropped by its own name.
func TestClusterDropTable(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := hbase.NewClient(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	catFile := writeFile(t, "catalog.yaml", "tables: []\n")
	sh := func(args ...string) result {
		return rkql(t, "", append([]string{"--catalog", catFile, "--zk", q, "--zk-root", hbasetest.Root()}, args...)...)
	}
	name := hbasetest.TableName("rkql_drop")
	all := []string{name, name + "_a", name + "_b"}
	t.Cleanup(func() {
		for _, n := range all {
			sh("--allow-writes", "--yes", "-e", "DROP TABLE "+n)
		}
	})
	have := func() []string {
		t.Helper()
		names, err := c.Admin().ListTables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, name) })
	}

	for round := range 2 {
		dropSetup(t, func(args ...string) result { return sh(append([]string{"--allow-writes"}, args...)...) }, name)
		if got := have(); !slices.Equal(got, all) {
			t.Fatalf("round %d: HBase holds %v, want %v", round, got, all)
		}
		r := sh("--allow-writes", "-e", "DROP TABLE "+name)
		if r.code != 1 || !strings.Contains(r.stderr, "not confirmed: nothing was dropped") {
			t.Errorf("round %d: DROP TABLE without --yes: exit %d, stderr %q", round, r.code, r.stderr)
		}
		if got := have(); !slices.Equal(got, all) {
			t.Errorf("round %d: after the refused drop HBase holds %v", round, got)
		}
		if round == 0 {
			r = sh("--allow-writes", "--yes", "-e", "DROP TABLE "+name)
			if r.code != 0 || !strings.Contains(r.stderr, "dropped HBase table "+strings.Join(all, ", ")) {
				t.Errorf("DROP TABLE --yes: exit %d, stderr %q", r.code, r.stderr)
			}
			if got := have(); len(got) != 0 {
				t.Errorf("after DROP TABLE --yes HBase still holds %v", got)
			}
			continue
		}
		r = sh("-e", "DROP TABLE "+name)
		if r.code != 0 || !strings.Contains(r.stderr, "kept: dropping them needs --allow-writes") {
			t.Fatalf("read-only DROP TABLE: exit %d, stderr %q", r.code, r.stderr)
		}
		for _, n := range all {
			r := sh("--allow-writes", "--yes", "-e", "DROP TABLE "+n)
			if r.code != 0 || !strings.Contains(r.stderr, "dropped HBase table "+n+", which no table of the catalog described") {
				t.Errorf("DROP TABLE %s by its HBase name: exit %d, stderr %q", n, r.code, r.stderr)
			}
		}
		if got := have(); len(got) != 0 {
			t.Errorf("after dropping each by name HBase still holds %v", got)
		}
	}
}
