package parser

import "time"

// Pos is a byte offset into the source text. It is expanded into a line and
// column only when an error is printed (see Position).
type Pos int

// NoPos is the zero position, used by nodes built outside the parser.
const NoPos Pos = -1

// Node is implemented by every AST node.
type Node interface {
	// Pos is the offset of the node's first byte.
	Pos() Pos
	// String renders the node as rkql text that parses back to an equal tree.
	String() string
	node()
}

// Stmt is a statement. The set is sealed: only this package's types are
// statements.
type Stmt interface {
	Node
	stmt()
}

// Expr is an expression. The set is sealed.
type Expr interface {
	Node
	expr()
}

// Ident is a name with its position, such as a table or column name.
// Names are case-sensitive as written, unquoted.
type Ident struct {
	NamePos Pos
	Name    string
}

// ---- statements ----

// SelectStmt is SELECT items FROM table [hint] [WHERE] [ORDER BY] [LIMIT]
// [VERSIONS n] [ALLOW FULL SCAN].
type SelectStmt struct {
	Select Pos
	// Star is true for SELECT *; then Items is empty.
	Star bool
	// Raw is true for SELECT RAW *: every cell of the rows selected, one
	// result row per cell, mapped by the catalog or not. Star is then set.
	Raw   bool
	Items []SelectItem
	Table Ident
	// Hint is the index hint after the table name; nil when absent.
	Hint  *IndexHint
	Where Expr // nil when absent
	Order []OrderItem
	// Limit is -1 when absent.
	Limit int64
	// Versions is 0 when absent (newest version only).
	Versions      int
	AllowFullScan bool
}

// SelectItem is one output column: a column reference or COUNT(*).
type SelectItem struct {
	Expr  Expr
	Alias string // "" when absent
}

// IndexHint is USE INDEX (name) or NO INDEX, written after the table name.
type IndexHint struct {
	HintPos Pos
	NoIndex bool  // NO INDEX
	Index   Ident // USE INDEX (Index); empty when NoIndex
}

// OrderItem is one ORDER BY term.
type OrderItem struct {
	Column Ident
	Desc   bool
}

// ExplainStmt is EXPLAIN [ANALYZE] [(FORMAT JSON|TEXT)] stmt.
type ExplainStmt struct {
	Explain Pos
	Analyze bool
	Format  string // "" (text) or "JSON"
	// Verbose adds a legend of the key notation.
	Verbose bool
	Stmt    Stmt
}

// InsertStmt is INSERT INTO t (cols) VALUES (…), (…) [TIMESTAMP expr].
type InsertStmt struct {
	Insert  Pos
	Table   Ident
	Columns []Ident
	Rows    [][]Expr
	// Timestamp is the cell timestamp for every written cell; nil means now.
	Timestamp Expr
}

// DeleteStmt is DELETE FROM t WHERE expr.
type DeleteStmt struct {
	Delete Pos
	Table  Ident
	Where  Expr
}

// ShowTablesStmt is SHOW TABLES.
type ShowTablesStmt struct{ Show Pos }

// ShowRegionsStmt is SHOW REGIONS t.
type ShowRegionsStmt struct {
	Show  Pos
	Table Ident
}

// DescribeStmt is DESCRIBE t (also DESC t).
type DescribeStmt struct {
	Describe Pos
	Table    Ident
}

// CreateTableStmt is CREATE TABLE t: create the physical table of a catalog
// table.
type CreateTableStmt struct {
	Create Pos
	Table  Ident
}

// EncodeKeyStmt is ENCODE KEY t (field = value, …).
type EncodeKeyStmt struct {
	Encode Pos
	Table  Ident
	Fields []Assignment
}

// Assignment is name = value inside ENCODE KEY.
type Assignment struct {
	Column Ident
	Value  Expr
}

// DecodeKeyStmt is DECODE KEY t 'text' or DECODE KEY t x'hex'.
type DecodeKeyStmt struct {
	Decode Pos
	Table  Ident
	Key    Expr // *StringLit or *BytesLit
}

// BuildIndexStmt is BUILD INDEX idx ON t.
type BuildIndexStmt struct {
	Build Pos
	Index Ident
	Table Ident
}

// CheckIndexStmt is CHECK INDEX idx [REPAIR].
type CheckIndexStmt struct {
	Check  Pos
	Index  Ident
	Repair bool
}

// ---- expressions ----

// ColumnRef names a column, or a pseudo-column such as _ts.
type ColumnRef struct {
	NamePos Pos
	Name    string
}

// StringLit is a quoted string, in which two single quotes stand for one.
// Val is unescaped.
type StringLit struct {
	ValuePos Pos
	Val      string
}

// IntLit is an integer literal. A leading minus sign is a UnaryExpr, but
// for -9223372036854775808, the one int64 whose magnitude is no int64: that
// is an IntLit with a negative Val.
type IntLit struct {
	ValuePos Pos
	Val      int64
}

// FloatLit is a decimal literal with a point or an exponent.
type FloatLit struct {
	ValuePos Pos
	Val      float64
}

// BoolLit is TRUE or FALSE.
type BoolLit struct {
	ValuePos Pos
	Val      bool
}

// NullLit is NULL.
type NullLit struct{ ValuePos Pos }

// BytesLit is x'00ff'.
type BytesLit struct {
	ValuePos Pos
	Val      []byte
}

// TimestampLit is TIMESTAMP '2024-05-01 12:00:00' (UTC) or an RFC 3339 text.
// Val is in UTC with millisecond precision.
type TimestampLit struct {
	ValuePos Pos
	Val      time.Time
}

// DateLit is DATE '2019-02-17'. Val is midnight UTC of that day.
type DateLit struct {
	ValuePos Pos
	Val      time.Time
}

// BinaryOp is a binary operator.
type BinaryOp int

// Binary operators, comparisons first.
const (
	OpEq BinaryOp = iota // =
	OpNe                 // != or <>
	OpLt                 // <
	OpLe                 // <=
	OpGt                 // >
	OpGe                 // >=
	OpAnd
	OpOr
)

// BinaryExpr is LHS Op RHS.
type BinaryExpr struct {
	OpPos Pos
	Op    BinaryOp
	LHS   Expr
	RHS   Expr
}

// UnaryOp is a unary operator.
type UnaryOp int

// Unary operators.
const (
	OpNot UnaryOp = iota
	OpNeg
)

// UnaryExpr is NOT X or -X.
type UnaryExpr struct {
	OpPos Pos
	Op    UnaryOp
	X     Expr
}

// BetweenExpr is X [NOT] BETWEEN Lo AND Hi.
type BetweenExpr struct {
	X, Lo, Hi Expr
	Not       bool
}

// InExpr is X [NOT] IN (List…).
type InExpr struct {
	X    Expr
	List []Expr
	Not  bool
}

// LikeExpr is X [NOT] LIKE Pattern.
type LikeExpr struct {
	X       Expr
	Pattern Expr
	Not     bool
}

// IsNullExpr is X IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
}

// CallExpr is a function call; only COUNT(*) for now.
type CallExpr struct {
	NamePos Pos
	Name    string // upper case
	Star    bool   // COUNT(*)
	Args    []Expr
}
