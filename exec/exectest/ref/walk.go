package ref

import "github.com/rkql/rkql/parser"

// AnyExpr reports whether f holds for e or any expression inside it.
func AnyExpr(e parser.Expr, f func(parser.Expr) bool) bool {
	if e == nil {
		return false
	}
	if f(e) {
		return true
	}
	switch e := e.(type) {
	case *parser.BinaryExpr:
		return AnyExpr(e.LHS, f) || AnyExpr(e.RHS, f)
	case *parser.UnaryExpr:
		return AnyExpr(e.X, f)
	case *parser.BetweenExpr:
		return AnyExpr(e.X, f) || AnyExpr(e.Lo, f) || AnyExpr(e.Hi, f)
	case *parser.InExpr:
		if AnyExpr(e.X, f) {
			return true
		}
		for _, x := range e.List {
			if AnyExpr(x, f) {
				return true
			}
		}
	case *parser.LikeExpr:
		return AnyExpr(e.X, f) || AnyExpr(e.Pattern, f) || AnyExpr(e.Escape, f)
	case *parser.TupleExpr:
		for _, x := range e.Elems {
			if AnyExpr(x, f) {
				return true
			}
		}
	case *parser.IsNullExpr:
		return AnyExpr(e.X, f)
	case *parser.CallExpr:
		for _, x := range e.Args {
			if AnyExpr(x, f) {
				return true
			}
		}
	case *parser.CastExpr:
		return AnyExpr(e.X, f)
	case *parser.CaseExpr:
		if AnyExpr(e.Operand, f) || AnyExpr(e.Else, f) {
			return true
		}
		for _, w := range e.Whens {
			if AnyExpr(w.Cond, f) || AnyExpr(w.Result, f) {
				return true
			}
		}
	}
	return false
}
