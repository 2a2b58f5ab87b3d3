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
	var deleted int
	atomic, err := x.Atomically(ctx, func() error {
		var err error
		deleted, err = x.Delete(ctx, d, progress)
		return err
	})
	if err != nil {
		return nil, writeFailed(ctx, "DELETE", int64(deleted), atomic, err)
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

// writeFailed is the error of a write statement that failed after it
// wrote done rows; atomic says the store undid them all. The rows of a
// write that failed (an exec.BatchError) may have been written too. A
// statement that failed before writing anything, other than by its
// deadline or cancel, keeps its own error.
func writeFailed(ctx context.Context, verb string, done int64, atomic bool, err error) error {
	if done == 0 && ctx.Err() == nil {
		return err
	}
	var unsure int64
	if be := (*exec.BatchError)(nil); errors.As(err, &be) {
		unsure = int64(be.Rows)
	}
	if ue := (*exec.UniqueError)(nil); errors.As(err, &ue) {
		unsure = 0 // refused before the write
	}
	return &WriteError{Verb: verb, Done: done, Unsure: unsure, Undone: atomic, Err: err}
}

// updateBatch is how many rows an UPDATE writes at a time.
const updateBatch = 1000

// update runs UPDATE: it reads the rows its WHERE finds, computes each
// new value from the row, and writes the key fields and the set columns
// back; the write moves index entries as an INSERT's does. On a store
// that can, the whole statement is one unit.
func (e *Engine) update(ctx context.Context, u *planner.Update) (*Result, error) {
	x, err := e.writer(ctx, u.Table)
	if err != nil {
		return nil, err
	}
	if u.Counters || u.Check != nil {
		return atomicUpdate(ctx, x, u)
	}
	w := &updater{x: x, u: u, cols: u.Table.KeyColumns()}
	for _, a := range u.Set {
		w.cols = append(w.cols, a.Column)
	}
	atomic, err := x.Atomically(ctx, func() error { return w.run(ctx) })
	if err != nil {
		return nil, writeFailed(ctx, "UPDATE", w.done, atomic, err)
	}
	return &Result{Tag: fmt.Sprintf("UPDATE %d", w.done)}, nil
}

// updater writes an UPDATE's rows in batches, counting those written.
type updater struct {
	x     *exec.Executor
	u     *planner.Update
	cols  []int
	batch []catalog.Row
	done  int64 // rows written
}

func (w *updater) run(ctx context.Context) error {
	t := w.u.Table
	rows, err := w.x.Query(ctx, w.u.Find, &exec.Stats{})
	if err != nil {
		return err
	}
	defer rows.Close()
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		row := t.NewRow()
		copy(row, r[:len(t.Columns)])
		var patches map[int][]catalog.MapEntry
		for _, a := range w.u.Set {
			v, err := a.Value.Value(r)
			if err != nil {
				return fmt.Errorf("%s: %w", a.Source, err)
			}
			if t.Columns[a.Column].Type == catalog.TypeMap {
				if patches == nil {
					patches = map[int][]catalog.MapEntry{}
				}
				patches[a.Column] = append(patches[a.Column], mapPatch(a, r[a.Column], v)...)
				continue
			}
			row[a.Column] = v
		}
		for col, es := range patches {
			// A MAP is written as the change to its family
			// (exec.RowMutation): the entries set, and NULL for those
			// deleted.
			row[col] = catalog.Null(catalog.TypeMap)
			if len(es) > 0 {
				row[col] = catalog.NewMap(es)
			}
		}
		w.batch = append(w.batch, row)
		if len(w.batch) == updateBatch {
			if err := w.flush(ctx); err != nil {
				return err
			}
		}
	}
	return w.flush(ctx)
}

// mapPatch is the change one assignment makes to a MAP column that
// holds a family: m[k] = v sets one entry (v NULL deletes it); m = NULL
// deletes every entry old holds.
func mapPatch(a planner.Assignment, old, v catalog.Value) []catalog.MapEntry {
	if a.Key != nil {
		k, _ := a.Key.Value(nil) // a constant
		return []catalog.MapEntry{{Key: k, Val: v}}
	}
	if old.Null {
		return nil
	}
	es := make([]catalog.MapEntry, 0, old.M.Len())
	for _, e := range old.M.Entries {
		es = append(es, catalog.MapEntry{Key: e.Key, Val: catalog.Null(e.Val.Type)})
	}
	return es
}

func (w *updater) flush(ctx context.Context) error {
	if len(w.batch) == 0 {
		return nil
	}
	if err := w.x.InsertColumns(ctx, w.u.Table, w.cols, w.batch, 0, nil); err != nil {
		return err
	}
	w.done += int64(len(w.batch))
	w.batch = w.batch[:0]
	return nil
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
