package parser

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// converter turns one statement's grammar structs into AST nodes, checking
// what the grammar cannot: literal values, ranges and counts.
type converter struct {
	src  string
	toks []lexer.Token // the statement's tokens, to recover positions
	// inInsert is set while the query of INSERT … SELECT is converted,
	// and queryIndexWrite says whether that query ended with ALLOW INDEX
	// WRITE, which is the INSERT's.
	inInsert, queryIndexWrite bool
}

func pos(p lexer.Position) Pos { return Pos(p.Offset) }

func (c *converter) errorf(p lexer.Position, format string, args ...any) *Error {
	return newError(c.src, pos(p), fmt.Sprintf(format, args...))
}

func (c *converter) stmt(g *gStmt) (Stmt, *Error) {
	if s, ok := c.namespaceStmt(g); ok {
		return s, nil
	}
	if s, err, ok := c.ddlStmt(g); ok {
		return s, err
	}
	if s, err, ok := c.maintStmt(g); ok {
		return s, err
	}
	switch {
	case g.Explain != nil:
		return c.explain(g.Explain)
	case g.Select != nil:
		return c.selectStmt(g.Select)
	case g.Insert != nil:
		return c.insert(g.Insert)
	case g.Delete != nil:
		return c.delete(g.Delete)
	case g.Show != nil:
		if g.Show.Tables {
			return &ShowTablesStmt{Show: pos(g.Show.Pos)}, nil
		}
		if g.Show.Status {
			return &ShowStatusStmt{Show: pos(g.Show.Pos)}, nil
		}
		if g.Show.Snaps {
			return &ShowSnapshotsStmt{Show: pos(g.Show.Pos)}, nil
		}
		if g.Show.Create != nil {
			return &ShowCreateStmt{Show: pos(g.Show.Pos), Table: ident(g.Show.Create)}, nil
		}
		return &ShowRegionsStmt{Show: pos(g.Show.Pos), Table: ident(g.Show.Regions)}, nil
	case g.Describe != nil:
		return &DescribeStmt{Describe: pos(g.Describe.Pos), Table: ident(g.Describe.Table)}, nil
	case g.Encode != nil:
		return c.encode(g.Encode)
	case g.Decode != nil:
		return c.decode(g.Decode)
	case g.Build != nil:
		return &BuildIndexStmt{Build: pos(g.Build.Pos), Index: ident(g.Build.Index), Table: ident(g.Build.Table)}, nil
	case g.Check != nil && g.Check.Cluster:
		s := &CheckClusterStmt{Check: pos(g.Check.Pos)}
		if g.Check.Table != nil {
			id := ident(g.Check.Table)
			s.Table = &id
		}
		return s, nil
	case g.Check != nil:
		return &CheckIndexStmt{Check: pos(g.Check.Pos), Index: ident(g.Check.Index), Repair: g.Check.Repair}, nil
	case g.Lint != nil:
		return c.lint(g.Lint)
	case g.Simulate != nil:
		return c.simulate(g.Simulate)
	case g.Advise != nil:
		return c.advise(g.Advise)
	case g.Infer != nil:
		return c.infer(g.Infer)
	}
	return nil, newError(c.src, NoPos, "empty statement")
}

// namer is any of the name types of the grammar.
type namer interface{ gIdent() *gIdent }

func (t *gTable) gIdent() *gIdent     { return (*gIdent)(t) }
func (t *gColumn) gIdent() *gIdent    { return (*gIdent)(t) }
func (t *gIndex) gIdent() *gIdent     { return (*gIdent)(t) }
func (t *gAlias) gIdent() *gIdent     { return (*gIdent)(t) }
func (t *gNamespace) gIdent() *gIdent { return (*gIdent)(t) }

func ident(n namer) Ident {
	g := n.gIdent()
	name := g.Name
	if name[0] == '"' {
		name = unquote(name, '"')
	}
	return Ident{NamePos: pos(g.Pos), Name: name}
}

