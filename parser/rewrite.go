package parser

// Rewrite copies x bottom-up with f applied to each expression after its
// operands: f returns the expression to use in its place (the one given
// to keep it). A subquery's own statement is not entered. x itself is not
// modified.
func Rewrite(x Expr, f func(Expr) Expr) Expr {
	if x == nil {
		return nil
	}
	re := func(y Expr) Expr { return Rewrite(y, f) }
	list := func(ys []Expr) []Expr {
		if ys == nil {
			return nil
		}
		out := make([]Expr, len(ys))
		for i, y := range ys {
			out[i] = re(y)
		}
		return out
	}
	switch e := x.(type) {
	case *BinaryExpr:
		c := *e
		c.LHS, c.RHS = re(e.LHS), re(e.RHS)
		return f(&c)
	case *UnaryExpr:
		c := *e
		c.X = re(e.X)
		return f(&c)
	case *BetweenExpr:
		c := *e
		c.X, c.Lo, c.Hi = re(e.X), re(e.Lo), re(e.Hi)
		return f(&c)
	case *InExpr:
		c := *e
		c.X, c.List = re(e.X), list(e.List)
		return f(&c)
	case *LikeExpr:
		c := *e
		c.X, c.Pattern, c.Escape = re(e.X), re(e.Pattern), re(e.Escape)
		return f(&c)
	case *TupleExpr:
		c := *e
		c.Elems = list(e.Elems)
		return f(&c)
	case *IsNullExpr:
		c := *e
		c.X = re(e.X)
		return f(&c)
	case *CallExpr:
		c := *e
		c.Args = list(e.Args)
		return f(&c)
	case *CastExpr:
		c := *e
		c.X = re(e.X)
		return f(&c)
	case *SubscriptExpr:
		c := *e
		c.Key = re(e.Key)
		return f(&c)
	case *CaseExpr:
		c := *e
		c.Operand, c.Else = re(e.Operand), re(e.Else)
		c.Whens = make([]When, len(e.Whens))
		for i, w := range e.Whens {
			c.Whens[i] = When{Cond: re(w.Cond), Result: re(w.Result)}
		}
		return f(&c)
	}
	return f(x)
}

// FirstSubquery returns the first subquery in x (an IN (SELECT …), an
// EXISTS or a SELECT as a value), or nil when it has none.
func FirstSubquery(x Expr) Expr {
	var found Expr
	Rewrite(x, func(e Expr) Expr {
		if found == nil {
			switch e := e.(type) {
			case *SubqueryExpr, *ExistsExpr:
				found = e
			case *InExpr:
				if e.Sub != nil {
					found = e
				}
			}
		}
		return e
	})
	return found
}
