package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// subscript compiles m[key], the value a MAP column holds for one key. A
// constant key is converted to the map's key type here, so that a key
// that cannot be one is an error at its position.
func (c *compiler) subscript(e *parser.SubscriptExpr, sc scope) (expr.Scalar, error) {
	x, err := sc.column(e.X)
	if err != nil {
		return nil, err
	}
	i, ok := c.t.Column(e.X.Name)
	if !ok || x.Type() != catalog.TypeMap {
		return nil, errAt(e.X.NamePos, "%s is a %s, not a MAP: only a MAP column takes [key]", e.X.Name, x.Type())
	}
	mt := c.t.Columns[i].Map
	key, err := c.scalar(e.Key, sc)
	if err != nil {
		return nil, err
	}
	if lit, ok := key.(*expr.Lit); ok {
		k, err := mt.MapKey(lit.V)
		if err != nil {
			return nil, errAt(e.Key.Pos(), "%v", err)
		}
		key = &expr.Lit{V: k}
	}
	return &expr.Subscript{X: x, Key: key, Map: mt}, nil
}

// noMap refuses a MAP where values are compared, grouped or sorted: no
// order of maps is SQL's, so a map is read whole or by its entries.
func noMap(e parser.Expr, x expr.Scalar, what string) error {
	if x.Type() != catalog.TypeMap {
		return nil
	}
	return errAt(e.Pos(), "%s is a MAP, which cannot be %s: use one entry, such as %s['key']", e, what, e)
}
