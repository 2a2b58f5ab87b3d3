package hbasestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

// errScanClosed is returned by Next after Close.
var errScanClosed = errors.New("hbase store: scan is closed")

// Get reads the rows of keys that exist, in the order of keys, with one
// MultiGet per Options.GetBatch keys (the client sends one Multi RPC per
// region server). Filter and Limit apply to the rows read; Reverse does
// not.
func (s *Store) Get(ctx context.Context, table string, keys [][]byte, opts exec.ReadOptions) ([]*exec.StoreRow, error) {
	if err := checkPushable(opts); err != nil {
		return nil, err
	}
	if opts.Ranges != nil {
		return nil, fmt.Errorf("ranges in a get: %w", exec.ErrNotPushable)
	}
	if opts.Markers && (opts.Filter != nil || opts.Columns != nil || opts.Limit > 0) {
		return nil, fmt.Errorf("delete markers with a filter, projection or limit: %w", exec.ErrNotPushable)
	}
	hopts, err := readOptions(opts)
	if err != nil {
		return nil, err
	}
	var out []*exec.StoreRow
	conv := newConverter()
	for from := 0; from < len(keys); from += s.opts.GetBatch {
		batch := keys[from:min(from+s.opts.GetBatch, len(keys))]
		gets := make([]*hbase.Get, len(batch))
		for i, k := range batch {
			g, err := hbase.NewGet(table, k, hopts...)
			if err != nil {
				return nil, err
			}
			gets[i] = g
		}
		var marks []*hbase.Result
		var markErr error
		done := make(chan struct{})
		if opts.Markers {
			go func() {
				defer close(done)
				marks, markErr = s.markers(ctx, table, batch, opts.Stats)
			}()
		} else {
			close(done)
		}
		res, rs, err := s.c.MultiGetWithStats(ctx, gets)
		<-done
		if st := opts.Stats; st != nil {
			st.RPCs.Add(int64(rs.RPCs))
			st.Bytes.Add(rs.Bytes)
		}
		if err == nil {
			err = markErr
		}
		if err != nil {
			return nil, mapErr(err)
		}
		var read int64
		for i, r := range res {
			var mk []exec.Marker
			if marks != nil {
				mk = conv.markers(marks[i])
			}
			if (r == nil || len(r.Cells) == 0) && len(mk) == 0 {
				continue
			}
			read++
			row := &exec.StoreRow{Key: batch[i]}
			if r != nil && len(r.Cells) > 0 {
				row = conv.row(r)
			}
			row.Markers = mk
			out = append(out, row)
			if opts.Limit > 0 && len(out) >= opts.Limit {
				break
			}
		}
		if st := opts.Stats; st != nil {
			st.RowsRead.Add(read)
			st.Regions.Add(int64(rs.Regions))
		}
		if opts.Limit > 0 && len(out) >= opts.Limit {
			break
		}
	}
	return out, nil
}

// markers reads keys raw, one version of each column (HBase does not
// count markers as versions), for their delete markers: results in the
// order of keys, nil for a row with no cell at all.
func (s *Store) markers(ctx context.Context, table string, keys [][]byte, stats *exec.Stats) ([]*hbase.Result, error) {
	gets := make([]*hbase.Get, len(keys))
	for i, k := range keys {
		g, err := hbase.NewGet(table, k, hbase.Raw())
		if err != nil {
			return nil, err
		}
		gets[i] = g
	}
	res, rs, err := s.c.MultiGetWithStats(ctx, gets)
	if stats != nil {
		stats.RPCs.Add(int64(rs.RPCs))
		stats.Bytes.Add(rs.Bytes)
	}
	return res, err
}

// Scan streams the rows of r. The scanner's first RPC is sent at once in
// the background, so that the scans of a fan-out, opened one after
// another, wait for their first rows together.
// metaTable is HBase's catalog of regions.
const metaTable = "hbase:meta"

