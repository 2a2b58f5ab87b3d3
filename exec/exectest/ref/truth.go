package ref

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// This file is the reference's reading of a condition over a value that
// cannot be computed (an integer overflow, a CAST that fails). Such a
// comparison could be TRUE, FALSE or UNKNOWN; AND, OR and NOT combine
// every choice, and the condition is decided only when all choices agree:
// a row is kept or dropped when every choice keeps or drops it, a value
// is the one every choice gives. Otherwise the statement fails with the
// error. This restates rkql's documented rule without its algorithm.

// triSet is a set of truth values.
type triSet uint8

const anyTri triSet = 1<<triFalse | 1<<triTrue | 1<<triUnknown

func oneTri(t tri) triSet { return 1 << t }

// each calls fn on the truths in s.
func (s triSet) each(fn func(tri)) {
	for _, t := range []tri{triFalse, triTrue, triUnknown} {
		if s&oneTri(t) != 0 {
			fn(t)
		}
	}
}

// possible is the set of truths x may have for r, and the first error of
// a value it reads that cannot be computed (nil when there is none, and
// the set is then one truth).
func (e *evaluator) possible(x parser.Expr, r catalog.Row) (triSet, error) {
	switch x := x.(type) {
	case *parser.BinaryExpr:
		if x.Op != parser.OpAnd && x.Op != parser.OpOr {
			break
		}
		a, errA := e.possible(x.LHS, r)
		b, errB := e.possible(x.RHS, r)
		op := and3
		if x.Op == parser.OpOr {
			op = or3
		}
		var out triSet
		a.each(func(ta tri) {
			b.each(func(tb tri) { out |= oneTri(op(ta, tb)) })
		})
		if errA != nil {
			return out, errA
		}
		return out, errB
	case *parser.UnaryExpr:
		if x.Op != parser.OpNot {
			break
		}
		s, err := e.possible(x.X, r)
		var out triSet
		s.each(func(t tri) { out |= oneTri(not3(t)) })
		return out, err
	}
	t, err := e.leaf(x, r)
	if err != nil {
		return anyTri, err
	}
	return oneTri(t), nil
}

// holds reports whether a WHERE, HAVING or WHEN condition keeps row r,
// failing when that depends on a value that cannot be computed.
func (e *evaluator) holds(x parser.Expr, r catalog.Row) (bool, error) {
	s, err := e.possible(x, r)
	switch {
	case s == oneTri(triTrue):
		return true, nil
	case s&oneTri(triTrue) == 0:
		return false, nil
	}
	return false, err
}

// pred evaluates a condition over row r as a value: its truth, failing
// when that depends on a value that cannot be computed.
func (e *evaluator) pred(x parser.Expr, r catalog.Row) (tri, error) {
	s, err := e.possible(x, r)
	for _, t := range []tri{triFalse, triTrue, triUnknown} {
		if s == oneTri(t) {
			return t, nil
		}
	}
	return 0, err
}
