package parser

import "github.com/alecthomas/participle/v2/lexer"

// The grammar of the layout statements (see ast_ddl.go) and of UPDATE.
// Like the rest of the grammar it is LL(1): a rowkey component starts with
// a string, a hex literal or a name, and what follows the name (an
// argument list, a count, options) says which kind it is; convert_ddl.go
// checks the combination.

// gTableDef follows CREATE TABLE name.
type gTableDef struct {
	Pos      lexer.Position
	Columns  []*gColDef `parser:"'(' @@ ( ',' @@ )* ')'"`
	Rowkey   []*gComp   `parser:"'ROWKEY' '(' @@ ( ',' @@ )* ')'"`
	Families []*gFamDef `parser:"( 'FAMILIES' '(' @@ ( ',' @@ )* ')' )?"`
	Splits   []*gKey    `parser:"( 'SPLITS' '(' @@ ( ',' @@ )* ')'"`
	SplitBy  *gIdent    `parser:"| 'SPLIT' 'BY' @@"`
	Regions  *gInt      `parser:"  ( 'INTO' @@ 'REGIONS' )? )?"`
	HBase    *gStr      `parser:"( 'HBASE' @@ )?"`
}

// gColDef is a column: name TYPE [AS 'f:q'] [TEXT].
type gColDef struct {
	Name   *gColumn `parser:"@@"`
	Type   *gIdent  `parser:"@@"`
	Column *gStr    `parser:"( 'AS' @@ )?"`
	Text   bool     `parser:"@'TEXT'?"`
}

type gStr struct {
	Pos lexer.Position
	Raw string `parser:"@String"`
}

// gComp is a rowkey component: a literal, or a name with its arguments,
// count and options.
type gComp struct {
	Pos   lexer.Position
	Str   string      `parser:"  @String"`
	Bytes string      `parser:"| @Bytes"`
	Name  *gColumn    `parser:"| @@"`
	Args  []*gColumn  `parser:"  ( '(' @@ ( ',' @@ )* ')' )?"`
	N     *gInt       `parser:"  @@?"`
	Opts  []*gCompOpt `parser:"  @@*"`
}

type gCompOpt struct {
	Pos     lexer.Position
	Dir     string `parser:"  @( 'ASC' | 'DESC' )"`
	Reverse bool   `parser:"| @'REVERSE'"`
	Binary  bool   `parser:"| @'BINARY'"`
	Enc     string `parser:"| @( 'TEXT' | 'DECIMAL' | 'SORTABLE' | 'JAVA' )"`
	EncW    *gInt  `parser:"  @@?"`
	Width   *gInt  `parser:"| 'WIDTH' @@"`
	Mod     *gInt  `parser:"| 'MOD' @@"`
	Pad     string `parser:"| 'PAD' @( 'LEFT' | 'RIGHT' )"`
	PadW    *gInt  `parser:"  @@"`
	PadWith *gStr  `parser:"  ( 'WITH' @@ )?"`
}

// gFamDef is a family and its settings.
type gFamDef struct {
	Name *gIdent    `parser:"@@"`
	Opts []*gFamOpt `parser:"@@*"`
}

type gFamOpt struct {
	Pos         lexer.Position
	Versions    *gInt  `parser:"  'VERSIONS' @@"`
	TTL         *gKey  `parser:"| 'TTL' ( @@"`
	TTLInt      *gInt  `parser:"        | @@ )"`
	Compression string `parser:"| 'COMPRESSION' @( Ident | String )"`
	Bloom       string `parser:"| 'BLOOMFILTER' @( Ident | String )"`
	BlockSize   *gInt  `parser:"| 'BLOCKSIZE' @@"`
	BlockCache  string `parser:"| 'BLOCKCACHE' @( 'TRUE' | 'FALSE' )"`
	InMemory    bool   `parser:"| @'IN_MEMORY'"`
}

// gCreateIndex follows CREATE INDEX.
type gCreateIndex struct {
	Index    *gIndex    `parser:"@@"`
	Table    *gTable    `parser:"'ON' @@"`
	Rowkey   []*gComp   `parser:"'ROWKEY' '(' @@ ( ',' @@ )* ')'"`
	Covering []*gColumn `parser:"( 'COVERING' '(' @@ ( ',' @@ )* ')' )?"`
	Unique   bool       `parser:"@'UNIQUE'?"`
	HBase    *gStr      `parser:"( 'HBASE' @@ )?"`
}

type gShowCatalog struct {
	Pos   lexer.Position
	Kw    bool    `parser:"@'CATALOG'"`
	Table *gTable `parser:"@@?"`
}

type gDrop struct {
	Pos       lexer.Position
	Table     *gTable     `parser:"'DROP' ( 'TABLE' @@"`
	Index     *gIndex     `parser:"       | 'INDEX' @@"`
	Snap      *gIdent     `parser:"       | 'SNAPSHOT' @@"`
	Namespace *gNamespace `parser:"       | 'NAMESPACE' @@ )"`
}

type gTruncate struct {
	Pos   lexer.Position
	Table *gTable `parser:"'TRUNCATE' 'TABLE' @@"`
}

type gAlter struct {
	Pos    lexer.Position
	Table  *gTable  `parser:"'ALTER' 'TABLE' @@"`
	Add    *gColDef `parser:"( 'ADD' 'COLUMN'? @@"`
	Family *gFamDef `parser:"| 'SET' 'FAMILY' @@ )"`
}

type gUpdate struct {
	Pos    lexer.Position
	Table  *gTable    `parser:"'UPDATE' @@"`
	Set    []*gAssign `parser:"'SET' @@ ( ',' @@ )*"`
	Where  *gExpr     `parser:"'WHERE' @@"`
	Allows []*gAllow  `parser:"( 'ALLOW' @@ )*"`
}

// gAllow follows ALLOW in a write.
type gAllow struct {
	Pos        lexer.Position
	FullScan   bool `parser:"  @( 'FULL' 'SCAN' )"`
	IndexWrite bool `parser:"| @( 'INDEX' 'WRITE' )"`
}