func (c *converter) explain(g *gExplain) (Stmt, *Error) {
	s := &ExplainStmt{Explain: pos(g.Pos), Analyze: g.Analyze}
	seenFormat := false
	for _, o := range g.Options {
		if o.Analyze {
			if s.Analyze {
				return nil, c.errorf(o.Pos, "ANALYZE given twice")
			}
			s.Analyze = true
			continue
		}
		if o.Verbose {
			if s.Verbose {
				return nil, c.errorf(o.Pos, "VERBOSE given twice")
			}
			s.Verbose = true
			continue
		}
		if seenFormat {
			return nil, c.errorf(o.Pos, "FORMAT given twice")
		}
		seenFormat = true
		if strings.EqualFold(o.Format, "JSON") {
			s.Format = "JSON"
		}
	}
	var err *Error
	switch in := g.Stmt; {
	case in.Select != nil:
		s.Stmt, err = c.selectStmt(in.Select)
	case in.Insert != nil:
		s.Stmt, err = c.insert(in.Insert)
	case in.Delete != nil:
		s.Stmt, err = c.delete(in.Delete)
	case in.Update != nil:
		s.Stmt, err = c.update(in.Update)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (c *converter) selectStmt(g *gSelect) (Stmt, *Error) {
	s := &SelectStmt{
		Select:   pos(g.Pos),
		Distinct: g.Distinct,
		Star:     g.Star || g.Raw,
		Raw:      g.Raw,
		Limit:    -1,
	}
	fullScan, indexWrite, aerr := c.allows(g.Allows)
	if aerr != nil {
		return nil, aerr
	}
	if indexWrite && !c.inInsert {
		for _, a := range g.Allows {
			if a.IndexWrite {
				return nil, c.errorf(a.Pos, "ALLOW INDEX WRITE does not apply to SELECT")
			}
		}
	}
	s.AllowFullScan = fullScan
	c.queryIndexWrite = indexWrite
	if g.RawFrom != nil {
		s.FromRaw = true
		s.Table = Ident{NamePos: pos(g.RawFrom.Pos) + Pos(len("RAW ")), Name: unquote(g.RawFrom.Name, '\'')}
		if s.Table.Name == "" {
			return nil, c.errorf(g.RawFrom.Pos, "FROM RAW needs an HBase table name such as 'ns:table'")
		}
	} else if g.Derived != nil {
		d, err := c.derived(g.Derived)
		if err != nil {
			return nil, err
		}
		s.Derived, s.Table = d, Ident{NamePos: pos(g.Derived.Pos)}
	} else {
		s.Table = ident(g.Table)
	}
	var asOf *gExpr
	var asOfPos lexer.Position
	if a := g.As; a != nil {
		switch {
		case a.AsOf != nil:
			asOf, asOfPos = a.AsOf.When, a.Pos
		case a.As != nil:
			s.Alias = ident(a.As).Name
		default:
			s.Alias = ident(a.Bare).Name
		}
	}
	if s.Derived != nil {
		if asOf != nil {
			return nil, c.errorf(asOfPos, "AS OF does not apply to a derived table: write it in its SELECT, after the table it reads")
		}
		if s.Alias == "" {
			return nil, c.derivedAlias(g.Derived)
		}
	}
	for _, j := range g.Joins {
		on, err := c.expr(j.On)
		if err != nil {
			return nil, err
		}
		join := Join{JoinPos: pos(j.Pos), Left: j.Left, On: on}
		if j.Derived != nil {
			if join.Derived, err = c.derived(j.Derived); err != nil {
				return nil, err
			}
			join.Table = Ident{NamePos: pos(j.Derived.Pos)}
			if j.As == nil {
				return nil, c.derivedAlias(j.Derived)
			}
		} else {
			join.Table = ident(j.Table)
		}
		if j.As != nil {
			join.Alias = ident(j.As).Name
		}
		s.Joins = append(s.Joins, join)
	}
	for _, it := range append(g.More, g.Items...) {
		if n := it.Expr.allOf(); n != nil {
			if it.Alias != "" {
				return nil, c.errorf(n.Pos, "%s.* cannot have an alias", n.Col)
			}
			id := ident(&gColumn{Pos: n.Pos, Name: n.Col})
			s.Items = append(s.Items, SelectItem{AllOf: id.Name, AllOfPos: id.NamePos})
			continue
		}
		x, err := c.expr(it.Expr)
		if err != nil {
			return nil, err
		}
		item := SelectItem{Expr: x}
		if it.Alias != "" {
			item.Alias = ident(&gAlias{Name: it.Alias}).Name
		}
		s.Items = append(s.Items, item)
	}
	switch {
	case g.Index != nil:
		s.Hint = &IndexHint{HintPos: pos(g.UseIndex[0].Pos), Index: ident(g.Index)}
	case len(g.NoIndex) > 0:
		s.Hint = &IndexHint{HintPos: pos(g.NoIndex[0].Pos), NoIndex: true}
	}
	var err *Error
	if g.AsOf != nil {
		if asOf != nil {
			return nil, c.errorf(g.AsOf.Pos, "AS OF is given twice")
		}
		asOf, asOfPos = g.AsOf.When, g.AsOf.Pos
	}
	if asOf != nil {
		s.AsOfPos = pos(asOfPos)
		if s.AsOf, err = c.expr(asOf); err != nil {
			return nil, err
		}
	}
	if g.Where != nil {
		if s.Where, err = c.expr(g.Where); err != nil {
			return nil, err
		}
	}
	if s.GroupBy, err = c.exprs(g.GroupBy); err != nil {
		return nil, err
	}
	if len(s.GroupBy) == 0 {
		s.GroupBy = nil
	}
	if g.Having != nil {
		if s.Having, err = c.expr(g.Having); err != nil {
			return nil, err
		}
	}
	for _, o := range g.Order {
		x, err := c.expr(o.Expr)
		if err != nil {
			return nil, err
		}
		s.Order = append(s.Order, OrderItem{Expr: x, Desc: strings.EqualFold(o.Dir, "DESC")})
	}
	if g.Limit != nil {
		if s.Limit, err = c.int64(g.Limit.Pos, g.Limit.Text); err != nil {
			return nil, err
		}
	}
	if g.Offset != nil {
		if s.Offset, err = c.int64(g.Offset.Pos, g.Offset.Text); err != nil {
			return nil, err
		}
	}
	if g.Versions != nil {
		n, err := c.int64(g.Versions.Pos, g.Versions.Text)
		if err != nil {
			return nil, err
		}
		if n < 1 || n > math.MaxInt32 {
			return nil, c.errorf(g.Versions.Pos, "VERSIONS must be between 1 and %d", math.MaxInt32)
		}
		s.Versions = int(n)
	}
	return s, nil
}

// derived converts the SELECT of a derived table.
func (c *converter) derived(g *gDerived) (*SelectStmt, *Error) {
	q, err := c.selectStmt(g.Select)
	if err != nil {
		return nil, err
	}
	sel := q.(*SelectStmt)
	if sel.Raw || sel.FromRaw {
		return nil, c.errorf(g.Select.Pos, "a derived table must select columns of catalog tables, not SELECT RAW or FROM RAW")
	}
	return sel, nil
}

// derivedAlias is the error of a derived table without an alias, at the
// end of its ")".
func (c *converter) derivedAlias(g *gDerived) *Error {
	p := g.Pos
	depth := 0
	for _, t := range c.toks {
		if t.Pos.Offset < g.Pos.Offset {
			continue
		}
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				p = t.Pos
				p.Offset += len(t.Value)
				p.Column += len(t.Value)
				return c.errorf(p, "a derived table needs an alias: (SELECT …) AS d")
			}
		}
	}
	return c.errorf(p, "a derived table needs an alias: (SELECT …) AS d")
}

