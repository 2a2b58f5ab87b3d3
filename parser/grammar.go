package parser

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar structs below are participle's view of the language. They never
// leave the package: convert.go turns them into the AST of ast.go once.
//
// Keyword literals are matched case-insensitively on word tokens. String and
// quoted-identifier tokens keep their quotes, so a literal in the grammar can
// never match one of them by accident.
//
// Operators that can follow an operand have token types of their own (Cmp,
// Logic), so that the grammar tests for them with one match instead of one
// branch per operator.
//
// The grammar is LL(1) and is parsed without lookahead: once a branch has
// consumed a token it is committed, so an error is reported where it
// happens, not where the parser last backtracked to. The lexer makes this
// possible by retyping the words that start a literal (TIMESTAMP and DATE
// before a string, COUNT before "("); such words are still names where the
// grammar wants a name.

// stmtParser returns the parser of one statement. It is built once and
// never modified. Building it is most of the package's start-up cost, so
// init starts it on a goroutine of its own: a program that parses after
// loading its catalog and opening its store finds it built.
var stmtParser = sync.OnceValue(func() *participle.Parser[gStmt] {
	return participle.MustBuild[gStmt](
		participle.Lexer(lexDef{}),
		participle.CaseInsensitive("Keyword", "Ident", "Typed", "Func", "Logic", "Interval"),
		participle.UseLookahead(0),
	)
})

func init() { go stmtParser() }

// gStmt lists the statements, the most frequent first: every alternative
// tried costs time.
type gStmt struct {
	Select   *gSelect   `parser:"  @@"`
	Insert   *gInsert   `parser:"| @@"`
	Delete   *gDelete   `parser:"| @@"`
	Explain  *gExplain  `parser:"| @@"`
	Show     *gShow     `parser:"| @@"`
	Describe *gDescribe `parser:"| @@"`
	Create   *gCreate   `parser:"| @@"`
	Encode   *gEncode   `parser:"| @@"`
	Decode   *gDecode   `parser:"| @@"`
	Build    *gBuild    `parser:"| @@"`
	Check    *gCheck    `parser:"| @@"`
	Lint     *gLint     `parser:"| @@"`
	Simulate *gSimulate `parser:"| @@"`
	Advise   *gAdvise   `parser:"| @@"`
	Update   *gUpdate   `parser:"| @@"`
	Drop     *gDrop     `parser:"| @@"`
	Truncate *gTruncate `parser:"| @@"`
	Alter    *gAlter    `parser:"| @@"`
	Infer    *gInfer    `parser:"| @@"`
	Flush    *gFlush    `parser:"| @@"`
	Compact  *gCompact  `parser:"| @@"`
	Split    *gSplit    `parser:"| @@"`
	Merge    *gMerge    `parser:"| @@"`
	Balancer *gBalancer `parser:"| @@"`
	Snapshot *gSnapshot `parser:"| @@"`
	Restore  *gRestore  `parser:"| @@"`
	Clone    *gClone    `parser:"| @@"`
}

// gExplainable lists the statements EXPLAIN accepts.
type gExplainable struct {
	Select *gSelect `parser:"  @@"`
	Insert *gInsert `parser:"| @@"`
	Delete *gDelete `parser:"| @@"`
	Update *gUpdate `parser:"| @@"`
}

