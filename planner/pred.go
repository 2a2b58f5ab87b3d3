package planner

import (
	"regexp"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// tri is SQL's three-valued truth.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// Pred is a compiled predicate over a logical row.
type Pred interface {
	eval(r catalog.Row) tri
	// String renders the predicate in SQL, as EXPLAIN prints filters.
	String() string
}

// colPred is a predicate over one column.
type colPred interface {
	Pred
	column() int
	// withColumn returns a copy reading column c instead.
	withColumn(c int) Pred
}

func (p *Cmp) column() int     { return p.Col }
func (p *Between) column() int { return p.Col }
func (p *In) column() int      { return p.Col }
func (p *Like) column() int    { return p.Col }
func (p *IsNull) column() int  { return p.Col }

func (p *Cmp) withColumn(c int) Pred     { q := *p; q.Col = c; return &q }
func (p *Between) withColumn(c int) Pred { q := *p; q.Col = c; return &q }
func (p *In) withColumn(c int) Pred      { q := *p; q.Col = c; return &q }
func (p *Like) withColumn(c int) Pred    { q := *p; q.Col = c; return &q }
func (p *IsNull) withColumn(c int) Pred  { q := *p; q.Col = c; return &q }

// Match reports whether the row satisfies p (unknown is false).
func Match(p Pred, r catalog.Row) bool { return p == nil || p.eval(r) == triTrue }

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

func (p *Cmp) eval(r catalog.Row) tri {
	v := r[p.Col]
	if v.Null || p.Val.Null {
		return triUnknown
	}
	c := catalog.Compare(v, p.Val)
	switch p.Op {
	case Eq:
		return triOf(c == 0)
	case Ne:
		return triOf(c != 0)
	case Lt:
		return triOf(c < 0)
	case Le:
		return triOf(c <= 0)
	case Gt:
		return triOf(c > 0)
	}
	return triOf(c >= 0)
}

func (p *Cmp) String() string { return p.Name + " " + cmpText[p.Op] + " " + p.Val.String() }

// Between is column BETWEEN lo AND hi (inclusive).
type Between struct {
	Col    int
	Name   string
	Lo, Hi catalog.Value
	Not    bool
}

func (p *Between) eval(r catalog.Row) tri {
	v := r[p.Col]
	if v.Null {
		return triUnknown
	}
	in := catalog.Compare(v, p.Lo) >= 0 && catalog.Compare(v, p.Hi) <= 0
	return triOf(in != p.Not)
}

func (p *Between) String() string {
	not := ""
	if p.Not {
		not = "NOT "
	}
	return p.Name + " " + not + "BETWEEN " + p.Lo.String() + " AND " + p.Hi.String()
}

// In is column IN (values).
type In struct {
	Col  int
	Name string
	Vals []catalog.Value
	Not  bool
}

func (p *In) eval(r catalog.Row) tri {
	v := r[p.Col]
	if v.Null {
		return triUnknown
	}
	for _, x := range p.Vals {
		if catalog.Compare(v, x) == 0 {
			return triOf(!p.Not)
		}
	}
	return triOf(p.Not)
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

// Like is column LIKE pattern, with % and _ wildcards.
type Like struct {
	Col     int
	Name    string
	Pattern string
	Not     bool
	re      *regexp.Regexp
}

func newLike(col int, name, pattern string, not bool) *Like {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range pattern {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return &Like{Col: col, Name: name, Pattern: pattern, Not: not, re: regexp.MustCompile(b.String())}
}

func (p *Like) eval(r catalog.Row) tri {
	v := r[p.Col]
	if v.Null {
		return triUnknown
	}
	s := v.S
	if v.Type == catalog.TypeBytes {
		s = string(v.B)
	}
	return triOf(p.re.MatchString(s) != p.Not)
}

func (p *Like) String() string {
	not := ""
	if p.Not {
		not = "NOT "
	}
	return p.Name + " " + not + "LIKE " + catalog.String(p.Pattern).String()
}

// likeShape classifies a pattern as 'p%' (prefix) or '%s' (suffix) with
// no other wildcard.
func likeShape(pattern string) (text string, prefix, suffix bool) {
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

func (p *IsNull) eval(r catalog.Row) tri { return triOf(r[p.Col].Null != p.Not) }

func (p *IsNull) String() string {
	if p.Not {
		return p.Name + " IS NOT NULL"
	}
	return p.Name + " IS NULL"
}

// And is a conjunction.
type And struct{ Terms []Pred }

func (p *And) eval(r catalog.Row) tri {
	out := triTrue
	for _, t := range p.Terms {
		switch t.eval(r) {
		case triFalse:
			return triFalse
		case triUnknown:
			out = triUnknown
		}
	}
	return out
}

func (p *And) String() string { return join(p.Terms, " AND ", true) }

// Or is a disjunction.
type Or struct{ Terms []Pred }

func (p *Or) eval(r catalog.Row) tri {
	out := triFalse
	for _, t := range p.Terms {
		switch t.eval(r) {
		case triTrue:
			return triTrue
		case triUnknown:
			out = triUnknown
		}
	}
	return out
}

func (p *Or) String() string { return join(p.Terms, " OR ", false) }

// Not negates.
type Not struct{ X Pred }

func (p *Not) eval(r catalog.Row) tri {
	switch p.X.eval(r) {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

func (p *Not) String() string { return "NOT (" + p.X.String() + ")" }

// Const is a predicate with a fixed truth, such as x = NULL.
type Const struct{ V tri }

func (p *Const) eval(catalog.Row) tri { return p.V }

func (p *Const) String() string {
	return [...]string{"FALSE", "TRUE", "NULL"}[p.V]
}

func join(ps []Pred, sep string, and bool) string {
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

// conjuncts flattens nested ANDs.
func conjuncts(p Pred) []Pred {
	if a, ok := p.(*And); ok {
		var out []Pred
		for _, t := range a.Terms {
			out = append(out, conjuncts(t)...)
		}
		return out
	}
	if p == nil {
		return nil
	}
	return []Pred{p}
}

// andOf builds a conjunction of ps, nil for none.
func andOf(ps []Pred) Pred {
	switch len(ps) {
	case 0:
		return nil
	case 1:
		return ps[0]
	}
	return &And{Terms: ps}
}
