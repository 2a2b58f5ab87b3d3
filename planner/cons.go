package planner

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// fieldCons is what the WHERE clause says about one key field.
type fieldCons struct {
	hasEq  bool
	eq     []catalog.Value
	lo, hi catalog.Bound
	like   *expr.Like
	preds  []expr.Expr // the conjuncts these came from
	rangeP []expr.Expr // the range conjuncts among them
}

// gather collects per-column constraints from the conjuncts: what each
// says of a column, then, of the equality values, those the column's
// range keeps.
func gather(t *catalog.Table, conj []expr.Expr) map[int]*fieldCons {
	g := gatherer{t: t, cons: map[int]*fieldCons{}}
	for _, p := range conj {
		g.add(p)
	}
	for _, p := range baseConds(t, conj) {
		g.add(p)
	}
	for _, c := range g.cons {
		c.keepInRange()
	}
	return g.cons
}

// gatherer holds the constraints gather has collected so far.
type gatherer struct {
	t    *catalog.Table
	cons map[int]*fieldCons
}

// get returns the constraints of column col, or nil for a pseudo-column.
func (g *gatherer) get(col int) *fieldCons {
	if col >= len(g.t.Columns) {
		return nil
	}
	c := g.cons[col]
	if c == nil {
		c = &fieldCons{}
		g.cons[col] = c
	}
	return c
}

// add records what conjunct p says of a column, if anything the key can
// use.
func (g *gatherer) add(p expr.Expr) {
	switch p := p.(type) {
	case *expr.Cmp:
		g.cmp(p)
	case *expr.Between:
		if c := g.get(p.Col); c != nil && !p.Not {
			c.tighten(catalog.Bound{Set: true, Value: p.Lo, Inclusive: true}, catalog.Bound{Set: true, Value: p.Hi, Inclusive: true}, p)
		}
	case *expr.In:
		if c := g.get(p.Col); c != nil && !p.Not {
			c.addEq(nonNull(p.Vals), p)
		}
	case *expr.Or:
		if col, vals, ok := orOfEqualities(p); ok {
			if c := g.get(col); c != nil {
				c.addEq(vals, p)
			}
		}
	case *expr.Like:
		g.like(p)
	}
}

// like records the first LIKE of a column that the key can narrow to:
// its pattern starts with text, or, without ESCAPE, ends with it.
func (g *gatherer) like(p *expr.Like) {
	c := g.get(p.Col)
	if c == nil || p.Not || c.like != nil {
		return
	}
	if text, _ := p.Prefix(); text != "" {
		c.like = p
	} else if _, _, suf := expr.LikeShape(p.Pattern); suf && p.Escape == "" {
		c.like = p
	}
}

// cmp records a comparison of a column with a value.
func (g *gatherer) cmp(p *expr.Cmp) {
	c := g.get(p.Col)
	if c == nil || p.Val.Null {
		return
	}
	b := catalog.Bound{Set: true, Value: p.Val}
	switch p.Op {
	case expr.Eq:
		c.addEq([]catalog.Value{p.Val}, p)
	case expr.Lt, expr.Le:
		b.Inclusive = p.Op == expr.Le
		c.tighten(catalog.Bound{}, b, p)
	case expr.Gt, expr.Ge:
		b.Inclusive = p.Op == expr.Ge
		c.tighten(b, catalog.Bound{}, p)
	}
}

// addEq records that the column is one of vals, as conjunct p says.
func (c *fieldCons) addEq(vals []catalog.Value, p expr.Expr) {
	if !c.hasEq {
		c.hasEq, c.eq = true, dedup(vals)
	} else {
		c.eq = intersect(c.eq, vals)
	}
	c.preds = append(c.preds, p)
}

// tighten narrows the column's range to bounds lo and hi (either unset),
// as range conjunct p says.
func (c *fieldCons) tighten(lo, hi catalog.Bound, p expr.Expr) {
	if tighter(lo, c.lo, 1) {
		c.lo = lo
	}
	if tighter(hi, c.hi, -1) {
		c.hi = hi
	}
	c.preds = append(c.preds, p)
	c.rangeP = append(c.rangeP, p)
}

