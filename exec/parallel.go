package exec

import (
	"bytes"
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

// Part is one part of a key range that a parallel read gives a scanner
// of its own: a region's share of the range, and the server holding it.
type Part struct {
	Range
	Server string
}

// Parter is a Store that cuts a key range into parts for a read that
// runs their scanners side by side. It is optional: a store without it
// is cut at the boundaries of its Regions.
type Parter interface {
	// Parts cuts r into consecutive ranges, in key order, which together
	// are r: at the store's region boundaries, or, where the store has
	// fewer regions in r than n, into about n slices. of names them for
	// EXPLAIN ("REGIONS", "SLICES").
	Parts(ctx context.Context, table string, r Range, n int) (parts []Part, of string, err error)
}

// ParallelAuto, as PlaceOptions.Parallel, runs one worker per region
// server the read's regions are on, at most MaxAutoParallel.
const ParallelAuto = -1

// MaxAutoParallel caps the workers ParallelAuto runs; MaxParallel caps
// the workers any read runs.
const (
	MaxAutoParallel = 16
	MaxParallel     = 64
)

// partsOf cuts r at the store's parts.
func partsOf(ctx context.Context, st Store, table string, r Range, n int) ([]Part, string, error) {
	if p, ok := st.(Parter); ok {
		return p.Parts(ctx, table, r, n)
	}
	regions, err := st.Regions(ctx, table)
	if err != nil {
		return nil, "", err
	}
	return RegionParts(regions, r), "REGIONS", nil
}

// RegionParts cuts r at the boundaries of regions, which are in key
// order and tile the table.
func RegionParts(regions []Region, r Range) []Part {
	var out []Part
	for _, reg := range regions {
		start, stop := r.Start, r.Stop
		if len(reg.StartKey) > 0 && bytes.Compare(reg.StartKey, start) > 0 {
			start = reg.StartKey
		}
		if len(reg.EndKey) > 0 && (len(stop) == 0 || bytes.Compare(reg.EndKey, stop) < 0) {
			stop = reg.EndKey
		}
		if len(stop) > 0 && bytes.Compare(start, stop) >= 0 {
			continue
		}
		out = append(out, Part{Range: Range{Start: start, Stop: stop}, Server: reg.Server})
	}
	if len(out) == 0 {
		out = []Part{{Range: r}}
	}
	return out
}

// placeParallel gives a read over several parts of the store's table
// that many scanners, on up to workers goroutines (ParallelAuto: one per
// region server), where nothing above the read stops early: a LIMIT that
// reaches the read through no sort, count or aggregate reads serially,
// so that it reads no more rows than a serial read does.
func placeParallel(ctx context.Context, p *placed.Plan, st Store, sel *planner.Select, workers int) error {
	if workers == 0 || workers == 1 {
		return nil
	}
	if _, ok := planner.Find[*planner.Union](sel.Root); ok {
		return nil
	}
	if _, ok := planner.Find[*planner.Join](sel.Root); ok {
		return nil // a join reads its tables in its own batches
	}
	acc := sel.Access
	if acc == nil {
		return nil
	}
	sc := p.Scan(acc)
	if sc.Access != acc || sc.MultiRange || acc.Loose > 0 || acc.Table.Collects() ||
		(acc.Kind != planner.RangeScan && acc.Kind != planner.SkipScan && acc.Kind != planner.FullScan) {
		return nil
	}
	unordered, ok := parallelConsumer(p, sel)
	if !ok {
		return nil
	}
	n := workers
	if n == ParallelAuto {
		n = MaxAutoParallel
	}
	n = min(n, MaxParallel)
	var parts []planner.KeyRange
	servers := map[string]bool{}
	of := ""
	for _, r := range acc.Ranges {
		ps, o, err := partsOf(ctx, st, acc.Table.Physical, Range{Start: r.Start, Stop: r.Stop}, n)
		if errors.Is(err, ErrTableNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		of = o
		for _, pt := range ps {
			parts = append(parts, planner.KeyRange{Start: pt.Start, Stop: pt.Stop})
			servers[pt.Server] = true
		}
	}
	if workers == ParallelAuto {
		n = min(max(len(servers), 1), MaxAutoParallel)
	}
	n = min(n, len(parts))
	if n < 2 {
		return nil
	}
	sc.Parts, sc.PartsOf, sc.Workers, sc.Unordered = parts, of, n, unordered
	return nil
}

// parallelConsumer says whether the read of sel may run in parallel, and
// whether what consumes its rows needs them in key order. The store's
// own aggregate reads as before.
func parallelConsumer(p *placed.Plan, sel *planner.Select) (unordered, ok bool) {
	path := planner.Path(sel.Root) // the access first
	limited := false
	for i := len(path) - 1; i >= 1; i-- {
		switch n := path[i].(type) {
		case *planner.Limit:
			limited = true
		case *planner.Sort:
			limited = false
		case *planner.Count, *planner.Aggregate:
			if p.Server(n) != "" {
				return false, false
			}
			limited = false
		case *planner.MergeSort, *planner.IndexLookup:
			// A merge reads its ranges side by side already; an index
			// lookup reads its hits as it does.
			return false, false
		}
	}
	if limited {
		return false, false
	}
	// The first node above the read but its client filters and
	// projections decides whether the rows need key order. A DISTINCT
	// keeps the order of its rows, which an ORDER BY may take from the
	// read's: it takes them as they come only below a sort.
	for i, n := range path[1:] {
		switch n := n.(type) {
		case *planner.Filter, *planner.Project:
			continue
		case *planner.Count, *planner.Sort:
			return true, true
		case *planner.Distinct:
			for _, m := range path[i+2:] {
				if _, ok := m.(*planner.Sort); ok {
					return true, true
				}
			}
			return false, true
		case *planner.Aggregate:
			return n.Strategy != planner.StreamAggregate, true
		}
		return false, true
	}
	return false, true
}

// partRead opens the parts of a parallel read: each part one scanner,
// its rows decoded with a decoder of its own and passed through cond,
// the client filter above the read, when it is not nil.
type partRead struct {
	x        *Executor
	acc      *placed.Scan
	stats    *Stats
	cond     expr.Expr
	keysOnly bool
}

// open opens part i.
func (pr *partRead) open(ctx context.Context, i int) (rowIter, error) {
	r := pr.acc.Parts[i]
	if pr.acc.Reverse {
		r = pr.acc.Parts[len(pr.acc.Parts)-1-i]
	}
	var dec *decoder
	if pr.keysOnly {
		dec = newDecoder(pr.acc.Table, []int{})
	} else {
		dec = pr.x.decoder(ctx, pr.acc.Table, pr.acc.Columns)
	}
	ri := &rangeIter{x: pr.x, acc: pr.acc, stats: pr.stats, dec: dec, versions: pr.acc.Versions,
		r: Range{Start: r.Start, Stop: r.Stop}, keysOnly: pr.keysOnly, order: i + 1}
	if err := ri.open(ctx, ri.r, pr.acc.Limit); err != nil {
		if ri.it != nil {
			ri.it.Close()
		}
		return nil, err
	}
	if pr.cond != nil {
		return &filterIter{in: ri, cond: pr.cond}, nil
	}
	return ri, nil
}

// batchRows is how many rows a part's worker hands over at a time;
// partQueue how many batches a part may have waiting.
const (
	batchRows = 256
	partQueue = 2
)

// batch is a worker's rows, or the error that ended its part.
type batch struct {
	rows []*Row
	err  error
}

// pool runs the work of a parallel read: goroutines it starts and waits
// for, stopped through one context.
type pool struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newPool(ctx context.Context) *pool {
	c, cancel := context.WithCancel(ctx)
	return &pool{ctx: c, cancel: cancel}
}

func (p *pool) go_(fn func(ctx context.Context)) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		fn(p.ctx)
	}()
}

