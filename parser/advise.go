package parser

import "github.com/alecthomas/participle/v2/lexer"

// AdviseStmt is ADVISE 'workload.sql': rank the key designs for the
// queries of a file.
type AdviseStmt struct {
	Advise Pos
	// File is the workload's path.
	File string
}

var _ Stmt = (*AdviseStmt)(nil)

func (s *AdviseStmt) Pos() Pos { return s.Advise }
func (*AdviseStmt) node()      {}
func (*AdviseStmt) stmt()      {}

func (s *AdviseStmt) String() string { return "ADVISE " + quote(s.File, '\'') }

type gAdvise struct {
	Pos  lexer.Position
	File string `parser:"'ADVISE' @String"`
}

func (c *converter) advise(g *gAdvise) (Stmt, *Error) {
	return &AdviseStmt{Advise: pos(g.Pos), File: unquote(g.File, '\'')}, nil
}
