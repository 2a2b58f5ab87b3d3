package exectest

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/parser"
)

// sqliteResult turns sqlite's rows into the result rkql must give: each
// value read as the type of rkql's output column, rows tied on the ORDER
// BY keys in one group, LIMIT and OFFSET cut by Compare.
func sqliteResult(s *parser.SelectStmt, ss *sqlSelect, outs []catalog.Type, rows [][]SQLValue) (*ref.Result, error) {
	if outs == nil {
		// rkql returned no rows, so only their number counts: read
		// every value as a NULL.
		outs = make([]catalog.Type, ss.Items)
		for i := range rows {
			rows[i] = slices.Repeat([]SQLValue{{Kind: 'n'}}, len(rows[i]))
		}
	}
	if len(outs) != ss.Items && len(rows) > 0 {
		return nil, fmt.Errorf("rkql gives %d columns, sqlite %d", len(outs), ss.Items)
	}
	if len(rows) == 0 {
		return &ref.Result{Limit: s.Limit, Offset: s.Offset}, nil
	}
	res := &ref.Result{Limit: s.Limit, Offset: s.Offset, Approx: make([]bool, len(outs))}
	sums := func(e parser.Expr) bool {
		c, ok := e.(*parser.CallExpr)
		return ok && (c.Name == "SUM" || c.Name == "AVG")
	}
	star := 0
	if s.Star {
		star = len(outs) - len(s.Items)
	}
	for i, it := range s.Items {
		res.Approx[star+i] = outs[star+i] == catalog.TypeDouble && ref.AnyExpr(it.Expr, sums)
	}
	var g []catalog.Row
	for i, r := range rows {
		if len(r) < ss.Items {
			return nil, fmt.Errorf("sqlite row of %d values", len(r))
		}
		row := make(catalog.Row, ss.Items)
		for j := range row {
			v, err := fromSQL(r[j], outs[j])
			if err != nil {
				return nil, fmt.Errorf("column %d: %w", j+1, err)
			}
			row[j] = v
		}
		if i > 0 && !sameKeys(rows[i-1], r, ss.Keys) {
			res.Groups = append(res.Groups, g)
			g = nil
		}
		g = append(g, row)
	}
	if len(g) > 0 {
		res.Groups = append(res.Groups, g)
	}
	return res, nil
}

// sameKeys reports whether two sqlite rows tie on the sort keys.
func sameKeys(a, b []SQLValue, keys []int) bool {
	for _, k := range keys {
		x, y := a[k], b[k]
		switch {
		case x.Kind == 'n' || y.Kind == 'n':
			if x.Kind != y.Kind {
				return false
			}
		case (x.Kind == 'i' || x.Kind == 'r') && (y.Kind == 'i' || y.Kind == 'r'):
			if x.Kind == 'i' && y.Kind == 'i' {
				if x.I != y.I {
					return false
				}
			} else if num(x) != num(y) {
				return false
			}
		case x.Kind != y.Kind || x.S != y.S || string(x.B) != string(y.B):
			return false
		}
	}
	return true
}

func num(v SQLValue) float64 {
	if v.Kind == 'i' {
		return float64(v.I)
	}
	return v.F
}

// fromSQL reads a sqlite value as a value of type t.
func fromSQL(v SQLValue, t catalog.Type) (catalog.Value, error) {
	if v.Kind == 'n' {
		return catalog.Null(t), nil
	}
	bad := func() (catalog.Value, error) {
		return catalog.Value{}, fmt.Errorf("sqlite gives %s, which is no %s", v, t)
	}
	switch t {
	case catalog.TypeString:
		if v.Kind != 't' {
			return bad()
		}
		return catalog.String(v.S), nil
	case catalog.TypeBytes:
		if v.Kind != 'b' {
			return bad()
		}
		return catalog.Bytes(v.B), nil
	case catalog.TypeDouble:
		switch v.Kind {
		case 'r':
			return catalog.Double(v.F + 0), nil
		case 'i':
			return catalog.Double(float64(v.I)), nil
		}
		return bad()
	}
	if v.Kind != 'i' {
		return bad()
	}
	switch t {
	case catalog.TypeBoolean:
		if v.I != 0 && v.I != 1 {
			return bad()
		}
		return catalog.Bool(v.I == 1), nil
	case catalog.TypeInt:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return bad()
		}
	}
	return catalog.Value{Type: t, I: v.I}, nil
}

// String renders v as sqlite's quote mode would.
func (v SQLValue) String() string {
	switch v.Kind {
	case 'i':
		return strconv.FormatInt(v.I, 10)
	case 'r':
		return strconv.FormatFloat(v.F, 'g', -1, 64) + " (REAL)"
	case 't':
		return "'" + v.S + "'"
	case 'b':
		return fmt.Sprintf("X'%x'", v.B)
	}
	return "NULL"
}