// stop cancels the workers and waits until each has returned.
func (p *pool) stop() {
	p.cancel()
	p.wg.Wait()
}

// send hands b to ch unless ctx ends first.
func send[T any](ctx context.Context, ch chan<- T, v T) bool {
	select {
	case ch <- v:
		return true
	case <-ctx.Done():
		return false
	}
}

// readPart reads part i to its end, handing its rows to emit a batch at
// a time, and records how long it took.
func (pr *partRead) readPart(ctx context.Context, i int, emit func(batch) bool) {
	begin := time.Now()
	defer func() { pr.stats.partDone(int64(time.Since(begin))) }()
	it, err := pr.open(ctx, i)
	if err != nil {
		emit(batch{err: err})
		return
	}
	defer it.close()
	rows := make([]*Row, 0, batchRows)
	for {
		r, err := it.next(ctx)
		if err == io.EOF {
			if len(rows) > 0 {
				emit(batch{rows: rows})
			}
			return
		}
		if err != nil {
			emit(batch{err: err})
			return
		}
		if pr.keysOnly {
			r = keyRow
		}
		rows = append(rows, r)
		if len(rows) == batchRows {
			if !emit(batch{rows: rows}) {
				return
			}
			rows = make([]*Row, 0, batchRows)
		}
	}
}

