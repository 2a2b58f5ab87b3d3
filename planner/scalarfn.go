package planner

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// call compiles a scalar function call, checking its arguments against
// the function's entry in expr.Functions.
func (c *compiler) call(e *parser.CallExpr, sc scope) (expr.Scalar, error) {
	if e.Distinct {
		return nil, errAt(e.NamePos, "DISTINCT is only allowed in an aggregate function, not in %s", e.Name)
	}
	fn := expr.LookupFunction(e.Name)
	if fn == nil {
		return nil, errAt(e.NamePos, "unknown function %s", e.Name)
	}
	if n := len(e.Args); n < fn.MinArgs() || fn.MaxArgs() >= 0 && n > fn.MaxArgs() {
		if fn.Arity != "" {
			return nil, errAt(e.NamePos, "%s takes %s", e.Name, fn.ArityText())
		}
		return nil, errAt(e.NamePos, "%s takes %s, not %d", e.Name, fn.ArityText(), n)
	}
	args := make([]expr.Scalar, len(e.Args))
	types := make([]catalog.Type, len(e.Args))
	for i, a := range e.Args {
		p := fn.Param(i)
		if _, lit := a.(*parser.StringLit); p.Literal && !lit {
			return nil, errAt(a.Pos(), "%s needs %s as its %s argument", e.Name, p.Type.What, ordinal(i))
		}
		s, err := c.scalar(a, sc)
		if err != nil {
			return nil, err
		}
		args[i], types[i] = s, s.Type()
	}
	for i, a := range args {
		if p := fn.Param(i); !p.Type.Accepts(a.Type()) {
			return nil, errAt(e.Args[i].Pos(), "%s needs %s, and %s is %s", e.Name, p.Type.What, e.Args[i], a.Type())
		}
	}
	t, ok := fn.Result.Of(types)
	if !ok {
		return nil, errAt(e.NamePos, "the arguments of %s have types that do not mix: %s", e.Name, typeList(types))
	}
	f, err := fn.Build(expr.Call{Args: args, T: t, Now: c.nowTime})
	if err != nil {
		pos := e.NamePos
		if ae, ok := err.(*expr.ArgError); ok {
			pos = e.Args[ae.Arg].Pos()
			if lit, ok := e.Args[ae.Arg].(*parser.StringLit); ok && ae.At > 0 {
				pos += litOffset(lit.Val, ae.At)
			}
		}
		return nil, errAt(pos, "%v", err)
	}
	return c.fold(e.Pos(), f, args...)
}

// litOffset is the byte offset, from a string literal's opening quote,
// of character at (from 1) of its value v: a quote in v is written ”.
func litOffset(v string, at int) parser.Pos {
	rs := []rune(v)
	prefix := string(rs[:min(at-1, len(rs))])
	return parser.Pos(1 + len(prefix) + strings.Count(prefix, "'"))
}

func ordinal(i int) string {
	if i < 3 {
		return [...]string{"first", "second", "third"}[i]
	}
	return fmt.Sprintf("%dth", i+1)
}

var cmpOps = map[parser.BinaryOp]expr.CmpOp{parser.OpEq: expr.Eq, parser.OpNe: expr.Ne, parser.OpLt: expr.Lt, parser.OpLe: expr.Le, parser.OpGt: expr.Gt, parser.OpGe: expr.Ge}

// cond compiles a condition over computed values in scope sc.
func (c *compiler) cond(e parser.Expr, sc scope) (expr.Expr, error) {
	if err := subqueryHere(e); err != nil {
		return nil, err
	}
	switch e := e.(type) {
	case *parser.BinaryExpr:
		switch e.Op {
		case parser.OpAnd, parser.OpOr:
			var terms []expr.Expr
			for _, x := range operands(e, e.Op) {
				p, err := c.cond(x, sc)
				if err != nil {
					return nil, err
				}
				terms = append(terms, p)
			}
			if e.Op == parser.OpAnd {
				return &expr.And{Terms: terms}, nil
			}
			return &expr.Or{Terms: terms}, nil
		}
		if _, ok := cmpOps[e.Op]; !ok {
			break
		}
		l, err := c.scalar(e.LHS, sc)
		if err != nil {
			return nil, err
		}
		r, err := c.scalar(e.RHS, sc)
		if err != nil {
			return nil, err
		}
		return c.compare(e.OpPos, e.Op, l, r)
	case *parser.UnaryExpr:
		if e.Op != parser.OpNot {
			break
		}
		x, err := c.cond(e.X, sc)
		if err != nil {
			return nil, err
		}
		return &expr.Not{X: x}, nil
	case *parser.IsNullExpr:
		x, err := c.scalar(e.X, sc)
		if err != nil {
			return nil, err
		}
		return &expr.IsNullOf{X: x, Not: e.Not}, nil
	case *parser.BetweenExpr:
		return c.betweenOf(e, sc)
	case *parser.InExpr:
		if tu, ok := e.X.(*parser.TupleExpr); ok {
			return c.rowIn(e, tu, func(b *parser.BinaryExpr) (expr.Expr, error) { return c.cond(b, sc) })
		}
		return c.inOf(e, sc)
	case *parser.LikeExpr:
		x, err := c.scalar(e.X, sc)
		if err != nil {
			return nil, err
		}
		pat, ok := e.Pattern.(*parser.StringLit)
		if !ok {
			return nil, errAt(e.Pattern.Pos(), "LIKE needs a string pattern such as 'abc%%'")
		}
		if x.Type() != catalog.TypeString && x.Type() != catalog.TypeInvalid {
			return nil, errAt(e.X.Pos(), "LIKE needs a STRING, and %s is %s", e.X, x.Type())
		}
		escape, err := likeEscape(e.Escape, false)
		if err != nil {
			return nil, err
		}
		l, err := expr.NewLikeEscape(-1, "", pat.Val, escape, false, e.Not)
		if err != nil {
			return nil, errAt(e.Pattern.Pos(), "LIKE pattern %s ends with its escape character %s", pat, e.Escape)
		}
		return &expr.LikeOf{X: x, Like: l}, nil
	case *parser.TupleExpr:
		return nil, errAt(e.Pos(), "a row value such as %s can only be the left side of IN", e)
	case *parser.BoolLit:
		return &expr.Const{V: expr.TriOf(e.Val)}, nil
	case *parser.NullLit:
		return &expr.Const{V: expr.Unknown}, nil
	}
	// A BOOLEAN value: true when it is TRUE.
	s, err := c.scalar(e, sc)
	if err != nil {
		return nil, err
	}
	if t, ok := s.(*expr.Truth); ok {
		return t.C, nil
	}
	if s.Type() != catalog.TypeBoolean {
		return nil, errAt(e.Pos(), "%s is not a condition", e)
	}
	return &expr.Compare{L: s, R: &expr.Lit{V: catalog.Bool(true)}, Op: expr.Eq}, nil
}

