package planner

import (
	"bytes"
	"slices"

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

// mapEntries finds the MAP columns (over a family) that s reads only by
// constant keys, m['k'], and the qualifiers of those keys: a read of the
// table then needs only those cells of the family. A map read whole
// (SELECT *, m itself, m[expr]) is left out.
func mapEntries(t *catalog.Table, s *parser.SelectStmt) map[int][][]byte {
	var exprs []parser.Expr
	for _, it := range s.Items {
		exprs = append(exprs, it.Expr)
	}
	exprs = append(append(exprs, s.Where, s.Having), s.GroupBy...)
	for _, o := range s.Order {
		exprs = append(exprs, o.Expr)
	}
	keys := map[int][][]byte{}
	whole := map[int]bool{}
	subX := map[*parser.ColumnRef]bool{}
	for _, e := range exprs {
		walkAST(e, func(x parser.Expr) {
			sub, ok := x.(*parser.SubscriptExpr)
			if !ok {
				return
			}
			i, ok := t.Column(sub.X.Name)
			if !ok || t.Columns[i].MapFamily == "" {
				return
			}
			subX[sub.X] = true
			q, ok := entryQualifier(&t.Columns[i], sub.Key)
			if !ok {
				whole[i] = true
				return
			}
			if !slices.ContainsFunc(keys[i], func(b []byte) bool { return bytes.Equal(b, q) }) {
				keys[i] = append(keys[i], q)
			}
		})
	}
	for _, e := range exprs {
		walkAST(e, func(x parser.Expr) {
			if ref, ok := x.(*parser.ColumnRef); ok && !subX[ref] {
				if i, ok := t.Column(ref.Name); ok {
					whole[i] = true
				}
			}
		})
	}
	for i := range keys {
		if whole[i] || s.Star {
			delete(keys, i)
		}
	}
	return keys
}

// entryQualifier is the qualifier of m[key] for a literal key.
func entryQualifier(c *catalog.Column, key parser.Expr) ([]byte, bool) {
	v, ok, err := literalValue(key)
	if !ok || err != nil || v.Null {
		return nil, false
	}
	k, err := c.Map.MapKey(v)
	if err != nil {
		return nil, false
	}
	q, err := c.MapKeys.Encode(k)
	return q, err == nil
}
