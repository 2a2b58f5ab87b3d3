package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// The shell's tests load their rows with engine.Import, which has its own
// tests in the engine; these are the tables and rows they load.

// importCatalog has t (no indexes) and u, whose index on e leaves out u's
// key, so that two rows may not share an e.
func importCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse([]byte(`
tables:
  - name: t
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {field: k}
  - name: u
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: e, type: STRING, column: "d:e"}
    rowkey:
      - {field: k}
    indexes:
      - name: u_by_e
        rowkey:
          - {field: e}
        carries: [k]
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// importSession is a session over an empty embedded store and
// importCatalog.
func importSession(t *testing.T) *Session {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(Config{Catalog: importCatalog(t), CreateOnDemand: true,
		Open: engine.Opened(st)})
}

// jsonLines is n rows of t as JSON lines.
func jsonLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"k\":\"k%06d\",\"v\":\"x\"}\n", i)
	}
	return b.String()
}

func mustParse(t *testing.T, q string) parser.Stmt {
	t.Helper()
	sts, err := parser.Parse(q)
	if err != nil || len(sts) != 1 {
		t.Fatalf("parse %q: %v", q, err)
	}
	return sts[0]
}

func logsCatalog(b *testing.B) (*catalog.Catalog, *catalog.Table) {
	b.Helper()
	cat, err := catalog.LoadFile("../../../examples/catalog.yaml")
	if err != nil {
		b.Fatal(err)
	}
	t, _ := cat.Table("logs")
	return cat, t
}
