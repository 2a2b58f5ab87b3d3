package parser

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types produced by the lexer. EOF is participle's lexer.EOF.
const (
	tokKeyword lexer.TokenType = -(iota + 2) // a reserved word, as written
	tokIdent                                 // a name or a non-reserved word; "quoted" names keep their quotes
	tokString                                // 'text', raw with its quotes
	tokBytes                                 // x'00ff', raw
	tokInt                                   // 123
	tokFloat                                 // 1.5, 1e3
	tokPunct                                 // ( ) , ; * -
	tokTyped                                 // TIMESTAMP or DATE before a string
	tokFunc                                  // COUNT before "("
	tokCmp                                   // = != <> < <= > >=
	tokLogic                                 // AND, OR (reserved words)
)

// tokenSymbols names the token types for participle's grammar tags. It is a
// function because the parser is built during package initialisation.
func tokenSymbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":     lexer.EOF,
		"Keyword": tokKeyword,
		"Ident":   tokIdent,
		"String":  tokString,
		"Bytes":   tokBytes,
		"Int":     tokInt,
		"Float":   tokFloat,
		"Punct":   tokPunct,
		"Typed":   tokTyped,
		"Func":    tokFunc,
		"Cmp":     tokCmp,
		"Logic":   tokLogic,
	}
}

// reserved lists the words that cannot be used as bare names; a name spelled
// like one of them must be double-quoted.
var reserved = map[string]bool{
	"AND": true, "AS": true, "BETWEEN": true, "BY": true, "DELETE": true,
	"EXPLAIN": true, "FALSE": true, "FROM": true, "IN": true, "INSERT": true,
	"INTO": true, "IS": true, "LIKE": true, "LIMIT": true, "NOT": true,
	"NULL": true, "OR": true, "ORDER": true, "SELECT": true, "TRUE": true,
	"VALUES": true, "WHERE": true,
}

// nonReserved lists the other words of the grammar. They are recognised only
// where the grammar expects them and are ordinary names elsewhere; the
// printer still quotes names spelled like them.
var nonReserved = map[string]bool{
	"ALLOW": true, "ANALYZE": true, "ASC": true, "BUILD": true, "CHECK": true,
	"COUNT": true, "CREATE": true, "DATE": true, "DECODE": true, "DESC": true,
	"DESCRIBE": true, "ENCODE": true, "FORMAT": true, "FULL": true,
	"INDEX": true, "JSON": true, "KEY": true, "NO": true, "ON": true,
	"REGIONS": true, "REPAIR": true, "SCAN": true, "SHOW": true, "TABLE": true,
	"TABLES": true, "TEXT": true, "TIMESTAMP": true, "USE": true,
	"VERSIONS": true,
}

// keywordClass reports whether word is a reserved word and whether it is any
// word of the grammar, ignoring ASCII case. It does not allocate.
func keywordClass(word string) (isReserved, isKeyword bool) {
	const maxKeyword = 16
	if len(word) > maxKeyword {
		return false, false
	}
	var buf [maxKeyword]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	if reserved[string(buf[:len(word)])] {
		return true, true
	}
	return false, nonReserved[string(buf[:len(word)])]
}

// isKeyword reports whether name is spelled like any word of the grammar,
// ignoring case.
func isKeyword(name string) bool {
	_, kw := keywordClass(name)
	return kw
}

func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// retype marks the words that start a literal: TIMESTAMP and DATE before a
// string, COUNT before "(". This keeps the grammar LL(1) while these words
// remain usable as names.
func retype(toks []lexer.Token) {
	for i := 0; i+1 < len(toks); i++ {
		t, next := &toks[i], toks[i+1]
		if t.Type != tokIdent {
			continue
		}
		switch {
		case next.Type == tokString && (strings.EqualFold(t.Value, "TIMESTAMP") || strings.EqualFold(t.Value, "DATE")):
			t.Type = tokTyped
		case next.Type == tokPunct && next.Value == "(" && strings.EqualFold(t.Value, "COUNT"):
			t.Type = tokFunc
		}
	}
}

// scanner turns source text into tokens. Offsets are relative to src.
type scanner struct {
	src  string
	off  int
	toks []lexer.Token
}

// tokenize lexes the whole of src. On error it returns the tokens read so far
// and an *Error.
func tokenize(src string) ([]lexer.Token, *Error) {
	s := scanner{src: src, toks: make([]lexer.Token, 0, len(src)/4+2)}
	for {
		if err := s.skipSpace(); err != nil {
			return s.toks, err
		}
		if s.off >= len(src) {
			retype(s.toks)
			return s.toks, nil
		}
		if err := s.next(); err != nil {
			return s.toks, err
		}
	}
}

func (s *scanner) errorf(off int, format string, args ...any) *Error {
	return newError(s.src, Pos(off), fmt.Sprintf(format, args...))
}

func (s *scanner) emit(typ lexer.TokenType, start int) {
	s.toks = append(s.toks, lexer.Token{
		Type:  typ,
		Value: s.src[start:s.off],
		Pos:   lexer.Position{Offset: start},
	})
}

// skipSpace skips white space and comments.
func (s *scanner) skipSpace() *Error {
	src := s.src
	for s.off < len(src) {
		c := src[s.off]
		switch {
		case isSpace(c):
			s.off++
		case c == '-' && s.off+1 < len(src) && src[s.off+1] == '-':
			for s.off < len(src) && src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.off+1 < len(src) && src[s.off+1] == '*':
			end := indexFrom(src, s.off+2, "*/")
			if end < 0 {
				return s.errorf(s.off, "unterminated comment")
			}
			s.off = end + 2
		default:
			return nil
		}
	}
	return nil
}

