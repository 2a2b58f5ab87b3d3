package exec

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// Executor runs plans against a Store.
type Executor struct {
	Store Store
	// SortBudget is the most rows a client sort without LIMIT may hold;
	// 0 means 1,000,000.
	SortBudget int
}

// ErrSortBudget is returned when a client sort would hold too many rows.
var ErrSortBudget = errors.New("exec: client sort budget exceeded")

// Rows streams a query's result: each row holds the plan's output columns.
type Rows interface {
	Next(ctx context.Context) (catalog.Row, error)
	Close() error
}

// rowIter is the internal iterator between plan stages.
type rowIter interface {
	next(ctx context.Context) (*Row, error)
	close()
}

// Query starts a SELECT. stats may be nil.
func (x *Executor) Query(ctx context.Context, sel *planner.Select, stats *Stats) (Rows, error) {
	if stats == nil {
		stats = &Stats{}
	}
	acc := sel.Access
	var it rowIter
	switch {
	case acc.Kind == planner.EmptyResult:
		it = &sliceIter{}
	case acc.Kind == planner.PointLookup:
		rows, err := x.points(ctx, acc, stats)
		if err != nil {
			return nil, err
		}
		it = &sliceIter{rows: rows}
	case sel.Merge != nil:
		m, err := x.merge(ctx, acc, sel.Merge, stats)
		if err != nil {
			return nil, err
		}
		it = m
	default:
		it = &concatIter{x: x, acc: acc, stats: stats, dec: newDecoder(acc.Table)}
	}
	if sel.Index != nil {
		lim := sel.Limit
		if sel.Sort != nil {
			lim = -1
		}
		it = x.lookup(it, sel.Index, stats, lim)
	}
	if sel.Sort != nil {
		sorted, err := x.sort(ctx, it, sel.Sort)
		if err != nil {
			return nil, err
		}
		it = sorted
	}
	if sel.Limit >= 0 {
		it = &limitIter{in: it, n: sel.Limit}
	}
	return &project{in: it, out: sel.Output, count: sel.Count}, nil
}

// readOptions are the store options of one range of an access.
func readOptions(acc *planner.Access, stats *Stats) ReadOptions {
	o := ReadOptions{Versions: acc.Versions, Reverse: acc.Reverse, Stats: stats}
	if acc.Filter == nil && acc.Limit > 0 {
		o.Limit = int(acc.Limit)
	}
	return o
}