// orderedIter hands on the rows of the parts in key order (reversed for
// a reverse read), part after part, while up to workers parts ahead are
// read, each holding at most partQueue batches.
type orderedIter struct {
	pr    *partRead
	pool  *pool
	queue []chan batch // the parts started, in order; queue[0] is read
	ahead int          // the next part to start
	rows  []*Row
	err   error
}

func (o *orderedIter) start() {
	for o.ahead < len(o.pr.acc.Parts) && len(o.queue) < o.pr.acc.Workers {
		ch := make(chan batch, partQueue)
		i := o.ahead
		o.pool.go_(func(ctx context.Context) {
			defer close(ch)
			o.pr.readPart(ctx, i, func(b batch) bool { return send(ctx, ch, b) })
		})
		o.queue = append(o.queue, ch)
		o.ahead++
	}
}

func (o *orderedIter) next(ctx context.Context) (*Row, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.pool == nil {
		o.pool = newPool(ctx)
	}
	for len(o.rows) == 0 {
		o.start()
		if len(o.queue) == 0 {
			return nil, io.EOF
		}
		select {
		case b, ok := <-o.queue[0]:
			switch {
			case !ok:
				o.queue = o.queue[1:]
			case b.err != nil:
				o.fail(b.err)
				return nil, b.err
			default:
				o.rows = b.rows
			}
		case <-ctx.Done():
			o.fail(ctx.Err())
			return nil, ctx.Err()
		}
	}
	r := o.rows[0]
	o.rows = o.rows[1:]
	return r, nil
}

func (o *orderedIter) fail(err error) {
	o.err = err
	o.close()
}

func (o *orderedIter) close() {
	if o.pool != nil {
		o.pool.stop()
	}
	o.queue, o.rows, o.ahead = nil, nil, len(o.pr.acc.Parts)
	if o.err == nil {
		o.err = io.EOF
	}
}

// runParts reads every part on acc.Workers goroutines, each taking the
// next part not yet taken, and calls work for each part read; the pool
// is stopped by the caller.
func runParts(p *pool, parts, workers int, work func(ctx context.Context, i int) bool) {
	next := make(chan int, parts)
	for i := range parts {
		next <- i
	}
	close(next)
	for range workers {
		p.go_(func(ctx context.Context) {
			for i := range next {
				if ctx.Err() != nil || !work(ctx, i) {
					return
				}
			}
		})
	}
}

// unorderedIter hands on the rows of the parts as they come: workers
// read the parts, one at a time each, into one queue of batches.
type unorderedIter struct {
	pr   *partRead
	pool *pool
	ch   chan batch
	done chan struct{} // closed once every worker has returned
	rows []*Row
	err  error
}

func (u *unorderedIter) next(ctx context.Context) (*Row, error) {
	if u.err != nil {
		return nil, u.err
	}
	if u.pool == nil {
		u.pool = newPool(ctx)
		k := u.pr.acc.Workers
		u.ch, u.done = make(chan batch, k*partQueue), make(chan struct{})
		runParts(u.pool, len(u.pr.acc.Parts), k, func(ctx context.Context, i int) bool {
			ok := true
			u.pr.readPart(ctx, i, func(b batch) bool {
				ok = send(ctx, u.ch, b) && b.err == nil
				return ok
			})
			return ok
		})
		go func() {
			u.pool.wg.Wait()
			close(u.done)
		}()
	}
	for len(u.rows) == 0 {
		select {
		case b := <-u.ch:
			if b.err != nil {
				u.fail(b.err)
				return nil, b.err
			}
			u.rows = b.rows
		case <-u.done:
			// Every worker has returned: what they sent is queued.
			select {
			case b := <-u.ch:
				if b.err != nil {
					u.fail(b.err)
					return nil, b.err
				}
				u.rows = b.rows
			default:
				u.fail(io.EOF)
				return nil, io.EOF
			}
		case <-ctx.Done():
			u.fail(ctx.Err())
			return nil, ctx.Err()
		}
	}
	r := u.rows[0]
	u.rows = u.rows[1:]
	return r, nil
}

