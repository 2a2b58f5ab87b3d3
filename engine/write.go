package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// deleteRows runs DELETE: the rows its WHERE finds are counted, the
// session is asked whether to delete that many, and then they go, with
// their index entries.
func (e *Engine) deleteRows(ctx context.Context, d *planner.Delete) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.ensure(ctx, x, d.Table); err != nil {
		return nil, err
	}
	n, err := countRows(ctx, x, d.Find)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return &Result{Tag: "DELETE 0"}, nil
	}
	yes, err := e.ask(ctx, fmt.Sprintf("delete %s of %s", fmt.Sprintf("%d %s", n, plural(n, "row", "rows")), d.Table.Name))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, fmt.Errorf("DELETE would remove %s of %s: not confirmed, nothing was deleted (in a script, --yes confirms)", fmt.Sprintf("%d %s", n, plural(n, "row", "rows")), d.Table.Name)
	}
	var progress func(int)
	if e.progress != nil {
		progress = func(n int) { e.progress(int64(n)) }
	}
	deleted, err := x.Delete(ctx, d, progress)
	if err != nil {
		return nil, err
	}
	return &Result{Tag: fmt.Sprintf("DELETE %d", deleted)}, nil
}

// countRows counts the rows a plan finds.
func countRows(ctx context.Context, x *exec.Executor, sel *planner.Select) (int64, error) {
	rows, err := x.Query(ctx, sel, &exec.Stats{})
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for {
		_, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// updateBatch is how many rows an UPDATE writes at a time.
const updateBatch = 1000

// update runs UPDATE: it reads the rows its WHERE finds, computes each
// new value from the row, and writes the key fields and the set columns
// back; the write moves index entries as an INSERT's does.
func (e *Engine) update(ctx context.Context, u *planner.Update) (*Result, error) {
	x, err := e.writer(ctx, u.Table)
	if err != nil {
		return nil, err
	}
	t := u.Table
	cols := t.KeyColumns()
	for _, a := range u.Set {
		cols = append(cols, a.Column)
	}
	rows, err := x.Query(ctx, u.Find, &exec.Stats{})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var batch []catalog.Row
	n := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := x.InsertColumns(ctx, t, cols, batch, 0, nil); err != nil {
			return fmt.Errorf("UPDATE after %d rows: %w", n, err)
		}
		n += len(batch)
		batch = batch[:0]
		return nil
	}
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		row := t.NewRow()
		copy(row, r[:len(t.Columns)])
		for _, a := range u.Set {
			v, err := a.Value.Value(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a.Source, err)
			}
			row[a.Column] = v
		}
		batch = append(batch, row)
		if len(batch) == updateBatch {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return &Result{Tag: fmt.Sprintf("UPDATE %d", n)}, nil
}

// Replaced counts the keys among keys that t already holds, and those
// that repeat a key before them in keys: how many of the rows about to be
// written replace a row rather than add one. The examples loader and rkql
// import report it. A table never created holds none.
func (e *Engine) Replaced(ctx context.Context, t *catalog.Table, keys [][]byte) (int64, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	seen := make(map[string]bool, len(keys))
	uniq := make([][]byte, 0, len(keys))
	for _, k := range keys {
		if seen[string(k)] {
			n++
			continue
		}
		seen[string(k)] = true
		uniq = append(uniq, k)
	}
	opts := exec.ReadOptions{Table: t}
	if x.Store.Pushdown().Features().KeysOnly {
		opts.Columns = []int{}
	}
	found, err := x.Store.Get(ctx, t.Physical, uniq, opts)
	if errors.Is(err, exec.ErrTableNotFound) {
		return n, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading which keys exist: %w", err)
	}
	return n + int64(len(found)), nil
}

// RowKeys returns the keys rows of t are written under; ok is false for
// a layout with a random component, whose keys are drawn at write time.
func RowKeys(t *catalog.Table, rows []catalog.Row) (keys [][]byte, ok bool, err error) {
	for _, c := range t.Key.Components {
		if c.Kind == catalog.KindRandom {
			return nil, false, nil
		}
	}
	keys = make([][]byte, len(rows))
	for i, r := range rows {
		if t.Wide != nil {
			if r, err = t.Wide.Complete(r); err != nil {
				return nil, true, err
			}
		}
		if keys[i], err = t.EncodeKey(r, nil); err != nil {
			return nil, true, err
		}
	}
	return keys, true, nil
}
