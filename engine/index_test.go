package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/parser"
)

// A row whose key, or whose index entry's key, would be empty is refused
// with the other layout checks, at the row's position, before anything is
// written: no index entry is left without its row.
func TestEmptyRowKeyRefused(t *testing.T) {
	e := ddlEngine(t, t.TempDir(), examples.CatalogYAML)
	ctx := context.Background()
	_, _, err := e.Exec(ctx, "INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'ann', 1), ('', 'ann', 2)")
	var pe *parser.Error
	if !errors.As(err, &pe) || pe.Pos != 71 || !strings.Contains(pe.Msg, "the row key of table sites would be empty (domain = ''): HBase keeps no row under an empty key") {
		t.Fatalf("INSERT of an empty key: %v, want it at offset 71", err)
	}
	// Written as rkql import and the loader write, past the planner.
	sites, _ := e.Catalog().Table("sites")
	row := sites.NewRow()
	row[0], row[1], row[2] = catalog.String(""), catalog.String("bob"), catalog.Bigint(3)
	if err := e.Write(ctx, sites, nil, []catalog.Row{row}, 0, nil); err == nil || !strings.Contains(err.Error(), "would be empty") {
		t.Fatalf("Write of an empty key: %v", err)
	}
	if got := runText(t, e, "SELECT owner, domain FROM sites_by_owner WHERE owner IN ('ann', 'bob'); CHECK INDEX sites_by_owner"); got != "0 | 0 | 0 | 0 | 0 | 0 | 0\n" {
		t.Fatalf("after the refused writes:\n%s", got)
	}

	// An entry key of nothing but an empty field.
	got := runText(t, e, `CREATE TABLE u (id STRING, e STRING) ROWKEY (id) FAMILIES (d);
CREATE INDEX u_by_e ON u ROWKEY (e) UNIQUE;
INSERT INTO u (id, e) VALUES ('1', 'x'), ('2', '');
SELECT id FROM u WHERE id IN ('1', '2');
CHECK INDEX u_by_e`)
	want := "error: the row key of index u_by_e of u would be empty (e = ''): HBase keeps no row under an empty key\n0 | 0 | 0 | 0 | 0 | 0 | 0\n"
	if !strings.HasSuffix(got, want) {
		t.Fatalf("empty entry key:\n%s\nwant\n%s", got, want)
	}
}
