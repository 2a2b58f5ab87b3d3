package parser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The statements that judge a layout rather than read its rows: LINT,
// SIMULATE WRITES and SHOW CREATE TABLE.

// LintStmt is LINT [t]: judge one table's layout, or every table's.
type LintStmt struct {
	Lint  Pos
	Table *Ident // nil for the whole catalog
}

// SimulateStmt is SIMULATE WRITES t ROWS n [WITH field = gen, …]
// [COMPARE t2].
type SimulateStmt struct {
	Simulate Pos
	Table    Ident
	Rows     int64
	With     []SimGen
	Compare  *Ident
}

// SimGen is one field's generator in SIMULATE: sequence, now,
// uniform(k), uniform(lo, hi) or zipf(k).
type SimGen struct {
	Column Ident
	Kind   string // lower case
	Args   []int64
}

// ShowCreateStmt is SHOW CREATE TABLE t.
type ShowCreateStmt struct {
	Show  Pos
	Table Ident
}

var (
	_ Stmt = (*LintStmt)(nil)
	_ Stmt = (*SimulateStmt)(nil)
	_ Stmt = (*ShowCreateStmt)(nil)
)

func (s *LintStmt) Pos() Pos       { return s.Lint }
func (s *SimulateStmt) Pos() Pos   { return s.Simulate }
func (s *ShowCreateStmt) Pos() Pos { return s.Show }

func (*LintStmt) node()       {}
func (*SimulateStmt) node()   {}
func (*ShowCreateStmt) node() {}

func (*LintStmt) stmt()       {}
func (*SimulateStmt) stmt()   {}
func (*ShowCreateStmt) stmt() {}

func (s *LintStmt) String() string {
	if s.Table == nil {
		return "LINT"
	}
	return "LINT " + s.Table.String()
}

func (s *SimulateStmt) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "SIMULATE WRITES %s ROWS %d", s.Table.String(), s.Rows)
	for i, g := range s.With {
		if i == 0 {
			b.WriteString(" WITH ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(g.Column.String() + " = " + g.Kind)
		if len(g.Args) > 0 {
			args := make([]string, len(g.Args))
			for j, a := range g.Args {
				args[j] = strconv.FormatInt(a, 10)
			}
			b.WriteString("(" + strings.Join(args, ", ") + ")")
		}
	}
	if s.Compare != nil {
		b.WriteString(" COMPARE " + s.Compare.String())
	}
	return b.String()
}

func (s *ShowCreateStmt) String() string { return "SHOW CREATE TABLE " + s.Table.String() }

type gLint struct {
	Pos   lexer.Position
	Lint  bool    `parser:"@'LINT'"`
	Table *gTable `parser:"@@?"`
}

type gSimulate struct {
	Pos     lexer.Position
	Table   *gTable `parser:"'SIMULATE' 'WRITES' @@"`
	Rows    *gInt   `parser:"'ROWS' @@"`
	With    []*gGen `parser:"( 'WITH' @@ ( ',' @@ )* )?"`
	Compare *gTable `parser:"( 'COMPARE' @@ )?"`
}

type gGen struct {
	Col  *gColumn `parser:"@@ '='"`
	Kind *gIdent  `parser:"@@"`
	Args []*gInt  `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
}

// simGens are the generators SIMULATE knows, with how many arguments each
// takes.
var simGens = map[string][]int{"sequence": {0}, "now": {0}, "uniform": {1, 2}, "zipf": {1}}

func (c *converter) lint(g *gLint) (Stmt, *Error) {
	s := &LintStmt{Lint: pos(g.Pos)}
	if g.Table != nil {
		t := ident(g.Table)
		s.Table = &t
	}
	return s, nil
}

func (c *converter) simulate(g *gSimulate) (Stmt, *Error) {
	s := &SimulateStmt{Simulate: pos(g.Pos), Table: ident(g.Table)}
	n, err := strconv.ParseInt(g.Rows.Text, 10, 64)
	if err != nil || n < 1 {
		return nil, c.errorf(g.Rows.Pos, "ROWS wants a positive whole number, not %s", g.Rows.Text)
	}
	s.Rows = n
	for _, w := range g.With {
		kind := strings.ToLower(w.Kind.Name)
		counts, ok := simGens[kind]
		if !ok {
			return nil, c.errorf(w.Kind.Pos, "unknown generator %s (want sequence, now, uniform(k), uniform(lo, hi) or zipf(k))", w.Kind.Name)
		}
		gen := SimGen{Column: ident(w.Col), Kind: kind}
		for _, a := range w.Args {
			v, err := strconv.ParseInt(a.Text, 10, 64)
			if err != nil {
				return nil, c.errorf(a.Pos, "%s is not a whole number", a.Text)
			}
			gen.Args = append(gen.Args, v)
		}
		fits := false
		for _, n := range counts {
			fits = fits || n == len(gen.Args)
		}
		if !fits {
			return nil, c.errorf(w.Kind.Pos, "%s takes %s", kind, map[string]string{
				"sequence": "no arguments", "now": "no arguments",
				"uniform": "one or two arguments: uniform(k) or uniform(lo, hi)", "zipf": "one argument: zipf(k)",
			}[kind])
		}
		s.With = append(s.With, gen)
	}
	if g.Compare != nil {
		t := ident(g.Compare)
		s.Compare = &t
	}
	return s, nil
}