type gExplain struct {
	Pos     lexer.Position
	Analyze bool           `parser:"'EXPLAIN' @'ANALYZE'?"`
	Options []*gExplainOpt `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Stmt    *gExplainable  `parser:"@@"`
}

type gExplainOpt struct {
	Pos     lexer.Position
	Analyze bool   `parser:"  @'ANALYZE'"`
	Verbose bool   `parser:"| @'VERBOSE'"`
	Format  string `parser:"| 'FORMAT' @( 'JSON' | 'TEXT' )"`
}

type gIdent struct {
	Pos  lexer.Position
	Name string `parser:"@( Ident | Typed | Func )"`
}

// Names in different roles get their own types so that an error can say
// which kind of name it expected.
type (
	gTable  gIdent
	gColumn gIdent
	gIndex  gIdent
	gAlias  gIdent
	// gNamespace is a namespace's name (see ast_ns.go).
	gNamespace gIdent
)

type gInt struct {
	Pos  lexer.Position
	Text string `parser:"@Int"`
}

type gSelect struct {
	Pos      lexer.Position
	Raw      bool          `parser:"'SELECT' ( @( 'RAW':Keyword '*' )"`
	Distinct bool          `parser:"         | @'DISTINCT'?"`
	Star     bool          `parser:"           ( @'*'"`
	More     []*gItem      `parser:"             ( ',' @@ )*"`
	Items    []*gItem      `parser:"           | @@ ( ',' @@ )* ) )"`
	RawFrom  *gRawFrom     `parser:"'FROM' ( @@"`
	Derived  *gDerived     `parser:"       | @@"`
	Table    *gTable       `parser:"       | @@ )"`
	As       *gFromAs      `parser:"@@?"`
	Joins    []*gJoin      `parser:"@@*"`
	UseIndex []lexer.Token `parser:"( @( 'USE' 'INDEX' )"`
	Index    *gIndex       `parser:"  '(' @@ ')'"`
	NoIndex  []lexer.Token `parser:"| @( 'NO' 'INDEX' ) )?"`
	AsOf     *gAsOf        `parser:"@@?"`
	Where    *gExpr        `parser:"( 'WHERE' @@ )?"`
	GroupBy  []*gExpr      `parser:"( 'GROUP' 'BY' @@ ( ',' @@ )* )?"`
	Having   *gExpr        `parser:"( 'HAVING' @@ )?"`
	Order    []*gOrder     `parser:"( 'ORDER' 'BY' @@ ( ',' @@ )* )?"`
	Limit    *gInt         `parser:"( 'LIMIT' @@ )?"`
	Offset   *gInt         `parser:"( 'OFFSET' @@ )?"`
	Versions *gInt         `parser:"( 'VERSIONS' @@ )?"`
	Allows   []*gAllow     `parser:"( 'ALLOW' @@ )*"`
}

// gAsOf is AS OF TIMESTAMP '…', or FOR SYSTEM_TIME AS OF …, after the
// table: the time the read sees the table as of.
type gAsOfTail struct {
	Pos  lexer.Position
	When *gExpr `parser:"'OF' @@"`
}

type gAsOf struct {
	Pos    lexer.Position
	System bool   `parser:"( @'FOR' 'SYSTEM_TIME' )?"`
	When   *gExpr `parser:"'AS' 'OF' @@"`
}

// gFromAs is the alias of the table after FROM, [AS] name. AS OF after
// the table is the time of the read, not an alias.
type gFromAs struct {
	Pos  lexer.Position
	AsOf *gAsOfTail `parser:"  'AS' ( @@"`
	As   *gAlias    `parser:"       | @@ )"`
	Bare *gAlias    `parser:"| @@"`
}

// gJoin is [INNER | LEFT [OUTER]] JOIN table [[AS] alias] ON cond.
type gJoin struct {
	Pos     lexer.Position
	Left    bool      `parser:"( @'LEFT' 'OUTER'? | 'INNER' )? 'JOIN'"`
	Derived *gDerived `parser:"( @@"`
	Table   *gTable   `parser:"| @@ )"`
	As      *gAlias   `parser:"( 'AS'? @@ )?"`
	On      *gExpr    `parser:"'ON' @@"`
}

// gDerived is a derived table, (SELECT …), in FROM or JOIN; its alias
// follows it.
type gDerived struct {
	Pos    lexer.Position
	Select *gSelect `parser:"'(' @@ ')'"`
}

// gRawFrom is RAW 'ns:table': an HBase table read cell by cell, with no
// catalog entry.
type gRawFrom struct {
	Pos  lexer.Position
	Name string `parser:"'RAW':Keyword @String"`
}

// gItem is a select item: an expression and its alias.
type gItem struct {
	Expr  *gExpr `parser:"@@"`
	As    bool   `parser:"( @'AS'?"`
	Alias string `parser:"  @( Ident | Typed | Func ) )?"`
}

// gCall is a function call. A Func token is a name before "(".
type gCall struct {
	Pos      lexer.Position
	Name     string   `parser:"@Func '('"`
	Star     bool     `parser:"( @'*'"`
	Distinct bool     `parser:"| @'DISTINCT'"`
	Of       []*gExpr `parser:"  @@ ( ',' @@ )*"`
	Args     []*gExpr `parser:"| @@ ( ',' @@ )* )? ')'"`
}

// gCast is CAST(x AS type).
type gCast struct {
	Pos  lexer.Position
	X    *gExpr `parser:"'CAST':Func '(' @@"`
	Type string `parser:"'AS' @( Ident | Typed | Func ) ')'"`
}

// gExtract is EXTRACT(unit FROM x), the standard form of DATE_PART.
type gExtract struct {
	Pos  lexer.Position
	Unit string `parser:"'EXTRACT':Func '(' @( Ident | Typed | Func | Keyword )"`
	X    *gExpr `parser:"'FROM' @@ ')'"`
}

// gCase is CASE [operand] WHEN … THEN … [ELSE …] END.
type gCase struct {
	Pos     lexer.Position
	Operand *gExpr   `parser:"'CASE' @@?"`
	Whens   []*gWhen `parser:"@@+"`
	Else    *gExpr   `parser:"( 'ELSE' @@ )? 'END'"`
}

type gWhen struct {
	Cond   *gExpr `parser:"'WHEN' @@"`
	Result *gExpr `parser:"'THEN' @@"`
}

// gInterval is INTERVAL 'n' unit.
type gInterval struct {
	Pos  lexer.Position
	Raw  string `parser:"Interval @String"`
	Unit string `parser:"@( 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' )"`
}

type gOrder struct {
	Expr *gExpr `parser:"@@"`
	Dir  string `parser:"@( 'ASC' | 'DESC' )?"`
}

type gInsert struct {
	Pos     lexer.Position
	Verb    string     `parser:"@( 'INSERT' | 'UPSERT' )"`
	Table   *gTable    `parser:"'INTO' @@"`
	Columns []*gColumn `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Rows    []*gRow    `parser:"( 'VALUES' @@ ( ',' @@ )*"`
	Query   *gSelect   `parser:"| @@ )"`
	TS      *gExpr     `parser:"( 'TIMESTAMP' @@ )?"`
	Allows  []*gAllow  `parser:"( 'ALLOW' @@ )*"`
}

