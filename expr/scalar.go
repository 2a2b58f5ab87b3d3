package expr

import "github.com/rkql/rkql/catalog"

// Scalar is an expression that computes a value from a logical row: what
// a plan projects, groups by and aggregates. A column reference, a
// constant, arithmetic, functions, CASE and CAST. Value fails only when
// the value cannot be computed (an integer overflow, a text that does
// not convert); NULL operands give NULL.
type Scalar interface {
	Value(r catalog.Row) (catalog.Value, error)
	Type() catalog.Type
	// String renders the scalar in SQL.
	String() string
}

// Col reads one column of the row.
type Col struct {
	Index int
	Name  string
	T     catalog.Type
}

var _ Scalar = (*Col)(nil)

// Value returns the column's value.
func (c *Col) Value(r catalog.Row) (catalog.Value, error) { return r[c.Index], nil }

// Type is the column's type.
func (c *Col) Type() catalog.Type { return c.T }

func (c *Col) String() string { return c.Name }

// Subscript is X[Key]: the value the MAP X holds for Key, NULL when it
// holds none or either is NULL. Key is converted to the map's key type
// (catalog.MapType.MapKey) when evaluated; a key that does not convert
// is an error.
type Subscript struct {
	X, Key Scalar
	// Map is X's key and value types; the result is a Map.Val.
	Map catalog.MapType
}

var _ Scalar = (*Subscript)(nil)

// Value looks Key up in X.
func (s *Subscript) Value(r catalog.Row) (catalog.Value, error) {
	m, err := s.X.Value(r)
	if err != nil {
		return catalog.Value{}, err
	}
	k, err := s.Key.Value(r)
	if err != nil {
		return catalog.Value{}, err
	}
	if m.Null || k.Null {
		return catalog.Null(s.Map.Val), nil
	}
	if k, err = s.Map.MapKey(k); err != nil {
		return catalog.Value{}, err
	}
	if v, ok := m.M.Get(k); ok {
		return v, nil
	}
	return catalog.Null(s.Map.Val), nil
}

// Type is the map's value type.
func (s *Subscript) Type() catalog.Type { return s.Map.Val }

func (s *Subscript) String() string { return s.X.String() + "[" + s.Key.String() + "]" }
