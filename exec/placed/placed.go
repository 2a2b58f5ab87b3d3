package placed

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// Plan is a SELECT placed on a store. Its zero value is not usable; New
// makes one in which the store does nothing but read. A Plan is read by
// one statement at a time: running it may give an aggregate back to the
// client (SetServer), so that EXPLAIN ANALYZE says what ran.
type Plan struct {
	sel   *planner.Select
	scans map[*planner.Access]*Scan
	// conds holds the condition each filter leaves to the client, where
	// the store took some of it; nil when it took all.
	conds map[*planner.Filter]expr.Expr
	// servers holds how the store computes a Count or an Aggregate.
	servers map[planner.Node]string
	// joins holds what the join steps measured (join.go).
	joins joinRuns
	// derived holds the placed plans of the derived tables' SELECTs
	// (derived.go).
	derived derivedPlans
}

var _ planner.Placing = (*Plan)(nil)

// New returns sel placed on a store that only reads: every filter, limit
// and count stays in the client, as the planner left them.
func New(sel *planner.Select) *Plan {
	return &Plan{sel: sel, scans: map[*planner.Access]*Scan{}, conds: map[*planner.Filter]expr.Expr{}, servers: map[planner.Node]string{}}
}

// Select is the plan as the planner made it. It must not be changed.
func (p *Plan) Select() *planner.Select { return p.sel }

// Scan is a read as the store does it: one of the plan's accesses, and
// the work the store accepted of the steps above it.
type Scan struct {
	// Access is the planner's read; it must not be changed.
	*planner.Access
	// Filter is the condition the store evaluates on each row; nil when
	// none.
	Filter expr.Expr
	// Limit caps the rows the store returns per range; 0 means none.
	Limit int64
	// Columns are the stored columns the store returns, when KeysOnly
	// or Projected; nil means every column.
	Columns []int
	// Store names the store, as EXPLAIN prints it ("HBase", "embedded");
	// "" for a read not placed on one.
	Store string
	// Projected is set when the store returns only Columns.
	Projected bool
	// KeysOnly is set when the store returns keys without values.
	KeysOnly bool
	// MultiRange is set when the store reads several ranges in one scan
	// per region (HBase MultiRowRangeFilter) rather than one scan each.
	MultiRange bool
	// Server names how the store evaluates Filter, e.g.
	// "SingleColumnValueFilter(f:status = 'paid')"; one entry per part.
	Server []string
	// Client says, one entry each, why parts of the filter stay in the
	// client.
	Client []string
	// Off is set when pushdown was switched off for the session.
	Off bool
	// NoBlockCache is set when the store reads without filling its
	// block cache; BlockCacheWhy says why the store was told either way,
	// and is empty when it was told nothing (it then caches).
	NoBlockCache  bool
	BlockCacheWhy string
	// Timed is set when the store keeps only the cells of the access's
	// TimeRange: always for AS OF, and for a bound of _ts where the
	// store can (where it cannot, the row filter alone applies it).
	Timed bool
	// Qualifiers is set when the store keeps only the cells of the
	// access's Qualifiers ranges; QualifierHow names the filter each
	// becomes.
	Qualifiers   bool
	QualifierHow []string
	// Parts, when set, are the key ranges, in key order, that the
	// client reads side by side, one scanner each, on Workers
	// goroutines: the access's ranges cut at the store's region
	// boundaries (PartsOf names what they are cut along, "REGIONS").
	Parts   []planner.KeyRange
	PartsOf string
	Workers int
	// Unordered is set when the rows above the read need no key order
	// (a count, a hash aggregate, a sort, a DISTINCT): the parts' rows
	// are taken as they come. Otherwise they are handed on part after
	// part, in key order, the next parts read ahead.
	Unordered bool
}

// Scan returns how the store reads a, one of the plan's accesses: a Scan
// that only reads when a was not placed.
func (p *Plan) Scan(a *planner.Access) *Scan {
	if s, ok := p.scans[a]; ok {
		return s
	}
	return &Scan{Access: a}
}

// SetScan records how the store reads s.Access.
func (p *Plan) SetScan(s *Scan) { p.scans[s.Access] = s }

// Cond is the part of f's condition left to the client; nil when the
// store evaluates all of it.
func (p *Plan) Cond(f *planner.Filter) expr.Expr {
	if c, ok := p.conds[f]; ok {
		return c
	}
	return f.Cond
}