func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// wordType is the token type of a reserved word. AND and OR have a type of
// their own so that the grammar matches them with one test.
func wordType(word string) lexer.TokenType {
	if strings.EqualFold(word, "AND") || strings.EqualFold(word, "OR") {
		return tokLogic
	}
	return tokKeyword
}

// next scans one token starting at a non-space byte.
func (s *scanner) next() *Error {
	src, start := s.src, s.off
	c := src[start]
	switch {
	case (c == 'x' || c == 'X') && start+1 < len(src) && src[start+1] == '\'':
		return s.scanBytes()
	case isIdentStart(c):
		for s.off < len(src) && isIdentChar(src[s.off]) {
			s.off++
		}
		if res, _ := keywordClass(src[start:s.off]); res {
			s.emit(wordType(src[start:s.off]), start)
		} else {
			s.emit(tokIdent, start)
		}
		return nil
	case isDigit(c) || (c == '.' && start+1 < len(src) && isDigit(src[start+1])):
		return s.scanNumber()
	case c == '\'':
		if !s.scanQuoted('\'') {
			return s.errorf(start, "unterminated string literal")
		}
		s.emit(tokString, start)
		return nil
	case c == '"':
		if !s.scanQuoted('"') {
			return s.errorf(start, "unterminated quoted identifier")
		}
		if s.off-start == 2 {
			return s.errorf(start, "zero-length quoted identifier")
		}
		s.emit(tokIdent, start)
		return nil
	}
	return s.scanPunct()
}

// scanQuoted scans a literal enclosed in q, where qq stands for one q. It
// reports false when the literal is not terminated.
func (s *scanner) scanQuoted(q byte) bool {
	src := s.src
	i := s.off + 1
	for i < len(src) {
		if src[i] == q {
			if i+1 < len(src) && src[i+1] == q {
				i += 2
				continue
			}
			s.off = i + 1
			return true
		}
		i++
	}
	return false
}

func (s *scanner) scanBytes() *Error {
	start := s.off
	s.off++ // the x
	if !s.scanQuoted('\'') {
		return s.errorf(start, "unterminated hex literal")
	}
	body := s.src[start+2 : s.off-1]
	for i := 0; i < len(body); i++ {
		if !isHex(body[i]) {
			r, _ := utf8.DecodeRuneInString(body[i:])
			return s.errorf(start+2+i, "invalid hex digit %q in hex literal", r)
		}
	}
	if len(body)%2 != 0 {
		return s.errorf(start, "invalid hex literal %s: odd number of hex digits", s.src[start:s.off])
	}
	s.emit(tokBytes, start)
	return nil
}

func (s *scanner) scanNumber() *Error {
	src, start := s.src, s.off
	typ := tokInt
	digits := func() int {
		n := 0
		for s.off < len(src) && isDigit(src[s.off]) {
			s.off++
			n++
		}
		return n
	}
	digits()
	if s.off < len(src) && src[s.off] == '.' {
		typ = tokFloat
		s.off++
		digits()
	}
	if s.off < len(src) && (src[s.off] == 'e' || src[s.off] == 'E') {
		typ = tokFloat
		s.off++
		if s.off < len(src) && (src[s.off] == '+' || src[s.off] == '-') {
			s.off++
		}
		if digits() == 0 {
			return s.badNumber(start)
		}
	}
	if s.off < len(src) && (isIdentChar(src[s.off]) || src[s.off] == '.' || src[s.off] == '\'') {
		return s.badNumber(start)
	}
	s.emit(typ, start)
	return nil
}

func (s *scanner) badNumber(start int) *Error {
	end := s.off
	for end < len(s.src) && (isIdentChar(s.src[end]) || s.src[end] == '.') {
		end++
	}
	return s.errorf(start, "invalid number literal %s", s.src[start:end])
}

func (s *scanner) scanPunct() *Error {
	src, start := s.src, s.off
	c := src[start]
	next := byte(0)
	if start+1 < len(src) {
		next = src[start+1]
	}
	typ := tokCmp
	switch c {
	case '(', ')', ',', ';', '*', '-':
		typ = tokPunct
		s.off++
	case '=':
		s.off++
	case '<':
		s.off++
		if next == '=' || next == '>' {
			s.off++
		}
	case '>':
		s.off++
		if next == '=' {
			s.off++
		}
	case '!':
		if next != '=' {
			return s.errorf(start, "unexpected character '!', expected !=")
		}
		s.off += 2
	default:
		r, _ := utf8.DecodeRuneInString(src[start:])
		return s.errorf(start, "unexpected character %s", quoteRune(r))
	}
	s.emit(typ, start)
	return nil
}

func quoteRune(r rune) string {
	if r == utf8.RuneError {
		return "(invalid UTF-8)"
	}
	return fmt.Sprintf("%q", r)
}

// Complete reports whether src ends with a ';' that is outside any string,
// quoted identifier or comment, ignoring trailing white space and comments.
// A shell uses it to decide whether a statement has been fully typed.
func Complete(src string) bool {
	last := byte(0)
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case isSpace(c):
			continue
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return false
			}
			i = end + 1
			continue
		case c == '\'' || c == '"':
			end := closingQuote(src, i+1, c)
			if end < 0 {
				return false
			}
			i = end
		}
		last = c
	}
	return last == ';'
}

// closingQuote returns the index of the quote q that ends a literal whose
// body starts at from, or -1.
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
