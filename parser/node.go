package parser

// This file seals the Node, Stmt and Expr interfaces and gives every node its
// position. Printing lives in printer.go.

var (
	_ Stmt = (*SelectStmt)(nil)
	_ Stmt = (*ExplainStmt)(nil)
	_ Stmt = (*InsertStmt)(nil)
	_ Stmt = (*DeleteStmt)(nil)
	_ Stmt = (*ShowTablesStmt)(nil)
	_ Stmt = (*ShowRegionsStmt)(nil)
	_ Stmt = (*DescribeStmt)(nil)
	_ Stmt = (*CreateTableStmt)(nil)
	_ Stmt = (*EncodeKeyStmt)(nil)
	_ Stmt = (*DecodeKeyStmt)(nil)
	_ Stmt = (*BuildIndexStmt)(nil)
	_ Stmt = (*CheckIndexStmt)(nil)

	_ Expr = (*ColumnRef)(nil)
	_ Expr = (*SubscriptExpr)(nil)
	_ Expr = (*StringLit)(nil)
	_ Expr = (*IntLit)(nil)
	_ Expr = (*FloatLit)(nil)
	_ Expr = (*BoolLit)(nil)
	_ Expr = (*NullLit)(nil)
	_ Expr = (*BytesLit)(nil)
	_ Expr = (*TimestampLit)(nil)
	_ Expr = (*DateLit)(nil)
	_ Expr = (*BinaryExpr)(nil)
	_ Expr = (*UnaryExpr)(nil)
	_ Expr = (*BetweenExpr)(nil)
	_ Expr = (*InExpr)(nil)
	_ Expr = (*LikeExpr)(nil)
	_ Expr = (*TupleExpr)(nil)
	_ Expr = (*SubqueryExpr)(nil)
	_ Expr = (*ExistsExpr)(nil)
	_ Expr = (*IsNullExpr)(nil)
	_ Expr = (*CallExpr)(nil)
	_ Expr = (*CaseExpr)(nil)
	_ Expr = (*CastExpr)(nil)
	_ Expr = (*IntervalLit)(nil)
)

// Pos returns the offset of the name.
func (id Ident) Pos() Pos { return id.NamePos }

func (s *SelectStmt) Pos() Pos      { return s.Select }
func (s *ExplainStmt) Pos() Pos     { return s.Explain }
func (s *InsertStmt) Pos() Pos      { return s.Insert }
func (s *DeleteStmt) Pos() Pos      { return s.Delete }
func (s *ShowTablesStmt) Pos() Pos  { return s.Show }
func (s *ShowRegionsStmt) Pos() Pos { return s.Show }
func (s *DescribeStmt) Pos() Pos    { return s.Describe }
func (s *CreateTableStmt) Pos() Pos { return s.Create }
func (s *EncodeKeyStmt) Pos() Pos   { return s.Encode }
func (s *DecodeKeyStmt) Pos() Pos   { return s.Decode }
func (s *BuildIndexStmt) Pos() Pos  { return s.Build }
func (s *CheckIndexStmt) Pos() Pos  { return s.Check }

func (e *ColumnRef) Pos() Pos     { return e.NamePos }
func (e *SubscriptExpr) Pos() Pos { return e.X.NamePos }
func (e *StringLit) Pos() Pos     { return e.ValuePos }
func (e *IntLit) Pos() Pos        { return e.ValuePos }
func (e *FloatLit) Pos() Pos      { return e.ValuePos }
func (e *BoolLit) Pos() Pos       { return e.ValuePos }
func (e *NullLit) Pos() Pos       { return e.ValuePos }
func (e *BytesLit) Pos() Pos      { return e.ValuePos }
func (e *TimestampLit) Pos() Pos  { return e.ValuePos }
func (e *DateLit) Pos() Pos       { return e.ValuePos }
func (e *UnaryExpr) Pos() Pos     { return e.OpPos }
func (e *CallExpr) Pos() Pos      { return e.NamePos }
func (e *CaseExpr) Pos() Pos      { return e.Case }
func (e *CastExpr) Pos() Pos      { return e.Cast }
func (e *IntervalLit) Pos() Pos   { return e.ValuePos }

