package hbasestore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// TestLongInLists: on HBase, an IN list of 20,000 values on the key of
// an index reads points (batched multi-gets), and one of 2,000 values on
// a stored column (read without its index) is tested in the client,
// where HBase's filters would test each row against every value; both
// return the rows a brute-force test of each row returns.
func TestLongInLists(t *testing.T) {
	e, rows, tb := ordersEngine(t, nil)
	ctx := context.Background()
	id, _ := tb.Column("order_id")
	buyer, _ := tb.Column("buyer")
	var ids, buyers []string
	for i := range 20000 {
		ids = append(ids, fmt.Sprint(i*3))
	}
	for i := range 2000 {
		buyers = append(buyers, fmt.Sprintf("'buyer%05d@example.com'", i*2))
	}
	for _, c := range []struct {
		q, plan string
		keep    func(r catalog.Row) bool
	}{
		{"SELECT order_id FROM orders WHERE order_id IN (" + strings.Join(ids, ", ") + ")", "ACCESS POINT LOOKUP ON 20000 KEYS",
			func(r catalog.Row) bool { return r[id].I%3 == 0 && r[id].I < 60000 }},
		{"SELECT order_id FROM orders NO INDEX WHERE buyer IN (" + strings.Join(buyers, ", ") + ") ALLOW FULL SCAN", "buyer IN (2000 values): HBase's filters would test every row",
			func(r catalog.Row) bool {
				var n int
				_, err := fmt.Sscanf(r[buyer].S, "buyer%05d@example.com", &n)
				return err == nil && n%2 == 0 && n < 4000
			}},
	} {
		res, err := explainAnalyze(ctx, e, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.text, c.plan) {
			t.Errorf("%.60s…: the plan lacks %q:\n%.1500s", c.q, c.plan, res.text)
		}
		got := rowsOf(t, e, c.q)
		var gotIDs, want []int64
		for _, r := range got {
			gotIDs = append(gotIDs, r[0].I)
		}
		for _, r := range rows {
			if c.keep(r) {
				want = append(want, r[id].I)
			}
		}
		slices.Sort(gotIDs)
		slices.Sort(want)
		if !slices.Equal(gotIDs, want) || len(want) == 0 {
			t.Errorf("%.60s…: %d rows, want %d", c.q, len(gotIDs), len(want))
		}
	}
}