// SetCond records that the store evaluates all of f's condition but
// client, which stays in the client; nil when the store takes it all.
func (p *Plan) SetCond(f *planner.Filter, client expr.Expr) { p.conds[f] = client }

// Server says how the store computes n, a Count or an Aggregate, where
// the data lives; "" when the client does.
func (p *Plan) Server(n planner.Node) string { return p.servers[n] }

// SetServer records that the store computes n as how says; "" gives n
// back to the client (the store could not compute it after all).
func (p *Plan) SetServer(n planner.Node, how string) {
	if how == "" {
		delete(p.servers, n)
		return
	}
	p.servers[n] = how
}

// Node is n as placed: n, or, when n is a filter the store evaluates
// whole, the first node below it that is not.
func (p *Plan) Node(n planner.Node) planner.Node {
	for {
		f, ok := n.(*planner.Filter)
		if !ok || p.Cond(f) != nil {
			return n
		}
		n = f.In
	}
}

// Input is the node whose rows n consumes once placed: n's input, past
// any filter the store evaluates whole.
func (p *Plan) Input(n planner.Node) planner.Node { return p.Node(n.Input()) }

// Root is the plan's root once placed.
func (p *Plan) Root() planner.Node { return p.Node(p.sel.Root) }

// MultiRange reports whether the store reads a's ranges with one scan
// per region.
func (p *Plan) MultiRange(a *planner.Access) bool { return p.Scan(a).MultiRange }

// Parallel returns the parts a's read is cut into for parallel scanners
// and the workers that read them; 0, 0 for one scanner.
func (p *Plan) Parallel(a *planner.Access) (parts, workers int) {
	s := p.Scan(a)
	if len(s.Parts) == 0 {
		return 0, 0
	}
	return len(s.Parts), s.Workers
}

// Explain builds the EXPLAIN model of the placed plan; an is nil unless
// it ran.
func (p *Plan) Explain(env planner.ExplainEnv, an *planner.Analysis) *planner.Explained {
	return p.sel.ExplainPlaced(env, an, p)
}

// ScanAttrs are the EXPLAIN attributes of what the store does with the
// rows of a.
func (p *Plan) ScanAttrs(a *planner.Access) []planner.Attr {
	s := p.Scan(a)
	var out []planner.Attr
	add := func(label string, v any) { out = append(out, planner.Attr{Label: label, Value: v}) }
	if s.Store != "" {
		out = append(out, planner.Attr{Label: "store", Value: s.Store, Detail: true})
	}
	if text, ok := a.TimeRangeText(); ok && s.Timed {
		add("SERVER TIMERANGE", text)
	}
	switch {
	case s.KeysOnly:
		add("SERVER KEYS ONLY", true)
	case s.Projected:
		add("SERVER COLUMNS", strings.Join(a.ColumnNames(s.Columns), ", "))
	}
	if s.Qualifiers {
		add("SERVER QUALIFIERS", a.QualifierText())
		add("USING", s.QualifierHow)
	}
	if s.Filter != nil {
		add("SERVER FILTER BY", s.Filter.String())
		if len(s.Server) > 0 {
			add("USING", s.Server)
		}
	}
	if s.MultiRange {
		add("SERVER MULTI RANGE", fmt.Sprintf("the %d ranges are read with one scan per region", len(a.Ranges)))
	}
	if s.Limit > 0 {
		if len(a.Ranges) > 1 && !s.MultiRange {
			add("SERVER {} ROW LIMIT PER SCAN", s.Limit)
		} else {
			add("SERVER {} ROW LIMIT", s.Limit)
		}
	}
	if len(s.Client) > 0 {
		add("CLIENT BECAUSE", s.Client)
	}
	if len(s.Parts) > 0 {
		how := "in key order, the next parts read ahead"
		if s.Unordered {
			how = "rows taken as they come"
		}
		add("CLIENT PARALLEL {}", fmt.Sprintf("%d-WAY OVER %s, %d WORKERS (one scanner per part; %s)", len(s.Parts), s.PartsOf, s.Workers, how))
	}
	if s.BlockCacheWhy != "" {
		add("SERVER BLOCK CACHE", fmt.Sprintf("%s (%s)", onOff(!s.NoBlockCache), s.BlockCacheWhy))
	}
	if s.Off {
		off := "off for this session: the store only reads, and every step above runs in the client"
		if s.Limit > 0 {
			off = "off for this session: the store only reads and stops at the LIMIT, which bounds the read (a row limit is no filter); every other step runs in the client"
		}
		add("PUSHDOWN", off)
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
