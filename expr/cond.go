package expr

import (
	"github.com/rkql/rkql/catalog"
)

// Conditions over computed values. A value that fails to compute (an
// integer overflow, a text that does not convert) fails the condition
// with that error, as it fails a select list: the row is neither kept
// nor dropped in silence. And and Or decide a row without it when
// another term does (FALSE, TRUE).

// ScalarCond is a condition over scalars rather than over one column: it
// lists the columns it reads.
type ScalarCond interface {
	Expr
	Columns() []int
}

var (
	_ ScalarCond = (*Compare)(nil)
	_ ScalarCond = (*IsNullOf)(nil)
	_ ScalarCond = (*LikeOf)(nil)
)

// Compare is L op R over two computed values of comparable types (see
// CompareValues); UNKNOWN when either is NULL.
type Compare struct {
	L, R Scalar
	Op   CmpOp
}

// Eval compares.
func (p *Compare) Eval(r catalog.Row) (Tri, error) {
	x, err := p.L.Value(r)
	if err != nil {
		return Unknown, err
	}
	y, err := p.R.Value(r)
	if err != nil || x.Null || y.Null {
		return Unknown, err
	}
	c := CompareValues(x, y)
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

func (p *Compare) String() string { return p.L.String() + " " + cmpText[p.Op] + " " + p.R.String() }

// Columns lists the columns the operands read.
func (p *Compare) Columns() []int { return ScalarColumns(p.L, p.R) }

// IsNullOf is X IS [NOT] NULL over a computed value.
type IsNullOf struct {
	X   Scalar
	Not bool
}

// Eval tests X.
func (p *IsNullOf) Eval(r catalog.Row) (Tri, error) {
	v, err := p.X.Value(r)
	if err != nil {
		return Unknown, err
	}
	return TriOf(v.Null != p.Not), nil
}

func (p *IsNullOf) String() string {
	if p.Not {
		return p.X.String() + " IS NOT NULL"
	}
	return p.X.String() + " IS NULL"
}

// Columns lists the columns X reads.
func (p *IsNullOf) Columns() []int { return ScalarColumns(p.X) }

// LikeOf is X [NOT] LIKE pattern over a computed STRING.
type LikeOf struct {
	X    Scalar
	Like *Like // the pattern, compiled; its column is unused
}

// Eval matches X's text.
func (p *LikeOf) Eval(r catalog.Row) (Tri, error) {
	v, err := p.X.Value(r)
	if err != nil || v.Null {
		return Unknown, err
	}
	return TriOf(p.Like.re.MatchString(v.S) != p.Like.Not), nil
}

func (p *LikeOf) String() string {
	not := ""
	if p.Like.Not {
		not = "NOT "
	}
	s := p.X.String() + " " + not + "LIKE " + catalog.String(p.Like.Pattern).String()
	if p.Like.Escape != "" {
		s += " ESCAPE " + catalog.String(p.Like.Escape).String()
	}
	return s
}

// Columns lists the columns X reads.
func (p *LikeOf) Columns() []int { return ScalarColumns(p.X) }

// ScalarColumns lists the columns the scalars read, each once, in the
// order first met.
func ScalarColumns(xs ...Scalar) []int {
	var out []int
	seen := map[int]bool{}
	var walk func(s Scalar)
	walk = func(s Scalar) {
		switch s := s.(type) {
		case *Col:
			if !seen[s.Index] {
				seen[s.Index] = true
				out = append(out, s.Index)
			}
		case *Arith:
			walk(s.L)
			walk(s.R)
		case *Neg:
			walk(s.X)
		case *AddMillis:
			walk(s.X)
		case *Subscript:
			walk(s.X)
			walk(s.Key)
		case *Concat:
			walk(s.L)
			walk(s.R)
		case *Func:
			for _, a := range s.Args {
				walk(a)
			}
		case *Cast:
			walk(s.X)
		case *Case:
			for _, w := range s.Whens {
				for _, c := range Columns(w.Cond) {
					walk(&Col{Index: c})
				}
				walk(w.Result)
			}
			if s.Else != nil {
				walk(s.Else)
			}
		case *Truth:
			for _, c := range Columns(s.C) {
				walk(&Col{Index: c})
			}
		}
	}
	for _, x := range xs {
		walk(x)
	}
	return out
}