func (c *converter) insert(g *gInsert) (Stmt, *Error) {
	s := &InsertStmt{Insert: pos(g.Pos), Table: ident(g.Table), Upsert: strings.EqualFold(g.Verb, "UPSERT")}
	fullScan, indexWrite, aerr := c.allows(g.Allows)
	if aerr != nil {
		return nil, aerr
	}
	if fullScan {
		return nil, c.errorf(g.Allows[0].Pos, "ALLOW FULL SCAN does not apply to %s", strings.ToUpper(g.Verb))
	}
	s.AllowIndexWrite = indexWrite
	for _, col := range g.Columns {
		s.Columns = append(s.Columns, ident(col))
	}
	if g.Query != nil {
		c.inInsert = true
		q, err := c.selectStmt(g.Query)
		c.inInsert = false
		if err != nil {
			return nil, err
		}
		if c.queryIndexWrite {
			// ALLOW INDEX WRITE after the query is the INSERT's.
			if indexWrite {
				return nil, c.errorf(g.Pos, "ALLOW clause given twice")
			}
			s.AllowIndexWrite = true
		}
		sel, ok := q.(*SelectStmt)
		if !ok || sel.Raw || sel.FromRaw {
			return nil, c.errorf(g.Query.Pos, "%s INTO … SELECT RAW is not supported: select the columns of a catalog table", strings.ToUpper(g.Verb))
		}
		s.Query = sel
	} else if len(s.Columns) == 0 {
		p := g.Rows[0].Pos
		if i := strings.LastIndex(strings.ToUpper(c.src[:p.Offset]), "VALUES"); i >= 0 {
			p.Offset = i
		}
		return nil, c.errorf(p, "%s … VALUES needs the list of columns before VALUES: %s INTO t (a, b) VALUES (…)", strings.ToUpper(g.Verb), strings.ToUpper(g.Verb))
	}
	for _, r := range g.Rows {
		if len(r.Values) != len(s.Columns) {
			return nil, c.errorf(r.Pos, "row has %s, expected %d", plural(len(r.Values), "value"), len(s.Columns))
		}
		row, err := c.exprs(r.Values)
		if err != nil {
			return nil, err
		}
		s.Rows = append(s.Rows, row)
	}
	if g.TS != nil {
		ts, err := c.expr(g.TS)
		if err != nil {
			return nil, err
		}
		s.Timestamp = ts
	}
	return s, nil
}

