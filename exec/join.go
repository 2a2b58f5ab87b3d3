package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// ErrJoinBudget is returned when the table a hash join holds in memory
// has more rows than the budget.
var ErrJoinBudget = errors.New("exec: hash join budget exceeded")

// defaultJoinBudget is the rows a hash join holds when the executor's
// SortBudget is 0, as a sort's.
const defaultJoinBudget = 1_000_000

// join opens a join: the first table's rows, then each step's.
func (x *Executor) join(ctx context.Context, p *placed.Plan, j *planner.Join, stats *Stats) (rowIter, error) {
	first, err := x.side(ctx, p, j.First, stats)
	if err != nil {
		return nil, err
	}
	var it rowIter = &spreadIter{in: first, cols: j.FirstCols, blank: j.Row}
	for _, st := range j.Steps {
		run := p.StartJoin(st)
		switch st.Kind {
		case planner.LookupJoin:
			off := p.Scan(st.Right.Access).Off
			it = &lookupJoinIter{x: x, st: st, in: it, stats: stats, run: run, opts: PlaceOptions{NoPushdown: off}}
		default:
			budget := x.SortBudget
			if budget <= 0 {
				budget = defaultJoinBudget
			}
			it = &hashJoinIter{x: x, p: p, st: st, in: it, stats: stats, run: run, budget: budget}
		}
	}
	return it, nil
}

// side opens the rows of one table's plan, projected to its outputs.
func (x *Executor) side(ctx context.Context, p *placed.Plan, sel *planner.Select, stats *Stats) (*project, error) {
	it, err := x.build(ctx, p, p.Node(sel.Root), stats, planner.NoLimit)
	if err != nil {
		return nil, err
	}
	return &project{in: it, out: sel.Output}, nil
}

// spreadIter puts the first table's rows in their places in the joined
// row.
type spreadIter struct {
	in    *project
	cols  []int
	blank catalog.Row
}

func (s *spreadIter) next(ctx context.Context) (*Row, error) {
	r, err := s.in.Next(ctx)
	if err != nil {
		return nil, err
	}
	out := append(catalog.Row(nil), s.blank...)
	for i, c := range s.cols {
		out[c] = r[i]
	}
	return &Row{Vals: out}, nil
}

func (s *spreadIter) close() { s.in.Close() }

// joinKey writes the values at cols of r as one map key, or reports
// false when one is NULL, which equals nothing.
func joinKey(b *strings.Builder, r catalog.Row, cols []int) bool {
	b.Reset()
	for _, c := range cols {
		if r[c].Null {
			return false
		}
		writeJoinValue(b, r[c])
	}
	return true
}

// writeJoinValue writes a join value, not NULL, as writeIdentity does but
// without formatting it: the values a key holds of each position are of
// one type, whose type byte leads, then the value's bits (the integer of
// an integer, time, date or boolean), or its length and bytes.
func writeJoinValue(b *strings.Builder, v catalog.Value) {
	var buf [binary.MaxVarintLen64 + 1]byte
	buf[0] = byte(v.Type)
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt, catalog.TypeTimestamp, catalog.TypeDate, catalog.TypeBoolean:
		binary.BigEndian.PutUint64(buf[1:9], uint64(v.I))
		b.Write(buf[:9])
	case catalog.TypeString:
		n := binary.PutUvarint(buf[1:], uint64(len(v.S)))
		b.Write(buf[:1+n])
		b.WriteString(v.S)
	case catalog.TypeBytes:
		n := binary.PutUvarint(buf[1:], uint64(len(v.B)))
		b.Write(buf[:1+n])
		b.Write(v.B)
	default:
		b.WriteByte(0xff)
		writeIdentity(b, v)
	}
}

// pair is the joined row of left and right (right's values at cols), or
// nil when cond fails on it.
func pair(left *Row, right catalog.Row, cols []int, cond expr.Expr) (*Row, error) {
	out := append(catalog.Row(nil), left.Vals...)
	for i, c := range cols {
		out[c] = right[i]
	}
	if cond != nil {
		ok, err := expr.Match(cond, out)
		if err != nil || !ok {
			return nil, err
		}
	}
	return &Row{Vals: out}, nil
}

// lookupDepth is how many batches' lookups a lookup join runs at once:
// while the rows of one are matched, the next ones are read, so that on a
// cluster their round trips overlap.
const lookupDepth = 4

