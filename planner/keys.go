package planner

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// KeyRange is one range or point of an access, in key bytes, with its
// bounds decoded for EXPLAIN.
type KeyRange struct {
	// Start and Stop bound the range [Start, Stop); nil is open. For a
	// point, Start is the whole key and Stop is nil.
	Start, Stop []byte
	Point       bool
	From, To    []string
}

// keyPlan is the planner's choice of key ranges for one table.
type keyPlan struct {
	ranges   []KeyRange
	points   bool
	empty    bool
	full     bool
	ways     int64 // ranges per fan-out over derived components
	skip     bool  // ranges came from IN lists or ORs
	term     int   // component where ranges start to vary freely
	absorbed map[expr.Expr]bool
	notes    []string
	capped   bool
	// union is the number of branches of the OR whose ranges this plan
	// unites; 0 when it comes from no OR.
	union int
	// oneSign is set when the component at term is SignSplit and each
	// range holds values of one sign only, so that a scan of one range
	// returns them in order.
	oneSign bool
}

// alt is one alternative prefix while walking the key.
type alt struct {
	key   []byte
	row   catalog.Row
	set   []bool
	shown []string
	// soft is len(key) when key ends with a separator that a key leaves
	// out when the fields after it are NULL (Phoenix's), else 0.
	soft int
}

func (a alt) clone() alt {
	return alt{key: bytes.Clone(a.key), row: slices.Clone(a.row), set: slices.Clone(a.set), shown: slices.Clone(a.shown), soft: a.soft}
}

// scanStart is where a scan of the keys starting with a.key starts: one
// byte earlier when that byte is a separator the key may leave out.
func (a alt) scanStart() []byte {
	if a.soft > 0 && a.soft == len(a.key) {
		return bytes.Clone(a.key[:len(a.key)-1])
	}
	return bytes.Clone(a.key)
}

// planKeys chooses the key ranges of table t for the conjuncts. Where
// the ranges would pass MaxKeys, it plans again with MaxPoints instead,
// and takes that plan when it reads points alone.
func planKeys(ctx context.Context, t *catalog.Table, conj []expr.Expr, lim Limits) (*keyPlan, error) {
	lim = lim.withDefaults()
	kp, err := walkKeys(ctx, t, conj, lim)
	if err != nil || !kp.capped || lim.MaxPoints <= lim.MaxKeys {
		return kp, err
	}
	wide := lim
	wide.MaxKeys = lim.MaxPoints
	pk, err := walkKeys(ctx, t, conj, wide)
	if err != nil || !pk.points || pk.capped {
		return kp, err
	}
	return pk, nil
}

