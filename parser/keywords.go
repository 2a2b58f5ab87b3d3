package parser

// Keyword is a word of the grammar.
type Keyword struct {
	// Word is the keyword in upper case.
	Word string
	// Reserved words cannot be bare names: a name spelled like one must be
	// double-quoted. The other keywords are recognised only where the
	// grammar expects them and are ordinary names elsewhere.
	Reserved bool
	// Starter words begin a statement.
	Starter bool
	// Layout words appear only in the layout statements (CREATE TABLE …
	// ROWKEY, CREATE INDEX, ALTER TABLE), UPDATE's SET and INFER TABLE, so that a
	// completer can leave them out elsewhere.
	Layout bool
}

// keywordTable is every word of the grammar, in alphabetical order. It is
// never modified; Keywords hands out copies.
var keywordTable = [...]Keyword{
	{Word: "ADD", Layout: true}, {Word: "ADVISE", Starter: true}, {Word: "ALLOW"},
	{Word: "ALTER", Starter: true}, {Word: "ANALYZE"}, {Word: "AND", Reserved: true},
	{Word: "AS", Reserved: true}, {Word: "ASC"}, {Word: "AT"}, {Word: "BALANCER", Starter: true}, {Word: "BETWEEN", Reserved: true},
	{Word: "BINARY", Layout: true}, {Word: "BLOCKCACHE", Layout: true},
	{Word: "BLOCKSIZE", Layout: true}, {Word: "BLOOMFILTER", Layout: true},
	{Word: "BUILD", Starter: true}, {Word: "BY", Reserved: true}, {Word: "CASE", Reserved: true},
	{Word: "CAST"}, {Word: "CATALOG"}, {Word: "CHECK", Starter: true}, {Word: "CLONE", Starter: true}, {Word: "CLUSTER"}, {Word: "COLUMN", Layout: true},
	{Word: "COMPACT", Starter: true}, {Word: "COMPARE"}, {Word: "COMPRESSION", Layout: true}, {Word: "COVERING", Layout: true},
	{Word: "CREATE", Starter: true}, {Word: "DATE"}, {Word: "DAY"}, {Word: "DECIMAL", Layout: true},
	{Word: "DECODE", Starter: true}, {Word: "DELETE", Reserved: true, Starter: true},
	{Word: "DESC", Starter: true}, {Word: "DESCRIBE", Starter: true},
	{Word: "DISTINCT", Reserved: true}, {Word: "DROP", Starter: true}, {Word: "ELSE", Reserved: true},
	{Word: "ENCODE", Starter: true}, {Word: "END", Reserved: true}, {Word: "ESCAPE"}, {Word: "EXISTS"},
	{Word: "EXPLAIN", Reserved: true, Starter: true}, {Word: "EXTRACT"}, {Word: "FALSE", Reserved: true},
	{Word: "FAMILIES", Layout: true}, {Word: "FAMILY", Layout: true}, {Word: "FLUSH", Starter: true}, {Word: "FOR"}, {Word: "FORMAT"},
	{Word: "FROM", Reserved: true}, {Word: "FULL"}, {Word: "GROUP", Reserved: true},
	{Word: "HAVING", Reserved: true}, {Word: "HBASE", Layout: true}, {Word: "HOUR"},
	{Word: "IN", Reserved: true}, {Word: "INDEX"}, {Word: "INFER", Starter: true}, {Word: "INNER"}, {Word: "INSERT", Reserved: true, Starter: true},
	{Word: "INTERVAL"}, {Word: "INTO", Reserved: true}, {Word: "IN_MEMORY", Layout: true},
	{Word: "IS", Reserved: true}, {Word: "JAVA", Layout: true}, {Word: "JOIN"}, {Word: "JSON"}, {Word: "KEY"},
	{Word: "LEFT", Layout: true}, {Word: "LIKE", Reserved: true}, {Word: "LIMIT", Reserved: true},
	{Word: "LINT", Starter: true}, {Word: "MAJOR", Starter: true}, {Word: "MERGE", Starter: true}, {Word: "META"}, {Word: "MINUTE"}, {Word: "MOD", Layout: true},
	{Word: "NAMESPACE"}, {Word: "NAMESPACES"}, {Word: "NO"},
	{Word: "NOT", Reserved: true}, {Word: "NULL", Reserved: true}, {Word: "OF"}, {Word: "OFF"}, {Word: "OFFSET"},
	{Word: "ON"}, {Word: "OR", Reserved: true}, {Word: "ORDER", Reserved: true}, {Word: "OUTER"},
	{Word: "PAD", Layout: true}, {Word: "PHOENIX", Layout: true}, {Word: "RAW"}, {Word: "REGIONS"}, {Word: "REPAIR"}, {Word: "RESTORE", Starter: true}, {Word: "REVERSE", Layout: true},
	{Word: "RIGHT", Layout: true}, {Word: "ROWKEY", Layout: true}, {Word: "ROWS"}, {Word: "SAMPLE", Layout: true}, {Word: "SAVE", Layout: true}, {Word: "SCAN"},
	{Word: "SECOND"}, {Word: "SELECT", Reserved: true, Starter: true}, {Word: "SET", Layout: true},
	{Word: "SHOW", Starter: true}, {Word: "SIMULATE", Starter: true}, {Word: "SNAPSHOT", Starter: true}, {Word: "SNAPSHOTS"}, {Word: "SORTABLE", Layout: true}, {Word: "SPLIT", Starter: true, Layout: true},
	{Word: "SPLITS", Layout: true}, {Word: "SYSTEM_TIME"}, {Word: "TABLE"}, {Word: "TABLES"}, {Word: "TEXT"},
	{Word: "THEN", Reserved: true}, {Word: "TIMESTAMP"}, {Word: "TRUE", Reserved: true},
	{Word: "TRUNCATE", Starter: true}, {Word: "TTL", Layout: true}, {Word: "UNIQUE", Layout: true},
	{Word: "UPDATE", Starter: true}, {Word: "UPSERT", Starter: true}, {Word: "USE"},
	{Word: "VALUES", Reserved: true}, {Word: "VERBOSE"}, {Word: "VERSIONS"},
	{Word: "WHEN", Reserved: true}, {Word: "WHERE", Reserved: true}, {Word: "WIDTH", Layout: true},
	{Word: "WITH"}, {Word: "WRITE"}, {Word: "WRITES"},
}

// keywordIndex maps each upper-case word to its entry in keywordTable. It is
// built once and never modified.
var keywordIndex = func() map[string]Keyword {
	m := make(map[string]Keyword, len(keywordTable))
	for _, k := range keywordTable {
		m[k.Word] = k
	}
	return m
}()

// maxKeyword is the length of the longest keyword.
const maxKeyword = 11

// Keywords returns every word of the grammar in alphabetical order. The
// slice is the caller's own.
func Keywords() []Keyword {
	out := make([]Keyword, len(keywordTable))
	copy(out, keywordTable[:])
	return out
}

// LookupKeyword returns the keyword spelled like word, ignoring ASCII case.
// It does not allocate.
func LookupKeyword(word string) (Keyword, bool) {
	if len(word) > maxKeyword {
		return Keyword{}, false
	}
	var buf [maxKeyword]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	k, ok := keywordIndex[string(buf[:len(word)])]
	return k, ok
}

// isKeyword reports whether name is spelled like any word of the grammar,
// ignoring case.
func isKeyword(name string) bool {
	_, ok := LookupKeyword(name)
	return ok
}
