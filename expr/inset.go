package expr

import (
	"math"

	"github.com/rkql/rkql/catalog"
)

// NewIn returns column col IN (vals), or NOT IN with not set, with its
// values indexed so that Eval looks a row's value up in constant time
// however long the list. An In built as a literal is searched value by
// value.
func NewIn(col int, name string, vals []catalog.Value, not bool) *In {
	p := &In{Col: col, Name: name, Vals: vals, Not: not}
	if len(vals) > linearIn {
		p.set = newInSet(vals)
	}
	return p
}

// NewOr returns the OR of terms. When every term is col = value or col
// IN (…) on one column, with more than a few values in all, the values
// are indexed as NewIn's are, so that Eval tests a row in constant time
// however many terms there are; String is the OR's all the same.
func NewOr(terms []Expr) *Or {
	p := &Or{Terms: terms}
	col := -1
	var vals []catalog.Value
	for _, t := range terms {
		switch t := t.(type) {
		case *Cmp:
			if t.Op != Eq || (col >= 0 && t.Col != col) {
				return p
			}
			col, vals = t.Col, append(vals, t.Val)
		case *In:
			if t.Not || (col >= 0 && t.Col != col) {
				return p
			}
			col, vals = t.Col, append(vals, t.Vals...)
		default:
			return p
		}
	}
	if len(vals) > linearIn {
		if set := newInSet(vals); set != nil {
			p.eq = &orEq{col: col, set: set}
		}
	}
	return p
}

// orEq is an OR of equalities on column col, its values in set.
type orEq struct {
	col int
	set *inSet
}

// eval is the OR over v, NULL or of a type the set holds: TRUE where v
// equals a value, else UNKNOWN where v is NULL or a value is, else FALSE,
// as the OR of the equalities gives.
func (o *orEq) eval(v catalog.Value) Tri {
	switch {
	case v.Null:
		return Unknown
	case o.set.has(v):
		return True
	case o.set.hasNull:
		return Unknown
	}
	return False
}

// linearIn is the longest list searched value by value: a short list is
// as quick to scan as to hash.
const linearIn = 8

// inSet holds the non-NULL values of an IN list so that two values are
// found equal exactly when catalog.Compare finds them equal: integral
// values (BIGINT, INT, TIMESTAMP, DATE, BOOLEAN) by their integer
// whatever their type, doubles with -0 as 0 and every NaN as one, text
// and bytes by their bytes, each kind apart from the others.
type inSet struct {
	ints    map[int64]struct{}
	doubles map[uint64]struct{}
	strs    map[string]struct{}
	bytes   map[string]struct{}
	hasNull bool
}

// newInSet indexes vals, or returns nil when a value is of a type it
// does not know.
func newInSet(vals []catalog.Value) *inSet {
	s := &inSet{}
	for _, v := range vals {
		switch {
		case v.Null:
			s.hasNull = true
		case !setType(v.Type):
			return nil
		case v.Type == catalog.TypeDouble:
			if s.doubles == nil {
				s.doubles = map[uint64]struct{}{}
			}
			s.doubles[doubleKey(v.F)] = struct{}{}
		case v.Type == catalog.TypeString:
			if s.strs == nil {
				s.strs = map[string]struct{}{}
			}
			s.strs[v.S] = struct{}{}
		case v.Type == catalog.TypeBytes:
			if s.bytes == nil {
				s.bytes = map[string]struct{}{}
			}
			s.bytes[string(v.B)] = struct{}{}
		default:
			if s.ints == nil {
				s.ints = map[int64]struct{}{}
			}
			s.ints[v.I] = struct{}{}
		}
	}
	return s
}

// setType reports whether an inSet holds values of type t.
func setType(t catalog.Type) bool {
	switch t {
	case catalog.TypeDouble, catalog.TypeString, catalog.TypeBytes,
		catalog.TypeBigint, catalog.TypeInt, catalog.TypeTimestamp, catalog.TypeDate, catalog.TypeBoolean:
		return true
	}
	return false
}

// has reports whether non-NULL v, of a type setType accepts, equals a
// value of the set.
func (s *inSet) has(v catalog.Value) bool {
	var ok bool
	switch v.Type {
	case catalog.TypeDouble:
		_, ok = s.doubles[doubleKey(v.F)]
	case catalog.TypeString:
		_, ok = s.strs[v.S]
	case catalog.TypeBytes:
		_, ok = s.bytes[string(v.B)]
	default:
		_, ok = s.ints[v.I]
	}
	return ok
}

// doubleKey is f's bits with the zeros made one and the NaNs made one,
// as SQL's equality of doubles has them.
func doubleKey(f float64) uint64 {
	switch {
	case math.IsNaN(f):
		return math.Float64bits(math.NaN())
	case f == 0:
		return 0
	}
	return math.Float64bits(f)
}
