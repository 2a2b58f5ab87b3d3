package exec

import (
	"context"
	"errors"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// RawColumns are the columns of SELECT RAW: one row per cell, as the
// HBase shell's scan shows it, with the catalog column the cell is mapped
// to (NULL for a cell the catalog does not map).
var RawColumns = []string{"key", "family", "qualifier", "ts", "value", "column"}

// RawTypes are the types of RawColumns.
var RawTypes = []catalog.Type{catalog.TypeString, catalog.TypeString, catalog.TypeString,
	catalog.TypeTimestamp, catalog.TypeString, catalog.TypeString}

// rawBatch is how many selected rows QueryRaw reads per multi-get.
const rawBatch = 256

// QueryRaw runs a SELECT RAW: every cell of the rows sel selects, in key
// order, key, qualifier and value in Bytes.toStringBinary form, up to the
// statement's VERSIONS per column. A plan that reads the whole table
// with no condition scans the physical table itself, so that rows whose
// key does not fit the layout are shown too; otherwise the rows the plan
// selects are read again by key, with every cell they hold (and an
// OFFSET skips selected rows). The scan of the whole table stops at the
// LIMIT when the placed read has it.
func (x *Executor) QueryRaw(ctx context.Context, p *placed.Plan, stats *Stats) (Rows, error) {
	if stats == nil {
		stats = &Stats{}
	}
	sel := p.Select()
	acc := p.Scan(sel.Access)
	versions := max(acc.Versions, 1)
	r := &rawRows{t: sel.Table, limit: sel.Limit, stats: stats}
	lim, limited := planner.Find[*planner.Limit](sel.Root)
	skips := limited && lim.Offset > 0
	if filtered := clientFiltered(p); acc.Kind == planner.FullScan && !filtered && !skips && acc.Filter == nil && acc.Table == sel.Table {
		// The store stops at the LIMIT placed on the read, which counts
		// rows as SELECT RAW's LIMIT does.
		it, err := x.Store.Scan(ctx, sel.Table.Physical, Range{}, ReadOptions{Versions: versions, Reverse: acc.Reverse, Limit: int(acc.Limit), Stats: stats, TimeRange: timeRange(acc)})
		if err != nil {
			return nil, err
		}
		r.scan = it
		return r, nil
	}
	in, err := x.build(ctx, p, p.Root(), stats, planner.NoLimit)
	if err != nil {
		return nil, err
	}
	r.in = in
	r.fetch = func(ctx context.Context, keys [][]byte) ([]*StoreRow, error) {
		return x.Store.Get(ctx, sel.Table.Physical, keys, ReadOptions{Versions: versions, Stats: stats, TimeRange: timeRange(acc)})
	}
	r.viaIndex = sel.IndexLookup() != nil
	return r, nil
}

// clientFiltered reports whether a filter of p runs in the client.
func clientFiltered(p *placed.Plan) bool {
	for n := p.Root(); n != nil; n = p.Input(n) {
		if _, ok := n.(*planner.Filter); ok {
			return true
		}
	}
	return false
}

// rawRows turns store rows into one result row per cell.
type rawRows struct {
	t        *catalog.Table
	limit    int64
	scan     RowIter // the whole table, when no condition selects rows
	in       rowIter // the rows the plan selects, otherwise
	viaIndex bool
	fetch    func(context.Context, [][]byte) ([]*StoreRow, error)
	pending  []*StoreRow
	last     []byte // the key fetched last: versions of a row come as several rows
	walk     cellWalk
	rows     int64
	stats    *Stats // counts the rows and cells received
}

func (r *rawRows) Next(ctx context.Context) (catalog.Row, error) {
	sr, c, err := r.walk.next(ctx, r.limited)
	if err != nil {
		return nil, err
	}
	col := catalog.Null(catalog.TypeString)
	for i := range r.t.Columns {
		tc := &r.t.Columns[i]
		if (tc.Family == c.Family && tc.Qualifier == c.Qualifier) || tc.MapFamily == c.Family {
			col = catalog.String(tc.Name)
			break
		}
	}
	return catalog.Row{
		catalog.String(catalog.ToStringBinary(sr.Key)), catalog.String(catalog.ToStringBinary([]byte(c.Family))),
		catalog.String(catalog.ToStringBinary([]byte(c.Qualifier))), catalog.TimestampMillis(c.Timestamp),
		catalog.String(catalog.ToStringBinary(c.Value)), col,
	}, nil
}

// limited is nextRow up to the statement's LIMIT, which counts rows.
func (r *rawRows) limited(ctx context.Context) (*StoreRow, error) {
	if r.limit >= 0 && r.rows >= r.limit {
		return nil, io.EOF
	}
	sr, err := r.nextRow(ctx)
	if err != nil {
		return nil, err
	}
	r.rows++
	r.stats.received(sr)
	return sr, nil
}

// nextRow returns the next selected row with all its cells.
func (r *rawRows) nextRow(ctx context.Context) (*StoreRow, error) {
	if r.scan != nil {
		return r.scan.Next(ctx)
	}
	for len(r.pending) == 0 {
		var keys [][]byte
		for len(keys) < rawBatch && (r.limit < 0 || r.rows+int64(len(keys)) < r.limit) {
			row, err := r.in.next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			key := row.Key
			if r.viaIndex {
				// A row found through an index carries the entry's key;
				// an indexed table's key has no random part.
				if key, err = r.t.EncodeKey(row.Vals[:len(r.t.Columns)], nil); err != nil {
					return nil, err
				}
			}
			if r.last != nil && string(key) == string(r.last) {
				continue
			}
			r.last = key
			keys = append(keys, key)
		}
		if len(keys) == 0 {
			return nil, io.EOF
		}
		srs, err := r.fetch(ctx, keys)
		if err != nil {
			return nil, err
		}
		r.pending = srs
	}
	sr := r.pending[0]
	r.pending = r.pending[1:]
	return sr, nil
}

func (r *rawRows) Close() error {
	if r.scan != nil {
		return r.scan.Close()
	}
	if r.in != nil {
		r.in.close()
	}
	return nil
}
