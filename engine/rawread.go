package engine

import (
	"context"
	"errors"
	"io"

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
		var stats exec.Stats
		begin := e.cfg.Clock()
		rows, err := x.ReadRaw(ctx, p.Read, &stats)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var n int64
		for {
			_, err := rows.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			n++
		}
		an = &planner.Analysis{
			RowsRead: stats.RowsRead.Load(), RowsReceived: stats.RowsReceived.Load(), RowsReturned: n,
			Cells: stats.Cells.Load(), Bytes: stats.Bytes.Load(), RPCs: stats.RPCs.Load(), Regions: stats.Regions.Load(),
			Millis: float64(e.cfg.Clock().Sub(begin).Microseconds()) / 1000,
		}
	}
	model := p.Read.Explain(x.Store.Pushdown().StoreName(), an)
	if p.JSON {
		return &Result{Text: model.JSON()}, nil
	}
	return &Result{Text: model.Text()}, nil
}