// metaStart adjusts a scan start for hbase:meta, whose rows sort by
// HBase's meta comparator (table, start key, region id), not by their
// bytes: there "t," sorts after "t,,<id>.", the row of t's first region,
// so a scan from "t," would miss it. "t,," sorts before it.
func metaStart(start []byte) []byte {
	if i := bytes.IndexByte(start, ','); i >= 0 && i == len(start)-1 {
		return append(bytes.Clone(start), ',')
	}
	return start
}

func (s *Store) Scan(ctx context.Context, table string, r exec.Range, opts exec.ReadOptions) (exec.RowIter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkPushable(opts); err != nil {
		return nil, err
	}
	it := &scanIter{s: s, limit: opts.Limit, stats: opts.Stats, conv: newConverter()}
	if opts.Ranges != nil {
		opts.Ranges = nonEmpty(opts.Ranges)
	}
	if (opts.Ranges != nil && len(opts.Ranges) == 0) || (len(r.Start) > 0 && len(r.Stop) > 0 && bytes.Compare(r.Start, r.Stop) >= 0) {
		it.empty = true
		return it, nil
	}
	hopts, err := readOptions(opts)
	if err != nil {
		return nil, err
	}
	hopts = append(hopts, scanOptions(opts)...)
	if table == metaTable {
		r.Start = metaStart(r.Start)
		for i := range opts.Ranges {
			opts.Ranges[i].Start = metaStart(opts.Ranges[i].Start)
		}
	}
	start, stop := r.Start, r.Stop
	if opts.Reverse {
		// [Start, Stop) backwards: from Stop, left out, down to Start.
		start, stop = stop, start
		hopts = append(hopts, hbase.Reversed(), hbase.ExcludeStart(), hbase.IncludeStop())
	}
	scan, err := hbase.NewScan(table, start, stop, hopts...)
	if err != nil {
		return nil, err
	}
	it.sc = s.c.Scan(scan)
	it.prefetch(ctx)
	return it, nil
}

// nonEmpty drops the ranges that hold no key, keeping a non-nil slice.
func nonEmpty(rs []exec.Range) []exec.Range {
	out := []exec.Range{}
	for _, r := range rs {
		if len(r.Stop) == 0 || bytes.Compare(r.Start, r.Stop) < 0 {
			out = append(out, r)
		}
	}
	return out
}

// fetched is the outcome of the background first Next.
type fetched struct {
	res *hbase.Result
	err error
}

// scanIter is the RowIter of Scan. It is not safe for concurrent use.
type scanIter struct {
	s     *Store
	sc    *hbase.Scanner
	limit int // rows to return; 0 is no limit
	stats *exec.Stats
	conv  *converter

	// first delivers the first row, read in the background; nil once it
	// has been taken. cancel stops that read; done closes when it ends.
	first  chan fetched
	cancel context.CancelFunc
	done   chan struct{}

	reported hbase.ScanStats // scanner stats already added to stats
	n        int             // rows returned
	empty    bool            // the range holds no key
	err      error           // sticky failure
	closed   bool
}

// prefetch starts the first scanner RPC in the background.
func (it *scanIter) prefetch(ctx context.Context) {
	pctx, cancel := context.WithCancel(ctx)
	it.first, it.cancel, it.done = make(chan fetched, 1), cancel, make(chan struct{})
	go func() {
		defer close(it.done)
		r, err := it.sc.Next(pctx)
		it.first <- fetched{r, err}
	}()
}

// Next returns the next row that passes the filter, or io.EOF.
func (it *scanIter) Next(ctx context.Context) (*exec.StoreRow, error) {
	switch {
	case it.closed:
		return nil, errScanClosed
	case it.err != nil:
		return nil, it.err
	case it.empty:
		return nil, io.EOF
	}
	if it.limit > 0 && it.n >= it.limit {
		return nil, io.EOF
	}
	res, err := it.next(ctx)
	it.report()
	if err != nil {
		if err != io.EOF && ctx.Err() == nil {
			err = mapErr(err)
			it.err = err
		}
		return nil, err
	}
	row := it.conv.row(res)
	it.n++
	return row, nil
}

