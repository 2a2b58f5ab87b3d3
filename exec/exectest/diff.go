// Package exectest holds the differential test suite: for every table of
// a catalog it loads random rows into a Store, runs random queries through
// the planner, and checks each result against a brute-force filter over
// every row. The same suite runs on every Store.
package exectest

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Options size the suite. Zero values mean the defaults.
type Options struct {
	Rows    int    // rows loaded per table (10,000)
	Queries int    // random queries per table (500)
	Seed    uint64 // random seed (1)
	// Tables limits the suite to these tables; nil means all.
	Tables []string
	// Planner are the planner options of the planned queries (the brute
	// force reference ignores them).
	Planner planner.Options
	// Load writes the rows; nil means exec.Executor.Insert.
	Load func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error
}

// Run runs the differential suite over st.
func Run(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options) {
	if o.Rows == 0 {
		o.Rows = 10_000
	}
	if o.Queries == 0 {
		o.Queries = 500
	}
	if o.Seed == 0 {
		o.Seed = 1
		if s, err := strconv.ParseUint(os.Getenv("RKQL_DIFF_SEED"), 10, 64); err == nil {
			o.Seed = s
		}
	}
	for _, tb := range cat.Tables {
		if o.Tables != nil && !slices.Contains(o.Tables, tb.Name) {
			continue
		}
		t.Run(tb.Name, func(t *testing.T) { runTable(t, st, cat, tb, o) })
	}
}

// Loaded returns every row of t in the store, read by a full scan.
func Loaded(ctx context.Context, x *exec.Executor, pl *planner.Planner, t *catalog.Table) ([]catalog.Row, error) {
	sel, err := Plan(pl, "SELECT * FROM "+t.Name+" ALLOW FULL SCAN")
	if err != nil {
		return nil, err
	}
	return Drain(ctx, x, sel, nil)
}

// Plan parses and plans one SELECT.
func Plan(pl *planner.Planner, q string) (*planner.Select, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return nil, err
	}
	p, err := pl.Plan(stmt)
	if err != nil {
		return nil, err
	}
	sel, ok := p.(*planner.Select)
	if !ok {
		return nil, fmt.Errorf("%q is not a SELECT", q)
	}
	return sel, nil
}

// Drain runs a SELECT and returns all its rows. stats may be nil.
func Drain(ctx context.Context, x *exec.Executor, sel *planner.Select, stats *exec.Stats) ([]catalog.Row, error) {
	rows, err := x.Query(ctx, sel, stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalog.Row
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
}

func runTable(t *testing.T, st exec.Store, cat *catalog.Catalog, tb *catalog.Table, o Options) {
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	data := examples.Rows(tb, o.Rows, o.Seed)
	load := o.Load
	if load == nil {
		load = func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error {
			return x.Insert(ctx, t, rows, 0, nil)
		}
	}
	if err := load(ctx, tb, data); err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, o.Planner)
	brute := planner.New(cat, planner.Options{BruteForce: true})
	all, err := Loaded(ctx, x, pl, tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatalf("no rows loaded into %s", tb.Name)
	}
	for i := range all {
		all[i] = append(all[i], catalog.Null(catalog.TypeTimestamp))
	}
	g := &queryGen{t: tb, r: rand.New(rand.NewPCG(o.Seed, 7)), rows: all}
	kinds := map[string]int{}
	for i := 0; i < o.Queries; i++ {
		q := g.query()
		if err := check(ctx, x, pl, brute, all, q, kinds); err != nil {
			t.Errorf("query %d: %s\n  %v", i, q, err)
			if t.Failed() && i > 20 {
				return
			}
		}
	}
	t.Logf("%s: %d rows, %d queries, plans %v", tb.Name, len(all), o.Queries, kinds)
}

