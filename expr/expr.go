package expr

import (
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// Tri is SQL's three-valued truth.
type Tri int8

// The three truth values.
const (
	False Tri = iota
	True
	Unknown
)

// TriOf is True or False.
func TriOf(b bool) Tri {
	if b {
		return True
	}
	return False
}

// Expr is a compiled condition over a logical row.
type Expr interface {
	// Eval fails only when a value the truth depends on cannot be
	// computed (see ScalarCond); the error is nil otherwise.
	Eval(r catalog.Row) (Tri, error)
	// String renders the predicate in SQL, as EXPLAIN prints filters.
	String() string
}

// ColumnExpr is a predicate over one column.
type ColumnExpr interface {
	Expr
	Column() int
	// WithColumn returns a copy reading column c instead.
	WithColumn(c int) Expr
}

func (p *Cmp) Column() int     { return p.Col }
func (p *Between) Column() int { return p.Col }
func (p *In) Column() int      { return p.Col }
func (p *Like) Column() int    { return p.Col }
func (p *IsNull) Column() int  { return p.Col }

func (p *Cmp) WithColumn(c int) Expr     { q := *p; q.Col = c; return &q }
func (p *Between) WithColumn(c int) Expr { q := *p; q.Col = c; return &q }
func (p *In) WithColumn(c int) Expr      { q := *p; q.Col = c; return &q }
func (p *Like) WithColumn(c int) Expr    { q := *p; q.Col = c; return &q }
func (p *IsNull) WithColumn(c int) Expr  { q := *p; q.Col = c; return &q }

// Match reports whether the row satisfies p (unknown is false). It fails
// only when the answer depends on a value that cannot be computed: a
// term that is FALSE or UNKNOWN rejects the row whatever an AND's other
// terms give, a TRUE one keeps it whatever an OR's others give. So the
// answer does not depend on the order terms are met in, nor on which of
// them a store or a key range has applied first.
func Match(p Expr, r catalog.Row) (bool, error) {
	if p == nil {
		return true, nil
	}
	return decide(p, r, True)
}

// decide reports whether p is want (True or False) for r, failing only
// when that depends on a value that cannot be computed.
func decide(p Expr, r catalog.Row, want Tri) (bool, error) {
	var terms []Expr
	all := false // all terms must be want; else any one suffices
	switch x := p.(type) {
	case *And:
		terms, all = x.Terms, want == True
	case *Or:
		if x.eq == nil {
			terms, all = x.Terms, want == False
		}
	case *Not:
		return decide(x.X, r, True+False-want)
	}
	if terms == nil {
		v, err := p.Eval(r)
		return v == want, err
	}
	var first error
	for _, t := range terms {
		ok, err := decide(t, r, want)
		switch {
		case err != nil:
			if first == nil {
				first = err
			}
		case ok != all:
			return ok, nil
		}
	}
	if first != nil {
		return false, first
	}
	return all, nil
}

// CmpOp is a comparison operator.
type CmpOp int

// Comparison operators.
const (
	Eq CmpOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var cmpText = [...]string{"=", "!=", "<", "<=", ">", ">="}

// Cmp is column op value.
type Cmp struct {
	Col  int
	Name string
	Op   CmpOp
	Val  catalog.Value
}

func (p *Cmp) Eval(r catalog.Row) (Tri, error) {
	v := r[p.Col]
	if v.Null || p.Val.Null {
		return Unknown, nil
	}
	c := catalog.Compare(v, p.Val)
	switch p.Op {
	case Eq:
		return TriOf(c == 0), nil
	case Ne:
		return TriOf(c != 0), nil
	case Lt:
		return TriOf(c < 0), nil
	case Le:
		return TriOf(c <= 0), nil
	case Gt:
		return TriOf(c > 0), nil
	}
	return TriOf(c >= 0), nil
}

func (p *Cmp) String() string { return p.Name + " " + cmpText[p.Op] + " " + p.Val.String() }

// Between is column BETWEEN lo AND hi (inclusive).
type Between struct {
	Col    int
	Name   string
	Lo, Hi catalog.Value
	Not    bool
}

func (p *Between) Eval(r catalog.Row) (Tri, error) {
	v := r[p.Col]
	if v.Null {
		return Unknown, nil
	}
	in := catalog.Compare(v, p.Lo) >= 0 && catalog.Compare(v, p.Hi) <= 0
	return TriOf(in != p.Not), nil
}

func (p *Between) String() string {
	not := ""
	if p.Not {
		not = "NOT "
	}
	return p.Name + " " + not + "BETWEEN " + p.Lo.String() + " AND " + p.Hi.String()
}

// In is column IN (values). Build it with NewIn, which indexes a long
// list; set is nil for a short one, or an In built as a literal, which
// Eval searches value by value.
type In struct {
	Col  int
	Name string
	Vals []catalog.Value
	Not  bool
	set  *inSet
}

func (p *In) Eval(r catalog.Row) (Tri, error) {
	v := r[p.Col]
	if v.Null {
		return Unknown, nil
	}
	var found, sawNull bool
	if p.set != nil && setType(v.Type) {
		found, sawNull = p.set.has(v), p.set.hasNull
	} else {
		found, sawNull = p.search(v)
	}
	switch {
	case found:
		return TriOf(!p.Not), nil
	case sawNull:
		// x IN (…, NULL) is unknown when no listed value matches, and
		// so is x NOT IN (…, NULL).
		return Unknown, nil
	}
	return TriOf(p.Not), nil
}

// search looks for non-NULL v among the values one by one; sawNull says
// whether it met a NULL before it stopped.
func (p *In) search(v catalog.Value) (found, sawNull bool) {
	for _, x := range p.Vals {
		if x.Null {
			sawNull = true
			continue
		}
		if catalog.Compare(v, x) == 0 {
			return true, sawNull
		}
	}
	return false, sawNull
}

func (p *In) String() string {
	parts := make([]string, len(p.Vals))
	for i, v := range p.Vals {
		parts[i] = v.String()
	}
	not := ""
	if p.Not {
		not = "NOT "
	}
	return p.Name + " " + not + "IN (" + strings.Join(parts, ", ") + ")"
}

// Like is column LIKE pattern [ESCAPE escape], with % and _ wildcards.
// Over a STRING column _ stands for one character; over BYTES (Bytes set)
// for one byte, and the pattern's bytes are matched as they are. With an
// Escape character, the character after it stands for itself, wildcard or
// not.
type Like struct {
	Col     int
	Name    string
	Pattern string
	Not     bool
	Bytes   bool
	// Escape is the escape character; "" when none.
	Escape string
	// units are the pattern's characters (bytes for Bytes), each a
	// wildcard ('%' or '_' with wild set) or literal.
	units []likeUnit
	re    *regexp.Regexp
}

type likeUnit struct {
	r    rune
	wild bool
}

// ErrLikeEscape is returned for a pattern that ends with its escape
// character, which escapes nothing.
var ErrLikeEscape = errors.New("expr: LIKE pattern ends with its escape character")

// NewLike compiles column LIKE pattern over a STRING column.
func NewLike(col int, name, pattern string, not bool) *Like {
	l, _ := NewLikeEscape(col, name, pattern, "", false, not)
	return l
}

// NewBytesLike compiles column LIKE pattern over a BYTES column: each byte
// is one unit, for the wildcards as for the text.
func NewBytesLike(col int, name, pattern string, not bool) *Like {
	l, _ := NewLikeEscape(col, name, pattern, "", true, not)
	return l
}

// NewLikeEscape compiles column LIKE pattern ESCAPE escape; escape is
// one character (one byte over BYTES), or "" for none. It fails only for
// a pattern ending with its escape character.
func NewLikeEscape(col int, name, pattern, escape string, bytesCol, not bool) (*Like, error) {
	l := &Like{Col: col, Name: name, Pattern: pattern, Not: not, Bytes: bytesCol, Escape: escape}
	rs := []rune(pattern)
	esc := rune(-1)
	if bytesCol {
		rs = byteRunes([]byte(pattern))
		if escape != "" {
			esc = rune(escape[0])
		}
	} else if escape != "" {
		esc = []rune(escape)[0]
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == esc:
			if i++; i == len(rs) {
				return nil, ErrLikeEscape
			}
			l.units = append(l.units, likeUnit{r: rs[i]})
		case r == '%' || r == '_':
			l.units = append(l.units, likeUnit{r: r, wild: true})
		default:
			l.units = append(l.units, likeUnit{r: r})
		}
	}
	l.re = likeRegexp(l.units)
	return l, nil
}

func likeRegexp(units []likeUnit) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, u := range units {
		switch {
		case u.wild && u.r == '%':
			b.WriteString(".*")
		case u.wild:
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(u.r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// Prefix returns the literal text the pattern starts with, before its
// first wildcard (bytes over a BYTES column); exact reports that the rest
// is one final %, so that the prefix alone decides the match.
func (p *Like) Prefix() (text string, exact bool) {
	var b []byte
	i := 0
	for ; i < len(p.units) && !p.units[i].wild; i++ {
		if p.Bytes {
			b = append(b, byte(p.units[i].r))
		} else {
			b = utf8.AppendRune(b, p.units[i].r)
		}
	}
	exact = i == len(p.units)-1 && p.units[i].r == '%'
	return string(b), exact
}

// byteRunes maps each byte to the rune of the same number, so that a
// regexp's . takes one byte.
func byteRunes(b []byte) []rune {
	out := make([]rune, len(b))
	for i, c := range b {
		out[i] = rune(c)
	}
	return out
}

func (p *Like) Eval(r catalog.Row) (Tri, error) {
	v := r[p.Col]
	if v.Null {
		return Unknown, nil
	}
	s := v.S
	if p.Bytes {
		s = string(byteRunes(v.B))
	} else if v.Type == catalog.TypeBytes {
		s = string(v.B)
	}
	return TriOf(p.re.MatchString(s) != p.Not), nil
}

func (p *Like) String() string {
	not := ""
	if p.Not {
		not = "NOT "
	}
	s := p.Name + " " + not + "LIKE " + catalog.String(p.Pattern).String()
	if p.Escape != "" {
		s += " ESCAPE " + catalog.String(p.Escape).String()
	}
	return s
}

// LikeShape classifies a pattern as 'p%' (prefix) or '%s' (suffix) with
// no other wildcard.
func LikeShape(pattern string) (text string, prefix, suffix bool) {
	if strings.ContainsAny(pattern, "_") {
		return "", false, false
	}
	n := strings.Count(pattern, "%")
	switch {
	case n == 1 && strings.HasSuffix(pattern, "%"):
		return strings.TrimSuffix(pattern, "%"), true, false
	case n == 1 && strings.HasPrefix(pattern, "%"):
		return strings.TrimPrefix(pattern, "%"), false, true
	}
	return "", false, false
}

// IsNull is column IS [NOT] NULL.
type IsNull struct {
	Col  int
	Name string
	Not  bool
}

func (p *IsNull) Eval(r catalog.Row) (Tri, error) { return TriOf(r[p.Col].Null != p.Not), nil }

func (p *IsNull) String() string {
	if p.Not {
		return p.Name + " IS NOT NULL"
	}
	return p.Name + " IS NULL"
}

// And is a conjunction.
type And struct{ Terms []Expr }

// Eval is FALSE when a term is FALSE, whatever the others give, even an
// error: the row is decided without them, so the order terms are met in
// (or which of them a store or a key range has already applied) does
// not matter. Otherwise the first error, else Kleene's AND.
func (p *And) Eval(r catalog.Row) (Tri, error) {
	out := True
	var first error
	for _, t := range p.Terms {
		v, err := t.Eval(r)
		switch {
		case err != nil:
			if first == nil {
				first = err
			}
		case v == False:
			return False, nil
		case v == Unknown:
			out = Unknown
		}
	}
	if first != nil {
		return Unknown, first
	}
	return out, nil
}

func (p *And) String() string { return join(p.Terms, " AND ", true) }

// Or is a disjunction.
// Build it with NewOr, which indexes a long OR of equalities on one
// column; eq is nil for any other, or an Or built as a literal.
type Or struct {
	Terms []Expr
	eq    *orEq
}

// Eval is TRUE when a term is TRUE, whatever the others give, even an
// error (as And is FALSE). Otherwise the first error, else Kleene's OR.
func (p *Or) Eval(r catalog.Row) (Tri, error) {
	if p.eq != nil {
		if v := r[p.eq.col]; v.Null || setType(v.Type) {
			return p.eq.eval(v), nil
		}
	}
	out := False
	var first error
	for _, t := range p.Terms {
		v, err := t.Eval(r)
		switch {
		case err != nil:
			if first == nil {
				first = err
			}
		case v == True:
			return True, nil
		case v == Unknown:
			out = Unknown
		}
	}
	if first != nil {
		return Unknown, first
	}
	return out, nil
}

func (p *Or) String() string { return join(p.Terms, " OR ", false) }

// Not negates.
type Not struct{ X Expr }

func (p *Not) Eval(r catalog.Row) (Tri, error) {
	v, err := p.X.Eval(r)
	switch {
	case err != nil:
		return Unknown, err
	case v == True:
		return False, nil
	case v == False:
		return True, nil
	}
	return Unknown, nil
}

func (p *Not) String() string { return "NOT (" + p.X.String() + ")" }

// Const is a predicate with a fixed truth, such as x = NULL.
type Const struct{ V Tri }

func (p *Const) Eval(catalog.Row) (Tri, error) { return p.V, nil }

func (p *Const) String() string {
	return [...]string{"FALSE", "TRUE", "NULL"}[p.V]
}

func join(ps []Expr, sep string, and bool) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		s := p.String()
		if _, isOr := p.(*Or); isOr && and {
			s = "(" + s + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, sep)
}

// Conjuncts flattens nested ANDs.
func Conjuncts(p Expr) []Expr {
	if a, ok := p.(*And); ok {
		var out []Expr
		for _, t := range a.Terms {
			out = append(out, Conjuncts(t)...)
		}
		return out
	}
	if p == nil {
		return nil
	}
	return []Expr{p}
}

// AndOf builds a conjunction of ps, nil for none.
func AndOf(ps []Expr) Expr {
	switch len(ps) {
	case 0:
		return nil
	case 1:
		return ps[0]
	}
	return &And{Terms: ps}
}

// Disjuncts flattens one level of OR.
func Disjuncts(p Expr) []Expr {
	if o, ok := p.(*Or); ok {
		return o.Terms
	}
	return []Expr{p}
}

// Columns lists the columns e reads, each once, in the order first met.
func Columns(e Expr) []int {
	var out []int
	seen := map[int]bool{}
	Walk(e, func(x Expr) {
		if c, ok := x.(ColumnExpr); ok && !seen[c.Column()] {
			seen[c.Column()] = true
			out = append(out, c.Column())
		}
		if sc, ok := x.(ScalarCond); ok {
			for _, c := range sc.Columns() {
				if !seen[c] {
					seen[c] = true
					out = append(out, c)
				}
			}
		}
	})
	return out
}

// Walk calls fn on e and on every expression below it, parents first.
func Walk(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch x := e.(type) {
	case *And:
		for _, t := range x.Terms {
			Walk(t, fn)
		}
	case *Or:
		for _, t := range x.Terms {
			Walk(t, fn)
		}
	case *Not:
		Walk(x.X, fn)
	}
}