// next takes the background first row, or reads the next one.
func (it *scanIter) next(ctx context.Context) (*hbase.Result, error) {
	if it.first == nil {
		return it.sc.Next(ctx)
	}
	select {
	case f := <-it.first:
		it.first = nil
		if f.err != nil && errors.Is(f.err, context.Canceled) && ctx.Err() == nil {
			// Only the background read was cancelled: read again.
			return it.sc.Next(ctx)
		}
		return f.res, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// report adds the scanner's new RPCs, regions, bytes and the rows the
// servers read (their ROWS_SCANNED) to the stats.
func (it *scanIter) report() {
	if it.stats == nil {
		return
	}
	st := it.sc.Counts() // once per row: Stats would copy the metrics map
	it.stats.RPCs.Add(int64(st.RPCs - it.reported.RPCs))
	it.stats.Regions.Add(int64(st.Regions - it.reported.Regions))
	it.stats.Bytes.Add(st.Bytes - it.reported.Bytes)
	it.stats.RowsRead.Add(st.RowsScanned - it.reported.RowsScanned)
	it.reported = st
}

// Close stops the scan. The server scanner is closed in the background:
// a statement that stops reading, or that timed out on a server that no
// longer answers, does not wait for it.
func (it *scanIter) Close() error {
	if it.closed {
		return nil
	}
	it.closed = true
	if it.sc == nil {
		return nil
	}
	it.cancel()
	sc, done := it.sc, it.done
	it.s.mu.Lock()
	closed := it.s.mu.closed
	if !closed {
		it.s.bg.Add(1)
	}
	it.s.mu.Unlock()
	if closed {
		<-done
		return sc.Close()
	}
	go func() {
		defer it.s.bg.Done()
		<-done
		_ = sc.Close()
	}()
	return nil
}

// converter turns client Results into StoreRows, sharing the strings of
// family and qualifier names between rows.
type converter struct {
	names map[string]string
}

func newConverter() *converter { return &converter{names: map[string]string{}} }

// maxNames bounds the names a converter keeps.
const maxNames = 4096

func (c *converter) name(b []byte) string {
	if s, ok := c.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(c.names) < maxNames {
		c.names[s] = s
	}
	return s
}

// markers converts the delete markers of a raw Result.
func (c *converter) markers(r *hbase.Result) []exec.Marker {
	if r == nil {
		return nil
	}
	var out []exec.Marker
	for _, cell := range r.Cells {
		m := exec.Marker{Family: c.name(cell.Family), Qualifier: c.name(cell.Qualifier), Timestamp: cell.Timestamp}
		switch cell.Type {
		case hbase.CellDeleteColumn:
		case hbase.CellDelete:
			m.Exact = true
		case hbase.CellDeleteFamily:
			m.Qualifier, m.WholeFamily = "", true
		case hbase.CellDeleteFamilyVersion:
			m.Qualifier, m.WholeFamily, m.Exact = "", true, true
		default:
			continue
		}
		out = append(out, m)
	}
	return out
}

// row converts a Result. HBase returns cells sorted by family, qualifier
// and timestamp, newest first, which is the order StoreRow wants.
func (c *converter) row(r *hbase.Result) *exec.StoreRow {
	row := &exec.StoreRow{Key: r.Row, Cells: make([]exec.Cell, 0, len(r.Cells))}
	for _, cell := range r.Cells {
		if cell.Type != 0 && cell.Type != hbase.CellPut {
			continue
		}
		row.Cells = append(row.Cells, exec.Cell{
			Family: c.name(cell.Family), Qualifier: c.name(cell.Qualifier),
			Timestamp: cell.Timestamp, Value: cell.Value,
		})
	}
	return row
}
