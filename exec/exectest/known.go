package exectest

import (
	"context"
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Divergence is a query shape where the planned result is known to differ
// from the reference, with a reproduction. The differential suite excuses
// a difference in a query of that shape; TestKnownDivergences (in
// exec/embedded) fails once a reproduction no longer differs, so that the
// entry is removed when the planner or executor is fixed.
type Divergence struct {
	Name string
	// Why says what SQL answers and what rkql answers.
	Why string
	// Catalog is the catalog file of the reproduction, relative to the
	// module root; Setup are INSERT statements run on an empty store;
	// Query is the smallest query that shows the difference.
	Catalog string
	Setup   []string
	Query   string
	// Shape reports whether a statement is of the divergent shape.
	Shape func(t *catalog.Table, s *parser.SelectStmt) bool
}

// KnownDivergences is the to-do list of fixes: every query shape whose
// planned result differs from the reference. Keep it short by fixing
// them; never add an entry without a reproduction.
var KnownDivergences = []Divergence{
	{
		Name: "NULL bound in BETWEEN",
		Why: "x BETWEEN NULL AND 10 is x >= NULL AND x <= 10: never TRUE, so no row; " +
			"rkql sorts NULL first and returns every row with x <= 10 (NOT BETWEEN with a NULL bound likewise)",
		Catalog: "examples/catalog.yaml",
		Setup:   []string{"INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'o1', 5)"},
		Query:   "SELECT domain FROM sites WHERE visits BETWEEN NULL AND 10 ALLOW FULL SCAN",
		Shape: func(_ *catalog.Table, s *parser.SelectStmt) bool {
			return anyExpr(s.Where, func(e parser.Expr) bool {
				b, ok := e.(*parser.BetweenExpr)
				return ok && (isNull(b.Lo) || isNull(b.Hi))
			})
		},
	},
	{
		Name: "a DATE against a TIMESTAMP",
		Why: "SQL compares a DATE with a TIMESTAMP as the DATE's midnight, so DATE '2024-05-01' < TIMESTAMP '2024-05-01 12:00:00' is TRUE; " +
			"rkql truncates the TIMESTAMP literal to its day and compares days, so it is FALSE (and = holds for any time of that day)",
		Catalog: "examples/catalog.yaml",
		Setup:   []string{"INSERT INTO user_calendar_record (uid, date, type, data) VALUES (1, DATE '2024-05-01', 1, 'x')"},
		Query:   "SELECT uid FROM user_calendar_record WHERE uid = 1 AND date < TIMESTAMP '2024-05-01 12:00:00' ALLOW FULL SCAN",
		Shape: func(t *catalog.Table, s *parser.SelectStmt) bool {
			dates := map[string]bool{}
			for _, c := range t.Columns {
				dates[c.Name] = c.Type == catalog.TypeDate
			}
			// Any condition that has a DATE column and a TIMESTAMP
			// literal directly under it.
			return anyExpr(s.Where, func(e parser.Expr) bool {
				var ops []parser.Expr
				switch e := e.(type) {
				case *parser.BinaryExpr:
					ops = []parser.Expr{e.LHS, e.RHS}
				case *parser.BetweenExpr:
					ops = []parser.Expr{e.X, e.Lo, e.Hi}
				case *parser.InExpr:
					ops = append([]parser.Expr{e.X}, e.List...)
				}
				var date, ts bool
				for _, o := range ops {
					switch o := o.(type) {
					case *parser.ColumnRef:
						date = date || dates[o.Name]
					case *parser.TimestampLit:
						ts = true
					}
				}
				return date && ts
			})
		},
	},
	{
		Name: "_ over BYTES",
		Why: "over BYTES, LIKE's _ stands for one byte (as PostgreSQL's bytea LIKE), so x'c3a9' LIKE '__' is TRUE; " +
			"rkql reads the bytes as UTF-8 text and _ takes the whole character é, so it is FALSE",
		Catalog: "exec/embedded/testdata/layouts.yaml",
		Setup:   []string{"INSERT INTO typed (flag, day, raw, n) VALUES (TRUE, DATE '2024-01-01', x'c3a9', 1)"},
		Query:   "SELECT n FROM typed WHERE raw LIKE '__' ALLOW FULL SCAN",
		Shape: func(t *catalog.Table, s *parser.SelectStmt) bool {
			return anyExpr(s.Where, func(e parser.Expr) bool {
				l, ok := e.(*parser.LikeExpr)
				if !ok {
					return false
				}
				c, ok := l.X.(*parser.ColumnRef)
				if !ok {
					return false
				}
				i, found := t.Column(c.Name)
				return found && t.Columns[i].Type == catalog.TypeBytes
			})
		},
	},
	{
		Name: "_ts through an index",
		Why: "_ts is the newest cell timestamp of the data row, here 1000; " +
			"a plan through an index returns (and filters on) the timestamp of the index entry instead, " +
			"the time its status cell was written",
		Catalog: "examples/catalog.yaml",
		Setup:   []string{"INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'o1', 5) TIMESTAMP 1000"},
		Query:   "SELECT _ts FROM sites WHERE owner = 'o1'",
		Shape: func(t *catalog.Table, s *parser.SelectStmt) bool {
			return len(t.Indexes) > 0 && usesTs(s) && (s.Hint == nil || !s.Hint.NoIndex)
		},
	},
}

// knownFor returns the known divergence s is an instance of, or nil.
func knownFor(t *catalog.Table, s *parser.SelectStmt) *Divergence {
	for i := range KnownDivergences {
		if KnownDivergences[i].Shape(t, s) {
			return &KnownDivergences[i]
		}
	}
	return nil
}

// Reproduce runs d on st, an empty store for d's catalog cat: it runs the
// setup, then the query both planned and by the reference, and returns
// the difference, or "" when there is none.
func Reproduce(ctx context.Context, st exec.Store, cat *catalog.Catalog, d *Divergence) (string, error) {
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{})
	for _, tb := range cat.Tables {
		if err := x.EnsureTable(ctx, tb); err != nil {
			return "", err
		}
	}
	for _, q := range d.Setup {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			return "", err
		}
		p, err := pl.Plan(stmt)
		if err != nil {
			return "", err
		}
		ins, ok := p.(*planner.Insert)
		if !ok {
			return "", fmt.Errorf("setup %q is not an INSERT", q)
		}
		if err := x.InsertColumns(ctx, ins.Table, ins.Columns, ins.Rows, ins.Timestamp, nil); err != nil {
			return "", err
		}
	}
	stmt, err := parser.ParseOne(d.Query)
	if err != nil {
		return "", err
	}
	s, ok := stmt.(*parser.SelectStmt)
	if !ok {
		return "", fmt.Errorf("%q is not a SELECT", d.Query)
	}
	tb, ok := cat.Table(s.Table.Name)
	if !ok {
		return "", fmt.Errorf("no table %s", s.Table.Name)
	}
	if !d.Shape(tb, s) {
		return "", fmt.Errorf("the reproduction %q is not of its own shape", d.Query)
	}
	all, err := ScanAll(ctx, st, tb)
	if err != nil {
		return "", err
	}
	want, err := Evaluate(tb, s, all)
	if err != nil {
		return "", err
	}
	sel, err := Plan(pl, d.Query)
	if err != nil {
		return "", err
	}
	got, err := Drain(ctx, x, sel, nil)
	if err != nil {
		return "", err
	}
	if err := Compare(got, want); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// anyExpr reports whether f holds for e or any expression inside it.