// LookupDepth is how many batches' reads a lookup runs at once.
const LookupDepth = lookupDepth

// lookupJoinIter reads its left rows a batch at a time and looks up the
// batch's join values in the table by key: one planned read per batch,
// up to lookupDepth of them running at once, their rows passed on in the
// order of the left rows.
type lookupJoinIter struct {
	x     *Executor
	st    *planner.JoinStep
	in    rowIter
	stats *Stats
	run   *planner.JoinRun
	opts  PlaceOptions
	out   []*Row
	done  bool
	buf   strings.Builder
	// queue holds the batches read from in whose lookups run, oldest
	// first; cancel ends them when the join is closed early.
	queue  []*lookupBatch
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// lookupBatch is one batch of left rows and its lookup.
type lookupBatch struct {
	lefts []*Row
	keys  int
	done  chan struct{}
	rows  []catalog.Row
	rpcs  int64 // the store's round trips of its read
	err   error
}

func (l *lookupJoinIter) next(ctx context.Context) (*Row, error) {
	for len(l.out) == 0 {
		if err := l.fill(ctx); err != nil {
			return nil, err
		}
		if len(l.queue) == 0 {
			return nil, io.EOF
		}
		b := l.queue[0]
		l.queue = l.queue[1:]
		<-b.done
		if b.err != nil {
			return nil, b.err
		}
		if err := l.match(b); err != nil {
			return nil, err
		}
	}
	r := l.out[0]
	l.out = l.out[1:]
	l.run.Rows++
	return r, nil
}

// fill reads batches of left rows and starts their lookups until
// lookupDepth run or the left rows end.
func (l *lookupJoinIter) fill(ctx context.Context) error {
	if l.cancel == nil {
		var lctx context.Context
		lctx, l.cancel = context.WithCancel(ctx)
		ctx = lctx
	}
	for !l.done && len(l.queue) < lookupDepth {
		b := &lookupBatch{done: make(chan struct{})}
		keys := make([][]catalog.Value, 0, l.st.Batch)
		seen := make(map[string]bool, l.st.Batch)
		for len(b.lefts) < l.st.Batch {
			r, err := l.in.next(ctx)
			if err == io.EOF {
				l.done = true
				break
			}
			if err != nil {
				return err
			}
			b.lefts = append(b.lefts, r)
			if !joinKey(&l.buf, r.Vals, l.st.LeftKeys) || seen[l.buf.String()] {
				continue
			}
			seen[l.buf.String()] = true
			k := make([]catalog.Value, len(l.st.LeftKeys))
			for i, c := range l.st.LeftKeys {
				k[i] = r.Vals[c]
			}
			keys = append(keys, k)
		}
		if len(b.lefts) == 0 {
			break
		}
		l.run.LeftRows += int64(len(b.lefts))
		b.keys = len(keys)
		l.queue = append(l.queue, b)
		if len(keys) == 0 {
			close(b.done)
			continue
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer close(b.done)
			b.rows, b.err = l.lookup(ctx, keys, &b.rpcs)
		}()
	}
	return nil
}

// match queues the joined rows of a batch whose lookup is done.
func (l *lookupJoinIter) match(b *lookupBatch) error {
	if b.keys > 0 {
		l.run.Batches++
		l.run.Keys += int64(b.keys)
		l.run.RightRows += int64(len(b.rows))
		l.run.RPCs += b.rpcs
	}
	found := make(map[string][]catalog.Row, len(b.rows))
	for _, r := range b.rows {
		if joinKey(&l.buf, r, l.st.RightKeys) {
			found[l.buf.String()] = append(found[l.buf.String()], r)
		}
	}
	for _, left := range b.lefts {
		matched := false
		if joinKey(&l.buf, left.Vals, l.st.LeftKeys) {
			for _, right := range found[l.buf.String()] {
				out, err := pair(left, right, l.st.Cols, l.st.Cond)
				if err != nil {
					return err
				}
				if out != nil {
					matched = true
					l.out = append(l.out, out)
				}
			}
		}
		if !matched && l.st.Outer {
			l.out = append(l.out, left)
		}
	}
	return nil
}

// lookup plans, places and runs the read of keys, and returns its rows
// and, in rpcs, the store's round trips for them.
// It runs beside the join's own goroutine: it reads the store and the
// statement's Stats (whose counts are atomic), nothing of the iterator.
func (l *lookupJoinIter) lookup(ctx context.Context, keys [][]catalog.Value, rpcs *int64) ([]catalog.Row, error) {
	sel, err := l.st.Lookup(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("lookup join of %s: %w", l.st.Name, err)
	}
	p, err := Place(ctx, l.x.Store, sel, l.opts)
	if err != nil {
		return nil, err
	}
	// The batch's own figures, added to the statement's and the step's.
	var bs Stats
	defer func() {
		l.stats.Add(&bs)
		*rpcs = bs.RPCs.Load()
	}()
	return l.x.RunAll(ctx, p, &bs)
}

// RunAll runs a placed plan and returns all its rows, as the read of a
// lookup's batch does. stats may be nil.
func (x *Executor) RunAll(ctx context.Context, p *placed.Plan, stats *Stats) ([]catalog.Row, error) {
	rows, err := x.Run(ctx, p, stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalog.Row
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
}

// LookupBatches runs the reads of n batches of a lookup, as a lookup
// join runs its batches: up to lookupDepth at once (each one multi-get
// of its keys when they bind the whole key, which the store sends as one
// RPC per region server, in parallel), and returns their rows in batch
// order. read is called from goroutines of its own, so it must only read
// what is safe to share. The first error cancels the reads not done.
func LookupBatches(ctx context.Context, n int, read func(ctx context.Context, i int) ([]catalog.Row, error)) ([][]catalog.Row, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]catalog.Row, n)
	errs := make([]error, n)
	slots := make(chan struct{}, lookupDepth)
	var wg sync.WaitGroup
	for i := range n {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			out[i], errs[i] = read(ctx, i)
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, ctx.Err()
}

func (l *lookupJoinIter) close() {
	if l.cancel != nil {
		l.cancel()
	}
	l.wg.Wait()
	l.in.close()
	l.done, l.out, l.queue = true, nil, nil
}

// hashJoinIter reads the table once, holds its rows by their join
// values, and probes them with each left row.
type hashJoinIter struct {
	x      *Executor
	p      *placed.Plan
	st     *planner.JoinStep
	in     rowIter
	stats  *Stats
	run    *planner.JoinRun
	budget int
	built  bool
	table  map[string][]catalog.Row
	out    []*Row
	buf    strings.Builder
}

func (h *hashJoinIter) build(ctx context.Context) error {
	rows, err := h.x.side(ctx, h.p, h.st.Right, h.stats)
	if err != nil {
		return err
	}
	defer rows.Close()
	h.table = map[string][]catalog.Row{}
	held := 0
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		h.run.RightRows++
		if !joinKey(&h.buf, r, h.st.RightKeys) {
			continue // a NULL join value equals nothing
		}
		if held >= h.budget {
			return fmt.Errorf("%w: the hash join of %s holds more than %d of its rows; bind its key in ON or WHERE so that it is read by key, or raise --sort-budget", ErrJoinBudget, h.st.Name, h.budget)
		}
		held++
		k := h.buf.String()
		h.table[k] = append(h.table[k], append(catalog.Row(nil), r...))
	}
	h.run.Batches = 1
	h.built = true
	return nil
}

func (h *hashJoinIter) next(ctx context.Context) (*Row, error) {
	if !h.built {
		if err := h.build(ctx); err != nil {
			return nil, err
		}
	}
	for len(h.out) == 0 {
		left, err := h.in.next(ctx)
		if err != nil {
			return nil, err
		}
		h.run.LeftRows++
		matched := false
		if joinKey(&h.buf, left.Vals, h.st.LeftKeys) {
			for _, right := range h.table[h.buf.String()] {
				out, err := pair(left, right, h.st.Cols, h.st.Cond)
				if err != nil {
					return nil, err
				}
				if out != nil {
					matched = true
					h.out = append(h.out, out)
				}
			}
		}
		if !matched && h.st.Outer {
			h.out = append(h.out, left)
		}
	}
	r := h.out[0]
	h.out = h.out[1:]
	h.run.Rows++
	return r, nil
}

func (h *hashJoinIter) close() {
	h.in.close()
	h.table, h.out = nil, nil
}