type gRow struct {
	Pos    lexer.Position
	Values []*gExpr `parser:"'(' @@ ( ',' @@ )* ')'"`
}

type gDelete struct {
	Pos    lexer.Position
	Table  *gTable   `parser:"'DELETE' 'FROM' @@"`
	Where  *gExpr    `parser:"'WHERE' @@"`
	Allows []*gAllow `parser:"( 'ALLOW' @@ )*"`
}

type gShow struct {
	Pos     lexer.Position
	Tables  bool          `parser:"'SHOW' ( @'TABLES'"`
	Status  bool          `parser:"       | @'CLUSTER'"`
	Snaps   bool          `parser:"       | @'SNAPSHOTS'"`
	Spaces  bool          `parser:"       | @'NAMESPACES'"`
	Regions *gTable       `parser:"       | 'REGIONS' @@"`
	Create  *gTable       `parser:"       | 'CREATE' 'TABLE' @@"`
	Catalog *gShowCatalog `parser:"       | @@ )"`
}

type gDescribe struct {
	Pos   lexer.Position
	Table *gTable `parser:"( 'DESCRIBE' | 'DESC' ) @@"`
}

type gCreate struct {
	Pos       lexer.Position
	Table     *gTable       `parser:"'CREATE' ( 'TABLE' @@?"`
	Def       *gTableDef    `parser:"            ( @@"`
	Phoenix   *gFromPhoenix `parser:"            | @@ )?"`
	Index     *gCreateIndex `parser:"          | 'INDEX' @@"`
	Namespace *gNamespace   `parser:"          | 'NAMESPACE' @@ )"`
}

// gFromPhoenix is CREATE TABLE's FROM PHOENIX 'SCHEMA.TABLE'.
type gFromPhoenix struct {
	Pos  lexer.Position
	Name *gStr `parser:"'FROM' 'PHOENIX' @@"`
}

type gEncode struct {
	Pos    lexer.Position
	Table  *gTable    `parser:"'ENCODE' 'KEY' @@"`
	Fields []*gAssign `parser:"'(' @@ ( ',' @@ )* ')'"`
}

type gAssign struct {
	Col   *gColumn `parser:"@@"`
	Sub   *gExpr   `parser:"( '[' @@ ']' )? '='"`
	Value *gExpr   `parser:"@@"`
}

type gDecode struct {
	Pos   lexer.Position
	Table *gTable `parser:"'DECODE' 'KEY' @@"`
	Key   *gKey   `parser:"@@"`
}

// gKey is the key of DECODE KEY: a string or a hex literal.
type gKey struct {
	Pos   lexer.Position
	Str   string `parser:"  @String"`
	Bytes string `parser:"| @Bytes"`
}

type gBuild struct {
	Pos   lexer.Position
	Index *gIndex `parser:"'BUILD' 'INDEX' @@"`
	Table *gTable `parser:"'ON' @@"`
}