func (u *unorderedIter) fail(err error) {
	u.err = err
	u.close()
}

func (u *unorderedIter) close() {
	if u.pool != nil {
		u.pool.stop()
	}
	u.rows = nil
	if u.err == nil {
		u.err = io.EOF
	}
}

// parallelAccess opens a parallel read of acc's parts.
func (x *Executor) parallelAccess(acc *placed.Scan, stats *Stats) rowIter {
	pr := &partRead{x: x, acc: acc, stats: stats}
	if acc.Unordered {
		return &unorderedIter{pr: pr}
	}
	return &orderedIter{pr: pr}
}

// partialAggIter computes an aggregate (a count, a hash aggregate or one
// group) in the workers of a parallel read: each part's rows are
// aggregated where they are read, and the partial states are merged
// here, as they come. A worker hands its partial state over before it
// holds more than the group budget's share, so that the groups held stay
// within the budget's bounds; the merged state is held to the budget as
// a serial aggregate is.
type partialAggIter struct {
	pr   *partRead
	agg  *aggIter // nil for a count
	done bool
}

// partial is one worker's partial answer: a count or aggregate states.
type partial struct {
	n   int64
	h   *hashed
	err error
}

func (p *partialAggIter) next(ctx context.Context) (*Row, error) {
	if p.done {
		if p.agg != nil {
			return p.agg.next(ctx)
		}
		return nil, io.EOF
	}
	p.done = true
	pl := newPool(ctx)
	defer pl.stop()
	k := p.pr.acc.Workers
	ch := make(chan partial, k)
	share := 0
	if p.agg != nil {
		share = max(p.agg.budget/k, 1)
	}
	runParts(pl, len(p.pr.acc.Parts), k, func(ctx context.Context, i int) bool {
		return p.work(ctx, i, share, ch)
	})
	allDone := make(chan struct{})
	go func() {
		pl.wg.Wait()
		close(allDone)
	}()
	var total int64
	var merged *hashed
	if p.agg != nil {
		merged = p.agg.newHashed()
	}
	take := func(pt partial) error {
		if pt.err != nil {
			return pt.err
		}
		total += pt.n
		if pt.h != nil {
			if err := merged.merge(pt.h); err != nil {
				return err
			}
			if merged.held > p.agg.budget {
				return p.agg.overBudget()
			}
		}
		return nil
	}
	for finished := false; !finished; {
		select {
		case pt := <-ch:
			if err := take(pt); err != nil {
				return nil, err
			}
		case <-allDone:
			for len(ch) > 0 {
				if err := take(<-ch); err != nil {
					return nil, err
				}
			}
			finished = true
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if p.agg == nil {
		return &Row{Vals: catalog.Row{catalog.Bigint(total)}}, nil
	}
	if err := p.agg.emitAll(merged); err != nil {
		return nil, err
	}
	return p.agg.next(ctx)
}

// work reads part i, counting or aggregating its rows, and hands its
// partial answers to ch; it reports whether the read goes on.
func (p *partialAggIter) work(ctx context.Context, i, share int, ch chan<- partial) bool {
	begin := time.Now()
	defer func() { p.pr.stats.partDone(int64(time.Since(begin))) }()
	it, err := p.pr.open(ctx, i)
	if err != nil {
		send(ctx, ch, partial{err: err})
		return false
	}
	defer it.close()
	var pt partial
	if p.agg != nil {
		pt.h = p.agg.newHashed()
	}
	for {
		r, err := it.next(ctx)
		if err == io.EOF {
			return send(ctx, ch, pt)
		}
		if err != nil {
			send(ctx, ch, partial{err: err})
			return false
		}
		if pt.h == nil {
			pt.n++
			continue
		}
		if err := pt.h.add(r.Vals); err != nil {
			send(ctx, ch, partial{err: err})
			return false
		}
		if pt.h.held >= share {
			if !send(ctx, ch, pt) {
				return false
			}
			pt = partial{h: p.agg.newHashed()}
		}
	}
}

func (p *partialAggIter) close() {
	p.done = true
	if p.agg != nil {
		p.agg.done, p.agg.out = true, nil
	}
}