// Pos returns the position of the left operand, the node's first byte.
// Pos is the position of the leftmost operand, found without recursion.
func (e *BinaryExpr) Pos() Pos {
	for {
		if e.start > 0 {
			return e.start - 1
		}
		l, ok := e.LHS.(*BinaryExpr)
		if !ok {
			return exprPos(e.LHS, e.OpPos)
		}
		e = l
	}
}

// Pos returns the position of the tested operand.
func (e *BetweenExpr) Pos() Pos { return exprPos(e.X, NoPos) }

// Pos returns the position of the tested operand.
func (e *InExpr) Pos() Pos { return exprPos(e.X, NoPos) }

// Pos returns the position of the tested operand.
func (e *LikeExpr) Pos() Pos     { return exprPos(e.X, NoPos) }
func (e *TupleExpr) Pos() Pos    { return e.Lparen }
func (e *SubqueryExpr) Pos() Pos { return e.Lparen }
func (e *ExistsExpr) Pos() Pos   { return e.ExistsPos }

// Pos returns the position of the tested operand.
func (e *IsNullExpr) Pos() Pos { return exprPos(e.X, NoPos) }

// exprPos is x.Pos(), or def when x is nil.
func exprPos(x Expr, def Pos) Pos {
	if x == nil {
		return def
	}
	return x.Pos()
}

func (*SelectStmt) node()      {}
func (*ExplainStmt) node()     {}
func (*InsertStmt) node()      {}
func (*DeleteStmt) node()      {}
func (*ShowTablesStmt) node()  {}
func (*ShowRegionsStmt) node() {}
func (*DescribeStmt) node()    {}
func (*CreateTableStmt) node() {}
func (*EncodeKeyStmt) node()   {}
func (*DecodeKeyStmt) node()   {}
func (*BuildIndexStmt) node()  {}
func (*CheckIndexStmt) node()  {}

func (*SelectStmt) stmt()      {}
func (*ExplainStmt) stmt()     {}
func (*InsertStmt) stmt()      {}
func (*DeleteStmt) stmt()      {}
func (*ShowTablesStmt) stmt()  {}
func (*ShowRegionsStmt) stmt() {}
func (*DescribeStmt) stmt()    {}
func (*CreateTableStmt) stmt() {}
func (*EncodeKeyStmt) stmt()   {}
func (*DecodeKeyStmt) stmt()   {}
func (*BuildIndexStmt) stmt()  {}
func (*CheckIndexStmt) stmt()  {}

func (*ColumnRef) node()     {}
func (*SubscriptExpr) node() {}
func (*StringLit) node()     {}
func (*IntLit) node()        {}
func (*FloatLit) node()      {}
func (*BoolLit) node()       {}
func (*NullLit) node()       {}
func (*BytesLit) node()      {}
func (*TimestampLit) node()  {}
func (*DateLit) node()       {}
func (*BinaryExpr) node()    {}
func (*UnaryExpr) node()     {}
func (*BetweenExpr) node()   {}
func (*InExpr) node()        {}
func (*LikeExpr) node()      {}
func (*TupleExpr) node()     {}
func (*SubqueryExpr) node()  {}
func (*ExistsExpr) node()    {}
func (*IsNullExpr) node()    {}
func (*CallExpr) node()      {}
func (*CaseExpr) node()      {}
func (*CastExpr) node()      {}
func (*IntervalLit) node()   {}

func (*ColumnRef) expr()     {}
func (*SubscriptExpr) expr() {}
func (*StringLit) expr()     {}
func (*IntLit) expr()        {}
func (*FloatLit) expr()      {}
func (*BoolLit) expr()       {}
func (*NullLit) expr()       {}
func (*BytesLit) expr()      {}
func (*TimestampLit) expr()  {}
func (*DateLit) expr()       {}
func (*BinaryExpr) expr()    {}
func (*UnaryExpr) expr()     {}
func (*BetweenExpr) expr()   {}
func (*InExpr) expr()        {}
func (*LikeExpr) expr()      {}
func (*TupleExpr) expr()     {}
func (*SubqueryExpr) expr()  {}
func (*ExistsExpr) expr()    {}
func (*IsNullExpr) expr()    {}
func (*CallExpr) expr()      {}
func (*CaseExpr) expr()      {}
func (*CastExpr) expr()      {}
func (*IntervalLit) expr()   {}