// tighter reports whether bound b is tighter than cur: set where cur is
// not, past it in direction dir (1 for a lower bound, -1 for an upper),
// or at it and exclusive.
func tighter(b, cur catalog.Bound, dir int) bool {
	if !b.Set {
		return false
	}
	if !cur.Set {
		return true
	}
	c := catalog.Compare(b.Value, cur.Value) * dir
	return c > 0 || (c == 0 && !b.Inclusive)
}

// keepInRange drops the equality values outside the column's range:
// they cannot match.
func (c *fieldCons) keepInRange() {
	if !c.hasEq || (!c.lo.Set && !c.hi.Set) {
		return
	}
	var keep []catalog.Value
	for _, v := range c.eq {
		if inBounds(v, c.lo, c.hi) {
			keep = append(keep, v)
		}
	}
	c.eq = keep
}

func inBounds(v catalog.Value, lo, hi catalog.Bound) bool {
	if lo.Set {
		c := catalog.Compare(v, lo.Value)
		if c < 0 || (c == 0 && !lo.Inclusive) {
			return false
		}
	}
	if hi.Set {
		c := catalog.Compare(v, hi.Value)
		if c > 0 || (c == 0 && !hi.Inclusive) {
			return false
		}
	}
	return true
}

func nonNull(vs []catalog.Value) []catalog.Value {
	var out []catalog.Value
	for _, v := range vs {
		if !v.Null {
			out = append(out, v)
		}
	}
	return out
}

// orOfEqualities recognises a = 1 OR a = 2 OR a IN (3, 4).
func orOfEqualities(o *expr.Or) (int, []catalog.Value, bool) {
	col := -1
	var vals []catalog.Value
	for _, t := range o.Terms {
		switch t := t.(type) {
		case *expr.Cmp:
			if t.Op != expr.Eq || (col >= 0 && t.Col != col) {
				return 0, nil, false
			}
			col = t.Col
			vals = append(vals, t.Val)
		case *expr.In:
			if t.Not || (col >= 0 && t.Col != col) {
				return 0, nil, false
			}
			col = t.Col
			vals = append(vals, t.Vals...)
		default:
			return 0, nil, false
		}
	}
	return col, nonNull(vals), col >= 0
}

func dedup(vs []catalog.Value) []catalog.Value {
	out := slices.Clone(vs)
	sort.Slice(out, func(i, j int) bool { return catalog.Compare(out[i], out[j]) < 0 })
	return slices.CompactFunc(out, catalog.Equal)
}

