package hbasestore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// regexpYAML is a table of text keys and one stored text column.
const regexpYAML = `
tables:
  - name: rx
    hbase: %s
    families:
      - {name: d, versions: 1}
    columns:
      - {name: k, type: STRING}
      - {name: buyer, type: STRING, column: "d:buyer"}
    rowkey:
      - {field: k}
`

// regexpRows are rows whose buyer is a short run of digits, now and then
// with a multi-byte character, an empty string or missing (NULL).
func regexpRows(tb *catalog.Table) []catalog.Row {
	r := rand.New(rand.NewPCG(7, 8))
	runes := []rune("0123456789é€")
	var out []catalog.Row
	for i := range 400 {
		row := tb.NewRow()
		row[0] = catalog.String(fmt.Sprintf("r%04d", i))
		if r.IntN(6) > 0 {
			var b strings.Builder
			for range r.IntN(9) {
				b.WriteRune(runes[r.IntN(len(runes))])
			}
			row[1] = catalog.String(b.String())
		}
		out = append(out, row)
	}
	return out
}

// TestRegexpLikeJava: REGEXP_LIKE over a stored text column goes to the
// region servers as a SingleColumnValueFilter with a
// RegexStringComparator, and returns exactly the rows the HBase Java
// client's own Scan with that filter (filterIfMissing, latest version
// only) returns, which are also the rows the client's evaluation on the
// embedded store keeps.
func TestRegexpLikeJava(t *testing.T) {
	ctx := context.Background()
	java := hbasetest.CompileJava(t, "testdata/RegexScan.java")
	q := hbasetest.Quorum(t)
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	st, emb, pl := loadBoth(t, regexpYAML, "rx", regexpRows)
	for _, pat := range []string{"[2-4]{4}", `^\d*é`, `\A[0-9]{2}\z`, "€.?€"} {
		t.Run(pat, func(t *testing.T) {
			qs := "SELECT k FROM rx WHERE REGEXP_LIKE(buyer, " + catalog.String(pat).String() + ") ALLOW FULL SCAN"
			on, _, err := runPlaced(ctx, st, pl, qs, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(on.scan.Client) != 0 || len(on.scan.Server) != 1 || !strings.Contains(on.scan.Server[0], "RegexStringComparator") {
				t.Fatalf("server %q, client %q: want all of it a RegexStringComparator", on.scan.Server, on.scan.Client)
			}
			if ex := on.String(); !strings.Contains(ex, "SERVER FILTER") || !strings.Contains(ex, "RegexStringComparator") {
				t.Errorf("EXPLAIN does not show the server's filter:\n%s", ex)
			}
			var got []string
			for _, r := range on.rows {
				got = append(got, r[0].S)
			}
			slices.Sort(got)
			var want []string
			for _, l := range strings.Split(java.Run(t, "RegexScan", host, port, on.scan.Table.Physical, "d", "buyer", pat), "\n") {
				if l != "" {
					want = append(want, l)
				}
			}
			if len(want) == 0 {
				t.Fatalf("the Java scan found no row for %s: a pattern for no rows tests nothing", pat)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("rkql: %d rows %v\nJava: %d rows %v", len(got), got, len(want), want)
			}
			cl, _, err := runPlaced(ctx, emb, pl, qs, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameRows(on.rows, cl.rows); err != nil {
				t.Fatalf("against the client's evaluation: %v", err)
			}
			t.Logf("%s: %d rows", pat, len(got))
		})
	}
}
