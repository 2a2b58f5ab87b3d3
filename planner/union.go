package planner

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// maxOrDepth is how deep planKeysOr looks into ORs nested in the
// branches of an OR.
const maxOrDepth = 3

// planKeysOr plans the key ranges of t as planKeys does, and tries each
// OR among the conjuncts as a union: when every branch, with the other
// conjuncts, binds the key, the access reads the union of the branches'
// ranges, merged so that no row is read twice. The union is taken only
// when it fixes more of the key than the plan without it. Nothing of the
// WHERE clause is absorbed by a union: every row read is tested against
// all of it, so a row that two branches reach is returned once.
func planKeysOr(t *catalog.Table, conj []expr.Expr, lim Limits) (*keyPlan, error) {
	return planKeysOrDepth(t, conj, lim.withDefaults(), maxOrDepth)
}

func planKeysOrDepth(t *catalog.Table, conj []expr.Expr, lim Limits, depth int) (*keyPlan, error) {
	best, err := planKeys(t, conj, lim)
	if err != nil || best.points || best.empty || depth == 0 {
		return best, err
	}
	for i, p := range conj {
		or, ok := p.(*expr.Or)
		if !ok || len(or.Terms) < 2 {
			continue
		}
		rest := slices.Concat(conj[:i:i], conj[i+1:])
		u, err := unionOf(t, or, rest, lim, depth)
		if err != nil {
			return nil, err
		}
		if u != nil && betterKeys(u, best) {
			best = u
		}
	}
	return best, nil
}

// betterKeys reports whether a reads less of the table than b: not a full
// scan, then points, then more leading key bytes fixed, then fewer
// ranges.
func betterKeys(a, b *keyPlan) bool {
	ra := [4]int{boolInt(!a.full), boolInt(a.points || a.empty), boundBytes(a), -len(a.ranges)}
	rb := [4]int{boolInt(!b.full), boolInt(b.points || b.empty), boundBytes(b), -len(b.ranges)}
	for i := range ra {
		if ra[i] != rb[i] {
			return ra[i] > rb[i]
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unionOf plans each branch of or with the other conjuncts rest, and
// returns the union of their ranges, or nil when a branch would read the
// whole table.
func unionOf(t *catalog.Table, or *expr.Or, rest []expr.Expr, lim Limits, depth int) (*keyPlan, error) {
	var branches []*keyPlan
	for _, b := range or.Terms {
		kp, err := planKeysOrDepth(t, slices.Concat(rest, expr.Conjuncts(b)), lim, depth-1)
		if err != nil {
			return nil, err
		}
		if kp.full {
			return nil, nil
		}
		if !kp.empty {
			branches = append(branches, kp)
		}
	}
	u := &keyPlan{ways: 1, absorbed: map[expr.Expr]bool{}, skip: true, union: len(or.Terms)}
	if len(branches) == 0 {
		u.empty = true
		return u, nil
	}
	u.points = true
	for _, kp := range branches {
		u.points = u.points && kp.points
		for _, n := range kp.notes {
			if !slices.Contains(u.notes, n) {
				u.notes = append(u.notes, n)
			}
		}
	}
	for _, kp := range branches {
		for _, r := range kp.ranges {
			if r.Point && !u.points {
				// A point among ranges is the range of its key alone.
				r = KeyRange{Start: r.Start, Stop: append(bytes.Clone(r.Start), 0), From: r.From, To: r.To}
			}
			u.ranges = append(u.ranges, r)
		}
	}
	u.ranges = mergeRanges(u.ranges)
	if len(u.ranges) > lim.MaxKeys {
		u.capUnion(lim.MaxKeys)
	}
	return u, nil
}

// capUnion replaces more ranges than max by the one range from the least
// start to the greatest stop, as an IN list too long is scanned.
func (kp *keyPlan) capUnion(max int) {
	first, last := kp.ranges[0], kp.ranges[len(kp.ranges)-1]
	stop := last.Stop
	if last.Point {
		stop = append(bytes.Clone(last.Start), 0)
	}
	for _, r := range kp.ranges {
		if !r.Point && r.Stop == nil {
			stop = nil
		}
	}
	kp.notes = append(kp.notes, fmt.Sprintf("the OR's branches make %d key ranges, more than %d, so the range from the least to the greatest is scanned and filtered.", len(kp.ranges), max))
	kp.ranges = []KeyRange{{Start: first.Start, Stop: stop, From: first.From, To: last.To}}
	kp.points, kp.capped = false, true
}
