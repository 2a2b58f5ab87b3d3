package planner

import (
	"math"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// push takes a conjunct into the read's bounds when they express it
// exactly: _key compared with, IN, BETWEEN or LIKE a prefix of bytes;
// _ts compared with or BETWEEN times; _family and _qualifier = or IN.
// It reports false for a conjunct the client must evaluate.
func (b *rawBounds) push(e parser.Expr) (bool, error) {
	switch e := e.(type) {
	case *parser.BinaryExpr:
		if e.Op == parser.OpOr {
			return b.keyOr(e)
		}
		col, lit, op, ok := rawCompare(e)
		if !ok {
			return false, nil
		}
		return b.compare(col, op, lit)
	case *parser.InExpr:
		ref, ok := e.X.(*parser.ColumnRef)
		if !ok || e.Not {
			return false, nil
		}
		return b.in(ref.Name, e.List)
	case *parser.BetweenExpr:
		ref, ok := e.X.(*parser.ColumnRef)
		if !ok || e.Not || !isLiteral(e.Lo) || !isLiteral(e.Hi) {
			return false, nil
		}
		switch ref.Name {
		case "_key":
			lo, err := rawBytes(e.Lo)
			if err != nil {
				return false, err
			}
			hi, err := rawBytes(e.Hi)
			if err != nil {
				return false, err
			}
			b.keys.narrow(lo, after(hi))
			return true, nil
		case "_ts":
			lo, err := rawMillis(e.Lo)
			if err != nil {
				return false, err
			}
			hi, err := rawMillis(e.Hi)
			if err != nil {
				return false, err
			}
			b.times(lo, satAdd(hi, 1))
			return true, nil
		}
	case *parser.LikeExpr:
		ref, ok := e.X.(*parser.ColumnRef)
		if !ok || ref.Name != "_key" || e.Not {
			return false, nil
		}
		pat, esc, err := rawLike(e)
		if err != nil {
			return false, err
		}
		prefix, exact, whole := likePrefix(pat, esc)
		switch {
		case whole:
			b.keys.points2([][]byte{prefix})
			return true, nil
		case len(prefix) > 0:
			b.keys.narrow(prefix, keySucc(prefix))
		}
		return exact, nil
	}
	return false, nil
}

// keyOr takes _key = a OR _key = b … as _key IN (a, b, …).
func (b *rawBounds) keyOr(e *parser.BinaryExpr) (bool, error) {
	var list []parser.Expr
	for _, x := range operands(e, parser.OpOr) {
		cmp, ok := x.(*parser.BinaryExpr)
		if !ok {
			return false, nil
		}
		col, lit, op, ok := rawCompare(cmp)
		if !ok || col != "_key" || op != parser.OpEq {
			return false, nil
		}
		list = append(list, lit)
	}
	return b.in("_key", list)
}

// rawCompare reads col op literal, or literal op col turned around.
func rawCompare(e *parser.BinaryExpr) (string, parser.Expr, parser.BinaryOp, bool) {
	flip := map[parser.BinaryOp]parser.BinaryOp{parser.OpEq: parser.OpEq, parser.OpLt: parser.OpGt, parser.OpLe: parser.OpGe, parser.OpGt: parser.OpLt, parser.OpGe: parser.OpLe}
	if _, ok := flip[e.Op]; !ok {
		return "", nil, 0, false
	}
	if ref, ok := e.LHS.(*parser.ColumnRef); ok && isLiteral(e.RHS) {
		return ref.Name, e.RHS, e.Op, true
	}
	if ref, ok := e.RHS.(*parser.ColumnRef); ok && isLiteral(e.LHS) {
		return ref.Name, e.LHS, flip[e.Op], true
	}
	return "", nil, 0, false
}

func isLiteral(e parser.Expr) bool {
	switch e.(type) {
	case *parser.StringLit, *parser.BytesLit, *parser.IntLit, *parser.TimestampLit:
		return true
	}
	return false
}

func (b *rawBounds) compare(col string, op parser.BinaryOp, lit parser.Expr) (bool, error) {
	switch col {
	case "_key":
		v, err := rawBytes(lit)
		if err != nil {
			return false, err
		}
		switch op {
		case parser.OpEq:
			b.keys.points2([][]byte{v})
		case parser.OpLt:
			b.keys.narrow(nil, v)
		case parser.OpLe:
			b.keys.narrow(nil, after(v))
		case parser.OpGt:
			b.keys.narrow(after(v), nil)
		case parser.OpGe:
			b.keys.narrow(v, nil)
		}
		return true, nil
	case "_ts":
		t, err := rawMillis(lit)
		if err != nil {
			return false, err
		}
		switch op {
		case parser.OpEq:
			b.times(t, satAdd(t, 1))
		case parser.OpLt:
			b.times(0, t)
		case parser.OpLe:
			b.times(0, satAdd(t, 1))
		case parser.OpGt:
			b.times(satAdd(t, 1), math.MaxInt64)
		case parser.OpGe:
			b.times(t, math.MaxInt64)
		}
		return true, nil
	case "_family", "_qualifier":
		if op != parser.OpEq {
			return false, nil
		}
		return b.in(col, []parser.Expr{lit})
	}
	return false, nil
}

// in takes col IN (literals) for _key, _family and _qualifier.
func (b *rawBounds) in(col string, list []parser.Expr) (bool, error) {
	if col != "_key" && col != "_family" && col != "_qualifier" || !slices.ContainsFunc(list, isLiteral) {
		return false, nil
	}
	var vals [][]byte
	for _, x := range list {
		if !isLiteral(x) {
			return false, nil
		}
		v, err := rawBytes(x)
		if err != nil {
			return false, err
		}
		vals = append(vals, v)
	}
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = string(v)
	}
	switch col {
	case "_key":
		b.keys.points2(vals)
	case "_family":
		b.fams, b.hasFam = intersectNames(b.fams, strs, b.hasFam), true
	default:
		b.qual, b.hasQual = intersectNames(b.qual, strs, b.hasQual), true
	}
	return true, nil
}

