package parser

import (
	"math"
	"time"
)

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

// SelectStmt is SELECT [DISTINCT] items FROM table [hint] [WHERE]
// [GROUP BY] [HAVING] [ORDER BY] [LIMIT] [OFFSET] [VERSIONS n]
// [ALLOW FULL SCAN].
type SelectStmt struct {
	Select Pos
	// Distinct is SELECT DISTINCT: each output row once.
	Distinct bool
	// Star is true for SELECT *; Items then lists the items after it
	// (SELECT *, _ts).
	Star bool
	// Raw is true for SELECT RAW *: every cell of the rows selected, one
	// result row per cell, mapped by the catalog or not. Star is then set
	// and Items is empty.
	Raw   bool
	Items []SelectItem
	// Table is the catalog table read, or with FromRaw the HBase table
	// (FROM RAW 'ns:table'), read one row per cell with no catalog entry.
	Table   Ident
	FromRaw bool
	// Derived, when set, is the SELECT of a derived table, FROM (SELECT
	// …) AS d, read instead of a catalog table: Table is then empty but
	// for its position, that of the "(", and Alias names it.
	Derived *SelectStmt
	// Alias is the name the statement gives Table (FROM orders o); ""
	// when none.
	Alias string
	// Joins are the tables joined to Table, in order; nil when none.
	Joins []Join
	// Hint is the index hint after the table name; nil when absent.
	Hint *IndexHint
	// AsOf is the time of AS OF (or FOR SYSTEM_TIME AS OF) after the
	// table: each cell is read as its newest version at or before it.
	// nil when absent; AsOfPos is where the clause starts.
	AsOf    Expr
	AsOfPos Pos
	Where   Expr // nil when absent
	GroupBy []Expr
	Having  Expr // nil when absent
	Order   []OrderItem
	// Limit is -1 when absent.
	Limit int64
	// Offset is the number of rows skipped; 0 when absent.
	Offset int64
	// Versions is 0 when absent (newest version only).
	Versions      int
	AllowFullScan bool
}

// SelectItem is one output column: an expression and its alias.
type SelectItem struct {
	Expr  Expr
	Alias string // "" when absent
	// AllOf, for x.*, is the table or alias x: every column of that
	// table. Expr is then nil.
	AllOf    string
	AllOfPos Pos
}

// Join is [INNER | LEFT [OUTER]] JOIN table [[AS] alias] ON cond.
type Join struct {
	JoinPos Pos
	// Left is LEFT JOIN: a row of the tables before it that no row of
	// Table matches is kept, with NULL for Table's columns.
	Left  bool
	Table Ident
	// Derived, when set, is the SELECT of a derived table joined, JOIN
	// (SELECT …) AS d, instead of a catalog table: Table is then empty
	// but for its position, and Alias names it.
	Derived *SelectStmt
	Alias   string // "" when none
	On      Expr
}

// Name is how the statement names the joined table: its alias, or its
// name when it has none.
func (j *Join) Name() string {
	if j.Alias != "" {
		return j.Alias
	}
	return j.Table.Name
}

// IndexHint is USE INDEX (name) or NO INDEX, written after the table name.
type IndexHint struct {
	HintPos Pos
	NoIndex bool  // NO INDEX
	Index   Ident // USE INDEX (Index); empty when NoIndex
}

