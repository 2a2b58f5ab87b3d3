package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// longChain is a WHERE clause of n terms in one left-associated chain:
// "plus" adds n ones to a point query's last key field, "or" ORs n
// equalities on an indexed key field, "filter" ORs n equalities on a
// column no key holds.
func longChain(kind string, n int) string {
	var b strings.Builder
	switch kind {
	case "plus":
		b.WriteString("SELECT * FROM orders WHERE seller = 's1' AND ts = 5 AND order_id = 1")
		for range n {
			b.WriteString(" + 1")
		}
	case "or", "filter":
		col := map[string]string{"or": "order_id", "filter": "amount"}[kind]
		b.WriteString("SELECT * FROM orders WHERE seller = 's1' AND (")
		if kind == "or" {
			b.Reset()
			b.WriteString("SELECT * FROM orders WHERE (")
		}
		for i := range n {
			if i > 0 {
				b.WriteString(" OR ")
			}
			fmt.Fprintf(&b, "%s = %d", col, i)
		}
		b.WriteString(")")
	}
	return b.String()
}

func planText(t testing.TB, pl *planner.Planner, q string) string {
	t.Helper()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*planner.Select).String()
}

// TestPlanLongChains: chains of 40,000 terms plan, and to what they say:
// the sum folds into one key, the ORs of key equalities read points of
// the index (past the ranges' cap, since points are Gets), and the ORs
// on another column stay one range and a filter.
func TestPlanLongChains(t *testing.T) {
	if testing.Short() {
		t.Skip("40,000-term statements take seconds to parse")
	}
	pl := planner.New(exampleCatalog(t), planner.Options{})
	for _, c := range []struct{ kind, want string }{
		{"plus", "POINT LOOKUP ON 1 KEY OVER orders ['8ddf','s1','1970-01-01 00:00:00.005',40001]\n"},
		{"or", "INDEX LOOKUP OVER orders_by_id [0] … [39999]\n    ACCESS POINT LOOKUP ON 40000 KEYS\n"},
		{"filter", "RANGE SCAN OVER orders ['8ddf','s1',*] - ['8ddf','s1',*]\n"},
	} {
		if got := planText(t, pl, longChain(c.kind, 40000)); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s chain of 40,000 terms plans as\n%s\nwant it to start with\n%s", c.kind, got[:min(len(got), 600)], c.want)
		}
	}
}

// BenchmarkPlanLongChains plans chains of 10,000 to 40,000 terms (parsed
// once, outside the timing): the time per term stays flat when planning
// is linear in the chain's length.
func BenchmarkPlanLongChains(b *testing.B) {
	pl := planner.New(exampleCatalog(b), planner.Options{})
	for _, kind := range []string{"plus", "or", "filter"} {
		for _, n := range []int{10000, 20000, 40000} {
			stmt, err := parser.ParseOne(longChain(kind, n))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := pl.Plan(context.Background(), stmt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/term")
			})
		}
	}
}
