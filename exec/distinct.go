package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/planner"
)

// ErrDistinctBudget is returned when a client DISTINCT would hold more
// distinct rows than its budget.
var ErrDistinctBudget = errors.New("exec: client distinct budget exceeded")

// defaultDistinctBudget is the budget of a zero Executor.DistinctBudget.
const defaultDistinctBudget = 1_000_000

// distinctIter passes each row whose values in cols it has not passed.
type distinctIter struct {
	in     rowIter
	cols   []int
	seen   map[string]struct{}
	budget int
	buf    strings.Builder
}

func (x *Executor) distinct(in rowIter, n *planner.Distinct) *distinctIter {
	budget := x.DistinctBudget
	if budget <= 0 {
		budget = defaultDistinctBudget
	}
	return &distinctIter{in: in, cols: n.Cols, seen: map[string]struct{}{}, budget: budget}
}

func (d *distinctIter) next(ctx context.Context) (*Row, error) {
	for {
		r, err := d.in.next(ctx)
		if err != nil {
			return nil, err
		}
		d.buf.Reset()
		for _, c := range d.cols {
			writeDistinctKey(&d.buf, r.Vals[c])
		}
		k := d.buf.String()
		if _, dup := d.seen[k]; dup {
			continue
		}
		if len(d.seen) >= d.budget {
			return nil, fmt.Errorf("%w: more than %d distinct rows; narrow the query or raise the budget", ErrDistinctBudget, d.budget)
		}
		d.seen[k] = struct{}{}
		return r, nil
	}
}

func (d *distinctIter) close() { d.in.close() }

// writeDistinctKey appends v so that two values write alike exactly when
// DISTINCT takes them for one: NULLs are alike, -0 is 0, NaN is NaN.
func writeDistinctKey(b *strings.Builder, v catalog.Value) {
	if v.Null {
		b.WriteString("N;")
		return
	}
	b.WriteString(strconv.Itoa(int(v.Type)))
	b.WriteByte(':')
	s := v.String()
	if v.Type == catalog.TypeDouble && v.F == 0 {
		s = "0"
	}
	b.WriteString(strconv.Quote(s))
	b.WriteByte(';')
}

// looseIter reads one row per distinct key prefix of an access (the key's
// first acc.Loose components): it reads each range from its start, takes
// the first row that passes cond, and reads on from past that row's
// prefix with a new scan. With no client condition each scan asks the
// store for one row, where the store honours a limit.
type looseIter struct {
	x     *Executor
	acc   *placed.Scan
	stats *Stats
	dec   *decoder
	cond  expr.Expr
	one   bool
	i     int   // the range read
	cur   Range // what is left of it
	fresh bool  // cur has not been set from range i yet
}

func (x *Executor) loose(ctx context.Context, acc *placed.Scan, cond expr.Expr, stats *Stats) *looseIter {
	one := cond == nil && x.Store.Pushdown().Features().Limit
	return &looseIter{x: x, acc: acc, stats: stats, dec: x.decoder(ctx, acc.Table, acc.Columns), cond: cond, one: one, fresh: true}
}

func (l *looseIter) next(ctx context.Context) (*Row, error) {
	for l.i < len(l.acc.Ranges) {
		if l.fresh {
			r := l.acc.Ranges[l.i]
			l.cur, l.fresh = Range{Start: r.Start, Stop: r.Stop}, false
		}
		row, err := l.first(ctx)
		if err != nil {
			return nil, err
		}
		if row == nil {
			l.i, l.fresh = l.i+1, true
			continue
		}
		next := catalog.PrefixEnd(row.Key[:row.Offs[l.acc.Loose]])
		if next == nil || (l.cur.Stop != nil && bytes.Compare(next, l.cur.Stop) >= 0) {
			l.i, l.fresh = l.i+1, true
		} else {
			l.cur.Start = next
		}
		return row, nil
	}
	return nil, io.EOF
}

// first reads l.cur from its start and returns its first row that passes
// the condition, or nil when none does.
func (l *looseIter) first(ctx context.Context) (*Row, error) {
	opts := readOptions(l.acc, l.stats)
	opts.Limit = 0
	if l.one {
		opts.Limit = 1
	}
	it, err := l.x.Store.Scan(ctx, l.acc.Table.Physical, l.cur, opts)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		l.stats.received(sr)
		rows, err := l.dec.decodeVersions(sr, l.acc.Versions)
		if !l.stats.decoded(err) {
			continue
		}
		for _, r := range rows {
			ok, err := expr.Match(l.cond, r.Vals)
			if err != nil {
				return nil, err
			}
			if ok {
				return r, nil
			}
		}
	}
}

func (l *looseIter) close() { l.i = len(l.acc.Ranges) }

// unionIter reads the branches of a union one after another and passes
// each data row once, recognised by the values of its key fields.
type unionIter struct {
	x      *Executor
	p      *placed.Plan
	u      *planner.Union
	stats  *Stats
	i      int
	cur    rowIter
	seen   map[string]struct{}
	budget int
	buf    strings.Builder
}

func (x *Executor) union(p *placed.Plan, u *planner.Union, stats *Stats) *unionIter {
	budget := x.DistinctBudget
	if budget <= 0 {
		budget = defaultDistinctBudget
	}
	return &unionIter{x: x, p: p, u: u, stats: stats, seen: map[string]struct{}{}, budget: budget}
}

func (it *unionIter) next(ctx context.Context) (*Row, error) {
	for {
		if it.cur == nil {
			if it.i == len(it.u.Branches) {
				return nil, io.EOF
			}
			cur, err := it.x.build(ctx, it.p, it.p.Node(it.u.Branches[it.i].Root), it.stats, planner.NoLimit)
			if err != nil {
				return nil, err
			}
			it.cur, it.i = cur, it.i+1
		}
		r, err := it.cur.next(ctx)
		if err == io.EOF {
			it.cur.close()
			it.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		it.buf.Reset()
		for _, c := range it.u.Key {
			writeIdentity(&it.buf, r.Vals[c])
		}
		k := it.buf.String()
		if _, dup := it.seen[k]; dup {
			continue
		}
		if len(it.seen) >= it.budget {
			return nil, fmt.Errorf("%w: a union of OR branches holds the keys of more than %d rows; narrow the query or raise the budget", ErrDistinctBudget, it.budget)
		}
		it.seen[k] = struct{}{}
		return r, nil
	}
}

func (it *unionIter) close() {
	if it.cur != nil {
		it.cur.close()
		it.cur = nil
	}
	it.i = len(it.u.Branches)
}

// writeIdentity appends v exactly: unlike DISTINCT, it tells -0 from 0,
// which a key holds as two keys.
func writeIdentity(b *strings.Builder, v catalog.Value) {
	if v.Type == catalog.TypeDouble && !v.Null {
		b.WriteString(strconv.FormatUint(math.Float64bits(v.F), 16))
		b.WriteByte(';')
		return
	}
	writeDistinctKey(b, v)
}
