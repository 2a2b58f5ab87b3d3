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
}

// keywordTable is every word of the grammar, in alphabetical order. It is
// never modified; Keywords hands out copies.
var keywordTable = [...]Keyword{
	{Word: "ALLOW"}, {Word: "ANALYZE"}, {Word: "AND", Reserved: true},
	{Word: "AS", Reserved: true}, {Word: "ASC"}, {Word: "BETWEEN", Reserved: true},
	{Word: "BUILD", Starter: true}, {Word: "BY", Reserved: true},
	{Word: "CHECK", Starter: true}, {Word: "COMPARE"}, {Word: "COUNT"}, {Word: "CREATE", Starter: true},
	{Word: "DATE"}, {Word: "DECODE", Starter: true},
	{Word: "DELETE", Reserved: true, Starter: true}, {Word: "DESC", Starter: true},
	{Word: "DESCRIBE", Starter: true}, {Word: "ENCODE", Starter: true},
	{Word: "EXPLAIN", Reserved: true, Starter: true}, {Word: "FALSE", Reserved: true},
	{Word: "FORMAT"}, {Word: "FROM", Reserved: true}, {Word: "FULL"},
	{Word: "IN", Reserved: true}, {Word: "INDEX"},
	{Word: "INSERT", Reserved: true, Starter: true}, {Word: "INTO", Reserved: true},
	{Word: "IS", Reserved: true}, {Word: "JSON"}, {Word: "KEY"},
	{Word: "LIKE", Reserved: true}, {Word: "LIMIT", Reserved: true}, {Word: "LINT", Starter: true}, {Word: "NO"},
	{Word: "NOT", Reserved: true}, {Word: "NULL", Reserved: true}, {Word: "ON"},
	{Word: "OR", Reserved: true}, {Word: "ORDER", Reserved: true}, {Word: "RAW"}, {Word: "REGIONS"},
	{Word: "REPAIR"}, {Word: "ROWS"}, {Word: "SCAN"}, {Word: "SELECT", Reserved: true, Starter: true},
	{Word: "SHOW", Starter: true}, {Word: "SIMULATE", Starter: true}, {Word: "TABLE"}, {Word: "TABLES"}, {Word: "TEXT"},
	{Word: "TIMESTAMP"}, {Word: "TRUE", Reserved: true}, {Word: "USE"},
	{Word: "VALUES", Reserved: true}, {Word: "VERBOSE"}, {Word: "VERSIONS"}, {Word: "WHERE", Reserved: true}, {Word: "WITH"},
	{Word: "WRITES"},
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
const maxKeyword = 9

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
