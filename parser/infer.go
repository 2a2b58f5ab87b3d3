package parser

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// InferStmt is INFER TABLE 'ns:t' [SAMPLE n] [AS name] [SAVE]: propose a
// catalog entry for a physical table from a sample of its rows, and with
// SAVE write it to the catalog.
type InferStmt struct {
	Infer Pos
	// Table is the physical table's name; TablePos where it is written.
	Table    string
	TablePos Pos
	// Sample is how many rows to read at most; 0 means the default.
	Sample int64
	// As is the logical name of the entry; nil derives one from Table.
	As   *Ident
	Save bool
}

var _ Stmt = (*InferStmt)(nil)

func (s *InferStmt) Pos() Pos { return s.Infer }
func (*InferStmt) node()      {}
func (*InferStmt) stmt()      {}

func (s *InferStmt) String() string {
	var b strings.Builder
	b.WriteString("INFER TABLE " + quote(s.Table, '\''))
	if s.Sample > 0 {
		b.WriteString(" SAMPLE " + strconv.FormatInt(s.Sample, 10))
	}
	if s.As != nil {
		b.WriteString(" AS " + s.As.String())
	}
	if s.Save {
		b.WriteString(" SAVE")
	}
	return b.String()
}

type gInfer struct {
	Pos    lexer.Position
	Table  *gInferTable `parser:"'INFER' 'TABLE' @@"`
	Sample *gInt        `parser:"( 'SAMPLE' @@ )?"`
	As     *gTable      `parser:"( 'AS' @@ )?"`
	Save   bool         `parser:"@'SAVE'?"`
}

// gInferTable is the physical table INFER reads: a string, as a name
// with a namespace needs, or a bare name.
type gInferTable struct {
	Pos  lexer.Position
	Str  string  `parser:"  @String"`
	Name *gTable `parser:"| @@"`
}

func (c *converter) infer(g *gInfer) (Stmt, *Error) {
	s := &InferStmt{Infer: pos(g.Pos), TablePos: pos(g.Table.Pos), Save: g.Save}
	if g.Table.Name != nil {
		s.Table = ident(g.Table.Name).Name
	} else {
		s.Table = unquote(g.Table.Str, '\'')
	}
	if s.Table == "" {
		return nil, c.errorf(g.Table.Pos, "INFER TABLE wants a table name, not ''")
	}
	if g.Sample != nil {
		n, err := strconv.ParseInt(g.Sample.Text, 10, 64)
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, c.errorf(g.Sample.Pos, "SAMPLE wants a whole number of rows from 1 to 1000000, not %s", g.Sample.Text)
		}
		s.Sample = n
	}
	if g.As != nil {
		a := ident(g.As)
		s.As = &a
	}
	return s, nil
}
