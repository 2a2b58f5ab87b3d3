// Package advise ranks key designs for a workload: each query of a file
// is planned against every table and index that holds the same data, and
// against candidate layouts derived from the queries (an index on a field
// they filter by equality, a reversed field for suffix searches), and the
// plans' estimated costs are compared.
//
// The costs are estimates from the plans alone, not measurements: a table
// is assumed to hold Options.Rows rows, the first key field a query binds
// by equality keeps one row in 1,000, each further one one in 100, a range
// on the next field one in 10. They rank designs; EXPLAIN ANALYZE measures
// one.
package advise

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Options are the assumptions of the estimates.
type Options struct {
	// Rows is the row count assumed for every table (0: 10,000,000, the
	// figure at which a long key is priced, as in design's LINT).
	Rows float64
}

// Query is one statement of a workload and its weight.
type Query struct {
	Stmt   *parser.SelectStmt
	Weight float64
	Line   int
}

var weightComment = regexp.MustCompile(`(?i)--\s*weight\s*:?\s*([0-9]+(?:\.[0-9]+)?)\s*$`)

// ParseWorkload reads a workload: SELECT statements separated by ';',
// each weighted by a comment line "-- weight N" just before it (1 when
// there is none).
func ParseWorkload(src string) ([]Query, error) {
	stmts, err := parser.Parse(src)
	if err != nil {
		return nil, err
	}
	var out []Query
	prev := 0
	for _, st := range stmts {
		sel, ok := st.(*parser.SelectStmt)
		line, _ := parser.Position(src, st.Pos())
		if !ok {
			return nil, fmt.Errorf("workload line %d: ADVISE weighs SELECT statements only, not %s", line, strings.Fields(st.String())[0])
		}
		q := Query{Stmt: sel, Weight: 1, Line: line}
		start := int(st.Pos())
		for _, l := range strings.Split(src[prev:start], "\n") {
			if m := weightComment.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				w, err := strconv.ParseFloat(m[1], 64)
				if err != nil || w <= 0 {
					return nil, fmt.Errorf("workload line %d: bad weight %q", line, m[1])
				}
				q.Weight = w
			}
		}
		prev = start + strings.Index(src[start:], ";") + 1
		if prev <= start {
			prev = len(src)
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the workload has no statements")
	}
	return out, nil
}

// Design is one way to lay out a table's data: a catalog, and how each
// query must be hinted to use only what the design names.
type Design struct {
	Name string
	// Catalog holds the design's tables.
	Catalog *catalog.Catalog
	// Hint rewrites a query for the design (an index hint); nil keeps it.
	Hint func(*parser.SelectStmt) *parser.SelectStmt
	// YAML is the catalog entry that makes the design, for a derived one.
	YAML string
}

// Cost is a query's estimated cost under a design.
type Cost struct {
	// Rows is the estimated number of rows (index entries and data rows)
	// read; Reads the scans and gets issued.
	Rows, Reads float64
	// Plan is the access's EXPLAIN headline, or why the query cannot run.
	Plan string
	// Refused is set when the design cannot serve the query without a
	// full scan the query did not allow, or at all.
	Refused bool
}

// Total is the cost's single figure: rows read plus 10 per read issued.
func (c Cost) Total() float64 { return c.Rows + 10*c.Reads }

// Result is a design's estimated cost over the workload.
type Result struct {
	Design *Design
	Costs  []Cost
	// Total is the weighted sum of the queries' costs; a refused query
	// counts as a full scan.
	Total float64
}

// Rank plans every query under every design and sorts the designs from
// the cheapest.
func Rank(queries []Query, designs []*Design, o Options) []Result {
	if o.Rows <= 0 {
		o.Rows = 10_000_000
	}
	out := make([]Result, 0, len(designs))
	for _, d := range designs {
		r := Result{Design: d}
		for _, q := range queries {
			c := estimate(d, q.Stmt, o)
			r.Costs = append(r.Costs, c)
			t := c.Total()
			if c.Refused {
				t = o.Rows
			}
			r.Total += q.Weight * t
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Total < out[j].Total })
	return out
}

