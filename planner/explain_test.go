package planner_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

func exampleCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// plan parses and plans one statement, as text or an error.
func plan(pl *planner.Planner, src string) string {
	stmt, err := parser.ParseOne(src)
	if err != nil {
		return "parse error: " + err.Error() + "\n"
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		var pe *parser.Error
		if errors.As(err, &pe) {
			line, col := parser.Position(src, pe.Pos)
			return fmt.Sprintf("error: %d:%d: %s\n", line, col, pe.Msg)
		}
		return "error: " + err.Error() + "\n"
	}
	switch p := p.(type) {
	case *planner.Select:
		return p.String()
	case *planner.Explain:
		if p.JSON {
			return p.Select.Explain(planner.ExplainEnv{}, nil).JSON()
		}
		return p.Select.String()
	case *planner.EncodeKey:
		return catalog.ToStringBinary(p.Key) + "\n"
	}
	return fmt.Sprintf("%T\n", p)
}

// TestExplain checks EXPLAIN output against testdata/explain; regenerate
// with go test ./planner -run TestExplain -rewrite.
func TestExplain(t *testing.T) {
	cat := exampleCatalog(t)
	datadriven.RunTest(t, "testdata/explain", func(t *testing.T, d *datadriven.TestData) string {
		opts := planner.Options{}
		if d.HasArg("allow-full-scan") {
			opts.AllowFullScan = true
		}
		if d.HasArg("max-keys") {
			d.ScanArgs(t, "max-keys", &opts.Limits.MaxKeys)
		}
		if d.HasArg("max-points") {
			d.ScanArgs(t, "max-points", &opts.Limits.MaxPoints)
		}
		switch d.Cmd {
		case "plan":
			return plan(planner.New(cat, opts), d.Input)
		}
		return "unknown command " + d.Cmd
	})
}