// walkKeys walks t's key components for the conjuncts, within lim.
func walkKeys(ctx context.Context, t *catalog.Table, conj []expr.Expr, lim Limits) (*keyPlan, error) {
	comps := t.Key.Components
	w := &keyWalker{
		ctx: ctx, t: t, cons: gather(t, conj), lim: lim,
		kp:   &keyPlan{ways: 1, absorbed: map[expr.Expr]bool{}, term: len(comps)},
		alts: []alt{{row: t.NewRow(), set: make([]bool, len(t.Columns))}},
	}
	kp := w.kp
	salted := len(comps) > 0 && comps[0].Kind == catalog.KindSalt
	start := 0
	if salted {
		start = 1
	}
	for ci := start; ci < len(comps) && w.span == nil && !kp.empty; ci++ {
		if err := w.component(ci, &comps[ci]); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if kp.empty || (w.span != nil && w.span.Empty) || len(w.alts) == 0 {
		kp.empty = true
		return kp, nil
	}
	if !w.narrowed {
		kp.full = true
		kp.ways, kp.term = 1, 0
		kp.ranges = []KeyRange{{From: []string{"*"}, To: []string{"*"}}}
		return kp, nil
	}
	if w.span == nil {
		kp.points = true
	} else if w.span.Exact && w.spanCons != nil && !kp.capped {
		for _, p := range w.spanCons.rangeP {
			kp.absorbed[p] = true
		}
	}
	desc := kp.term < len(comps) && comps[kp.term].Descending()
	var parts []spanPart
	if w.span != nil {
		parts = w.parts
		if parts == nil {
			lo, hi := boundText(w.spanCons)
			parts = []spanPart{{span: *w.span, from: lo, to: hi}}
		}
	}
	ranges, err := buildRanges(ctx, w.alts, parts, desc)
	if err != nil {
		return nil, err
	}
	kp.ranges = ranges
	if salted {
		if err := kp.salt(t, &comps[0]); err != nil {
			return nil, err
		}
	}
	kp.ranges = mergeRanges(kp.ranges)
	return kp, nil
}

// keyWalker walks a key's components left to right, keeping the
// alternative prefixes the constraints allow, until a component ends the
// key with a span (w.span set) or the key is complete (points).
type keyWalker struct {
	// ctx ends the walk early: a statement being planned is cancelled.
	ctx      context.Context
	t        *catalog.Table
	cons     map[int]*fieldCons
	lim      Limits
	kp       *keyPlan
	alts     []alt
	narrowed bool
	span     *catalog.KeySpan
	spanCons *fieldCons
	// parts, when set, are the spans the key ends with instead of span:
	// one per sign of a SignSplit field's range.
	parts []spanPart
}

// spanPart is one span of the field that ends the key, with its bounds
// as EXPLAIN shows them.
type spanPart struct {
	span     catalog.KeySpan
	from, to string
}

// prefixExact reports whether the key bytes before component ci end
// where those components end, so that a prefix scan over them finds only
// keys with the same values: every component before ci has a fixed width
// or ends with a delimiter.
func prefixExact(t *catalog.Table, ci int) bool {
	for i := range ci {
		c := &t.Key.Components[i]
		if _, fixed := c.FixedWidth(); fixed || c.Kind == catalog.KindLiteral || c.Delimiter() != "" {
			continue
		}
		return false
	}
	return true
}

// bind records that a component narrowed the key.
func (w *keyWalker) bind() {
	w.narrowed = true
}

// end makes component ci the last the key binds, with span s.
func (w *keyWalker) end(ci int, s catalog.KeySpan, fc *fieldCons) {
	w.kp.term = ci
	w.span, w.spanCons = &s, fc
	if s.Start != nil || s.Stop != nil {
		w.bind()
		c := &w.t.Key.Components[ci]
		if !s.Exact && fc != nil && len(fc.rangeP) > 0 && c.Kind == catalog.KindField && c.Enc == catalog.KeyText {
			mark := c.Delimiter()
			w.kp.notes = append(w.kp.notes, fmt.Sprintf("%s is padded or delimited in the key, so a value that starts another sorts after it (ab%s after abc); the byte range is widened to keep such values, and the filter drops rows outside the range.", c.Field, mark))
		}
	}
}

func (w *keyWalker) component(ci int, c *catalog.Component) error {
	switch c.Kind {
	case catalog.KindLiteral:
		for i := range w.alts {
			w.alts[i].key = append(w.alts[i].key, c.Literal...)
		}
	case catalog.KindField:
		w.field(ci, c)
	case catalog.KindGroup:
		// Its repetitions are found by reading: conditions on its fields
		// are tested on each one.
		w.end(ci, catalog.KeySpan{}, nil)
	default: // hash, bucket, random
		if c.Kind == catalog.KindRandom && ci == len(w.t.Key.Components)-1 && w.narrowed && prefixExact(w.t, ci) {
			// One prefix scan per key reads only the rows that exist
			// under it, at most one per suffix value; a Get per suffix
			// value would read every possible key.
			w.end(ci, catalog.KeySpan{}, nil)
			w.kp.notes = append(w.kp.notes, fmt.Sprintf("%s cannot be known at read time; one prefix scan per key reads only the rows that exist under it (at most %d), where a Get per suffix would read %d keys.", c, c.Cardinality(), c.Cardinality()))
			return nil
		}
		if c.Derived() && inputsBound(w.alts, w.cons, c) {
			alts, err := computeDerived(w.ctx, w.t, w.alts, w.cons, c)
			if err != nil {
				return err
			}
			w.alts = alts
			w.bind()
			return nil
		}
		card := c.Cardinality()
		if card > w.lim.MaxFanout || int64(len(w.alts))*card > int64(w.lim.MaxKeys) {
			w.end(ci, catalog.KeySpan{}, nil)
			return nil
		}
		w.alts = fanOut(w.alts, c)
		w.kp.ways *= card
	}
	return nil
}

func (w *keyWalker) field(ci int, c *catalog.Component) {
	kp, col := w.kp, c.Column()
	fc := w.cons[col]
	switch {
	case allSet(w.alts, col):
		// A derived component before it already chose its values.
	case fc != nil && fc.hasEq && len(fc.eq) == 0:
		kp.empty = true
		return
	case fc != nil && fc.hasEq && len(w.alts)*len(fc.eq) > w.lim.MaxKeys:
		// Scan from the least value to the greatest instead.
		kp.capped = true
		kp.notes = append(kp.notes, fmt.Sprintf("%d values of %s would make more than %d key ranges, so the range from the least to the greatest is scanned and filtered.", len(fc.eq), c.Field, w.lim.MaxKeys))
		wide := &fieldCons{lo: catalog.Bound{Set: true, Value: fc.eq[0], Inclusive: true},
			hi: catalog.Bound{Set: true, Value: fc.eq[len(fc.eq)-1], Inclusive: true}}
		w.endRange(ci, c, wide)
		return
	case fc != nil && fc.hasEq:
		if len(fc.eq) > 1 {
			kp.skip = true
		}
		w.alts = expand(w.ctx, w.alts, col, fc.eq)
	default:
		w.endRange(ci, c, fc)
		return
	}
	w.alts = appendField(kp, w.alts, c, col)
	w.bind()
	markEq(kp, fc)
}

// endRange ends the key at field c with the span of its range or LIKE
// pattern. The range of a SignSplit field is split by sign: a range
// holding both signs is two exact spans, which a scan reads one after the
// other and a merge puts back in order.
func (w *keyWalker) endRange(ci int, c *catalog.Component, fc *fieldCons) {
	if fc != nil && (fc.lo.Set || fc.hi.Set) {
		if parts := c.SignParts(fc.lo, fc.hi); parts != nil {
			w.kp.oneSign = true
			if len(parts) > 1 {
				w.parts = nil
				for _, p := range parts {
					w.parts = append(w.parts, spanPart{span: c.FieldSpan(p.Lo, p.Hi), from: boundString(p.Lo), to: boundString(p.Hi)})
				}
				w.kp.term = ci
				w.span, w.spanCons = &catalog.KeySpan{Exact: true}, fc
				w.bind()
				return
			}
		}
	}
	w.end(ci, fieldSpan(c, fc), fc)
}

// mergeRanges sorts ranges by start and merges overlapping ones and equal
// points, so that no row is read twice.
func mergeRanges(rs []KeyRange) []KeyRange {
	sort.SliceStable(rs, func(i, j int) bool { return bytes.Compare(rs[i].Start, rs[j].Start) < 0 })
	out := rs[:0]
	for _, r := range rs {
		if len(out) == 0 {
			out = append(out, r)
			continue
		}
		last := &out[len(out)-1]
		switch {
		case r.Point && last.Point:
			if bytes.Equal(r.Start, last.Start) {
				continue
			}
		case !r.Point && !last.Point:
			if last.Stop == nil || bytes.Compare(r.Start, last.Stop) < 0 {
				if last.Stop != nil && (r.Stop == nil || bytes.Compare(r.Stop, last.Stop) > 0) {
					last.Stop, last.To = r.Stop, r.To
				}
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

func allSet(alts []alt, col int) bool {
	for _, a := range alts {
		if !a.set[col] {
			return false
		}
	}
	return true
}

// markEq records that the equality conjuncts of a field are served by the
// key bytes.
func markEq(kp *keyPlan, fc *fieldCons) {
	if fc == nil || !fc.hasEq {
		return
	}
	for _, p := range fc.preds {
		kp.absorbed[p] = true
	}
}

// expand makes, of each alternative prefix, one per value of column col.
// It stops early, with fewer, when ctx ends: the walk then fails with
// ctx's error.
func expand(ctx context.Context, alts []alt, col int, vals []catalog.Value) []alt {
	vals = bothZeros(vals)
	out := make([]alt, 0, len(alts)*len(vals))
	for _, a := range alts {
		if ctx.Err() != nil {
			return out
		}
		for _, v := range vals {
			b := a.clone()
			b.row[col], b.set[col] = v, true
			out = append(out, b)
		}
	}
	return out
}

// bothZeros adds -0 for a DOUBLE 0 and 0 for -0: they are one value
// with two key encodings, and a row may be stored under either.
func bothZeros(vals []catalog.Value) []catalog.Value {
	out := vals
	for _, v := range vals {
		if v.Type == catalog.TypeDouble && !v.Null && v.F == 0 {
			if out == nil || &out[0] == &vals[0] {
				out = slices.Clone(vals)
			}
			out = append(out, catalog.Double(-v.F))
		}
	}
	return out
}

// appendField writes each alternative's value of the field. A value the
// key cannot hold matches no row, so its alternative is dropped, and a
// NOTE says why.
func appendField(kp *keyPlan, alts []alt, c *catalog.Component, col int) []alt {
	out := alts[:0]
	for _, a := range alts {
		k, err := c.EncodeField(a.key, a.row[col])
		if err != nil {
			kp.notes = append(kp.notes, fmt.Sprintf("%s = %s matches no row: %v.", c.Field, a.row[col], err))
			continue
		}
		a.key = k
		a.soft = 0
		if c.SeparatorOptional() {
			a.soft = len(k)
		}
		a.shown = append(a.shown, a.row[col].String())
		out = append(out, a)
	}
	return out
}

func inputsBound(alts []alt, cons map[int]*fieldCons, c *catalog.Component) bool {
	for _, col := range c.InputColumns() {
		if allSet(alts, col) {
			continue
		}
		if fc := cons[col]; fc == nil || !fc.hasEq {
			return false
		}
	}
	return true
}

func computeDerived(ctx context.Context, t *catalog.Table, alts []alt, cons map[int]*fieldCons, c *catalog.Component) ([]alt, error) {
	for _, col := range c.InputColumns() {
		if !allSet(alts, col) {
			alts = expand(ctx, alts, col, cons[col].eq)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range alts {
		b, err := c.Compute(t.Columns, alts[i].row)
		if err != nil {
			return nil, err
		}
		alts[i].key = append(alts[i].key, b...)
		alts[i].shown = append(alts[i].shown, shownNumber(c, b))
	}
	return alts, nil
}

func shownNumber(c *catalog.Component, b []byte) string {
	n, err := c.DecodeNumber(b)
	if err != nil {
		return catalog.ToStringBinary(b)
	}
	if c.Kind == catalog.KindHash && c.Hash == catalog.HashMD5 {
		return "'" + string(b) + "'"
	}
	return fmt.Sprint(n)
}

func fanOut(alts []alt, c *catalog.Component) []alt {
	vals := c.ValueBytes()
	out := make([]alt, 0, len(alts)*len(vals))
	for _, a := range alts {
		for _, v := range vals {
			b := a.clone()
			b.key = append(b.key, v...)
			b.shown = append(b.shown, shownNumber(c, v))
			out = append(out, b)
		}
	}
	return out
}

// fieldSpan is the span of the terminating field's range or LIKE pattern.
func fieldSpan(c *catalog.Component, fc *fieldCons) catalog.KeySpan {
	if fc == nil {
		return catalog.KeySpan{}
	}
	if fc.lo.Set || fc.hi.Set {
		s := c.FieldSpan(fc.lo, fc.hi)
		if s.Start != nil || s.Stop != nil || s.Empty {
			return s
		}
	}
	if fc.like != nil {
		// Any pattern that starts with literal text (web1_ as much as
		// web1%) is a key prefix; a '%s' pattern is a suffix, which a
		// reversed field holds as a prefix.
		text, _ := fc.like.Prefix()
		suffix := false
		if text == "" {
			text, _, suffix = expr.LikeShape(fc.like.Pattern)
		}
		if s, ok := c.PrefixSpan(text, suffix); ok {
			return s
		}
	}
	return catalog.KeySpan{}
}

// buildRanges makes the key ranges of each alternative prefix and each
// span part, or a point per alternative when there are no parts.
func buildRanges(ctx context.Context, alts []alt, parts []spanPart, desc bool) ([]KeyRange, error) {
	out := make([]KeyRange, 0, len(alts)*max(1, len(parts)))
	for _, a := range alts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if parts == nil {
			out = append(out, KeyRange{Start: a.key, Point: true, From: a.shown, To: a.shown})
			continue
		}
		for _, p := range parts {
			span := &p.span
			r := KeyRange{From: slices.Clone(a.shown), To: slices.Clone(a.shown)}
			switch {
			case span.Start != nil:
				r.Start = append(bytes.Clone(a.key), span.Start...)
			case span.Stop == nil && len(a.key) > 0:
				r.Start = a.scanStart()
			case len(a.key) > 0:
				r.Start = bytes.Clone(a.key)
			}
			if span.Stop != nil {
				r.Stop = append(bytes.Clone(a.key), span.Stop...)
			} else {
				r.Stop = catalog.PrefixEnd(a.key)
			}
			lo, hi := p.from, p.to
			if desc {
				lo, hi = hi, lo
			}
			r.From, r.To = append(r.From, lo), append(r.To, hi)
			out = append(out, r)
		}
	}
	return out, nil
}

// boundText shows the terminating field's bounds, "*" when open.
func boundText(fc *fieldCons) (string, string) {
	lo, hi := "*", "*"
	if fc == nil {
		return lo, hi
	}
	lo, hi = boundString(fc.lo), boundString(fc.hi)
	if fc.like != nil && !fc.lo.Set && !fc.hi.Set {
		lo = catalog.String(fc.like.Pattern).String()
		hi = lo
	}
	return lo, hi
}

// boundString shows one bound, "*" when open.
func boundString(b catalog.Bound) string {
	if !b.Set {
		return "*"
	}
	return b.Value.String()
}

// salt prefixes every range or point with its salt bytes: a point's own,
// and every bucket's for a range.
func (kp *keyPlan) salt(t *catalog.Table, c *catalog.Component) error {
	if kp.points {
		for i := range kp.ranges {
			r := &kp.ranges[i]
			s, err := t.Salt(r.Start)
			if err != nil {
				return err
			}
			n, _ := c.DecodeNumber(s)
			r.Start = append(s, r.Start...)
			r.From = append([]string{fmt.Sprint(n)}, r.From...)
			r.To = r.From
		}
		return nil
	}
	var out []KeyRange
	for b := int64(0); b < c.Mod; b++ {
		sb := c.EncodeNumber(b)
		for _, r := range kp.ranges {
			nr := KeyRange{From: append([]string{fmt.Sprint(b)}, r.From...), To: append([]string{fmt.Sprint(b)}, r.To...)}
			nr.Start = append(bytes.Clone(sb), r.Start...)
			if r.Stop != nil {
				nr.Stop = append(bytes.Clone(sb), r.Stop...)
			} else {
				nr.Stop = catalog.PrefixEnd(sb)
			}
			out = append(out, nr)
		}
	}
	kp.ranges = out
	kp.ways *= c.Mod
	return nil
}