// check runs q both ways and compares.
func check(ctx context.Context, x *exec.Executor, pl, brute *planner.Planner, all []catalog.Row, q string, kinds map[string]int) error {
	sel, err := Plan(pl, q)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	kind := strings.Fields(sel.Access.Header())[0]
	if ix := sel.IndexLookup(); ix != nil {
		kind = "INDEX:" + ix.Index.Name
		// The same query without the index must agree too.
		noIx := strings.Replace(q, " FROM "+sel.Table.Name+" ", " FROM "+sel.Table.Name+" NO INDEX ", 1)
		if err := check(ctx, x, pl, brute, all, noIx, kinds); err != nil {
			return fmt.Errorf("with NO INDEX: %w", err)
		}
	}
	kinds[kind]++
	ref, err := Plan(brute, q)
	if err != nil {
		return fmt.Errorf("brute plan: %w", err)
	}
	var cond expr.Expr
	if f, ok := planner.Find[*planner.Filter](ref.Root); ok {
		cond = f.Cond
	}
	var want []catalog.Row
	for _, r := range all {
		if expr.Match(cond, r) {
			out := make(catalog.Row, len(ref.Output))
			for i, o := range ref.Output {
				out[i] = r[o.Col()]
			}
			want = append(want, out)
		}
	}
	// Each query runs with pushdown on and off: the store's evaluation
	// and the client's must agree with the reference alike.
	for _, on := range []bool{true, false} {
		sel, err := Plan(pl, q)
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		exec.Place(sel, x.Store.Pushdown(), on)
		got, err := Drain(ctx, x, sel, nil)
		if err != nil {
			return fmt.Errorf("run (pushdown %v): %w\n%s", on, err, sel.Explain(planner.ExplainEnv{}, nil).Text())
		}
		if err := compare(sel, got, want); err != nil {
			return fmt.Errorf("pushdown %v: %w\n%s", on, err, sel.Explain(planner.ExplainEnv{}, nil).Text())
		}
	}
	return nil
}

// compare checks got against every matching row: the same multiset when
// there is no LIMIT; with a LIMIT, the right count of matching rows; with
// ORDER BY, sorted, and holding the same sort keys as the first rows of
// the sorted reference.
func compare(sel *planner.Select, got, want []catalog.Row) error {
	var keys []int
	var desc []bool
	// Only a prefix of the ORDER BY whose columns are in the output can
	// be checked.
	for _, k := range orderOf(sel) {
		i := slices.IndexFunc(sel.Output, func(o planner.Output) bool { return o.Col() == k.Col })
		if i < 0 {
			break
		}
		keys, desc = append(keys, i), append(desc, k.Desc)
	}
	less := func(a, b catalog.Row) int {
		for i, k := range keys {
			c := catalog.Compare(a[k], b[k])
			if desc[i] {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
	n := len(want)
	if sel.Limit >= 0 && int(sel.Limit) < n {
		n = int(sel.Limit)
	}
	if len(got) != n {
		return fmt.Errorf("got %d rows, want %d", len(got), n)
	}
	for i := 1; i < len(got); i++ {
		if less(got[i-1], got[i]) > 0 {
			return fmt.Errorf("row %d is out of ORDER BY order: %s after %s", i, text(got[i]), text(got[i-1]))
		}
	}
	wantSet := map[string]int{}
	for _, r := range want {
		wantSet[text(r)]++
	}
	for _, r := range got {
		k := text(r)
		if wantSet[k] == 0 {
			return fmt.Errorf("unexpected row %s", k)
		}
		wantSet[k]--
	}
	if len(keys) > 0 && n < len(want) {
		slices.SortStableFunc(want, less)
		for i := range got {
			if less(got[i], want[i]) != 0 {
				return fmt.Errorf("row %d has sort key of %s, want that of %s", i, text(got[i]), text(want[i]))
			}
		}
	}
	return nil
}

// orderOf is the ORDER BY the query asked for, as the plan records it.
func orderOf(sel *planner.Select) []planner.SortKey { return sel.Order }

func text(r catalog.Row) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
