package shell

import (
	"strings"

	"github.com/rkql/rkql/catalog"
)

// tableWords are the words after which a statement names a table: FROM,
// INSERT INTO, CREATE TABLE, SHOW REGIONS, ENCODE KEY, DECODE KEY and
// BUILD INDEX … ON.
var tableWords = map[string]bool{"FROM": true, "INTO": true, "TABLE": true, "REGIONS": true, "KEY": true, "ON": true}

// columnWords are the tokens after which a column name is likely, so that
// completion lists the columns before a letter is typed.
var columnWords = map[string]bool{"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "BY": true, ",": true, "(": true}

type want int

const (
	wantWords want = iota // keywords and, where they fit, columns
	wantTable             // a table name
	wantIndex             // an index name
)

// completionContext is what the tokens before the word say about it.
type completionContext struct {
	kind want
	// useIndex: the index of USE INDEX, which belongs to the statement's
	// table.
	useIndex bool
	// columns: a column name fits here.
	columns bool
	// nameNext: a column name is expected right here, so an empty word
	// gets the columns.
	nameNext bool
	// start: the word begins a statement.
	start bool
	// explain: after EXPLAIN and before the statement it explains.
	explain bool
}

// readContext reads the tokens of the current statement that come before the
// word being completed.
func readContext(toks []ctoken) completionContext {
	n := len(toks)
	up := func(i int) string { // the i-th token from the end, 1-based
		if i > n || toks[n-i].kind == tkString || toks[n-i].kind == tkQuoted {
			return ""
		}
		return strings.ToUpper(toks[n-i].text)
	}
	var cx completionContext
	p1, p2, p3 := up(1), up(2), up(3)
	switch {
	case n == 0:
		cx.start = true
		return cx
	case p1 == "INDEX" && (p2 == "USE" || p2 == "BUILD" || p2 == "CHECK"):
		cx.kind, cx.useIndex = wantIndex, p2 == "USE"
		return cx
	case p1 == "(" && p2 == "INDEX" && p3 == "USE":
		cx.kind, cx.useIndex = wantIndex, true
		return cx
	case tableWords[p1] || (n == 1 && (p1 == "DESCRIBE" || p1 == "DESC")):
		cx.kind = wantTable
		return cx
	}
	if up(n) == "EXPLAIN" {
		cx.explain = true
	}
	var parens []string // the word before each open '('
	values := false
	for i, t := range toks {
		w := strings.ToUpper(t.text)
		switch {
		case t.kind == tkWord && (w == "SELECT" || w == "INSERT" || w == "DELETE"):
			cx.explain = false
		case t.kind == tkWord && w == "VALUES":
			values = true
		case t.text == "(":
			before := ""
			if i > 0 {
				before = strings.ToUpper(toks[i-1].text)
			}
			parens = append(parens, before)
		case t.text == ")" && len(parens) > 0:
			parens = parens[:len(parens)-1]
		}
	}
	inner := ""
	if len(parens) > 0 {
		inner = parens[len(parens)-1]
	}
	cx.columns = !values && inner != "IN" && inner != "COUNT"
	cx.nameNext = cx.columns && columnWords[p1]
	return cx
}

// keyword reports whether a keyword fits the context.
func (cx completionContext) keyword(k keyword) bool {
	switch {
	case cx.start:
		return k.starter
	case cx.explain:
		return !k.starter || k.word == "SELECT" || k.word == "INSERT" || k.word == "DELETE"
	}
	return !k.starter || k.word == "DESC"
}

// indexOf returns the tables whose indexes fit: the statement's tables
// for USE INDEX, every table otherwise (nil).
func (cx completionContext) indexOf(c *completer, stmt string) []*catalog.Table {
	if !cx.useIndex {
		return nil
	}
	return c.namedTables(stmt)
}

type tokKind int

const (
	tkWord   tokKind = iota // a name or keyword
	tkQuoted                // "a name"
	tkString                // 'text'
	tkNumber                // 12, 1.5
	tkPunct                 // one character
)

// ctoken is a token of the completion scanner; start and end are byte
// offsets.
type ctoken struct {
	kind       tokKind
	text       string
	start, end int
}

// name is the name a word or quoted name stands for.
func (t ctoken) name() string {
	if t.kind == tkQuoted && len(t.text) >= 2 {
		return strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
	}
	return t.text
}

// scanSQL splits src into words, quoted names, strings, numbers and
// punctuation, and skips white space and comments. It is a forgiving
// cousin of the parser's lexer: it never fails. open reports that src ends
// inside a string, a quoted name or a comment.
func scanSQL(src string) (toks []ctoken, open bool) {
	for i := 0; i < len(src); {
		c := src[i]
		next := byte(0)
		if i+1 < len(src) {
			next = src[i+1]
		}
		start := i
		kind := tkPunct
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && next == '-':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return toks, true
			}
			i += j + 1
			continue
		case c == '/' && next == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return toks, true
			}
			i += j + 4
			continue
		case c == '\'' || c == '"':
			end := closingQuote(src, i+1, c)
			if end < 0 {
				return toks, true
			}
			kind, i = tkString, end+1
			if c == '"' {
				kind = tkQuoted
			}
		case isWordByte(c) && !('0' <= c && c <= '9'):
			kind = tkWord
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
		case '0' <= c && c <= '9':
			kind = tkNumber
			for i < len(src) && (isWordByte(src[i]) || src[i] == '.') {
				i++
			}
		default:
			i++
		}
		toks = append(toks, ctoken{kind: kind, text: src[start:i], start: start, end: i})
	}
	return toks, false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '\\' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// closingQuote returns the index of the quote q that ends a literal whose
// body starts at from (” inside is a quote), or -1.
func closingQuote(src string, from int, q byte) int {
	for i := from; i < len(src); i++ {
		if src[i] == q {
			if i+1 < len(src) && src[i+1] == q {
				i++
				continue
			}
			return i
		}
	}
	return -1
}
