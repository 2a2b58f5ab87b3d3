package engine

import (
	"context"
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// buildIndex runs BUILD INDEX: every data row's entry is written.
func (e *Engine) buildIndex(ctx context.Context, b *planner.BuildIndex) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.ensure(ctx, x, b.Table); err != nil {
		return nil, err
	}
	n, err := x.BuildIndex(ctx, b.Table, b.Index, e.progress)
	if err != nil {
		return nil, err
	}
	return &Result{Tag: fmt.Sprintf("BUILD INDEX %d", n)}, nil
}

// checkIndex runs CHECK INDEX [REPAIR] and shows what it found as one row.
func (e *Engine) checkIndex(ctx context.Context, c *planner.CheckIndex) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.ensure(ctx, x, c.Table); err != nil {
		return nil, err
	}
	rep, err := x.CheckIndex(ctx, c.Table, c.Index, c.Repair, e.progress)
	if err != nil {
		return nil, err
	}
	names := []string{"data_rows", "entries", "missing", "orphans", "unverified", "stale", "repaired"}
	vals := []int64{rep.DataRows, rep.Entries, rep.Missing, rep.Orphans, rep.Unverified, rep.Stale, rep.Repaired}
	cols := make([]Column, len(names))
	row := make(catalog.Row, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: catalog.TypeBigint}
		row[i] = catalog.Bigint(vals[i])
	}
	return rowsResult(cols, []catalog.Row{row}), nil
}