// intersect returns the values of a, sorted and without repeats as dedup
// leaves them, that b holds too.
func intersect(a, b []catalog.Value) []catalog.Value {
	b = dedup(b)
	var out []catalog.Value
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := catalog.Compare(a[i], b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// baseConds are the conditions on an OpenTSDB row's base hour that the
// conjuncts on its time imply: a point at ts is in the row of base
// ts - ts % 1h, so ts >= x gives base >= x's hour, ts <= x base <= x's
// hour, ts < x base <= the hour of x - 1 ms, and ts = x or IN a list the
// hours of the values. They only narrow the key: the conditions on the
// time stay in the filter, since they are not in conj.
func baseConds(t *catalog.Table, conj []expr.Expr) []expr.Expr {
	w := t.Wide
	if w == nil || !w.OpenTSDB || w.Time < 0 || w.Base < 0 || !t.Columns[w.Base].KeyField {
		return nil
	}
	name := t.Columns[w.Base].Name
	var out []expr.Expr
	for _, p := range conj {
		switch p := p.(type) {
		case *expr.Cmp:
			if p.Col != w.Time || p.Val.Null || p.Val.Type != catalog.TypeTimestamp {
				continue
			}
			v := p.Val.I
			op := p.Op
			switch op {
			case expr.Lt:
				v, op = v-1, expr.Le
			case expr.Gt:
				v, op = v+1, expr.Ge
			case expr.Eq, expr.Le, expr.Ge:
			default:
				continue
			}
			out = append(out, &expr.Cmp{Col: w.Base, Name: name, Op: op, Val: catalog.TimestampMillis(catalog.TSDBHour(v))})
		case *expr.Between:
			if p.Col != w.Time || p.Not || p.Lo.Null || p.Hi.Null || p.Lo.Type != catalog.TypeTimestamp || p.Hi.Type != catalog.TypeTimestamp {
				continue
			}
			out = append(out, &expr.Between{Col: w.Base, Name: name,
				Lo: catalog.TimestampMillis(catalog.TSDBHour(p.Lo.I)), Hi: catalog.TimestampMillis(catalog.TSDBHour(p.Hi.I))})
		case *expr.In:
			if p.Col != w.Time || p.Not {
				continue
			}
			in := &expr.In{Col: w.Base, Name: name}
			for _, v := range p.Vals {
				if !v.Null && v.Type == catalog.TypeTimestamp {
					in.Vals = append(in.Vals, catalog.TimestampMillis(catalog.TSDBHour(v.I)))
				}
			}
			out = append(out, in)
		}
	}
	return out
}

// uidConds are the conditions on an OpenTSDB metric's uid that the
// conjuncts on its name imply, the names looked up through the planner's
// UIDResolver: metric = 'x' or IN a list becomes metric_uid IN the uids
// of those names (none when no name has one, which reads nothing), and
// EXPLAIN notes say which uid each name has. They only narrow the key:
// the conditions on the name stay in the filter.
func (pl *Planner) uidConds(ctx context.Context, t *catalog.Table, conj []expr.Expr) ([]expr.Expr, []string, error) {
	if !t.Collects() || pl.opts.UIDs == nil {
		return nil, nil, nil
	}
	var notes []string
	n := t.Wide.Names
	var out []expr.Expr
	for _, p := range conj {
		if k, v, ok := tagEquality(n, p); ok {
			// A tag whose key or value has no uid is on no point.
			for _, c := range []struct{ kind, name string }{{catalog.TSDBTagK, k}, {catalog.TSDBTagV, v}} {
				_, ok, err := pl.opts.UIDs.UID(ctx, n.Physical, c.kind, c.name)
				if err != nil {
					return nil, nil, fmt.Errorf("the uid of %s %q in %s: %w", c.kind, c.name, n.Physical, err)
				}
				if !ok {
					notes = append(notes, fmt.Sprintf("tag %s '%s' has no uid in %s, so no row holds %s.", map[string]string{catalog.TSDBTagK: "key", catalog.TSDBTagV: "value"}[c.kind], c.name, n.Physical, p))
					out = append(out, &expr.In{Col: n.MetricUID, Name: t.Columns[n.MetricUID].Name})
					break
				}
			}
			continue
		}
		var names []catalog.Value
		switch p := p.(type) {
		case *expr.Cmp:
			if p.Col == n.Metric && p.Op == expr.Eq {
				names = []catalog.Value{p.Val}
			}
		case *expr.In:
			if p.Col == n.Metric && !p.Not {
				names = p.Vals
			}
		}
		if names == nil {
			continue
		}
		in := &expr.In{Col: n.MetricUID, Name: t.Columns[n.MetricUID].Name}
		for _, v := range names {
			if v.Null || v.Type != catalog.TypeString {
				continue
			}
			uid, ok, err := pl.opts.UIDs.UID(ctx, n.Physical, catalog.TSDBMetrics, v.S)
			if err != nil {
				return nil, nil, fmt.Errorf("the uid of metric %q in %s: %w", v.S, n.Physical, err)
			}
			if ok {
				in.Vals = append(in.Vals, catalog.Bigint(uid))
				notes = append(notes, fmt.Sprintf("metric %s is uid %d in %s, looked up while planning.", v, uid, n.Physical))
			} else {
				notes = append(notes, fmt.Sprintf("metric %s has no uid in %s, so no row holds it.", v, n.Physical))
			}
		}
		out = append(out, in)
	}
	return out, notes, nil
}

// tagEquality recognises tags['k'] = 'v' (either way round) over the tags
// column of n, and returns k and v.
func tagEquality(n *catalog.TSDBNames, p expr.Expr) (string, string, bool) {
	c, ok := p.(*expr.Compare)
	if !ok || c.Op != expr.Eq {
		return "", "", false
	}
	sub, lit := c.L, c.R
	if _, ok := sub.(*expr.Subscript); !ok {
		sub, lit = c.R, c.L
	}
	s, ok := sub.(*expr.Subscript)
	if !ok {
		return "", "", false
	}
	col, ok := s.X.(*expr.Col)
	key, kok := s.Key.(*expr.Lit)
	val, vok := lit.(*expr.Lit)
	if !ok || !kok || !vok || col.Index != n.Tags || key.V.Null || val.V.Null || key.V.Type != catalog.TypeString || val.V.Type != catalog.TypeString {
		return "", "", false
	}
	return key.V.S, val.V.S, true
}
