package engine_test

import (
	"context"
	"errors"
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
)

// TestNamespacesHBaseJava creates a namespace on the local HBase, a table
// in it, writes and reads the table, checks that the namespace is not
// dropped while it holds the table, then drops both; HBase's Java client
// checks each step (Admin.listNamespaceDescriptors and the table's cells).
func TestNamespacesHBaseJava(t *testing.T) {
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/NamespaceCheck.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	check := java.Start(t, "NamespaceCheck")
	javaSays := func(want string, args ...string) {
		t.Helper()
		if got := strings.TrimSpace(check.Ask(append([]string{args[0], host, port}, args[1:]...)...)); got != want {
			t.Fatalf("NamespaceCheck %v: %q, want %q", args, got, want)
		}
	}
	ns := hbasetest.TableName("rkql_ns")
	physical := ns + ":items"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// Cleanups run last first: the table goes before its namespace.
	t.Cleanup(func() { _ = st.DropNamespace(context.Background(), ns) })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), physical) })
	t.Cleanup(func() { _ = st.DropTable(context.Background(), ns+":other") })

	file := filepath.Join(t.TempDir(), "catalog.yaml")
	src := []byte("tables: []\n")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	open := func(context.Context) (exec.Store, error) { return st, nil }
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: src, CatalogFile: file, Open: open,
		Confirm: func(context.Context, string) (bool, error) { return true, nil }})
	must := func(sql string, want ...string) string {
		t.Helper()
		begin := time.Now()
		out, err := runNotes(t, e, sql)
		t.Logf("%s: %v", sql, time.Since(begin).Round(time.Millisecond))
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("%s does not say %q:\n%s", sql, w, out)
			}
		}
		return out
	}
	refused := func(sql string, want ...string) {
		t.Helper()
		begin := time.Now()
		_, err := runNotes(t, e, sql)
		t.Logf("%s: %v", sql, time.Since(begin).Round(time.Millisecond))
		if err == nil {
			t.Fatalf("%s was not refused", sql)
		}
		for _, w := range append(want, "") {
			if !strings.Contains(err.Error(), w) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: %v, want one line saying %q", sql, err, w)
			}
		}
	}
	create := "CREATE TABLE items (k STRING, v STRING AS 'd:v') ROWKEY (k) HBASE '" + physical + "'"

	// A read-only session lists namespaces and changes none.
	ro := engine.New(engine.Config{Catalog: cat, CatalogSource: src, Open: open, ReadOnly: true})
	if _, err := runNotes(t, ro, "CREATE NAMESPACE "+ns); !errors.Is(err, engine.ErrReadOnly) {
		t.Errorf("CREATE NAMESPACE in a read-only session: %v", err)
	}
	if out, err := runNotes(t, ro, "SHOW NAMESPACES"); err != nil || !strings.Contains(out, "'default' | ") || !strings.Contains(out, "'hbase' | ") {
		t.Errorf("SHOW NAMESPACES in a read-only session: %v\n%s", err, out)
	}
	javaSays("absent", "namespace", ns)

	refused(create, "namespace "+ns+" does not exist", "CREATE NAMESPACE "+ns)
	if _, err := runNotes(t, e, create); !errors.Is(err, exec.ErrNamespaceNotFound) {
		t.Errorf("CREATE TABLE in a namespace that does not exist: %v, want it to match exec.ErrNamespaceNotFound", err)
	}
	if out := must("SHOW CATALOG"); strings.Contains(out, "items") {
		t.Fatalf("a CREATE TABLE that failed left the table in the catalog:\n%s", out)
	}
	must("CREATE NAMESPACE "+ns, "CREATE NAMESPACE")
	javaSays("tables:", "namespace", ns)
	refused("CREATE NAMESPACE "+ns, "already exists")
	must("SHOW NAMESPACES", "'"+ns+"' | 0\n")

	must(create, "CREATE TABLE")
	javaSays("tables:"+physical, "namespace", ns)
	must("INSERT INTO items (k, v) VALUES ('a', 'one'), ('b', 'two')")
	must("SELECT k, v FROM items ALLOW FULL SCAN", "'a' | 'one'\n'b' | 'two'\n")
	javaSays("a d:v=one\nb d:v=two", "rows", physical)
	must("SHOW NAMESPACES", "'"+ns+"' | 1\n")

	refused("DROP NAMESPACE "+ns, "refused", "holds 1 table", physical)
	javaSays("tables:"+physical, "namespace", ns)

	must("DROP TABLE items", "DROP TABLE")
	javaSays("tables:", "namespace", ns)
	// A catalog table whose HBase table is gone does not keep the
	// namespace, but the drop warns of it.
	must("CREATE TABLE other (k STRING) ROWKEY (k) HBASE '"+ns+":other'", "CREATE TABLE")
	if err := st.DropTable(ctx, ns+":other"); err != nil {
		t.Fatal(err)
	}
	must("DROP NAMESPACE "+ns, "DROP NAMESPACE", "warning: the catalog still places other in namespace "+ns)
	javaSays("absent", "namespace", ns)
	if out := must("SHOW NAMESPACES"); strings.Contains(out, ns) {
		t.Errorf("SHOW NAMESPACES lists the dropped namespace:\n%s", out)
	}
	refused("DROP NAMESPACE "+ns, "does not exist")
	refused("DROP NAMESPACE hbase", "HBase's own")
	refused("CREATE NAMESPACE \"no-dash\"", "letters, digits and _")
}