// compare compiles l op r, reading a string literal on one side as the
// other side's type, as SQL reads an untyped literal.
func (c *compiler) compare(pos parser.Pos, op parser.BinaryOp, l, r expr.Scalar) (expr.Expr, error) {
	var err error
	if l, err = coerceLiteral(pos, l, r.Type()); err != nil {
		return nil, err
	}
	if r, err = coerceLiteral(pos, r, l.Type()); err != nil {
		return nil, err
	}
	if !expr.Comparable(l.Type(), r.Type()) {
		return nil, errAt(pos, "cannot compare %s (%s) with %s (%s)", l, l.Type(), r, r.Type())
	}
	p := &expr.Compare{L: l, R: r, Op: cmpOps[op]}
	if len(p.Columns()) == 0 {
		v, err := p.Eval(nil)
		if err != nil {
			return nil, errAt(pos, "%v", err)
		}
		return &expr.Const{V: v}, nil
	}
	return p, nil
}

// coerceLiteral converts a STRING literal to type t.
func coerceLiteral(pos parser.Pos, s expr.Scalar, t catalog.Type) (expr.Scalar, error) {
	lit, ok := s.(*expr.Lit)
	if !ok || lit.V.Type != catalog.TypeString || t == catalog.TypeString || t == catalog.TypeInvalid || lit.V.Null {
		if ok && lit.V.Null && t != catalog.TypeInvalid {
			return &expr.Lit{V: catalog.Null(t)}, nil
		}
		return s, nil
	}
	v, err := catalog.ParseText(t, lit.V.S)
	if err != nil {
		return nil, errAt(pos, "%s is %s: %v", lit.V, t, err)
	}
	return &expr.Lit{V: v}, nil
}

func (c *compiler) betweenOf(e *parser.BetweenExpr, sc scope) (expr.Expr, error) {
	x, err := c.scalar(e.X, sc)
	if err != nil {
		return nil, err
	}
	lo, err := c.scalar(e.Lo, sc)
	if err != nil {
		return nil, err
	}
	hi, err := c.scalar(e.Hi, sc)
	if err != nil {
		return nil, err
	}
	if e.Not {
		a, err := c.compare(e.Lo.Pos(), parser.OpLt, x, lo)
		if err != nil {
			return nil, err
		}
		b, err := c.compare(e.Hi.Pos(), parser.OpGt, x, hi)
		return &expr.Or{Terms: []expr.Expr{a, b}}, err
	}
	a, err := c.compare(e.Lo.Pos(), parser.OpGe, x, lo)
	if err != nil {
		return nil, err
	}
	b, err := c.compare(e.Hi.Pos(), parser.OpLe, x, hi)
	return &expr.And{Terms: []expr.Expr{a, b}}, err
}

// inOf is x = a OR x = b …; NOT IN is x != a AND x != b ….
func (c *compiler) inOf(e *parser.InExpr, sc scope) (expr.Expr, error) {
	x, err := c.scalar(e.X, sc)
	if err != nil {
		return nil, err
	}
	op := parser.OpEq
	if e.Not {
		op = parser.OpNe
	}
	var terms []expr.Expr
	for _, it := range e.List {
		if err := c.cancelled(); err != nil {
			return nil, err
		}
		v, err := c.scalar(it, sc)
		if err != nil {
			return nil, err
		}
		p, err := c.compare(it.Pos(), op, x, v)
		if err != nil {
			return nil, err
		}
		terms = append(terms, p)
	}
	if e.Not {
		return &expr.And{Terms: terms}, nil
	}
	return &expr.Or{Terms: terms}, nil
}
