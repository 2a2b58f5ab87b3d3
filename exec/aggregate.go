package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// ErrGroupBudget is returned when a hash aggregation would hold too many
// groups.
var ErrGroupBudget = errors.New("exec: hash aggregate budget exceeded")

// defaultGroupBudget is the group budget when Executor.GroupBudget is 0.
const defaultGroupBudget = 1_000_000

// AggState is the partial state of one aggregate over some rows. States
// merge: a store that aggregates each region could hand back one per
// region, and Merge combines them as the client loop would have.
type AggState struct {
	call *planner.AggCall
	// Count counts the values added (COUNT, and AVG's divisor).
	Count int64
	// SumI and SumF are the sum of integer or double values. SumI is
	// exact, so a SUM fails only when its total does not fit a BIGINT,
	// never for a partial sum on the way, and an AVG never fails.
	SumI WideSum
	SumF float64
	// Best is MIN's or MAX's value so far; NULL before any.
	Best catalog.Value
	// seen holds the values counted by DISTINCT, by appendKey.
	seen map[string]catalog.Value
}

func newAggState(call *planner.AggCall) *AggState {
	s := &AggState{call: call, Best: catalog.Null(call.Type)}
	if call.Distinct {
		s.seen = map[string]catalog.Value{}
	}
	return s
}

// Add adds one value (ignored when NULL; any value for COUNT(*)).
func (s *AggState) Add(v catalog.Value) {
	if s.call.Arg != nil && v.Null {
		return
	}
	if s.seen != nil {
		k := string(appendKey(nil, v))
		if _, dup := s.seen[k]; dup {
			return
		}
		s.seen[k] = v
	}
	s.add(v)
}

// add adds a value DISTINCT has let through.
func (s *AggState) add(v catalog.Value) {
	s.Count++
	switch s.call.Func {
	case planner.AggSum, planner.AggAvg:
		if v.Type == catalog.TypeDouble {
			s.SumF += v.F
		} else {
			s.SumI.Add(v.I)
		}
	case planner.AggMin, planner.AggMax:
		s.best(v)
	}
}

// Merge adds another state over other rows of the same group. A DISTINCT
// aggregate merges its values: each one o holds that s does not is added.
func (s *AggState) Merge(o *AggState) error {
	if (s.seen == nil) != (o.seen == nil) {
		return fmt.Errorf("exec: %s cannot merge partial states", s.call.Text)
	}
	if s.seen != nil {
		for k, v := range o.seen {
			if _, dup := s.seen[k]; !dup {
				s.seen[k] = v
				s.add(v)
			}
		}
		return nil
	}
	if o.Count == 0 {
		return nil
	}
	s.Count += o.Count
	s.SumI.AddSum(o.SumI)
	s.SumF += o.SumF
	if !o.Best.Null {
		s.best(o.Best)
	}
	return nil
}

// best keeps v when it is MIN's or MAX's value so far.
func (s *AggState) best(v catalog.Value) {
	if s.Best.Null {
		s.Best = v
		return
	}
	c := catalog.Compare(v, s.Best)
	if s.call.Func == planner.AggMin && c < 0 || s.call.Func == planner.AggMax && c > 0 {
		s.Best = v
	}
}

// Result is the aggregate's value. It fails only for a BIGINT SUM whose
// total does not fit a BIGINT.
func (s *AggState) Result() (catalog.Value, error) {
	c := s.call
	switch c.Func {
	case planner.AggCount:
		return catalog.Bigint(s.Count), nil
	case planner.AggSum:
		switch {
		case s.Count == 0:
			return catalog.Null(c.Type), nil
		case c.Type == catalog.TypeDouble:
			return catalog.Double(s.SumF), nil
		}
		v, ok := s.SumI.Int64()
		if !ok {
			return catalog.Value{}, fmt.Errorf("%s: the sum %s does not fit a BIGINT: %w", c.Text, s.SumI.Big(), expr.ErrOverflow)
		}
		return catalog.Bigint(v), nil
	case planner.AggAvg:
		if s.Count == 0 {
			return catalog.Null(c.Type), nil
		}
		if c.Arg.Type() == catalog.TypeDouble {
			return catalog.Double(s.SumF / float64(s.Count)), nil
		}
		return catalog.Double(s.SumI.Mean(s.Count)), nil
	}
	return canonical(s.Best), nil
}

