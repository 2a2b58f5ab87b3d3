package exec

import (
	"context"

	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// derived opens the rows of a derived table: its SELECT's plan, placed
// as a plan of its own (placeDerived), run, its outputs streamed to the
// steps above.
func (x *Executor) derived(ctx context.Context, p *placed.Plan, d *planner.Derived, stats *Stats) (rowIter, error) {
	ip := p.Derived(d)
	if ip == nil {
		ip = placed.New(d.Inner)
		p.SetDerived(d, ip)
	}
	rows, err := x.Run(ctx, ip, stats)
	if err != nil {
		return nil, err
	}
	return &derivedIter{in: rows, run: p.StartDerived(d)}, nil
}

// derivedIter passes on the rows of a derived table's SELECT, counting
// them.
type derivedIter struct {
	in  Rows
	run *planner.DerivedRun
}

func (d *derivedIter) next(ctx context.Context) (*Row, error) {
	r, err := d.in.Next(ctx)
	if err != nil {
		return nil, err
	}
	d.run.Rows++
	return &Row{Vals: r}, nil
}

func (d *derivedIter) close() { d.in.Close() }
