package ref

import (
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
)

// TestEvaluateSubqueries checks the nested loops on rows small enough to
// work out by hand: NOT IN over a set with a NULL, NOT EXISTS of a NULL
// outer value, a scalar subquery with no row.
func TestEvaluateSubqueries(t *testing.T) {
	tb, rows := testRows(t)
	other := &catalog.Table{Name: "u", Columns: []catalog.Column{{Name: "v", Type: catalog.TypeBigint}}}
	u := func(vals ...*int64) []catalog.Row {
		var out []catalog.Row
		for _, v := range vals {
			if v == nil {
				out = append(out, catalog.Row{catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeTimestamp)})
				continue
			}
			out = append(out, catalog.Row{catalog.Bigint(*v), catalog.Null(catalog.TypeTimestamp)})
		}
		return out
	}
	n := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		q    string
		u    []catalog.Row
		want int
	}{
		{"SELECT * FROM t WHERE n IN (SELECT v FROM u)", u(n(5), n(2)), 1},
		{"SELECT * FROM t WHERE n NOT IN (SELECT v FROM u)", u(n(5), nil), 0},
		{"SELECT * FROM t WHERE n NOT IN (SELECT v FROM u)", u(n(5)), 2},
		{"SELECT * FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.v = t.n)", u(n(5), nil), 3},
		{"SELECT * FROM t WHERE n NOT IN (SELECT v FROM u)", u(), len(rows)},
		{"SELECT * FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.v = t.n)", u(), len(rows)},
		{"SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.v = t.n)", u(nil), 0},
		{"SELECT * FROM t WHERE n = (SELECT v FROM u)", u(), 0},
	} {
		res, err := EvaluateSubqueries(parseSel(t, c.q), map[string]Source{"t": {Table: tb, Rows: rows}, "u": {Table: other, Rows: c.u}}, time.Time{})
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if res.Len() != c.want {
			t.Errorf("%s over %d rows of u: %d rows, want %d", c.q, len(c.u), res.Len(), c.want)
		}
	}
}
