package engine_test

import (
	"strings"
	"testing"
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
