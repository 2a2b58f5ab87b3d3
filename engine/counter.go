package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// cellAtomic returns the store's atomic cell operations, or an error
// naming what the statement needs of the store.
func cellAtomic(x *exec.Executor, what string) (exec.CellAtomic, error) {
	at, ok := x.Store.(exec.CellAtomic)
	if !ok {
		return nil, fmt.Errorf("%s needs a store that changes a cell atomically (HBase's Increment and checkAndMutate); this store cannot", what)
	}
	return at, nil
}

// atomicUpdate runs an UPDATE the store does atomically: counters, each
// row the read finds given one Increment per counter, or a compare-and-
// put of one row. Each store call is atomic on its own; the statement is
// not one transaction (on either store), so that concurrent statements
// interleave by row, as HBase's clients do.
func atomicUpdate(ctx context.Context, x *exec.Executor, u *planner.Update) (*Result, error) {
	if u.Check != nil {
		return checkAndPut(ctx, x, u)
	}
	at, err := cellAtomic(x, "SET n = n + k")
	if err != nil {
		return nil, err
	}
	t := u.Table
	rows, err := x.Query(ctx, u.Find, &exec.Stats{})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var done int64
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, writeFailed(ctx, "UPDATE", done, false, err)
		}
		key, err := t.EncodeKey(r[:len(t.Columns)], nil)
		if err != nil {
			return nil, writeFailed(ctx, "UPDATE", done, false, err)
		}
		for _, a := range u.Set {
			c := &t.Columns[a.Column]
			if _, err := at.Increment(ctx, t.Physical, key, c.Family, c.Qualifier, a.Delta); err != nil {
				return nil, writeFailed(ctx, "UPDATE", done, false, &exec.BatchError{Rows: 1, Err: fmt.Errorf("%s: %w", a.Source, err)})
			}
		}
		done++
	}
	return &Result{Tag: fmt.Sprintf("UPDATE %d", done)}, nil
}

// checkAndPut runs a single-row UPDATE … WHERE <key> AND col = v as one
// compare-and-put: a row the key does not find is not written (UPDATE
// 0); one found is written with the set columns only if col holds v (or
// no cell, for col IS NULL) in the store at the moment of the write.
func checkAndPut(ctx context.Context, x *exec.Executor, u *planner.Update) (*Result, error) {
	at, err := cellAtomic(x, "UPDATE … WHERE <key> AND "+u.Check.Source)
	if err != nil {
		return nil, err
	}
	t := u.Table
	rows, err := x.Query(ctx, u.CheckFind, &exec.Stats{})
	if err != nil {
		return nil, err
	}
	r, err := rows.Next(ctx)
	rows.Close()
	if errors.Is(err, io.EOF) {
		return &Result{Tag: "UPDATE 0"}, nil
	}
	if err != nil {
		return nil, err
	}
	row := t.NewRow()
	copy(row, r[:len(t.Columns)])
	cols := t.KeyColumns()
	for _, a := range u.Set {
		v, err := a.Value.Value(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Source, err)
		}
		row[a.Column] = v
		cols = append(cols, a.Column)
	}
	m, err := exec.RowMutation(t, row, 0, nil, cols)
	if err != nil {
		return nil, err
	}
	c := &t.Columns[u.Check.Column]
	var expected []byte
	if !u.Check.Value.Null {
		expected = c.EncodeCell(u.Check.Value)
	}
	ok, err := at.CheckAndPut(ctx, t.Physical, m, c.Family, c.Qualifier, expected)
	if err != nil {
		return nil, writeFailed(ctx, "UPDATE", 0, false, &exec.BatchError{Rows: 1, Err: err})
	}
	if !ok {
		return &Result{Tag: "UPDATE 0"}, nil
	}
	return &Result{Tag: "UPDATE 1"}, nil
}
