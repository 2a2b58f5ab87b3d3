package exec

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// cellWalk hands out the cells of a stream of store rows one at a time,
// in the order the store returned them: the row machinery of SELECT RAW
// and of raw reads.
type cellWalk struct {
	row  *StoreRow
	cell int
}

// next returns the next cell, asking more for the next row once the
// current one is done; a row with no cells is passed over.
func (w *cellWalk) next(ctx context.Context, more func(context.Context) (*StoreRow, error)) (*StoreRow, Cell, error) {
	for w.row == nil || w.cell >= len(w.row.Cells) {
		sr, err := more(ctx)
		if err != nil {
			return nil, Cell{}, err
		}
		w.row, w.cell = sr, 0
	}
	c := w.row.Cells[w.cell]
	w.cell++
	return w.row, c, nil
}

// RawRow is a cell as a raw read's row: planner.RawNames' columns.
func RawRow(key []byte, c Cell) catalog.Row {
	return catalog.Row{catalog.Bytes(key), catalog.String(c.Family), catalog.Bytes([]byte(c.Qualifier)),
		catalog.TimestampMillis(c.Timestamp), catalog.Bytes(c.Value)}
}

// ReadOptions are the store's part of a raw read.
func rawOptions(r *planner.RawRead, stats *Stats) ReadOptions {
	o := ReadOptions{Versions: r.Versions, Reverse: r.Reverse, Limit: r.StoreLimit, Stats: stats}
	if r.Timed {
		o.TimeRange = &TimeRange{From: r.From, To: r.To}
	}
	if r.Families != nil || r.Qualifiers != nil {
		o.Cells = &CellSelect{Families: r.Families, Qualifiers: r.Qualifiers}
	}
	return o
}

// ReadRaw runs a raw read: Gets of its keys or one scan of its range,
// with the time range, cells, versions and direction applied by the
// store, then the client's filter, select list and limit over each cell.
func (x *Executor) ReadRaw(ctx context.Context, r *planner.RawRead, stats *Stats) (Rows, error) {
	if stats == nil {
		stats = &Stats{}
	}
	out := &rawReadRows{r: r}
	if r.Empty {
		return out, nil
	}
	opts := rawOptions(r, stats)
	if (opts.TimeRange != nil || opts.Cells != nil) && !x.Store.Pushdown().Features().Cells {
		return nil, fmt.Errorf("the %s store cannot select cells by time or column: %w", x.Store.Pushdown().StoreName(), ErrNotPushable)
	}
	if r.Keys != nil {
		rows, err := x.Store.Get(ctx, r.Table, r.Keys, opts)
		if err != nil {
			return nil, rawErr(r, err)
		}
		for _, sr := range rows {
			stats.received(sr)
		}
		out.more = func(context.Context) (*StoreRow, error) {
			if len(rows) == 0 {
				return nil, io.EOF
			}
			sr := rows[0]
			rows = rows[1:]
			return sr, nil
		}
		return out, nil
	}
	it, err := x.Store.Scan(ctx, r.Table, Range{Start: r.Start, Stop: r.Stop}, opts)
	if err != nil {
		return nil, rawErr(r, err)
	}
	out.it = it
	out.more = func(ctx context.Context) (*StoreRow, error) {
		sr, err := it.Next(ctx)
		if err != nil {
			return nil, rawErr(r, err)
		}
		stats.received(sr)
		return sr, nil
	}
	return out, nil
}

// rawErr names the table a raw read did not find.
func rawErr(r *planner.RawRead, err error) error {
	if errors.Is(err, ErrTableNotFound) {
		return fmt.Errorf("HBase table '%s' does not exist: %w", r.Table, err)
	}
	return err
}

// rawReadRows is a raw read's result: one row per cell that passes the
// filter, projected, up to the limit.
type rawReadRows struct {
	r    *planner.RawRead
	it   RowIter
	more func(context.Context) (*StoreRow, error)
	walk cellWalk
	n    int64
}

func (o *rawReadRows) Next(ctx context.Context) (catalog.Row, error) {
	if o.more == nil || o.r.Limit >= 0 && o.n >= o.r.Limit {
		return nil, io.EOF
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sr, c, err := o.walk.next(ctx, o.more)
		if err != nil {
			return nil, err
		}
		row := RawRow(sr.Key, c)
		ok, err := expr.Match(o.r.Filter, row)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		out := make(catalog.Row, len(o.r.Output))
		for i, col := range o.r.Output {
			if out[i], err = col.Expr.Value(row); err != nil {
				return nil, err
			}
		}
		o.n++
		return out, nil
	}
}

func (o *rawReadRows) Close() error {
	if o.it != nil {
		return o.it.Close()
	}
	return nil
}
