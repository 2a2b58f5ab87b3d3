package parser

import (
	"io"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types produced by the lexer. EOF is participle's lexer.EOF.
const (
	tokKeyword  lexer.TokenType = -(iota + 2) // a reserved word, as written
	tokIdent                                  // a name or a non-reserved word; "quoted" names keep their quotes
	tokString                                 // 'text', raw with its quotes
	tokBytes                                  // x'00ff', raw
	tokInt                                    // 123
	tokFloat                                  // 1.5, 1e3
	tokPunct                                  // ( ) , ; * - [ ]
	tokTyped                                  // TIMESTAMP or DATE before a string
	tokFunc                                   // a name before "(": a function
	tokInterval                               // INTERVAL before a string
	tokCmp                                    // = != <> < <= > >=
	tokLogic                                  // AND, OR (reserved words)
)

// tokenSymbols names the token types for participle's grammar tags. It is a
// function because the parser is built during package initialisation.
func tokenSymbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":      lexer.EOF,
		"Keyword":  tokKeyword,
		"Ident":    tokIdent,
		"String":   tokString,
		"Bytes":    tokBytes,
		"Int":      tokInt,
		"Float":    tokFloat,
		"Punct":    tokPunct,
		"Typed":    tokTyped,
		"Func":     tokFunc,
		"Cmp":      tokCmp,
		"Logic":    tokLogic,
		"Interval": tokInterval,
	}
}

// retype marks the words that start a literal or a call: TIMESTAMP and
// DATE before a string, INTERVAL before a string, any name before "(",
// RAW between SELECT and "*", and RAW between FROM and a string. This keeps the grammar LL(1) while these
// words remain usable as names.
func retype(toks []lexer.Token) {
	from := false // after FROM, where a table may be joined
	// outer holds from for each open parenthesis: after the ")" of a
	// derived table, from is the FROM's again.
	var outer []bool
	for i := range toks {
		t, next := &toks[i], lexer.Token{Type: lexer.EOF}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		if t.Type == tokPunct {
			switch t.Value {
			case "(":
				outer = append(outer, from)
			case ")":
				if n := len(outer); n > 0 {
					from, outer = outer[n-1], outer[:n-1]
				}
			}
		}
		if t.Type == tokKeyword {
			switch strings.ToUpper(t.Value) {
			case "FROM":
				from = true
			case "SELECT", "WHERE":
				from = false
			}
		}
		if t.Type != tokIdent {
			continue
		}
		switch {
		case next.Type == tokString && (strings.EqualFold(t.Value, "TIMESTAMP") || strings.EqualFold(t.Value, "DATE")):
			t.Type = tokTyped
		case next.Type == tokString && strings.EqualFold(t.Value, "INTERVAL"):
			t.Type = tokInterval
		case next.Type == tokPunct && next.Value == "(" && t.Value[0] != '"':
			t.Type = tokFunc
		case next.Type == tokPunct && next.Value == "*" && i > 0 && strings.EqualFold(toks[i-1].Value, "SELECT") && strings.EqualFold(t.Value, "RAW"):
			t.Type = tokKeyword
		case next.Type == tokString && i > 0 && strings.EqualFold(toks[i-1].Value, "FROM") && strings.EqualFold(t.Value, "RAW"):
			t.Type = tokKeyword
		case i > 0 && (toks[i-1].Type == tokIdent || toks[i-1].Type == tokString || toks[i-1].Type == tokPunct && toks[i-1].Value == ")") && clauseWord(t.Value, next, from):
			t.Type = tokKeyword
		}
	}
}

// clauseWord reports whether word, after a name and before next (and
// after FROM when from is set), starts a clause of FROM rather than being a table's alias: JOIN, ON, INNER JOIN,
// LEFT [OUTER] JOIN, USE INDEX, NO INDEX, FOR SYSTEM_TIME, VERSIONS n and
// ALLOW FULL SCAN.
func clauseWord(word string, next lexer.Token, from bool) bool {
	is := func(w string) bool { return strings.EqualFold(next.Value, w) }
	switch strings.ToUpper(word) {
	case "JOIN", "ON":
		return from
	case "INNER", "OUTER":
		return from && is("JOIN")
	case "LEFT":
		return from && (is("JOIN") || is("OUTER"))
	case "OFFSET":
		return next.Type == tokInt
	case "USE", "NO":
		return is("INDEX")
	case "FOR":
		return from || is("SYSTEM_TIME")
	case "VERSIONS":
		return next.Type == tokInt
	case "ALLOW":
		return is("FULL") || is("INDEX")
	}
	return false
}

// tokenize lexes the whole of src for participle. On error it returns the
// tokens read before it and an *Error.
func tokenize(src string) ([]lexer.Token, *Error) {
	s := Scanner{src: src}
	toks := make([]lexer.Token, 0, len(src)/4+2)
	for {
		t, err := s.next()
		if err != nil {
			retype(toks)
			return toks, err
		}
		if t.Kind == EOF {
			retype(toks)
			return toks, nil
		}
		toks = append(toks, lexer.Token{Type: participleType(t), Value: t.Text, Pos: lexer.Position{Offset: int(t.Pos)}})
	}
}

// participleType is the grammar's token type of t.
func participleType(t Token) lexer.TokenType {
	switch t.Kind {
	case Word:
		k, ok := LookupKeyword(t.Text)
		switch {
		case !ok || !k.Reserved:
			return tokIdent
		case k.Word == "AND" || k.Word == "OR":
			// AND and OR have a type of their own so that the grammar
			// matches them with one test.
			return tokLogic
		}
		return tokKeyword
	case QuotedIdent:
		return tokIdent
	case String:
		return tokString
	case Bytes:
		return tokBytes
	case Int:
		return tokInt
	case Float:
		return tokFloat
	}
	switch t.Text {
	case "(", ")", ",", ";", "*", "-", "+", "/", "%", "||", "[", "]", ".":
		return tokPunct
	}
	return tokCmp
}

// sliceLexer feeds a prepared token slice to participle.
type sliceLexer struct {
	toks []lexer.Token
	eof  lexer.Token
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if len(l.toks) == 0 {
		return l.eof, nil
	}
	t := l.toks[0]
	l.toks = l.toks[1:]
	return t, nil
}

// lexDef is the participle lexer definition. Parsing never calls Lex: the
// parser tokenizes the source itself and splits it into statements first.
type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return tokenSymbols() }

func (lexDef) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks, lerr := tokenize(string(b))
	if lerr != nil {
		return nil, lerr
	}
	return &sliceLexer{toks: toks, eof: lexer.EOFToken(lexer.Position{Offset: len(b)})}, nil
}
