package parser

import "github.com/alecthomas/participle/v2/lexer"

// The grammar of the maintenance statements (see ast_maint.go): FLUSH,
// [MAJOR] COMPACT, SPLIT … AT, MERGE REGIONS and BALANCER.

type gFlush struct {
	Pos   lexer.Position
	Table *gTable `parser:"'FLUSH' @@"`
}

type gCompact struct {
	Pos   lexer.Position
	Major bool    `parser:"( @'MAJOR' 'COMPACT'"`
	Table *gTable `parser:"| 'COMPACT' ) @@"`
}

// gSplit is SPLIT t AT (field = value, …) or SPLIT t AT 'key' | x'…'.
type gSplit struct {
	Pos    lexer.Position
	Table  *gTable    `parser:"'SPLIT' @@ 'AT'"`
	Fields []*gAssign `parser:"( '(' @@ ( ',' @@ )* ')'"`
	Key    *gKey      `parser:"| @@ )"`
}

// gMerge is MERGE REGIONS t key, key…: the regions that start at the
// keys.
type gMerge struct {
	Pos   lexer.Position
	Table *gTable `parser:"'MERGE' 'REGIONS' @@"`
	Keys  []*gKey `parser:"@@ ( ',' @@ )+"`
}

// gSnapshot is SNAPSHOT t AS name.
type gSnapshot struct {
	Pos   lexer.Position
	Table *gTable `parser:"'SNAPSHOT' @@"`
	Name  *gIdent `parser:"'AS' @@"`
}

// gRestore is RESTORE SNAPSHOT name.
type gRestore struct {
	Pos  lexer.Position
	Name *gIdent `parser:"'RESTORE' 'SNAPSHOT' @@"`
}

// gClone is CLONE SNAPSHOT name AS t [HBASE 'table'].
type gClone struct {
	Pos   lexer.Position
	Name  *gIdent `parser:"'CLONE' 'SNAPSHOT' @@"`
	Table *gIdent `parser:"'AS' @@"`
	HBase *gStr   `parser:"( 'HBASE' @@ )?"`
}

type gBalancer struct {
	Pos    lexer.Position
	Switch string `parser:"'BALANCER' @( 'ON' | 'OFF' )?"`
}
