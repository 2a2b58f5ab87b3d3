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
	at, ok := x.Store.(exec.ExistingIncrementer)
	if !ok {
		return nil, fmt.Errorf("SET n = n + k needs a store that increments a counter of a row that exists, atomically (HBase's checkAndMutate of an Increment); this store cannot")
	}
	t := u.Table
	if key, ok := u.Find.PointKey(); ok {
		n, err := incrementRow(ctx, at, u, key)
		if err != nil {
			return nil, writeFailed(ctx, "UPDATE", 0, false, &exec.BatchError{Rows: 1, Err: err})
		}
		return &Result{Tag: fmt.Sprintf("UPDATE %d", n)}, nil
	}
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
		n, err := incrementRow(ctx, at, u, key)
		if err != nil {
			return nil, writeFailed(ctx, "UPDATE", done, false, &exec.BatchError{Rows: 1, Err: err})
		}
		done += n
	}
	return &Result{Tag: fmt.Sprintf("UPDATE %d", done)}, nil
}

// incrementRow adds each counter of u to the row key, if the row exists
// (1) or not (0): one conditional Increment per counter, each atomic.
// A row another client deletes between the read that found it and its
// increment is not made again.
func incrementRow(ctx context.Context, at exec.ExistingIncrementer, u *planner.Update, key []byte) (int64, error) {
	t := u.Table
	for i, a := range u.Set {
		c := &t.Columns[a.Column]
		_, ok, err := at.IncrementExisting(ctx, t.Physical, key, c.Family, c.Qualifier, a.Delta)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", a.Source, err)
		}
		if !ok && i == 0 {
			return 0, nil
		}
	}
	return 1, nil
}

// noReadModel is the EXPLAIN of a write that reads nothing first: its
// last step alone, with the key of the read it replaces, and its cost.
func noReadModel(m *planner.Explained) *planner.Explained {
	w := m.Steps[len(m.Steps)-1]
	var attrs []planner.Attr
	for _, st := range m.Steps[:len(m.Steps)-1] {
		for _, a := range st.Attrs {
			if a.Label == "KEY" || a.Label == "BYTES" {
				attrs = append(attrs, a)
			}
		}
	}
	out := &planner.Explained{Steps: []planner.Step{{Op: w.Op, Title: w.Title, Attrs: append(attrs, w.Attrs...)}}}
	for _, a := range m.Plan {
		if a.Label != "COST" {
			out.Plan = append(out.Plan, a)
		}
	}
	out.Plan = append(out.Plan, planner.Attr{Label: "COST", Value: "1 RPC per counter set, to the key's region: no read first"})
	return out
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
