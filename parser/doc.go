// Package parser turns rkql text into an AST.
//
// The parser's own steps, its part of the pipeline drawn in DESIGN.md:
//
//	text ──tokenize──▶ tokens ──split at ';'──▶ statements
//	     ──participle grammar (grammar.go)──▶ grammar structs
//	     ──convert (convert.go)──▶ AST (ast.go)
//
// The scanner is hand-written (scanner.go) and lexer.go adapts its tokens to
// participle; the grammar is declared as participle struct tags on
// unexported structs, which are converted once into the exported AST.
// Nothing outside this package sees participle's types.
//
// # API
//
//   - Parse parses a script of statements separated by ';'. A ';' inside a
//     string, quoted name or comment does not split; empty statements are
//     ignored and the last ';' is optional.
//   - ParseOne parses exactly one statement.
//   - Complete reports whether text ends with a ';' outside any string or
//     comment, so that a shell knows a statement is finished.
//   - Scanner (and Scan) is the one scanner of the language: tokens with byte
//     offsets, which a tool such as a shell's statement splitter or completer
//     reads instead of scanning text itself. It goes on after a malformed
//     token; an error whose text could still be completed (an open string,
//     quoted name, hex literal or comment) wraps ErrUnterminated.
//   - Keywords and LookupKeyword are the one keyword table: every word of the
//     grammar, whether it is reserved, and whether it begins a statement.
//   - Every error is an *Error carrying a byte offset and its 1-based line and
//     column (columns count characters). Error() prints "line:col: message";
//     Context prints the source line with a caret under the column. Later
//     stages report errors about a statement's text with the same type, made
//     by Errorf without a line and column, and may wrap a cause.
//   - Every node's String prints canonical rkql that parses back to an equal
//     tree, positions aside.
//
// # Grammar
//
// Keywords are case-insensitive. Names are case-sensitive: letters, digits
// and '_', not starting with a digit, or any text in double quotes ("" for
// a quote). The reserved words
//
//	AND AS BETWEEN BY CASE DELETE DISTINCT ELSE END EXPLAIN FALSE FROM
//	GROUP HAVING IN INSERT INTO IS LIKE LIMIT NOT NULL OR ORDER SELECT
//	THEN TRUE VALUES WHEN WHERE
//
// must be quoted to be used as names. They are the words that begin or
// continue an expression (NOT, CASE … END, TRUE, FALSE, NULL, AND, OR, IS,
// IN, LIKE, BETWEEN), the words that end a select item (AS, FROM) or follow
// SELECT or "(" in its place (DISTINCT), the clauses of SELECT up to LIMIT,
// and the standard SQL statement words, so that a misspelt query fails at
// the word that is wrong. Every other word of the grammar, OFFSET among
// them, is a name wherever the grammar expects a name or an operand, and a
// keyword only where it may come: "SELECT offset FROM tsdb ORDER BY offset
// LIMIT 5 OFFSET 10" reads the column offset twice. No such word can follow
// an operand except as a keyword, and a select item's alias ends at FROM, so
// the grammar stays LL(1). An error right after such a word read as a name
// says so ("OFFSET" was read as a name).
//
//	stmt     = select | insert | delete | update | explain
//	         | SHOW TABLES | SHOW REGIONS name | SHOW CATALOG [name]
//	         | SHOW CREATE TABLE name | (DESCRIBE | DESC) name
//	         | CREATE TABLE name [tabledef] | CREATE INDEX name ON name index
//	         | CREATE TABLE [name] FROM PHOENIX string
//	         | DROP TABLE name | DROP INDEX name | TRUNCATE TABLE name
//	         | ALTER TABLE name (ADD [COLUMN] coldef | SET FAMILY family)
//	         | ENCODE KEY name "(" name "=" expr {"," name "=" expr} ")"
//	         | DECODE KEY name (string | hex)
//	         | BUILD INDEX name ON name | CHECK INDEX name [REPAIR]
//	         | LINT [name] | ADVISE string
//	         | INFER TABLE (string | name) [SAMPLE int] [AS name] [SAVE]
//	         | SIMULATE WRITES name ROWS int
//	           [WITH name "=" name ["(" int {"," int} ")"] {"," …}]
//	           [COMPARE name] .
//	select   = SELECT [DISTINCT] ("*" {"," item} | item {"," item}) FROM name
//	           [USE INDEX "(" name ")" | NO INDEX]
//	           [[FOR SYSTEM_TIME] AS OF expr] [WHERE expr]
//	           [GROUP BY expr {"," expr}] [HAVING expr]
//	           [ORDER BY expr [ASC | DESC] {"," expr [ASC | DESC]}]
//	           [LIMIT int] [OFFSET int] [VERSIONS int] [ALLOW FULL SCAN] .
//	item     = expr [[AS] name] .
//	insert   = (INSERT | UPSERT) INTO name "(" name {"," name} ")"
//	           VALUES row {"," row} [TIMESTAMP expr] [ALLOW INDEX WRITE] .
//	row      = "(" expr {"," expr} ")" .
//	delete   = DELETE FROM name WHERE expr {ALLOW (FULL SCAN | INDEX WRITE)} .
//	update   = UPDATE name SET set {"," set} WHERE expr
//	           {ALLOW (FULL SCAN | INDEX WRITE)} .
//	set      = name ["[" expr "]"] "=" expr .
//	explain  = EXPLAIN [ANALYZE] ["(" option {"," option} ")"]
//	           (select | insert | delete | update) .
//	tabledef = "(" coldef {"," coldef} ")" ROWKEY "(" comp {"," comp} ")"
//	           [FAMILIES "(" family {"," family} ")"]
//	           [SPLITS "(" key {"," key} ")"
//	            | SPLIT BY name [INTO int REGIONS]] [HBASE string] .
//	coldef   = name type [AS 'family:qualifier'] [TEXT] .
//	comp     = string | hex                       (a literal; \xNN escapes)
//	         | name {TEXT|DECIMAL|SORTABLE|JAVA [int] | BINARY | WIDTH int | ASC | DESC
//	                 | REVERSE | PAD (LEFT|RIGHT) int [WITH string]}
//	         | (MD5|JAVAHASH|MURMUR3) "(" name {"," name} ")" [MOD int]
//	           [WIDTH int] [BINARY]
//	         | BUCKET "(" name ")" MOD int [WIDTH int] [BINARY]
//	         | SALT int | RANDOM int [WIDTH int] [BINARY] .
//	family   = name {VERSIONS int | TTL (int | string) | COMPRESSION word
//	           | BLOOMFILTER word | BLOCKSIZE int | BLOCKCACHE (TRUE|FALSE)
//	           | IN_MEMORY} .
//	index    = ROWKEY "(" comp {"," comp} ")" [COVERING "(" name {"," name} ")"]
//	           [UNIQUE] [HBASE string] .
//	option   = ANALYZE | VERBOSE | FORMAT (JSON | TEXT) .
//
// Expressions, loosest binding first:
//
//	expr     = and {OR and} .
//	and      = not {AND not} .
//	not      = NOT not | cmp .
//	cmp      = sum [("=" | "!=" | "<>" | "<" | "<=" | ">" | ">=") sum
//	               | IS [NOT] NULL
//	               | [NOT] BETWEEN sum AND sum
//	               | [NOT] IN "(" expr {"," expr} ")"
//	               | [NOT] LIKE sum [ESCAPE sum]] .
//	sum      = prod {("+" | "-" | "||") prod} .
//	prod     = neg {("*" | "/" | "%") neg} .
//	neg      = "-" neg | primary .
//	primary  = name ["[" expr "]"] | literal | call | CAST "(" expr AS name ")" | case
//	         | INTERVAL string (SECOND | MINUTE | HOUR | DAY)
//	         | "(" expr {"," expr} ")" .
//	call     = name "(" ["*" | DISTINCT expr {"," expr} | expr {"," expr}] ")" .
//	case     = CASE [expr] WHEN expr THEN expr {WHEN expr THEN expr}
//	           [ELSE expr] END .
//
// name[key] is a MAP column's value for one key (SubscriptExpr), and in
// UPDATE's SET one entry to write.
//
// A parenthesised list of two or more expressions is a row value
// (TupleExpr), as in (a, b) IN ((1, 2), (3, 4)).
//
// Comparisons do not chain: a = b = c is an error, (a = b) = c is not.
//
// Literals:
//
//   - 'text'; a quote inside the text is written twice;
//   - integers (int64; a leading '-' is a UnaryExpr over the IntLit, except
//     that -9223372036854775808, whose magnitude fits only negated, is one
//     IntLit) and floats such as 1.5, .5, 1e3, 2.5E-3;
//   - TRUE, FALSE, NULL;
//   - x'00ff', an even number of hex digits;
//   - TIMESTAMP 'YYYY-MM-DD[ HH:MM:SS[.fff]]' in UTC, or RFC 3339 text such as
//     '2024-05-01T12:00:00+02:00', converted to UTC and truncated to
//     milliseconds;
//   - DATE 'YYYY-MM-DD'.
//
// Comments run from "--" to the end of the line, or between "/*" and "*/".
//
// # Invariants
//
// Positions (Pos) are byte offsets into the text given to Parse; a node's
// Pos is the offset of its first byte, and BinaryExpr.OpPos that of its
// operator. Parse never panics, whatever its input: nesting deeper than 200
// parentheses or unary operators is an error, and so is a chain of more
// than 262,144 binary operators (a tree as deep as it is long, which
// every later step walks); FuzzParse checks the rest. Parsing is linear
// in the length of a chain or list.
// The parser keeps no state between calls and is safe for concurrent use.
package parser
