package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
)

// TestNamespacesEmbedded: the embedded store has no namespaces, and
// refuses the namespace statements in one line; the planner's checks of a
// name come first.
func TestNamespacesEmbedded(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), []byte("tables: []\n"))
	for _, c := range []struct{ sql, want string }{
		{"CREATE NAMESPACE sales", "CREATE NAMESPACE needs an HBase cluster"},
		{"DROP NAMESPACE sales", "DROP NAMESPACE needs an HBase cluster"},
		{"SHOW NAMESPACES", "SHOW NAMESPACES needs an HBase cluster"},
		{"DROP NAMESPACE default", "HBase's own"},
		{`CREATE NAMESPACE "a:b"`, "letters, digits and _"},
	} {
		_, err := runNotes(t, e, c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", c.sql, err, c.want)
		}
	}
}

// TestNamespacesReadOnly: CREATE NAMESPACE and DROP NAMESPACE change the
// cluster and need --allow-writes, refused before the store is opened;
// SHOW NAMESPACES only reads.
func TestNamespacesReadOnly(t *testing.T) {
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	noStore := errors.New("no store in this test")
	e := engine.New(engine.Config{Catalog: cat, ReadOnly: true, ReadOnlyHint: "writes need --allow-writes",
		Open: func(context.Context) (exec.Store, error) { return nil, noStore }})
	for _, sql := range []string{"CREATE NAMESPACE sales", "DROP NAMESPACE sales"} {
		if _, err := runNotes(t, e, sql); !errors.Is(err, engine.ErrReadOnly) || !strings.Contains(err.Error(), "--allow-writes") {
			t.Errorf("%s in a read-only session: %v", sql, err)
		}
	}
	if _, err := runNotes(t, e, "SHOW NAMESPACES"); !errors.Is(err, noStore) {
		t.Errorf("SHOW NAMESPACES in a read-only session: %v, want it to open the store", err)
	}
}