func (c *converter) delete(g *gDelete) (Stmt, *Error) {
	where, err := c.expr(g.Where)
	if err != nil {
		return nil, err
	}
	s := &DeleteStmt{Delete: pos(g.Pos), Table: ident(g.Table), Where: where}
	s.AllowFullScan, s.AllowIndexWrite, err = c.allows(g.Allows)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (c *converter) encode(g *gEncode) (Stmt, *Error) {
	s := &EncodeKeyStmt{Encode: pos(g.Pos), Table: ident(g.Table)}
	for _, f := range g.Fields {
		v, err := c.expr(f.Value)
		if err != nil {
			return nil, err
		}
		if f.Sub != nil {
			return nil, c.errorf(f.Col.Pos, "ENCODE KEY takes key fields, not map entries")
		}
		s.Fields = append(s.Fields, Assignment{Column: ident(f.Col), Value: v})
	}
	return s, nil
}

func (c *converter) decode(g *gDecode) (Stmt, *Error) {
	s := &DecodeKeyStmt{Decode: pos(g.Pos), Table: ident(g.Table)}
	if g.Key.Bytes != "" {
		b, err := c.bytes(g.Key.Pos, g.Key.Bytes)
		if err != nil {
			return nil, err
		}
		s.Key = b
	} else {
		s.Key = &StringLit{ValuePos: pos(g.Key.Pos), Val: unquote(g.Key.Str, '\'')}
	}
	return s, nil
}

func (c *converter) int64(p lexer.Position, text string) (int64, *Error) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, c.errorf(p, "integer literal %s out of range", text)
	}
	return n, nil
}

func (c *converter) bytes(p lexer.Position, raw string) (*BytesLit, *Error) {
	b, err := decodeHex(raw)
	if err != nil {
		return nil, c.errorf(p, "invalid hex literal %s", raw)
	}
	return &BytesLit{ValuePos: pos(p), Val: b}, nil
}

// plural returns "1 value", "2 values".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// allOf returns the operand of a select item written x.*, or nil when the
// item is anything else.
func (g *gExpr) allOf() *gNeg {
	if len(g.Ops) > 0 || g.Left == nil {
		return nil
	}
	u := g.Left
	if len(u.Not) > 0 || u.RHS != nil || u.Is || u.PredNot || u.Lo != nil || u.In != nil || u.Like != nil || u.X == nil {
		return nil
	}
	if len(u.X.Ops) > 0 || u.X.Left == nil || len(u.X.Left.Ops) > 0 {
		return nil
	}
	n := u.X.Left.Left
	if n == nil || n.Col == "" || n.Dot == nil || !n.Dot.Star || n.Sub != nil {
		return nil
	}
	return n
}
