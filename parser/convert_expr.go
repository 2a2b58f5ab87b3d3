package parser

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

func (c *converter) exprs(gs []*gExpr) ([]Expr, *Error) {
	out := make([]Expr, 0, len(gs))
	for _, g := range gs {
		x, err := c.expr(g)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// expr converts a chain of AND and OR into left-associated BinaryExprs,
// AND binding tighter than OR.
func (c *converter) expr(g *gExpr) (Expr, *Error) {
	acc, err := c.unary(g.Left)
	if err != nil {
		return nil, err
	}
	var or Expr
	orPos := NoPos
	for i, u := range g.Rest {
		x, err := c.unary(u)
		if err != nil {
			return nil, err
		}
		opPos := c.tokenBefore(c.unaryStart(u))
		if strings.EqualFold(g.Ops[i], "AND") {
			acc = newBinary(opPos, OpAnd, acc, x)
			continue
		}
		if or == nil {
			or = acc
		} else {
			or = newBinary(orPos, OpOr, or, acc)
		}
		acc, orPos = x, opPos
	}
	if or == nil {
		return acc, nil
	}
	return newBinary(orPos, OpOr, or, acc), nil
}

// tokenIndex returns the index of the token at offset off.
func (c *converter) tokenIndex(off Pos) int {
	return sort.Search(len(c.toks), func(i int) bool { return c.toks[i].Pos.Offset >= int(off) })
}

// tokenBefore returns the position of the token before the one at off.
func (c *converter) tokenBefore(off Pos) Pos {
	i := c.tokenIndex(off) - 1
	if i < 0 || i >= len(c.toks) {
		return NoPos
	}
	return Pos(c.toks[i].Pos.Offset)
}

// unaryStart is the offset of the first token of u: its first NOT, or X.
func (c *converter) unaryStart(u *gUnary) Pos {
	i := c.tokenIndex(pos(u.X.Pos)) - len(u.Not)
	if i < 0 || i >= len(c.toks) {
		return pos(u.X.Pos)
	}
	return Pos(c.toks[i].Pos.Offset)
}

var cmpOps = map[string]BinaryOp{
	"=": OpEq, "!=": OpNe, "<>": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
}

// unary converts NOT… X [comparison or predicate].
func (c *converter) unary(g *gUnary) (Expr, *Error) {
	x, err := c.cmp(g)
	if err != nil {
		return nil, err
	}
	first := c.tokenIndex(pos(g.X.Pos)) - len(g.Not)
	for i := len(g.Not) - 1; i >= 0; i-- {
		p := NoPos
		if k := first + i; k >= 0 && k < len(c.toks) {
			p = Pos(c.toks[k].Pos.Offset)
		}
		x = &UnaryExpr{OpPos: p, Op: OpNot, X: x}
	}
	return x, nil
}

func (c *converter) cmp(g *gUnary) (Expr, *Error) {
	x, err := c.sum(g.X)
	if err != nil {
		return nil, err
	}
	switch {
	case g.RHS != nil:
		y, err := c.sum(g.RHS)
		if err != nil {
			return nil, err
		}
		return newBinary(c.tokenBefore(pos(g.RHS.Pos)), cmpOps[g.Op], x, y), nil
	case g.Is:
		return &IsNullExpr{X: x, Not: g.IsNot}, nil
	case g.Lo != nil:
		lo, err := c.sum(g.Lo)
		if err != nil {
			return nil, err
		}
		hi, err := c.sum(g.Hi)
		if err != nil {
			return nil, err
		}
		return &BetweenExpr{X: x, Lo: lo, Hi: hi, Not: g.PredNot}, nil
	case g.Like != nil:
		pat, err := c.sum(g.Like)
		if err != nil {
			return nil, err
		}
		l := &LikeExpr{X: x, Pattern: pat, Not: g.PredNot}
		if g.Escape != nil {
			if l.Escape, err = c.sum(g.Escape); err != nil {
				return nil, err
			}
		}
		return l, nil
	case g.InSel != nil:
		sub, err := c.subSelect(g.InSel)
		if err != nil {
			return nil, err
		}
		return &InExpr{X: x, Sub: sub, Not: g.PredNot}, nil
	case len(g.In) > 0:
		list, err := c.exprs(g.In)
		if err != nil {
			return nil, err
		}
		return &InExpr{X: x, List: list, Not: g.PredNot}, nil
	}
	return x, nil
}

func (c *converter) neg(g *gNeg) (Expr, *Error) {
	p := pos(g.Pos)
	switch {
	case g.Col != "":
		id := ident(&gColumn{Pos: g.Pos, Name: g.Col})
		ref := &ColumnRef{NamePos: id.NamePos, Name: id.Name}
		if g.Dot != nil {
			if g.Dot.Star {
				return nil, c.errorf(g.Dot.Pos, "%s.* is only a select list item", id.Name)
			}
			ref.Table = id.Name
			ref.Name = ident(&gColumn{Pos: g.Dot.Pos, Name: g.Dot.Name}).Name
		}
		if g.Sub == nil {
			return ref, nil
		}
		key, err := c.expr(g.Sub)
		if err != nil {
			return nil, err
		}
		return &SubscriptExpr{X: ref, Key: key}, nil
	case g.Str != "":
		return &StringLit{ValuePos: p, Val: unquote(g.Str, '\'')}, nil
	case g.Int != "":
		n, err := c.int64(g.Pos, g.Int)
		if err != nil {
			return nil, err
		}
		return &IntLit{ValuePos: p, Val: n}, nil
	case g.Typed != nil:
		return c.typed(g.Typed)
	case g.Neg != nil && g.Neg.Int != "":
		return c.negInt(g)
	case g.Neg != nil:
		x, err := c.neg(g.Neg)
		if err != nil {
			return nil, err
		}
		return &UnaryExpr{OpPos: p, Op: OpNeg, X: x}, nil
	case g.Scalar != nil:
		sub, err := c.subSelect(g.Scalar)
		if err != nil {
			return nil, err
		}
		return &SubqueryExpr{Lparen: p, Select: sub}, nil
	case g.Exists != nil:
		sub, err := c.subSelect(g.Exists)
		if err != nil {
			return nil, err
		}
		return &ExistsExpr{ExistsPos: p, Select: sub}, nil
	case g.Paren != nil && len(g.Tuple) > 0:
		elems, err := c.exprs(append([]*gExpr{g.Paren}, g.Tuple...))
		if err != nil {
			return nil, err
		}
		return &TupleExpr{Lparen: p, Elems: elems}, nil
	case g.Paren != nil:
		return c.expr(g.Paren)
	case g.Float != "":
		f, err := strconv.ParseFloat(g.Float, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, c.errorf(g.Pos, "float literal %s out of range", g.Float)
		}
		return &FloatLit{ValuePos: p, Val: f}, nil
	case g.Bytes != "":
		return c.bytes(g.Pos, g.Bytes)
	case g.Bool != "":
		return &BoolLit{ValuePos: p, Val: strings.EqualFold(g.Bool, "TRUE")}, nil
	case g.Call != nil:
		return c.call(g.Call)
	case g.Cast != nil:
		return c.cast(g.Cast)
	case g.Extract != nil:
		return c.extract(g.Extract)
	case g.Case != nil:
		return c.caseExpr(g.Case)
	case g.Interval != nil:
		return c.interval(g.Interval)
	}
	return &NullLit{ValuePos: p}, nil
}

// negInt converts '-' before an integer. It is a UnaryExpr over the IntLit,
// except for the one magnitude that fits in an int64 only when negated:
// -9223372036854775808 is an IntLit of its own. The range is checked on
// the negated value, so an error quotes the literal with its sign.
func (c *converter) negInt(g *gNeg) (Expr, *Error) {
	n, err := strconv.ParseInt("-"+g.Neg.Int, 10, 64)
	if err != nil {
		return nil, c.errorf(g.Pos, "integer literal -%s out of range", g.Neg.Int)
	}
	if n == math.MinInt64 {
		return &IntLit{ValuePos: pos(g.Pos), Val: n}, nil
	}
	return &UnaryExpr{OpPos: pos(g.Pos), Op: OpNeg, X: &IntLit{ValuePos: pos(g.Neg.Pos), Val: -n}}, nil
}

func (c *converter) typed(g *gTyped) (Expr, *Error) {
	text := unquote(g.Raw, '\'')
	textPos := g.Pos
	if i := c.tokenIndex(pos(g.Pos)) + 1; i < len(c.toks) {
		textPos = c.toks[i].Pos
	}
	if strings.EqualFold(g.Kind, "DATE") {
		t, ok := parseDate(text)
		if !ok {
			return nil, c.errorf(textPos, "invalid date literal %s, expected 'YYYY-MM-DD'", quote(text, '\''))
		}
		return &DateLit{ValuePos: pos(g.Pos), Val: t}, nil
	}
	t, ok := parseTimestamp(text)
	if !ok {
		return nil, c.errorf(textPos, "invalid timestamp literal %s", quote(text, '\''))
	}
	return &TimestampLit{ValuePos: pos(g.Pos), Val: t}, nil
}

var arithOps = map[string]BinaryOp{
	"+": OpAdd, "-": OpSub, "||": OpConcat, "*": OpMul, "/": OpDiv, "%": OpMod,
}

// sum converts a chain of +, - and || into left-associated BinaryExprs.
func (c *converter) sum(g *gSum) (Expr, *Error) {
	acc, err := c.prod(g.Left)
	if err != nil {
		return nil, err
	}
	for i, r := range g.Rest {
		x, err := c.prod(r)
		if err != nil {
			return nil, err
		}
		acc = newBinary(c.tokenBefore(pos(r.Pos)), arithOps[g.Ops[i]], acc, x)
	}
	return acc, nil
}

// prod converts a chain of *, / and % into left-associated BinaryExprs.
func (c *converter) prod(g *gProd) (Expr, *Error) {
	acc, err := c.neg(g.Left)
	if err != nil {
		return nil, err
	}
	for i, r := range g.Rest {
		x, err := c.neg(r)
		if err != nil {
			return nil, err
		}
		acc = newBinary(c.tokenBefore(pos(r.Pos)), arithOps[g.Ops[i]], acc, x)
	}
	return acc, nil
}

func (c *converter) call(g *gCall) (Expr, *Error) {
	name := strings.ToUpper(g.Name)
	if g.Name[0] == '"' {
		return nil, c.errorf(g.Pos, "%s is not a function: a quoted name cannot be called", g.Name)
	}
	args, err := c.exprs(append(g.Of, g.Args...))
	if err != nil {
		return nil, err
	}
	if g.Star && name != "COUNT" {
		return nil, c.errorf(g.Pos, "only COUNT takes *, not %s", name)
	}
	return &CallExpr{NamePos: pos(g.Pos), Name: name, Star: g.Star, Distinct: g.Distinct, Args: args}, nil
}

func (c *converter) cast(g *gCast) (Expr, *Error) {
	x, err := c.expr(g.X)
	if err != nil {
		return nil, err
	}
	return &CastExpr{Cast: pos(g.Pos), X: x, Type: strings.ToUpper(g.Type)}, nil
}

// extract converts EXTRACT(unit FROM x) to DATE_PART('unit', x), which
// checks the unit.
func (c *converter) extract(g *gExtract) (Expr, *Error) {
	x, err := c.expr(g.X)
	if err != nil {
		return nil, err
	}
	unit := &StringLit{ValuePos: pos(g.Pos) + Pos(len("EXTRACT(")), Val: strings.ToLower(g.Unit)}
	return &CallExpr{NamePos: pos(g.Pos), Name: "DATE_PART", Args: []Expr{unit, x}}, nil
}

func (c *converter) caseExpr(g *gCase) (Expr, *Error) {
	e := &CaseExpr{Case: pos(g.Pos)}
	var err *Error
	if g.Operand != nil {
		if e.Operand, err = c.expr(g.Operand); err != nil {
			return nil, err
		}
	}
	for _, w := range g.Whens {
		cond, err := c.expr(w.Cond)
		if err != nil {
			return nil, err
		}
		res, err := c.expr(w.Result)
		if err != nil {
			return nil, err
		}
		e.Whens = append(e.Whens, When{Cond: cond, Result: res})
	}
	if g.Else != nil {
		if e.Else, err = c.expr(g.Else); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// interval converts INTERVAL 'n' UNIT; n is a whole number, possibly
// negative.
func (c *converter) interval(g *gInterval) (Expr, *Error) {
	text := strings.TrimSpace(unquote(g.Raw, '\''))
	textPos := g.Pos
	if i := c.tokenIndex(pos(g.Pos)) + 1; i < len(c.toks) {
		textPos = c.toks[i].Pos
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, c.errorf(textPos, "invalid interval %s, expected a whole number such as '5'", quote(text, '\''))
	}
	e := &IntervalLit{ValuePos: pos(g.Pos), N: n, Unit: strings.ToUpper(g.Unit)}
	if _, ok := e.Millis(); !ok {
		return nil, c.errorf(textPos, "interval %s %s is out of range", text, e.Unit)
	}
	return e, nil
}

// subSelect converts the SELECT of a subquery.
func (c *converter) subSelect(g *gSelect) (*SelectStmt, *Error) {
	st, err := c.selectStmt(g)
	if err != nil {
		return nil, err
	}
	return st.(*SelectStmt), nil
}