// BenchmarkParsePlan measures parse + plan of the orders query,
// beside parse alone in the same run.
func BenchmarkParsePlan(b *testing.B) {
	cat := exampleCatalog(b)
	pl := planner.New(cat, planner.Options{})
	const q = "SELECT * FROM orders WHERE seller = 's1' AND ts BETWEEN TIMESTAMP '2024-05-01 00:00:00' AND TIMESTAMP '2024-05-02 00:00:00'"
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := parser.ParseOne(q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse+plan", func(b *testing.B) {
		for b.Loop() {
			stmt, err := parser.ParseOne(q)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := pl.Plan(context.Background(), stmt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestPlanLinearInConjuncts: planning a WHERE clause of n ANDed terms
// allocates in proportion to n. A quadratic planner (one that copies the
// terms so far at each AND) allocates four times as much for twice the
// terms.
func TestPlanLinearInConjuncts(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	allocated := func(n int) uint64 {
		var terms []string
		for i := range n {
			terms = append(terms, fmt.Sprintf("buyer != 'x%d'", i))
		}
		stmt, err := parser.ParseOne("SELECT * FROM orders WHERE seller = 's1' AND " + strings.Join(terms, " AND "))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := pl.Plan(context.Background(), stmt); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(4000), allocated(8000)
	if ratio := float64(large) / float64(small); ratio > 3 {
		t.Errorf("planning 8000 terms allocated %.1fx what 4000 did (%d vs %d bytes): not linear", ratio, large, small)
	}
}

// TestExplainServerCount: a count the store does is SERVER AGGREGATE
// COUNT, named by how; otherwise CLIENT COUNT.
func TestExplainServerCount(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	for _, c := range []struct{ server, want string }{
		{"", "CLIENT COUNT\n"},
		{"coprocessor X", "SERVER AGGREGATE COUNT\n    BY     coprocessor X\n    NOTE   the regions count every row in the ranges, including rows whose key does not fit the layout"},
	} {
		stmt, err := parser.ParseOne("SELECT COUNT(*) FROM orders WHERE seller = 's1'")
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatal(err)
		}
		s := p.(*planner.Select)
		cnt, ok := s.Root.(*planner.Count)
		if !ok {
			t.Fatalf("COUNT(*) plans as %T at the root", s.Root)
		}
		text := s.ExplainPlaced(planner.ExplainEnv{}, nil, countPlacing{cnt, c.server}).Text()
		if !strings.Contains(text, c.want) || strings.Contains(text, "SERVER AGGREGATE") != (c.server != "") {
			t.Errorf("a count placed with server %q explains as\n%s\nwant it to hold %q and no other aggregate", c.server, text, c.want)
		}
	}
}

// countPlacing places a plan with its count, cnt, done as server says.
type countPlacing struct {
	cnt    *planner.Count
	server string
}

func (countPlacing) ScanAttrs(*planner.Access) []planner.Attr { return nil }
func (countPlacing) MultiRange(*planner.Access) bool          { return false }
func (countPlacing) Parallel(*planner.Access) (int, int)      { return 0, 0 }
func (countPlacing) Cond(f *planner.Filter) expr.Expr         { return f.Cond }
func (c countPlacing) Server(n planner.Node) string {
	if n == planner.Node(c.cnt) {
		return c.server
	}
	return ""
}

// TestManyORsPlanQuickly: a WHERE clause of many ORs, none of whose
// branches binds the key, is planned in bounded work, not one plan per
// combination of branches.
func TestManyORsPlanQuickly(t *testing.T) {
	var terms []string
	for i := range 40 {
		terms = append(terms, fmt.Sprintf("(status = 's%d' OR amount = %d OR buyer = 'b%d')", i, i, i))
	}
	q := "SELECT * FROM orders WHERE " + strings.Join(terms, " AND ") + " ALLOW FULL SCAN"
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	// The planner checks its context in each loop that can run long (per
	// OR branch, key range and expansion), so the checks count its work:
	// one plan per combination of branches would make 3^40 of them.
	ctx := &countdown{Context: context.Background(), at: 1_000_000}
	if _, err := planner.New(cat, planner.Options{}).Plan(ctx, stmt); err != nil {
		t.Fatal(err)
	}
	if n := ctx.calls.Load(); n > 200_000 {
		t.Errorf("planning made %d context checks, want at most 200,000", n)
	} else {
		t.Logf("planning made %d context checks", n)
	}
}

// TestNowOncePerStatement: a statement reads NOW() once, so the branches
// of a union, planned apart, bound the key with the instant the filter
// above them tests; the next statement reads it again.
func TestNowOncePerStatement(t *testing.T) {
	calls := 0
	base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		calls++
		return base.Add(time.Duration(calls) * time.Hour)
	}
	pl := planner.New(exampleCatalog(t), planner.Options{Now: clock})
	q := "SELECT order_id FROM orders WHERE seller = 's1' AND ts > NOW() - INTERVAL '1' HOUR OR buyer = 'b2' AND ts < NOW()"
	for round := 1; round <= 2; round++ {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatal(err)
		}
		if calls != round {
			t.Fatalf("after %d statements the clock was read %d times", round, calls)
		}
		s := p.(*planner.Select)
		if _, ok := planner.Find[*planner.Union](s.Root); !ok {
			t.Fatalf("not a union:\n%s", s.Explain(planner.ExplainEnv{}, nil).Text())
		}
		now := base.Add(time.Duration(round) * time.Hour)
		early, late := now.Add(-time.Hour).Format("2006-01-02 15:04:05.000"), now.Format("2006-01-02 15:04:05.000")
		text := s.Explain(planner.ExplainEnv{}, nil).Text()
		for _, want := range []string{
			"BRANCH 1: RANGE SCAN OVER orders ['8ddf','s1',*] - ['8ddf','s1','" + early + "']",
			"CLIENT FILTER BY seller = 's1' AND ts > '" + early + "' OR buyer = 'b2' AND ts < '" + late + "'",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("statement %d explains as\n%s\nwant it to hold %s", round, text, want)
			}
		}
	}
}

// parallelPlacing places every read as parts parts on workers workers.
type parallelPlacing struct {
	countPlacing
	parts, workers int
}

func (p parallelPlacing) Parallel(*planner.Access) (int, int) { return p.parts, p.workers }

// TestExplainParallelCost: the COST of a read cut into parallel parts
// counts the RPCs the busiest worker makes one after another, at least
// one a part; a read of one scanner says nothing of workers.
func TestExplainParallelCost(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	stmt, err := parser.ParseOne("SELECT COUNT(*) FROM orders ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		t.Fatal(err)
	}
	s := p.(*planner.Select)
	for _, c := range []struct {
		parts, workers int
		want           string
	}{
		{0, 0, ""},
		{16, 1, ""},
		{16, 4, ", as 16 parts on 4 workers side by side: at least 4 RPCs one after another on the busiest worker"},
		{10, 4, ", as 10 parts on 4 workers side by side: at least 3 RPCs one after another on the busiest worker"},
		{3, 8, ", as 3 parts on 8 workers side by side: at least 1 RPC one after another on the busiest worker"},
	} {
		text := s.ExplainPlaced(planner.ExplainEnv{}, nil, parallelPlacing{parts: c.parts, workers: c.workers}).Text()
		var cost string
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "COST") {
				cost = l
			}
		}
		if c.want == "" {
			if strings.Contains(cost, "workers") {
				t.Errorf("%d parts, %d workers: %q names workers", c.parts, c.workers, cost)
			}
		} else if !strings.HasSuffix(cost, c.want) {
			t.Errorf("%d parts, %d workers: %q, want it to end %q", c.parts, c.workers, cost, c.want)
		}
	}
}
