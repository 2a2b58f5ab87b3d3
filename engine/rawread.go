package engine

import (
	"context"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// rawRead runs SELECT … FROM RAW: the cells of an HBase table, with no
// catalog entry. It never creates the table.
func (e *Engine) rawRead(ctx context.Context, r *planner.RawRead) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	stats := &exec.Stats{}
	rows, err := x.ReadRaw(ctx, r, stats)
	if err != nil {
		return nil, err
	}
	cols := make([]Column, len(r.Output))
	for i, o := range r.Output {
		cols[i] = Column{Name: o.Name, Type: o.Type}
	}
	return &Result{Columns: cols, Rows: rows, Stats: stats}, nil
}

// rawExplain is EXPLAIN [ANALYZE] of a raw read; ANALYZE runs it and
// counts what travelled.
func (e *Engine) rawExplain(ctx context.Context, p *planner.RawExplain) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	var an *planner.Analysis
	if p.Analyze {
		if an, err = e.measure(ctx, func(stats *exec.Stats) (exec.Rows, error) { return x.ReadRaw(ctx, p.Read, stats) }); err != nil {
			return nil, err
		}
	}
	model := p.Read.Explain(x.Store.Pushdown().StoreName(), an)
	if p.JSON {
		return &Result{Text: model.JSON()}, nil
	}
	return &Result{Text: model.Text()}, nil
}