func estimate(d *Design, q *parser.SelectStmt, o Options) Cost {
	st := q
	if d.Hint != nil {
		st = d.Hint(q)
	}
	p, err := planner.New(d.Catalog, planner.Options{}).Plan(context.Background(), st)
	if err != nil {
		// A refused full scan costs what reading everything would.
		allow := *st
		allow.AllowFullScan = true
		p, err = planner.New(d.Catalog, planner.Options{AllowFullScan: true}).Plan(context.Background(), &allow)
		if err != nil {
			return Cost{Plan: err.Error(), Refused: true}
		}
		c := selectCost(p.(*planner.Select), o)
		c.Refused = !q.AllowFullScan
		return c
	}
	sel, ok := p.(*planner.Select)
	if !ok {
		return Cost{Plan: "not a query", Refused: true}
	}
	return selectCost(sel, o)
}

// selectCost estimates what a planned SELECT reads: the sum over its
// accesses, one for most plans and one per branch of a union.
func selectCost(sel *planner.Select, o Options) Cost {
	if sel.Access == nil {
		u, ok := planner.Find[*planner.Union](sel.Root)
		if !ok || len(u.Branches) == 0 {
			return Cost{Plan: "no access", Refused: true}
		}
		var c Cost
		heads := make([]string, 0, len(u.Branches))
		for _, b := range u.Branches {
			bc := selectCost(b, o)
			c.Rows += bc.Rows
			c.Reads += bc.Reads
			c.Refused = c.Refused || bc.Refused
			heads = append(heads, bc.Plan)
		}
		c.Plan = fmt.Sprintf("UNION OF %d BRANCHES: %s", len(u.Branches), strings.Join(heads, "; "))
		return c
	}
	acc := sel.Access
	c := accessCost(acc, o)
	c.Plan = acc.Header()
	if ix := sel.IndexLookup(); ix != nil && !ix.Covered {
		// Every entry found is a Get of its data row, batched.
		c.Reads += c.Rows/100 + 1
		c.Rows *= 2
	}
	return c
}

// Selectivities of the estimate.
const (
	firstEq = 1.0 / 1000
	laterEq = 1.0 / 100
	rangeOn = 1.0 / 10
)

func accessCost(acc *planner.Access, o Options) Cost {
	switch acc.Kind {
	case planner.EmptyResult:
		return Cost{}
	case planner.FullScan:
		return Cost{Rows: o.Rows, Reads: float64(max(acc.Ways, 1))}
	}
	comps := nonLiteral(acc.Table.Key)
	var c Cost
	for _, r := range acc.Ranges {
		c.Reads++
		if r.Point {
			c.Rows++
			continue
		}
		c.Rows += o.Rows * rangeSelectivity(comps, r)
	}
	c.Reads = max(c.Reads, float64(acc.Ways))
	return c
}

func nonLiteral(l *catalog.Layout) []*catalog.Component {
	var out []*catalog.Component
	for i := range l.Components {
		if c := &l.Components[i]; c.Kind != catalog.KindLiteral {
			out = append(out, c)
		}
	}
	return out
}

// rangeSelectivity is the share of a table a key range covers, from the
// fields its bounds pin: equal bounds on a field pin it, different ones
// are a range on it, and what follows is not bound.
func rangeSelectivity(comps []*catalog.Component, r planner.KeyRange) float64 {
	sel, eqs := 1.0, 0
	for i, c := range comps {
		if i >= len(r.From) || i >= len(r.To) {
			break
		}
		from, to := r.From[i], r.To[i]
		if from == "*" || to == "*" {
			if from != to && c.Kind == catalog.KindField {
				sel *= rangeOn
			}
			break
		}
		if c.Kind != catalog.KindField {
			// A hash, bucket or salt is implied by the fields it reads,
			// or fanned out over; it narrows nothing by itself.
			continue
		}
		if from != to {
			sel *= rangeOn
			break
		}
		if eqs == 0 {
			sel *= firstEq
		} else {
			sel *= laterEq
		}
		eqs++
	}
	return sel
}
