package ref

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// withDerived returns s with each derived table of its FROM and JOINs,
// (SELECT …) AS d, replaced by a table named d, and sources with that
// table's rows: its SELECT answered by nested loops (EvaluateJoin, or
// EvaluateSubqueries when its WHERE holds subqueries), flattened in
// its order, OFFSET and LIMIT applied. Its columns are named as the
// SELECT's outputs are (outputNames), typed by their values.
func withDerived(s *parser.SelectStmt, sources map[string]Source, now time.Time) (*parser.SelectStmt, map[string]Source, error) {
	derived := s.Derived != nil
	for _, j := range s.Joins {
		derived = derived || j.Derived != nil
	}
	if !derived {
		return s, sources, nil
	}
	out := maps.Clone(sources)
	c := *s
	if s.Derived != nil {
		src, err := derivedSource(s.Derived, s.Alias, sources, now)
		if err != nil {
			return nil, nil, err
		}
		out[s.Alias] = src
		c.Derived, c.Table, c.Alias = nil, parser.Ident{NamePos: s.Table.NamePos, Name: s.Alias}, ""
	}
	c.Joins = append([]parser.Join(nil), s.Joins...)
	for i, j := range c.Joins {
		if j.Derived == nil {
			continue
		}
		src, err := derivedSource(j.Derived, j.Alias, sources, now)
		if err != nil {
			return nil, nil, err
		}
		out[j.Alias] = src
		c.Joins[i].Derived, c.Joins[i].Table, c.Joins[i].Alias = nil, parser.Ident{NamePos: j.Table.NamePos, Name: j.Alias}, ""
	}
	return &c, out, nil
}

// derivedSource is the table of derived table alias and its rows.
func derivedSource(sub *parser.SelectStmt, alias string, sources map[string]Source, now time.Time) (Source, error) {
	sub, srcs, err := withDerived(sub, sources, now)
	if err != nil {
		return Source{}, err
	}
	var res *Result
	if len(sub.Joins) == 0 && parser.FirstSubquery(sub.Where) != nil {
		res, err = EvaluateSubqueries(sub, srcs, now)
	} else {
		res, err = EvaluateJoin(sub, srcs, now)
	}
	if err != nil {
		return Source{}, err
	}
	names, err := derivedNames(sub, srcs)
	if err != nil {
		return Source{}, err
	}
	var rows []catalog.Row
	for _, g := range res.Groups {
		rows = append(rows, g...)
	}
	rows = rows[min(int(res.Offset), len(rows)):]
	if res.Limit >= 0 && int64(len(rows)) > res.Limit {
		rows = rows[:res.Limit]
	}
	types := derivedTypes(sub, srcs, len(names))
	cols := make([]catalog.Column, len(names))
	for i, n := range names {
		cols[i] = catalog.Column{Name: n, Type: types[i]}
		if len(rows) > 0 {
			cols[i].Type = rows[0][i].Type
		}
	}
	src := Source{Table: catalog.Joined(alias, cols)}
	for _, r := range rows {
		if len(r) != len(names) {
			return Source{}, fmt.Errorf("reference: derived table %s has %d columns, its rows %d values", alias, len(names), len(r))
		}
		src.Rows = append(src.Rows, append(append(catalog.Row(nil), r...), catalog.Null(catalog.TypeTimestamp)))
	}
	return src, nil
}

// derivedNames names the outputs of sub, whose tables are all sources:
// * and x.* as the columns of the tables, an item by its alias, a
// column's name, a function's name in lower case; the reference refuses
// any other item without an alias, and two outputs of one name.
func derivedNames(sub *parser.SelectStmt, sources map[string]Source) ([]string, error) {
	type member struct{ name, table string }
	ms := []member{{sub.Table.Name, sub.Table.Name}}
	if sub.Alias != "" {
		ms[0].name = sub.Alias
	}
	for _, j := range sub.Joins {
		m := member{j.Table.Name, j.Table.Name}
		if j.Alias != "" {
			m.name = j.Alias
		}
		ms = append(ms, m)
	}
	var names []string
	all := func(m member) {
		for _, c := range sources[m.table].Table.Columns {
			if !c.Hidden {
				names = append(names, c.Name)
			}
		}
	}
	if sub.Star {
		for _, m := range ms {
			all(m)
		}
	}
	for _, it := range sub.Items {
		switch x := it.Expr.(type) {
		case nil:
			for _, m := range ms {
				if m.name == it.AllOf {
					all(m)
				}
			}
			continue
		case *parser.ColumnRef:
			if it.Alias == "" {
				names = append(names, x.Name)
				continue
			}
		case *parser.CallExpr:
			if it.Alias == "" {
				names = append(names, strings.ToLower(x.Name))
				continue
			}
		}
		if it.Alias == "" {
			return nil, fmt.Errorf("reference: derived item %s has no name", it.Expr)
		}
		names = append(names, it.Alias)
	}
	for i, n := range names {
		for _, p := range names[:i] {
			if p == n {
				return nil, fmt.Errorf("reference: derived table has two columns %s", n)
			}
		}
	}
	return names, nil
}

// derivedTypes are the types of the n outputs of sub, for a derived
// table without rows: those Type gives over its one table's columns, or
// BIGINT for a SELECT over a join.
func derivedTypes(sub *parser.SelectStmt, sources map[string]Source, n int) []catalog.Type {
	out := make([]catalog.Type, 0, n)
	if t := sources[sub.Table.Name].Table; t != nil && len(sub.Joins) == 0 {
		for _, c := range t.Columns {
			if !c.Hidden && sub.Star {
				out = append(out, c.Type)
			}
		}
		for _, it := range sub.Items {
			if it.AllOf != "" {
				for _, c := range t.Columns {
					if !c.Hidden {
						out = append(out, c.Type)
					}
				}
				continue
			}
			out = append(out, Type(t, it.Expr))
		}
	}
	for len(out) < n {
		out = append(out, catalog.TypeBigint)
	}
	return out[:n]
}
