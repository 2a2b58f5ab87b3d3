package placed

import (
	"sync"

	"github.com/rkql/rkql/planner"
)

var _ planner.DerivedPlacing = (*Plan)(nil)

// derivedPlans holds the placed plan of each derived table's SELECT,
// and what each measured while it ran.
type derivedPlans struct {
	mu     sync.Mutex
	placed map[*planner.Derived]*Plan
	runs   map[*planner.Derived]*planner.DerivedRun
}

// Derived returns the placed plan of d's SELECT; nil when it was not
// placed.
func (p *Plan) Derived(d *planner.Derived) *Plan {
	p.derived.mu.Lock()
	defer p.derived.mu.Unlock()
	return p.derived.placed[d]
}

// SetDerived records the placed plan of d's SELECT.
func (p *Plan) SetDerived(d *planner.Derived, inner *Plan) {
	p.derived.mu.Lock()
	defer p.derived.mu.Unlock()
	if p.derived.placed == nil {
		p.derived.placed = map[*planner.Derived]*Plan{}
	}
	p.derived.placed[d] = inner
}

// DerivedPlaced is the placing of d's SELECT, for EXPLAIN; nil when it
// was not placed.
func (p *Plan) DerivedPlaced(d *planner.Derived) planner.Placing {
	if ip := p.Derived(d); ip != nil {
		return ip
	}
	return nil
}

// DerivedRun returns the figures of derived table d, which the executor
// adds to while it runs the plan; nil before any run.
func (p *Plan) DerivedRun(d *planner.Derived) *planner.DerivedRun {
	p.derived.mu.Lock()
	defer p.derived.mu.Unlock()
	return p.derived.runs[d]
}

// StartDerived returns fresh figures for a run of derived table d.
func (p *Plan) StartDerived(d *planner.Derived) *planner.DerivedRun {
	p.derived.mu.Lock()
	defer p.derived.mu.Unlock()
	if p.derived.runs == nil {
		p.derived.runs = map[*planner.Derived]*planner.DerivedRun{}
	}
	r := &planner.DerivedRun{}
	p.derived.runs[d] = r
	return r
}
