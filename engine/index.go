package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
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
	res := rowsResult(cols, []catalog.Row{row})
	if !c.Repair && !rep.Clean() {
		// The report is shown, and then the statement fails, as rkql
		// store check does on damage.
		res.Rows = &failAfter{sliceRows: sliceRows{rows: []catalog.Row{row}},
			err: &IndexMismatchError{Index: c.Index.Name, Table: c.Table.Name, Report: rep}}
	}
	return res, nil
}

// IndexMismatchError is CHECK INDEX finding an index that does not match
// its data table. It follows the report's row.
type IndexMismatchError struct {
	Index, Table string
	Report       exec.IndexReport
}

func (e *IndexMismatchError) Error() string {
	r := e.Report
	var parts []string
	for _, p := range []struct {
		n    int64
		what string
	}{{r.Missing, "missing"}, {r.Orphans, "orphan"}, {r.Unverified, "unverified"}, {r.Stale, "stale"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return fmt.Sprintf("index %s does not match table %s: %s %s (CHECK INDEX %s REPAIR rewrites them)",
		e.Index, e.Table, strings.Join(parts, ", "), plural(r.Missing+r.Orphans+r.Unverified+r.Stale, "entry", "entries"), e.Index)
}

// failAfter serves rows held in memory, then fails with err.
type failAfter struct {
	sliceRows
	err error
}

func (f *failAfter) Next(ctx context.Context) (catalog.Row, error) {
	r, err := f.sliceRows.Next(ctx)
	if errors.Is(err, io.EOF) {
		return nil, f.err
	}
	return r, err
}
