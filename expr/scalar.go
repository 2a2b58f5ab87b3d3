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