func (x *Executor) points(ctx context.Context, acc *planner.Access, stats *Stats) ([]*Row, error) {
	keys := make([][]byte, len(acc.Ranges))
	for i, r := range acc.Ranges {
		keys[i] = r.Start
	}
	srs, err := x.Store.Get(ctx, acc.Table.Physical, keys, readOptions(acc, stats))
	if err != nil {
		return nil, err
	}
	dec := newDecoder(acc.Table)
	var out []*Row
	for _, sr := range srs {
		rs, err := dec.decodeVersions(sr, acc.Versions)
		if err != nil {
			stats.malformed(err)
			continue
		}
		for _, r := range rs {
			if planner.Match(acc.Filter, r.Vals) {
				out = append(out, r)
			}
		}
	}
	if acc.Reverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// rangeIter reads one key range: decode, filter, limit.
type rangeIter struct {
	stats    *Stats
	it       RowIter
	versions int
	pending  []*Row
	dec      *decoder
	pred     planner.Pred
	limit    int64
	n        int64
}

func (x *Executor) openRange(ctx context.Context, acc *planner.Access, r planner.KeyRange, stats *Stats, dec *decoder) (*rangeIter, error) {
	it, err := x.Store.Scan(ctx, acc.Table.Physical, Range{Start: r.Start, Stop: r.Stop}, readOptions(acc, stats))
	if err != nil {
		return nil, err
	}
	return &rangeIter{stats: stats, it: it, dec: dec, pred: acc.Filter, limit: acc.Limit, versions: acc.Versions}, nil
}

func (r *rangeIter) next(ctx context.Context) (*Row, error) {
	for {
		if r.limit > 0 && r.n >= r.limit {
			return nil, io.EOF
		}
		if len(r.pending) == 0 {
			sr, err := r.it.Next(ctx)
			if err != nil {
				return nil, err
			}
			if r.pending, err = r.dec.decodeVersions(sr, r.versions); err != nil {
				// A row that does not fit the layout is skipped and
				// counted, so that one bad row does not stop a scan.
				r.stats.malformed(err)
				r.pending = nil
				continue
			}
		}
		row := r.pending[0]
		r.pending = r.pending[1:]
		if planner.Match(r.pred, row.Vals) {
			r.n++
			return row, nil
		}
	}
}

func (r *rangeIter) close() { r.it.Close() }

// concatLookahead is how many ranges a concatIter opens ahead of the one
// it reads, so that on a cluster their first round trips overlap.
const concatLookahead = 2

// concatIter reads the ranges one after another, in key order (reversed
// for a reverse scan). It opens the next few ranges before it needs them.
type concatIter struct {
	x     *Executor
	acc   *planner.Access
	stats *Stats
	dec   *decoder
	i     int          // next range to open
	open  []*rangeIter // opened, in reading order; open[0] is read
}

func (c *concatIter) rangeAt(i int) planner.KeyRange {
	n := len(c.acc.Ranges)
	if c.acc.Reverse {
		return c.acc.Ranges[n-1-i]
	}
	return c.acc.Ranges[i]
}

func (c *concatIter) next(ctx context.Context) (*Row, error) {
	for {
		for c.i < len(c.acc.Ranges) && len(c.open) <= concatLookahead {
			it, err := c.x.openRange(ctx, c.acc, c.rangeAt(c.i), c.stats, c.dec)
			if err != nil {
				return nil, err
			}
			c.i++
			c.open = append(c.open, it)
		}
		if len(c.open) == 0 {
			return nil, io.EOF
		}
		row, err := c.open[0].next(ctx)
		if err == io.EOF {
			c.open[0].close()
			c.open = c.open[1:]
			continue
		}
		return row, err
	}
}

func (c *concatIter) close() {
	for _, it := range c.open {
		it.close()
	}
	c.open = nil
	c.i = len(c.acc.Ranges)
}

// mergeIter merges sorted streams on the key bytes from one component on.
type mergeIter struct {
	its  []*rangeIter
	h    mergeHeap
	init bool
}

type mergeItem struct {
	row *Row
	src int
}

type mergeHeap struct {
	items []mergeItem
	from  int
	desc  bool
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	a, b := h.items[i].row, h.items[j].row
	c := bytes.Compare(a.Key[a.Offs[h.from]:], b.Key[b.Offs[h.from]:])
	if c == 0 {
		c = bytes.Compare(a.Key, b.Key)
	}
	if h.desc {
		return c > 0
	}
	return c < 0
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(mergeItem)) }
func (h *mergeHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

func (x *Executor) merge(ctx context.Context, acc *planner.Access, m *planner.MergeSort, stats *Stats) (*mergeIter, error) {
	mi := &mergeIter{h: mergeHeap{from: m.From, desc: m.Desc}}
	dec := newDecoder(acc.Table)
	for _, r := range acc.Ranges {
		it, err := x.openRange(ctx, acc, r, stats, dec)
		if err != nil {
			mi.close()
			return nil, err
		}
		mi.its = append(mi.its, it)
	}
	return mi, nil
}

func (m *mergeIter) next(ctx context.Context) (*Row, error) {
	if !m.init {
		m.init = true
		for i, it := range m.its {
			row, err := it.next(ctx)
			if err == io.EOF {
				it.close()
				continue
			}
			if err != nil {
				return nil, err
			}
			m.h.items = append(m.h.items, mergeItem{row: row, src: i})
		}
		heap.Init(&m.h)
	}
	if m.h.Len() == 0 {
		return nil, io.EOF
	}
	top := m.h.items[0]
	row, err := m.its[top.src].next(ctx)
	switch {
	case err == io.EOF:
		m.its[top.src].close()
		heap.Pop(&m.h)
	case err != nil:
		return nil, err
	default:
		m.h.items[0].row = row
		heap.Fix(&m.h, 0)
	}
	return top.row, nil
}

func (m *mergeIter) close() {
	for _, it := range m.its {
		it.close()
	}
}

// sliceIter serves rows held in memory.
type sliceIter struct {
	rows []*Row
	i    int
}

func (s *sliceIter) next(context.Context) (*Row, error) {
	if s.i >= len(s.rows) {
		return nil, io.EOF
	}
	s.i++
	return s.rows[s.i-1], nil
}

func (s *sliceIter) close() { s.rows = nil }

// limitIter stops after n rows.
type limitIter struct {
	in rowIter
	n  int64
}

func (l *limitIter) next(ctx context.Context) (*Row, error) {
	if l.n <= 0 {
		l.in.close()
		return nil, io.EOF
	}
	l.n--
	return l.in.next(ctx)
}

func (l *limitIter) close() { l.in.close() }

// project turns rows into the plan's output columns, or counts them.
type project struct {
	in    rowIter
	out   []planner.Output
	count bool
	done  bool
}

func (p *project) Next(ctx context.Context) (catalog.Row, error) {
	if p.done {
		return nil, io.EOF
	}
	if p.count {
		var n int64
		for {
			_, err := p.in.next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			n++
		}
		p.done = true
		return catalog.Row{catalog.Bigint(n)}, nil
	}
	r, err := p.in.next(ctx)
	if err != nil {
		if err == io.EOF {
			p.done = true
		}
		return nil, err
	}
	out := make(catalog.Row, len(p.out))
	for i, o := range p.out {
		out[i] = r.Vals[o.Col]
	}
	return out, nil
}

func (p *project) Close() error {
	p.in.close()
	return nil
}
