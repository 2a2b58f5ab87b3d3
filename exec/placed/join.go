package placed

import (
	"sync"

	"github.com/rkql/rkql/planner"
)

var _ planner.JoinRuns = (*Plan)(nil)

// joinRuns holds what each join step of a plan measured while it ran.
type joinRuns struct {
	mu   sync.Mutex
	runs map[*planner.JoinStep]*planner.JoinRun
}

// JoinRun returns the figures of join step s, which the executor adds to
// while it runs the plan; nil before any run.
func (p *Plan) JoinRun(s *planner.JoinStep) *planner.JoinRun {
	p.joins.mu.Lock()
	defer p.joins.mu.Unlock()
	return p.joins.runs[s]
}

// StartJoin returns fresh figures for a run of join step s.
func (p *Plan) StartJoin(s *planner.JoinStep) *planner.JoinRun {
	p.joins.mu.Lock()
	defer p.joins.mu.Unlock()
	if p.joins.runs == nil {
		p.joins.runs = map[*planner.JoinStep]*planner.JoinRun{}
	}
	r := &planner.JoinRun{}
	p.joins.runs[s] = r
	return r
}