// canonical makes the zeros of a DOUBLE one value: -0 and 0 are equal,
// so whichever arrives first must not show.
func canonical(v catalog.Value) catalog.Value {
	if v.Type == catalog.TypeDouble && !v.Null && v.F == 0 {
		v.F = 0
	}
	return v
}

// appendKey appends an encoding of v in which two values are equal when
// they are equal in SQL (and NULL equals NULL, as GROUP BY has it).
func appendKey(b []byte, v catalog.Value) []byte {
	if v.Null {
		return append(b, 0)
	}
	b = append(b, 1, byte(v.Type))
	switch v.Type {
	case catalog.TypeDouble:
		f := v.F
		switch {
		case math.IsNaN(f):
			f = math.NaN()
		case f == 0:
			f = 0
		}
		return binary.BigEndian.AppendUint64(b, math.Float64bits(f))
	case catalog.TypeString:
		b = binary.AppendUvarint(b, uint64(len(v.S)))
		return append(b, v.S...)
	case catalog.TypeBytes:
		b = binary.AppendUvarint(b, uint64(len(v.B)))
		return append(b, v.B...)
	}
	return binary.BigEndian.AppendUint64(b, uint64(v.I))
}

// group is one group of an aggregation.
type group struct {
	vals   catalog.Row
	states []*AggState
}

// aggIter aggregates its input: one group for the whole input, groups
// that arrive one after another (stream), or groups held in a map up to
// the group budget (hash).
type aggIter struct {
	in     rowIter
	n      *planner.Aggregate
	budget int
	out    []*Row
	done   bool
	// cur and key are the stream's open group and its key.
	cur *group
	key []byte
}

func (x *Executor) aggregate(in rowIter, n *planner.Aggregate) *aggIter {
	budget := x.GroupBudget
	if budget <= 0 {
		budget = defaultGroupBudget
	}
	return &aggIter{in: in, n: n, budget: budget}
}

func (a *aggIter) newGroup(vals catalog.Row) *group {
	g := &group{vals: vals}
	for i := range a.n.Aggs {
		g.states = append(g.states, newAggState(&a.n.Aggs[i]))
	}
	return g
}

