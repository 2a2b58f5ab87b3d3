package exectest

import (
	"context"
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
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
var KnownDivergences = []Divergence{}

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
		p, err := pl.Plan(context.Background(), stmt)
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
	want, err := ref.Evaluate(tb, s, all)
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
	if err := ref.Compare(got, want); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// usesTs reports whether s reads the _ts pseudo-column anywhere.
func usesTs(s *parser.SelectStmt) bool {
	isTs := func(e parser.Expr) bool {
		c, ok := e.(*parser.ColumnRef)
		return ok && c.Name == ref.TSColumn
	}
	for _, it := range s.Items {
		if ref.AnyExpr(it.Expr, isTs) {
			return true
		}
	}
	for _, o := range s.Order {
		if ref.AnyExpr(o.Expr, isTs) {
			return true
		}
	}
	for _, g := range s.GroupBy {
		if ref.AnyExpr(g, isTs) {
			return true
		}
	}
	return ref.AnyExpr(s.Where, isTs) || s.Having != nil && ref.AnyExpr(s.Having, isTs)
}
