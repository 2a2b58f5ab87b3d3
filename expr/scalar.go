package expr

import "github.com/rkql/rkql/catalog"

// Scalar is an expression that computes a value from a logical row: what
// a plan projects. Today every scalar is a column reference; computed
// values join the layer as new implementations.
type Scalar interface {
	Value(r catalog.Row) catalog.Value
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
func (c *Col) Value(r catalog.Row) catalog.Value { return r[c.Index] }

// Type is the column's type.
func (c *Col) Type() catalog.Type { return c.T }

func (c *Col) String() string { return c.Name }