func (a *aggIter) row(g *group) (*Row, error) {
	vals := make(catalog.Row, 0, a.n.Width())
	for _, v := range g.vals {
		vals = append(vals, canonical(v))
	}
	for _, s := range g.states {
		v, err := s.Result()
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return &Row{Vals: vals}, nil
}

// emit appends group g's row to the output.
func (a *aggIter) emit(g *group) error {
	r, err := a.row(g)
	if err != nil {
		return err
	}
	a.out = append(a.out, r)
	return nil
}

// add adds one input row to group g.
func (a *aggIter) add(g *group, r catalog.Row) error {
	for i, s := range g.states {
		v := catalog.Bigint(1)
		if arg := a.n.Aggs[i].Arg; arg != nil {
			var err error
			if v, err = arg.Value(r); err != nil {
				return err
			}
		}
		s.Add(v)
	}
	return nil
}

// groupOf computes r's group values and key.
func (a *aggIter) groupOf(r catalog.Row, key []byte) (catalog.Row, []byte, error) {
	vals := make(catalog.Row, len(a.n.Groups))
	for i, g := range a.n.Groups {
		v, err := g.Value(r)
		if err != nil {
			return nil, nil, err
		}
		vals[i] = v
		key = appendKey(key, v)
	}
	return vals, key, nil
}

func (a *aggIter) next(ctx context.Context) (*Row, error) {
	for len(a.out) == 0 {
		if a.done {
			return nil, io.EOF
		}
		if err := a.fill(ctx); err != nil {
			return nil, err
		}
	}
	r := a.out[0]
	a.out = a.out[1:]
	return r, nil
}

// fill reads input until it has rows to hand out or the input ends.
func (a *aggIter) fill(ctx context.Context) error {
	switch a.n.Strategy {
	case planner.OneGroup:
		return a.fillOne(ctx)
	case planner.StreamAggregate:
		return a.fillStream(ctx)
	}
	return a.fillHash(ctx)
}

func (a *aggIter) fillOne(ctx context.Context) error {
	g := a.newGroup(nil)
	for {
		r, err := a.in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := a.add(g, r.Vals); err != nil {
			return err
		}
	}
	a.done = true
	return a.emit(g)
}

func (a *aggIter) fillStream(ctx context.Context) error {
	var key []byte
	for len(a.out) == 0 {
		r, err := a.in.next(ctx)
		if err == io.EOF {
			a.done = true
			if a.cur != nil {
				return a.emit(a.cur)
			}
			return nil
		}
		if err != nil {
			return err
		}
		vals, k, err := a.groupOf(r.Vals, key[:0])
		if err != nil {
			return err
		}
		key = k
		if a.cur == nil || string(k) != string(a.key) {
			if a.cur != nil {
				if err := a.emit(a.cur); err != nil {
					return err
				}
			}
			a.cur, a.key = a.newGroup(vals), append(a.key[:0], k...)
		}
		if err := a.add(a.cur, r.Vals); err != nil {
			return err
		}
	}
	return nil
}

func (a *aggIter) fillHash(ctx context.Context) error {
	h := a.newHashed()
	for {
		r, err := a.in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := h.add(r.Vals); err != nil {
			return err
		}
		if h.held > a.budget {
			return a.overBudget()
		}
	}
	return a.emitAll(h)
}

// emitAll hands out the groups of h, in the order they came.
func (a *aggIter) emitAll(h *hashed) error {
	a.done = true
	if a.n.Strategy == planner.OneGroup && len(h.order) == 0 {
		// One group over no rows is still one row.
		h.order = append(h.order, a.newGroup(nil))
	}
	for _, g := range h.order {
		if err := a.emit(g); err != nil {
			return err
		}
	}
	return nil
}

// hashed is the partial state of a hash aggregation (or of one group)
// over some rows: its groups by key, in the order they came, and the
// groups and DISTINCT values it holds. Two over other rows merge.
type hashed struct {
	a      *aggIter
	groups map[string]*group
	order  []*group
	held   int
	key    []byte
}

func (a *aggIter) newHashed() *hashed { return &hashed{a: a, groups: map[string]*group{}} }

// add adds one row to its group.
func (h *hashed) add(r catalog.Row) error {
	vals, k, err := h.a.groupOf(r, h.key[:0])
	if err != nil {
		return err
	}
	h.key = k
	g, ok := h.groups[string(k)]
	if !ok {
		h.held++
		g = h.a.newGroup(vals)
		h.groups[string(k)] = g
		h.order = append(h.order, g)
	}
	before := distinctHeld(g)
	if err := h.a.add(g, r); err != nil {
		return err
	}
	h.held += distinctHeld(g) - before
	return nil
}

// merge adds o's groups, over other rows, to h.
func (h *hashed) merge(o *hashed) error {
	for _, og := range o.order {
		h.key = h.key[:0]
		for _, v := range og.vals {
			h.key = appendKey(h.key, v)
		}
		g, ok := h.groups[string(h.key)]
		if !ok {
			h.groups[string(h.key)] = og
			h.order = append(h.order, og)
			h.held += 1 + distinctHeld(og)
			continue
		}
		before := distinctHeld(g)
		for i, s := range g.states {
			if err := s.Merge(og.states[i]); err != nil {
				return err
			}
		}
		h.held += distinctHeld(g) - before
	}
	return nil
}

func distinctHeld(g *group) int {
	n := 0
	for _, s := range g.states {
		n += len(s.seen)
	}
	return n
}

func (a *aggIter) overBudget() error {
	return fmt.Errorf("%w: GROUP BY %s needs more than %d groups and distinct values in memory; group by a key prefix, narrow the WHERE, or raise --group-budget",
		ErrGroupBudget, strings.Join(a.n.GroupNames, ", "), a.budget)
}

func (a *aggIter) close() { a.in.close() }

// projectIter computes a Project's values from each input row.
type projectIter struct {
	in rowIter
	n  *planner.Project
}

func (p *projectIter) next(ctx context.Context) (*Row, error) {
	r, err := p.in.next(ctx)
	if err != nil {
		return nil, err
	}
	vals := make(catalog.Row, len(p.n.Exprs))
	for i, e := range p.n.Exprs {
		if vals[i], err = e.Value(r.Vals); err != nil {
			return nil, err
		}
	}
	return &Row{Vals: vals}, nil
}

func (p *projectIter) close() { p.in.close() }

// keyTextIter appends the _key pseudo-column to each row.
type keyTextIter struct{ in rowIter }

func (k *keyTextIter) next(ctx context.Context) (*Row, error) {
	r, err := k.in.next(ctx)
	if err != nil {
		return nil, err
	}
	n := len(r.Vals)
	out := *r
	out.Vals = append(r.Vals[:n:n], catalog.String(catalog.ToStringBinary(r.Key)))
	return &out, nil
}

func (k *keyTextIter) close() { k.in.close() }