// gCheck is CHECK INDEX i [REPAIR], or CHECK CLUSTER [t] (META is its
// synonym).
type gCheck struct {
	Pos     lexer.Position
	Index   *gIndex `parser:"'CHECK' ( 'INDEX' @@"`
	Repair  bool    `parser:"          @'REPAIR'?"`
	Cluster bool    `parser:"        | @( 'CLUSTER' | 'META' )"`
	Table   *gTable `parser:"          @@? )"`
}

// ---- expressions, lowest precedence first ----

// gExpr is a chain of operands joined by AND and OR; convert.go applies
// their precedence. An operator's position is that of the token before its
// right operand.
type gExpr struct {
	Left *gUnary   `parser:"@@"`
	Ops  []string  `parser:"( @Logic"`
	Rest []*gUnary `parser:"  @@ )*"`
}

// gUnary is NOT… applied to an operand and its optional comparison or
// predicate. The NOT tokens are the ones before X.
type gUnary struct {
	Not     []string `parser:"@'NOT'*"`
	X       *gSum    `parser:"@@"`
	Op      string   `parser:"( @Cmp"`
	RHS     *gSum    `parser:"  @@"`
	Is      bool     `parser:"| @'IS'"`
	IsNot   bool     `parser:"  @'NOT'? 'NULL'"`
	PredNot bool     `parser:"| @'NOT'?"`
	Lo      *gSum    `parser:"  ( 'BETWEEN' @@"`
	Hi      *gSum    `parser:"    'AND' @@"`
	InSel   *gSelect `parser:"  | 'IN' '(' ( @@"`
	In      []*gExpr `parser:"             | @@ ( ',' @@ )* ) ')'"`
	Like    *gSum    `parser:"  | 'LIKE' @@"`
	Escape  *gSum    `parser:"    ( 'ESCAPE' @@ )? ) )?"`
}

// gSum is a chain of +, - and || over products, left to right.
type gSum struct {
	Pos  lexer.Position
	Left *gProd   `parser:"@@"`
	Ops  []string `parser:"( @( '+' | '-' | '||' )"`
	Rest []*gProd `parser:"  @@ )*"`
}

// gProd is a chain of *, / and % over operands, left to right.
type gProd struct {
	Pos  lexer.Position
	Left *gNeg    `parser:"@@"`
	Ops  []string `parser:"( @( '*' | '/' | '%' )"`
	Rest []*gNeg  `parser:"  @@ )*"`
}

// gNeg is a unary minus or a primary expression. Its alternatives are
// ordered by how often they occur, since each one tried costs time. A
// column here is only an Ident: a Typed or Func word in this place
// always starts a literal or a call.
type gNeg struct {
	Pos      lexer.Position
	Col      string     `parser:"  @Ident"`
	Dot      *gDot      `parser:"  @@?"`
	Sub      *gExpr     `parser:"  ( '[' @@ ']' )?"`
	Str      string     `parser:"| @String"`
	Int      string     `parser:"| @Int"`
	Typed    *gTyped    `parser:"| @@"`
	Neg      *gNeg      `parser:"| '-' @@"`
	Scalar   *gSelect   `parser:"| '(' ( @@"`
	Paren    *gExpr     `parser:"    | @@"`
	Tuple    []*gExpr   `parser:"      ( ',' @@ )* ) ')'"`
	Float    string     `parser:"| @Float"`
	Bytes    string     `parser:"| @Bytes"`
	Bool     string     `parser:"| @( 'TRUE' | 'FALSE' )"`
	Null     bool       `parser:"| @'NULL'"`
	Cast     *gCast     `parser:"| @@"`
	Extract  *gExtract  `parser:"| @@"`
	Exists   *gSelect   `parser:"| 'EXISTS':Func '(' @@ ')'"`
	Call     *gCall     `parser:"| @@"`
	Case     *gCase     `parser:"| @@"`
	Interval *gInterval `parser:"| @@"`
}

// gDot is the column after a table's name or alias: x.col, or x.* in a
// select list.
type gDot struct {
	Pos  lexer.Position
	Star bool   `parser:"'.' ( @'*'"`
	Name string `parser:"    | @( Ident | Typed | Func ) )"`
}

// gTyped is TIMESTAMP 'text' or DATE 'text'. The text's position is that of
// the token after the keyword.
type gTyped struct {
	Pos  lexer.Position
	Kind string `parser:"@Typed"`
	Raw  string `parser:"@String"`
}