// OrderItem is one ORDER BY term: an expression, an output's alias (a
// ColumnRef) or an output's position (an IntLit).
type OrderItem struct {
	Expr Expr
	Desc bool
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

// InsertStmt is (INSERT | UPSERT) INTO t (cols) VALUES (…), (…)
// [TIMESTAMP expr] [ALLOW INDEX WRITE], or (INSERT | UPSERT) INTO t
// [(cols)] SELECT …, which writes the rows of the query. Both merge into
// an existing row.
type InsertStmt struct {
	Insert  Pos
	Table   Ident
	Columns []Ident
	Rows    [][]Expr
	// Query is the SELECT whose rows are written, instead of Rows;
	// without Columns they go to every column of t in order.
	Query *SelectStmt
	// Timestamp is the cell timestamp for every written cell; nil means now.
	Timestamp Expr
	// Upsert is true when the statement was written UPSERT.
	Upsert bool
	// AllowIndexWrite lets the statement write an index table directly.
	AllowIndexWrite bool
}

// DeleteStmt is DELETE FROM t WHERE expr [ALLOW FULL SCAN] [ALLOW INDEX
// WRITE].
type DeleteStmt struct {
	Delete          Pos
	Table           Ident
	Where           Expr
	AllowFullScan   bool
	AllowIndexWrite bool
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

// EncodeKeyStmt is ENCODE KEY t (field = value, …).
type EncodeKeyStmt struct {
	Encode Pos
	Table  Ident
	Fields []Assignment
}

// Assignment is name = value inside ENCODE KEY and UPDATE, or
// name[key] = value in UPDATE: one entry of a MAP column.
type Assignment struct {
	Column Ident
	// Key is the map key of name[key] = value; nil for name = value.
	Key   Expr
	Value Expr
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
	// Table is the table or alias that qualifies the name (o.seller);
	// "" when none. NamePos is then the position of Table.
	Table string
}

// SubscriptExpr is X[Key]: the value a MAP column holds for one key,
// NULL when it holds none.
type SubscriptExpr struct {
	X   *ColumnRef
	Key Expr
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
	OpAdd    // +
	OpSub    // -
	OpMul    // *
	OpDiv    // /
	OpMod    // %
	OpConcat // ||
)

// BinaryExpr is LHS Op RHS.
type BinaryExpr struct {
	OpPos Pos
	Op    BinaryOp
	LHS   Expr
	RHS   Expr
	// start is 1 + the offset of the expression's first byte, kept by
	// the parser so that Pos of a long left-associated chain needs no
	// walk down it; 0 when unknown (a node built elsewhere).
	start Pos
}

// newBinary is the parser's LHS op RHS, which knows where it starts.
func newBinary(opPos Pos, op BinaryOp, lhs, rhs Expr) *BinaryExpr {
	e := &BinaryExpr{OpPos: opPos, Op: op, LHS: lhs, RHS: rhs}
	if p := e.Pos(); p >= 0 {
		e.start = p + 1
	}
	return e
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

// InExpr is X [NOT] IN (List…), or X [NOT] IN (SELECT …) when Sub is
// set (List is then nil).
type InExpr struct {
	X    Expr
	List []Expr
	Sub  *SelectStmt
	Not  bool
}

// SubqueryExpr is a SELECT in parentheses used as a value: a scalar
// subquery, one column of at most one row.
type SubqueryExpr struct {
	Lparen Pos
	Select *SelectStmt
}

// ExistsExpr is EXISTS (SELECT …): true when the SELECT returns a row.
// NOT EXISTS is a UnaryExpr NOT over it.
type ExistsExpr struct {
	ExistsPos Pos
	Select    *SelectStmt
}

// LikeExpr is X [NOT] LIKE Pattern [ESCAPE Escape].
type LikeExpr struct {
	X       Expr
	Pattern Expr
	Not     bool
	// Escape is the escape character's expression; nil when absent.
	Escape Expr
}

// TupleExpr is a row value, (a, b, …) with at least two elements: the
// left side of a row-value IN, or one of its list's rows.
type TupleExpr struct {
	Lparen Pos
	Elems  []Expr
}

// IsNullExpr is X IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
}

// CallExpr is a function call, such as COUNT(*), COUNT(DISTINCT x),
// UPPER(s) or NOW().
type CallExpr struct {
	NamePos  Pos
	Name     string // upper case
	Star     bool   // COUNT(*)
	Distinct bool   // COUNT(DISTINCT x)
	Args     []Expr
}

// CaseExpr is CASE [Operand] WHEN … THEN … [ELSE …] END. Without an
// operand each When is a condition; with one, a value compared with it.
type CaseExpr struct {
	Case    Pos
	Operand Expr // nil for a searched CASE
	Whens   []When
	Else    Expr // nil when absent
}

// When is one WHEN … THEN … arm of a CASE.
type When struct {
	Cond   Expr
	Result Expr
}

// CastExpr is CAST(X AS Type); Type is upper case.
type CastExpr struct {
	Cast Pos
	X    Expr
	Type string
}

// IntervalLit is INTERVAL 'n' UNIT, a span of N units.
type IntervalLit struct {
	ValuePos Pos
	N        int64
	Unit     string // SECOND, MINUTE, HOUR or DAY
}

// Millis is the interval's length in milliseconds; ok is false when it
// does not fit an int64.
func (e *IntervalLit) Millis() (ms int64, ok bool) {
	per := map[string]int64{"SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000, "DAY": 86_400_000}[e.Unit]
	if per == 0 || e.N > math.MaxInt64/per || e.N < math.MinInt64/per {
		return 0, false
	}
	return e.N * per, true
}