func intersectNames(have, add []string, had bool) []string {
	if !had {
		return add
	}
	var out []string
	for _, s := range add {
		if slices.Contains(have, s) {
			out = append(out, s)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// times narrows the time range to [from, to).
func (b *rawBounds) times(from, to int64) {
	r := b.r
	r.Timed = true
	r.From = max(r.From, from)
	r.To = min(r.To, max(to, 0))
}

func satAdd(t, d int64) int64 {
	if t > math.MaxInt64-d {
		return math.MaxInt64
	}
	return t + d
}

// rawBytes is the bytes of a literal compared with _key, _family or
// _qualifier: x'…' as written, a string read as Bytes.toStringBinary
// prints (\xNN is one byte).
func rawBytes(e parser.Expr) ([]byte, error) {
	switch e := e.(type) {
	case *parser.BytesLit:
		return e.Val, nil
	case *parser.StringLit:
		b, err := catalog.ParseBinary(e.Val)
		if err != nil {
			return nil, errAt(e.Pos(), "%v", err)
		}
		return b, nil
	}
	return nil, errAt(e.Pos(), "%s is not bytes: write a string such as 'u1\\x00' or x'7531'", e)
}

// rawMillis is the time of a literal compared with _ts: a TIMESTAMP, a
// string a TIMESTAMP reads, or milliseconds since the epoch.
func rawMillis(e parser.Expr) (int64, error) {
	switch e := e.(type) {
	case *parser.IntLit:
		return e.Val, nil
	case *parser.TimestampLit:
		return e.Val.UnixMilli(), nil
	case *parser.StringLit:
		v, err := catalog.ParseText(catalog.TypeTimestamp, e.Val)
		if err != nil {
			return 0, errAt(e.Pos(), "%v", err)
		}
		return v.I, nil
	}
	return 0, errAt(e.Pos(), "_ts is compared with a TIMESTAMP or milliseconds, not %s", e)
}

// likePrefix reads a LIKE pattern over bytes: the bytes before its first
// wildcard; exact when the pattern is that prefix and one final %, whole
// when it has no wildcard at all.
func likePrefix(pat []byte, esc string) (prefix []byte, exact, whole bool) {
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case esc != "" && c == esc[0]:
			if i+1 < len(pat) {
				i++
				prefix = append(prefix, pat[i])
			}
		case c == '%':
			return prefix, i == len(pat)-1, false
		case c == '_':
			return prefix, false, false
		default:
			prefix = append(prefix, c)
		}
	}
	return prefix, false, true
}
