package planner

import (
	"context"
	"math"
	"strconv"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The atomic forms of UPDATE: SET n = n + k is a counter the store adds
// to (HBase's Increment), and a single-row UPDATE whose WHERE binds the
// whole key and tests one more column is a compare-and-put (HBase's
// checkAndMutate). Both need a store that is an exec.CellAtomic.

// Check is the condition of an atomic compare-and-put: Column holds
// Value, or holds no cell when Value is NULL.
type Check struct {
	Column int
	Value  catalog.Value
	Source string
}

// counterDelta reads SET col = col + k (or col - k, or k + col) with k
// an integer literal, and returns k (negated for -); ok is false for any
// other value.
func counterDelta(col string, e parser.Expr) (int64, bool) {
	b, ok := e.(*parser.BinaryExpr)
	if !ok || (b.Op != parser.OpAdd && b.Op != parser.OpSub) {
		return 0, false
	}
	same := func(x parser.Expr) bool {
		r, ok := x.(*parser.ColumnRef)
		return ok && r.Name == col
	}
	lit := func(x parser.Expr) (int64, bool) {
		switch v := x.(type) {
		case *parser.IntLit:
			return v.Val, true
		case *parser.UnaryExpr:
			if n, ok := v.X.(*parser.IntLit); ok && v.Op == parser.OpNeg && n.Val != math.MinInt64 {
				return -n.Val, true
			}
		}
		return 0, false
	}
	if same(b.LHS) {
		k, ok := lit(b.RHS)
		if !ok || (b.Op == parser.OpSub && k == math.MinInt64) {
			return 0, false
		}
		if b.Op == parser.OpSub {
			k = -k
		}
		return k, true
	}
	if b.Op == parser.OpAdd && same(b.RHS) {
		return lit(b.LHS)
	}
	return 0, false
}

// counterColumn refuses a counter on a column that is not an 8-byte
// java BIGINT, or that an index holds: an Increment changes the cell in
// the store, where no index entry follows it.
func counterColumn(t *catalog.Table, col int, at parser.Pos) error {
	c := &t.Columns[col]
	enc := "java"
	switch {
	case c.Encoding == catalog.EncText:
		enc = "text"
	case c.Width != 0 && c.Width != 8:
		enc = "java, " + strconv.Itoa(c.Width) + " bytes"
	case c.Unsigned:
		enc = "java, unsigned"
	}
	if c.Type != catalog.TypeBigint || enc != "java" {
		return errAt(at, "%s is %s with encoding %s: SET %s = %s + k is a server increment, which needs a BIGINT stored as Bytes.toBytes(long), 8 bytes (encoding java)", c.Name, c.Type, enc, c.Name, c.Name)
	}
	for _, ix := range t.Indexes {
		if _, ok := ix.Table.Column(c.Name); ok {
			return errAt(at, "%s is held by index %s: a server increment changes the cell where no index entry follows it, so the index would go stale; SET %s = <value> writes it with its entries", c.Name, ix.Name, c.Name)
		}
	}
	return nil
}

// conjuncts splits e on AND.
func conjuncts(e parser.Expr) []parser.Expr {
	if b, ok := e.(*parser.BinaryExpr); ok && b.Op == parser.OpAnd {
		return append(conjuncts(b.LHS), conjuncts(b.RHS)...)
	}
	return []parser.Expr{e}
}

// andOf joins terms with AND.
func andOf(terms []parser.Expr) parser.Expr {
	e := terms[0]
	for _, x := range terms[1:] {
		e = &parser.BinaryExpr{Op: parser.OpAnd, LHS: e, RHS: x}
	}
	return e
}

// checkPlan finds an UPDATE's compare-and-put: a WHERE of conjuncts
// that bind the whole key of one row, and one more, col = literal or col
// IS NULL on a stored column that is not a key field. It returns nil
// when the WHERE has another shape, or the table has indexes (their
// entries are written beside the row, which one compare-and-put cannot
// do), or a SET writes NULL (a delete, which a put cannot carry).
func (pl *Planner) checkPlan(ctx context.Context, s *parser.UpdateStmt, u *Update, c *compiler) (*Check, *Select, error) {
	t := u.Table
	if len(t.Indexes) > 0 || catalog.PhoenixCellArray(t) {
		// A Phoenix cell array holds the row's columns in one cell: the
		// column tested has no cell to compare, so the UPDATE reads and
		// writes the row.
		return nil, nil, nil
	}
	for _, a := range s.Set {
		if _, ok := a.Value.(*parser.NullLit); ok {
			return nil, nil, nil
		}
	}
	terms := conjuncts(s.Where)
	if len(terms) < 2 {
		return nil, nil, nil
	}
	var chk *Check
	var rest []parser.Expr
	for _, e := range terms {
		col, v, ok := checkTerm(t, e)
		if !ok || chk != nil {
			rest = append(rest, e)
			continue
		}
		val := catalog.Value{Type: t.Columns[col].Type, Null: true}
		if v != nil {
			var err error
			if val, err = c.exactValue(col, v); err != nil {
				return nil, nil, nil
			}
		}
		chk = &Check{Column: col, Value: val, Source: e.String()}
	}
	if chk == nil {
		return nil, nil, nil
	}
	find, err := pl.selectPlan(ctx, &parser.SelectStmt{Select: s.Update, Star: true, Table: s.Table, Where: andOf(rest), Limit: -1})
	if err != nil {
		return nil, nil, nil
	}
	if _, ok := find.PointKey(); !ok {
		return nil, nil, nil
	}
	return chk, find, nil
}

// PointKey returns the one row key s reads, when it reads one key of its
// table directly and tests nothing on the row: the whole WHERE is that
// key.
func (s *Select) PointKey() ([]byte, bool) {
	if _, filtered := Find[*Filter](s.Root); filtered || s.Access == nil || s.Access.Table != s.Table ||
		len(s.Access.Ranges) != 1 || !s.Access.Ranges[0].Point || s.IndexLookup() != nil || s.Raw {
		return nil, false
	}
	return s.Access.Ranges[0].Start, true
}

// checkTerm reads col = literal (either way round) or col IS NULL on a
// stored column of t that is no key field.
func checkTerm(t *catalog.Table, e parser.Expr) (int, parser.Expr, bool) {
	col := func(x parser.Expr) (int, bool) {
		r, ok := x.(*parser.ColumnRef)
		if !ok {
			return 0, false
		}
		i, ok := t.Column(r.Name)
		if !ok || t.Columns[i].KeyField || t.Columns[i].Family == "" || t.Columns[i].Hidden || t.Columns[i].Type == catalog.TypeMap {
			return 0, false
		}
		return i, true
	}
	isLit := func(x parser.Expr) bool {
		switch x.(type) {
		case *parser.StringLit, *parser.IntLit, *parser.FloatLit, *parser.BoolLit, *parser.BytesLit, *parser.TimestampLit, *parser.DateLit:
			return true
		case *parser.UnaryExpr:
			return true
		}
		return false
	}
	switch x := e.(type) {
	case *parser.IsNullExpr:
		if i, ok := col(x.X); ok && !x.Not {
			return i, nil, true
		}
	case *parser.BinaryExpr:
		if x.Op != parser.OpEq {
			break
		}
		if i, ok := col(x.LHS); ok && isLit(x.RHS) {
			return i, x.RHS, true
		}
		if i, ok := col(x.RHS); ok && isLit(x.LHS) {
			return i, x.LHS, true
		}
	}
	return 0, nil, false
}