func anyExpr(e parser.Expr, f func(parser.Expr) bool) bool {
	if e == nil {
		return false
	}
	if f(e) {
		return true
	}
	switch e := e.(type) {
	case *parser.BinaryExpr:
		return anyExpr(e.LHS, f) || anyExpr(e.RHS, f)
	case *parser.UnaryExpr:
		return anyExpr(e.X, f)
	case *parser.BetweenExpr:
		return anyExpr(e.X, f) || anyExpr(e.Lo, f) || anyExpr(e.Hi, f)
	case *parser.InExpr:
		if anyExpr(e.X, f) {
			return true
		}
		for _, x := range e.List {
			if anyExpr(x, f) {
				return true
			}
		}
	case *parser.LikeExpr:
		return anyExpr(e.X, f) || anyExpr(e.Pattern, f)
	case *parser.IsNullExpr:
		return anyExpr(e.X, f)
	}
	return false
}

func isNull(e parser.Expr) bool { _, ok := e.(*parser.NullLit); return ok }

func isCount(s *parser.SelectStmt) bool {
	for _, it := range s.Items {
		if _, ok := it.Expr.(*parser.CallExpr); ok {
			return true
		}
	}
	return false
}

// usesTs reports whether s reads the _ts pseudo-column anywhere.
func usesTs(s *parser.SelectStmt) bool {
	isTs := func(e parser.Expr) bool {
		c, ok := e.(*parser.ColumnRef)
		return ok && c.Name == tsColumn
	}
	for _, it := range s.Items {
		if isTs(it.Expr) {
			return true
		}
	}
	for _, o := range s.Order {
		if o.Column.Name == tsColumn {
			return true
		}
	}
	return anyExpr(s.Where, isTs)
}
