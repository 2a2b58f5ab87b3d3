package exec

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// Executor runs plans against a Store.
type Executor struct {
	Store Store
	// SortBudget is the most rows a client sort without LIMIT may hold;
	// 0 means 1,000,000.
	SortBudget int
	// GroupBudget is the most groups (and DISTINCT values) a hash
	// aggregation may hold; 0 means 1,000,000.
	GroupBudget int
	// DistinctBudget is the most distinct rows a client DISTINCT (and a
	// union of OR branches) may hold; 0 means 1,000,000.
	DistinctBudget int
	// WriteClock returns the cell timestamp, in ms, of a write to an
	// indexed table that names none. Index upkeep must know the
	// timestamp a write lands at to tell which version a row will show
	// (a cell written earlier with a later timestamp stays visible), so
	// such writes carry one. It should never go backwards; nil means the
	// wall clock.
	WriteClock func() int64
	// UIDs reads OpenTSDB's uids and names; nil makes one over Store on
	// first use.
	UIDs    *UIDs
	uidOnce sync.Once
}

// writeTime is the timestamp of a write to an indexed table.
func (x *Executor) writeTime() int64 {
	if x.WriteClock != nil {
		return x.WriteClock()
	}
	return time.Now().UnixMilli()
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

// Query starts a SELECT as planned, with every filter in the client.
// stats may be nil.
func (x *Executor) Query(ctx context.Context, sel *planner.Select, stats *Stats) (Rows, error) {
	return x.Run(ctx, placed.New(sel), stats)
}

// Run starts a placed SELECT (see Place). stats may be nil. Running
// changes nothing of the plan; a store that cannot compute an aggregate
// after all gives it back to the client, and p then says so.
func (x *Executor) Run(ctx context.Context, p *placed.Plan, stats *Stats) (Rows, error) {
	if stats == nil {
		stats = &Stats{}
	}
	it, err := x.build(ctx, p, p.Root(), stats, planner.NoLimit)
	if err != nil {
		return nil, err
	}
	return &project{in: it, out: p.Select().Output}, nil
}

// access opens the read of a plan's leaf.
func (x *Executor) access(ctx context.Context, acc *placed.Scan, stats *Stats) (rowIter, error) {
	switch acc.Kind {
	case planner.EmptyResult:
		return &sliceIter{}, nil
	case planner.PointLookup:
		if acc.Limit == 0 {
			return x.pointRows(ctx, acc, stats), nil
		}
		rows, err := x.points(ctx, acc, stats)
		if err != nil {
			return nil, err
		}
		return &sliceIter{rows: rows}, nil
	}
	if len(acc.Parts) > 0 {
		return x.parallelAccess(acc, stats), nil
	}
	dec := x.decoder(ctx, acc.Table, acc.Columns)
	if acc.MultiRange {
		return x.multiRange(ctx, acc, stats, dec)
	}
	return &concatIter{x: x, acc: acc, stats: stats, dec: dec}, nil
}

// multiRange reads an access's ranges, in key order, with one scan that
// the store narrows to them.
func (x *Executor) multiRange(ctx context.Context, acc *placed.Scan, stats *Stats, dec *decoder) (rowIter, error) {
	ri := &rangeIter{x: x, acc: acc, stats: stats, dec: dec, versions: acc.Versions,
		r: Range{Start: acc.Ranges[0].Start, Stop: acc.Ranges[len(acc.Ranges)-1].Stop}}
	for _, r := range acc.Ranges {
		ri.ranges = append(ri.ranges, Range{Start: r.Start, Stop: r.Stop})
	}
	if err := ri.open(ctx, ri.r, acc.Limit); err != nil {
		return nil, err
	}
	return &concatIter{x: x, acc: acc, stats: stats, dec: dec, i: len(acc.Ranges), open: []*rangeIter{ri}}, nil
}

// countsKeys reports whether counting acc's rows needs their keys alone.
func countsKeys(acc *placed.Scan) bool {
	return acc.KeysOnly && acc.Versions <= 1 && acc.Kind != planner.PointLookup && acc.Kind != planner.EmptyResult && !acc.Table.Expands()
}

// readOptions are the store options of one range of an access.
func readOptions(acc *placed.Scan, stats *Stats) ReadOptions {
	return ReadOptions{Versions: acc.Versions, Reverse: acc.Reverse, Stats: stats, Table: acc.Table,
		Columns: acc.Columns, Filter: acc.Filter, Limit: int(acc.Limit), NoBlockCache: acc.NoBlockCache, TimeRange: timeRange(acc),
		Qualifiers: qualifierRanges(acc), Entries: projectedEntries(acc)}
}

// rangeIter reads one key range and decodes its rows. When the store
// stops at the access's limit but some of the rows it sent did not fit
// the layout, it reads on from the last key for the rows still owed.
type rangeIter struct {
	x        *Executor
	acc      *placed.Scan
	stats    *Stats
	it       RowIter
	r        Range
	versions int
	// ranges, when set, are the ranges inside r that one scan reads.
	ranges  []Range
	pending []*Row
	dec     *decoder
	// cur is the limit of the current store iterator; got counts the rows
	// it sent; good counts the rows, over every iterator, that decoded.
	cur, got, good int64
	last           []byte
	// keysOnly checks each key against the layout and yields one shared
	// empty row per good key: for a count.
	keysOnly bool
	// order is, for a part of a parallel read, its place in key order
	// from 1; 0 for a serial read.
	order int
}

// keyRow is what a keys-only rangeIter yields for every good key.
var keyRow = &Row{}

func (x *Executor) openRange(ctx context.Context, acc *placed.Scan, r planner.KeyRange, stats *Stats, dec *decoder) (*rangeIter, error) {
	ri := &rangeIter{x: x, acc: acc, stats: stats, dec: dec, versions: acc.Versions, r: Range{Start: r.Start, Stop: r.Stop}}
	return ri, ri.open(ctx, ri.r, acc.Limit)
}

func (ri *rangeIter) open(ctx context.Context, r Range, limit int64) error {
	opts := readOptions(ri.acc, ri.stats)
	opts.Limit = int(limit)
	opts.Ranges = ri.ranges
	it, err := ri.x.Store.Scan(ctx, ri.acc.Table.Physical, r, opts)
	ri.it, ri.cur, ri.got = it, limit, 0
	return err
}

func (ri *rangeIter) next(ctx context.Context) (*Row, error) {
	for len(ri.pending) == 0 {
		sr, err := ri.it.Next(ctx)
		if err == io.EOF && ri.reopen() {
			ri.it.Close()
			if err := ri.open(ctx, ri.rest(), ri.acc.Limit-ri.good); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		ri.got++
		ri.last = append(ri.last[:0], sr.Key...)
		ri.stats.received(sr)
		if ri.keysOnly {
			if err := ri.dec.checkKey(sr.Key); err != nil {
				ri.stats.malformedIn(err, ri.order)
				continue
			}
			ri.good++
			return keyRow, nil
		}
		if ri.pending, err = ri.dec.decodeVersions(sr, ri.versions); !ri.stats.decodedAt(err, ri.order) {
			// A row that does not fit the layout is skipped and counted,
			// so that one bad row does not stop a scan.
			ri.pending = nil
			continue
		}
		ri.good++
	}
	row := ri.pending[0]
	ri.pending = ri.pending[1:]
	return row, nil
}

// reopen reports whether the store stopped at the limit while rows are
// still owed because some it sent were skipped.
func (ri *rangeIter) reopen() bool {
	return ri.cur > 0 && ri.got >= ri.cur && ri.good < ri.acc.Limit
}

// rest is the part of the range after the last key read.
func (ri *rangeIter) rest() Range {
	if ri.acc.Reverse {
		return Range{Start: ri.r.Start, Stop: bytes.Clone(ri.last)}
	}
	return Range{Start: append(bytes.Clone(ri.last), 0), Stop: ri.r.Stop}
}

func (ri *rangeIter) close() { ri.it.Close() }

// concatLookahead is how many ranges a concatIter opens ahead of the one
// it reads, so that on a cluster their first round trips overlap.
const concatLookahead = 2

// concatIter reads the ranges one after another, in key order (reversed
// for a reverse scan). It opens the next few ranges before it needs them.
type concatIter struct {
	x     *Executor
	acc   *placed.Scan
	stats *Stats
	dec   *decoder
	i     int          // next range to open
	open  []*rangeIter // opened, in reading order; open[0] is read
	// keysOnly makes each range check keys instead of decoding rows.
	keysOnly bool
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
			if it != nil {
				it.keysOnly = c.keysOnly
			}
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
	// signed is set when component from is SignSplit: its first byte's
	// top bit is the sign, set for the negative values, which sort
	// first.
	signed bool
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	a, b := h.items[i].row, h.items[j].row
	ka, kb := a.Key[a.Offs[h.from]:], b.Key[b.Offs[h.from]:]
	var c int
	if h.signed && len(ka) > 0 && len(kb) > 0 && (ka[0]^kb[0])&0x80 != 0 {
		c = 1 // the signs differ: a is the negative one when its bit is set
		if ka[0]&0x80 != 0 {
			c = -1
		}
	} else {
		c = bytes.Compare(ka, kb)
	}
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

func (x *Executor) merge(ctx context.Context, acc *placed.Scan, m *planner.MergeSort, stats *Stats) (*mergeIter, error) {
	signed := m.From < len(acc.Table.Key.Components) && acc.Table.Key.Components[m.From].SignSplit()
	mi := &mergeIter{h: mergeHeap{from: m.From, desc: m.Desc, signed: signed}}
	dec := x.decoder(ctx, acc.Table, acc.Columns)
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

// limitIter skips the first skip rows, then stops after n rows (never,
// when n is NoLimit).
type limitIter struct {
	in   rowIter
	n    int64
	skip int64
}

func (l *limitIter) next(ctx context.Context) (*Row, error) {
	for ; l.skip > 0; l.skip-- {
		if _, err := l.in.next(ctx); err != nil {
			return nil, err
		}
	}
	if l.n == planner.NoLimit {
		return l.in.next(ctx)
	}
	if l.n <= 0 {
		l.in.close()
		return nil, io.EOF
	}
	l.n--
	return l.in.next(ctx)
}

func (l *limitIter) close() { l.in.close() }

// filterIter passes the rows its condition holds for (CLIENT FILTER); a
// row it cannot decide fails the read.
type filterIter struct {
	in   rowIter
	cond expr.Expr
}

func (f *filterIter) next(ctx context.Context) (*Row, error) {
	for {
		r, err := f.in.next(ctx)
		if err != nil {
			return r, err
		}
		ok, err := expr.Match(f.cond, r.Vals)
		if err != nil {
			return nil, err
		}
		if ok {
			return r, nil
		}
	}
}

func (f *filterIter) close() { f.in.close() }

// countIter yields one row holding the number of its input's rows.
type countIter struct {
	in   rowIter
	done bool
}

func (c *countIter) next(ctx context.Context) (*Row, error) {
	if c.done {
		return nil, io.EOF
	}
	var n int64
	for {
		_, err := c.in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		n++
	}
	c.done = true
	c.in.close()
	return &Row{Vals: catalog.Row{catalog.Bigint(n)}}, nil
}

func (c *countIter) close() { c.in.close() }

// project turns rows into the plan's output columns.
type project struct {
	in   rowIter
	out  []planner.Output
	done bool
	// ident caches identity: 0 unknown, 1 yes, 2 no.
	ident int8
	// reuse is set by ReuseRows; again is then the row Next returns
	// each time.
	reuse bool
	again catalog.Row
}

// RowReuser is Rows that can return each row in the memory of the row
// before it, sparing the allocations of a row, for a reader that keeps no
// row slice past the next call to Next. The strings and bytes inside
// values are never reused.
type RowReuser interface {
	// ReuseRows must be called before the first call to Next.
	ReuseRows()
}

var _ RowReuser = (*project)(nil)

// ReuseRows makes rows share memory where nothing between the read and
// the reader keeps a row: a plain read, filtered or limited in the
// client. Sorts, merges, index lookups and counts keep their own rows.
func (p *project) ReuseRows() {
	p.reuse = true
	in := p.in
	for {
		switch it := in.(type) {
		case *filterIter:
			in = it.in
			continue
		case *limitIter:
			in = it.in
			continue
		case *concatIter:
			if !it.keysOnly && it.acc.Versions <= 1 {
				it.dec.reuse = true
			}
		}
		return
	}
}

// identity reports whether the outputs are columns 0, 1, … in order.
func (p *project) identity() bool {
	if p.ident == 0 {
		p.ident = 1
		for i, o := range p.out {
			if o.Col() != i {
				p.ident = 2
			}
		}
	}
	return p.ident == 1
}

func (p *project) Next(ctx context.Context) (catalog.Row, error) {
	if p.done {
		return nil, io.EOF
	}
	r, err := p.in.next(ctx)
	if err != nil {
		if err == io.EOF {
			p.done = true
		}
		return nil, err
	}
	if p.identity() {
		// The outputs are the row's leading columns in order (SELECT *):
		// each row's values are its own, so they are handed on as they are.
		return r.Vals[:len(p.out):len(p.out)], nil
	}
	out := p.again
	if out == nil {
		out = make(catalog.Row, len(p.out))
		if p.reuse {
			p.again = out
		}
	}
	for i, o := range p.out {
		if out[i], err = o.Expr.Value(r.Vals); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p *project) Close() error {
	p.in.close()
	return nil
}
