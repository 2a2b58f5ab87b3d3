package ref

import (
	"fmt"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// Source is one table a join reads: the table and every one of its rows
// (its columns, then _ts).
type Source struct {
	Table *catalog.Table
	Rows  []catalog.Row
}

// EvaluateJoin answers a SELECT with JOIN by nested loops: every row of
// the first table against every row of each joined table in turn, the
// ON condition tested on each pair, a LEFT JOIN keeping a row no pair of
// which holds, with NULLs for the joined table. The rest of the
// statement is then evaluated over the joined rows by Evaluate's rules.
// A derived table is first answered on its own (withDerived). sources
// holds the rows of each table by its catalog name.
func EvaluateJoin(s *parser.SelectStmt, sources map[string]Source, now time.Time) (*Result, error) {
	s, sources, err := withDerived(s, sources, now)
	if err != nil {
		return nil, err
	}
	type member struct {
		name string // alias, or the table's name
		src  Source
		cols []int // the table's visible columns
		at   int   // the first of them in the joined row
	}
	var members []*member
	var cols []catalog.Column
	add := func(id parser.Ident, alias string) error {
		src, ok := sources[id.Name]
		if !ok {
			return fmt.Errorf("reference: no rows of table %s", id.Name)
		}
		m := &member{name: id.Name, src: src, at: len(cols)}
		if alias != "" {
			m.name = alias
		}
		for i, c := range src.Table.Columns {
			if c.Hidden {
				continue
			}
			m.cols = append(m.cols, i)
			cols = append(cols, catalog.Column{Name: m.name + "\x00" + c.Name, Type: c.Type, Map: c.Map})
		}
		members = append(members, m)
		return nil
	}
	if err := add(s.Table, s.Alias); err != nil {
		return nil, err
	}
	for _, j := range s.Joins {
		if err := add(j.Table, j.Alias); err != nil {
			return nil, err
		}
	}
	joined := &catalog.Table{Name: "joined", Columns: cols}
	var aliases []string
	for _, it := range s.Items {
		if it.Alias != "" {
			aliases = append(aliases, it.Alias)
		}
	}
	// name maps a column reference to its joined-row name.
	var failed error
	name := func(r *parser.ColumnRef, keepAliases bool) parser.Expr {
		var hits []string
		for _, m := range members {
			if r.Table != "" && r.Table != m.name && !(r.Table == m.src.Table.Name && m.name != r.Table) {
				continue
			}
			for _, ci := range m.cols {
				if m.src.Table.Columns[ci].Name == r.Name {
					hits = append(hits, m.name+"\x00"+r.Name)
				}
			}
		}
		if len(hits) == 1 {
			return &parser.ColumnRef{NamePos: r.NamePos, Name: hits[0]}
		}
		if len(hits) == 0 && r.Table == "" && keepAliases {
			for _, a := range aliases {
				if a == r.Name {
					return r
				}
			}
		}
		if failed == nil {
			failed = fmt.Errorf("reference: column %s.%s is unknown or ambiguous (%d tables have it)", r.Table, r.Name, len(hits))
		}
		return r
	}
	on := func(x parser.Expr) parser.Expr {
		return renameColumns(x, func(r *parser.ColumnRef) parser.Expr { return name(r, false) })
	}
	late := func(x parser.Expr) parser.Expr {
		return renameColumns(x, func(r *parser.ColumnRef) parser.Expr { return name(r, true) })
	}

	out := &parser.SelectStmt{Select: s.Select, Distinct: s.Distinct, Table: parser.Ident{Name: joined.Name},
		Limit: s.Limit, Offset: s.Offset, AllowFullScan: true}
	items := func(m *member) {
		for _, ci := range m.cols {
			out.Items = append(out.Items, parser.SelectItem{Expr: &parser.ColumnRef{Name: m.name + "\x00" + m.src.Table.Columns[ci].Name}})
		}
	}
	if s.Star {
		for _, m := range members {
			items(m)
		}
	}
	for _, it := range s.Items {
		if it.AllOf != "" {
			found := false
			for _, m := range members {
				if m.name == it.AllOf {
					items(m)
					found = true
				}
			}
			if !found {
				return nil, fmt.Errorf("reference: no table %s for %s.*", it.AllOf, it.AllOf)
			}
			continue
		}
		out.Items = append(out.Items, parser.SelectItem{Expr: on(it.Expr), Alias: it.Alias})
	}
	if s.Where != nil {
		out.Where = on(s.Where)
	}
	for _, g := range s.GroupBy {
		out.GroupBy = append(out.GroupBy, late(g))
	}
	if s.Having != nil {
		out.Having = late(s.Having)
	}
	for _, o := range s.Order {
		o.Expr = late(o.Expr)
		out.Order = append(out.Order, o)
	}
	conds := make([]parser.Expr, len(s.Joins))
	for i, j := range s.Joins {
		conds[i] = on(j.On)
	}
	if failed != nil {
		return nil, failed
	}

	width := len(cols) + 1
	blank := make(catalog.Row, width)
	for i, c := range cols {
		blank[i] = catalog.Null(c.Type)
	}
	blank[len(cols)] = catalog.Null(catalog.TypeTimestamp)
	place := func(dst catalog.Row, m *member, r catalog.Row) {
		for k, ci := range m.cols {
			dst[m.at+k] = r[ci]
		}
	}
	var rows []catalog.Row
	for _, r := range members[0].src.Rows {
		row := append(catalog.Row(nil), blank...)
		place(row, members[0], r)
		rows = append(rows, row)
	}
	e := &evaluator{t: joined, now: now}
	pairRow := make(catalog.Row, width)
	for i, j := range s.Joins {
		m := members[i+1]
		var next []catalog.Row
		for _, l := range rows {
			matched := false
			copy(pairRow, l)
			for _, r := range m.src.Rows {
				place(pairRow, m, r)
				ok, err := e.holds(conds[i], pairRow)
				if err != nil {
					return nil, err
				}
				if ok {
					next = append(next, append(catalog.Row(nil), pairRow...))
					matched = true
				}
			}
			if !matched && j.Left {
				next = append(next, l)
			}
		}
		rows = next
	}
	return EvaluateAt(joined, out, rows, now)
}

// renameColumns copies x with f's expression in place of each column.
func renameColumns(x parser.Expr, f func(*parser.ColumnRef) parser.Expr) parser.Expr {
	if x == nil {
		return nil
	}
	re := func(y parser.Expr) parser.Expr { return renameColumns(y, f) }
	list := func(ys []parser.Expr) []parser.Expr {
		var out []parser.Expr
		for _, y := range ys {
			out = append(out, re(y))
		}
		return out
	}
	switch e := x.(type) {
	case *parser.ColumnRef:
		return f(e)
	case *parser.BinaryExpr:
		return &parser.BinaryExpr{OpPos: e.OpPos, Op: e.Op, LHS: re(e.LHS), RHS: re(e.RHS)}
	case *parser.UnaryExpr:
		return &parser.UnaryExpr{OpPos: e.OpPos, Op: e.Op, X: re(e.X)}
	case *parser.BetweenExpr:
		c := *e
		c.X, c.Lo, c.Hi = re(e.X), re(e.Lo), re(e.Hi)
		return &c
	case *parser.InExpr:
		return &parser.InExpr{X: re(e.X), List: list(e.List), Not: e.Not}
	case *parser.LikeExpr:
		c := *e
		c.X, c.Pattern, c.Escape = re(e.X), re(e.Pattern), re(e.Escape)
		return &c
	case *parser.TupleExpr:
		return &parser.TupleExpr{Lparen: e.Lparen, Elems: list(e.Elems)}
	case *parser.IsNullExpr:
		return &parser.IsNullExpr{X: re(e.X), Not: e.Not}
	case *parser.CallExpr:
		c := *e
		c.Args = list(e.Args)
		return &c
	case *parser.CastExpr:
		c := *e
		c.X = re(e.X)
		return &c
	case *parser.SubscriptExpr:
		c := *e
		if r, ok := f(e.X).(*parser.ColumnRef); ok {
			c.X = r
		}
		c.Key = re(e.Key)
		return &c
	case *parser.CaseExpr:
		c := *e
		c.Operand, c.Else = re(e.Operand), re(e.Else)
		c.Whens = nil
		for _, w := range e.Whens {
			c.Whens = append(c.Whens, parser.When{Cond: re(w.Cond), Result: re(w.Result)})
		}
		return &c
	}
	return x
}
