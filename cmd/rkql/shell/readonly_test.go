package shell

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/embedded"
)

// TestReadOnly checks that a read-only session refuses every statement
// that writes or changes a table before it opens the store, and still
// runs statements that need no store. EXPLAIN reads the store (its
// pushdown and its regions decide the plan and its cost), so it is
// allowed to open it.
func TestReadOnly(t *testing.T) {
	cat, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	s := New(Config{
		Catalog: cat, ReadOnly: true, ReadOnlyHint: "start with --allow-writes",
		Open: engine.OpenWith(func(context.Context) (*embedded.Store, error) {
			opened++
			return nil, errors.New("no store here")
		}),
	})
	cases := []struct{ stmt, want string }{
		{"CREATE TABLE orders;", "rkql: CREATE TABLE refused: start with --allow-writes\n"},
		{"INSERT INTO sites (domain) VALUES ('a.com');", "rkql: INSERT refused: start with --allow-writes\n"},
		{"DELETE FROM sites WHERE domain = 'a.com';", "rkql: DELETE refused: start with --allow-writes\n"},
		{"BUILD INDEX sites_by_owner ON sites;", "rkql: BUILD INDEX refused: start with --allow-writes\n"},
		{"CHECK INDEX sites_by_owner REPAIR;", "rkql: CHECK INDEX … REPAIR refused: start with --allow-writes\n"},
		{"DESCRIBE sites;", ""},
		{"EXPLAIN SELECT * FROM sites WHERE domain = 'a.com';", "rkql: no store here\n"},
	}
	for _, c := range cases {
		t.Run(c.stmt, func(t *testing.T) {
			var out, errb bytes.Buffer
			_ = s.Run(context.Background(), NewReaderIO(strings.NewReader(c.stmt), &out, &errb, false))
			if errb.String() != c.want {
				t.Errorf("stderr %q, want %q", errb.String(), c.want)
			}
		})
	}
	_, err = s.Engine().Import(context.Background(), strings.NewReader(`{"domain": "a.com"}`), engine.ImportOptions{Table: "sites", Name: "x.jsonl"})
	if !errors.Is(err, ErrReadOnly) || err.Error() != "import refused: start with --allow-writes" {
		t.Errorf("import: %v", err)
	}
	if opened != 1 {
		t.Errorf("the store was opened %d times, want once (by EXPLAIN)", opened)
	}
}
