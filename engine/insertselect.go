package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// insertSelect runs INSERT … SELECT: the query's rows are written as
// they come, planner.InsertBatch at a time, each with its index entries,
// as rkql import writes. It is not one unit: a failure says how many rows
// were written before it.
func (e *Engine) insertSelect(ctx context.Context, ins *planner.Insert) (*Result, error) {
	verb := "INSERT"
	if ins.Upsert {
		verb = "UPSERT"
	}
	t := ins.Table
	x, err := e.writer(ctx, t)
	if err != nil {
		return nil, err
	}
	src, err := e.query(ctx, ins.Source)
	if err != nil {
		return nil, err
	}
	// copyRow copies each value of a row of the query into a row of its
	// own before the next is read: the query may decode each row into
	// the memory of the one before.
	src.ReuseRows()
	// The query is read and its rows checked on a goroutine of its own,
	// up to copyReadAhead batches ahead of the writes, as rkql import
	// reads its input.
	rctx, cancel := context.WithCancel(ctx)
	batches := make(chan copyBatch, copyReadAhead)
	go func() {
		defer close(batches)
		defer src.Rows.Close()
		readCopyBatches(rctx, ins, src, batches)
	}()
	defer func() {
		cancel()
		for range batches { // until the reader has stopped
		}
	}()
	var written int64
	for b := range batches {
		if b.err != nil {
			return nil, writeFailed(ctx, verb, written, false, b.err)
		}
		if err := x.InsertColumns(ctx, t, ins.Columns, b.rows, ins.Timestamp, nil); err != nil {
			return nil, writeFailed(ctx, verb, written, false, err)
		}
		written += int64(len(b.rows))
		if e.progress != nil {
			e.progress(written)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, writeFailed(ctx, verb, written, false, err)
	}
	return &Result{Tag: fmt.Sprintf("%s %d", verb, written)}, nil
}

// copyReadAhead is how many batches of its query INSERT … SELECT holds
// read and checked, besides the one it is writing and the one it is
// reading: a read that stalls for a moment (a region server's next
// scanner call) does not hold up the writes.
const copyReadAhead = 2

// copySlab is how many rows of a batch of INSERT … SELECT share an
// allocation.
const copySlab = 256

// copyBatch is rows of the query of INSERT … SELECT, made rows of the
// target, or the error that ends the copy.
type copyBatch struct {
	rows []catalog.Row
	err  error
}

// readCopyBatches reads src's rows into batches of ins's target rows.
func readCopyBatches(ctx context.Context, ins *planner.Insert, src *Result, out chan<- copyBatch) {
	t := ins.Table
	keys := t.KeyColumns()
	send := func(b copyBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	// The rows of a batch are cut from allocations of up to copySlab
	// rows, each filled from a row of NULLs: the batch is the writer's
	// until written, and the next batch has its own.
	empty := t.NewRow()
	width := len(empty)
	var slab []catalog.Value
	batch := make([]catalog.Row, 0, planner.InsertBatch)
	for n := 1; ; n++ {
		in, err := src.Rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			send(copyBatch{err: err})
			return
		}
		if len(slab) == 0 {
			slab = make([]catalog.Value, width*min(copySlab, cap(batch)-len(batch)))
		}
		dst := catalog.Row(slab[:width:width])
		slab = slab[width:]
		copy(dst, empty)
		row, err := copyRow(t, ins.Columns, keys, in, dst)
		if err != nil {
			send(copyBatch{err: fmt.Errorf("row %d of the SELECT: %w", n, err)})
			return
		}
		batch = append(batch, row)
		if len(batch) == cap(batch) {
			if !send(copyBatch{rows: batch}) {
				return
			}
			batch, slab = make([]catalog.Row, 0, planner.InsertBatch), nil
		}
	}
	if len(batch) > 0 {
		send(copyBatch{rows: batch})
	}
}

// copyRow is the row of t that a query's row in writes to cols, made in
// row, a row of t's width that holds NULLs.
func copyRow(t *catalog.Table, cols, keys []int, in, row catalog.Row) (catalog.Row, error) {
	for i, c := range cols {
		v, err := assign(in[i], t.Columns[c])
		if err != nil {
			return nil, err
		}
		row[c] = v
	}
	for _, k := range keys {
		if row[k].Null {
			return nil, fmt.Errorf("a NULL key field %s: a row of %s needs every key field", t.Columns[k].Name, t.Name)
		}
	}
	return planner.CompleteRow(t, row)
}

// assign is v as a value of column col: the planner has checked that the
// types go together; an INT column takes a BIGINT that fits.
func assign(v catalog.Value, col catalog.Column) (catalog.Value, error) {
	if v.Null {
		return catalog.Value{Type: col.Type, Null: true}, nil
	}
	switch {
	case v.Type == col.Type:
		return v, nil
	case col.Type == catalog.TypeInt && v.Type == catalog.TypeBigint:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return catalog.Value{}, fmt.Errorf("%d does not fit INT column %s", v.I, col.Name)
		}
		return catalog.Value{Type: catalog.TypeInt, I: v.I}, nil
	case col.Type == catalog.TypeBigint && v.Type == catalog.TypeInt:
		return catalog.Value{Type: catalog.TypeBigint, I: v.I}, nil
	}
	return catalog.Value{}, fmt.Errorf("a %s value for %s column %s", v.Type, col.Type, col.Name)
}
