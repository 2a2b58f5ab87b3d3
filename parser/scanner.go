package parser

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// TokenKind is the kind of a Token.
type TokenKind uint8

// The kinds of tokens. A Word is any bare word, reserved or not: the grammar,
// not the scanner, decides where a word is a keyword (see LookupKeyword).
const (
	Illegal     TokenKind = iota // malformed text; Next returns it with an error
	EOF                          // the end of the source
	Comment                      // -- to the end of the line, or /* … */; only with ScanComments
	Word                         // letters, digits and '_', not starting with a digit
	QuotedIdent                  // "name", with its quotes; "" stands for one quote
	String                       // 'text', with its quotes; '' stands for one quote
	Bytes                        // x'00ff': an even number of hex digits
	Int                          // 123
	Float                        // 1.5, .5, 1e3, 2.5E-3
	Op                           // ( ) , ; * - + / % || = != <> < <= > >=
)

var tokenKindNames = [...]string{
	Illegal: "Illegal", EOF: "EOF", Comment: "Comment", Word: "Word",
	QuotedIdent: "QuotedIdent", String: "String", Bytes: "Bytes", Int: "Int",
	Float: "Float", Op: "Op",
}

func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", int(k))
}

// Token is a token of the source text. Text is exactly the source bytes
// from Pos to End, quotes and all.
type Token struct {
	Kind TokenKind
	Pos  Pos // the offset of its first byte
	Text string
}

// End is the offset of the first byte after the token.
func (t Token) End() Pos { return t.Pos + Pos(len(t.Text)) }

// Ident returns the name a Word or a QuotedIdent stands for: a Word as
// written, a QuotedIdent without its quotes and with "" made one quote. It
// returns Text for any other kind.
func (t Token) Ident() string {
	if t.Kind == QuotedIdent && len(t.Text) >= 2 {
		return unquote(t.Text, '"')
	}
	return t.Text
}

// Mode changes what a Scanner returns.
type Mode uint

// ScanComments makes Next return comments as Comment tokens instead of
// skipping them.
const ScanComments Mode = 1 << iota

// ErrUnterminated is the cause of every scanning error that ends the
// source inside a string, a quoted identifier, a hex literal or a comment:
// errors.Is(err, ErrUnterminated) says that more text could complete it.
var ErrUnterminated = errors.New("parser: unterminated token")

// Scanner splits rkql text into tokens. It is the only scanner of the
// language: the parser, the shell's statement splitter and its completer
// all read text through it. A Scanner is not safe for concurrent use.
//
// It does not stop at an error: a malformed token comes back as Illegal
// with an *Error, and scanning goes on after it, so that a tool can read
// past bad text. An unterminated string, quoted identifier, hex literal or
// comment runs to the end of the source.
type Scanner struct {
	src  string
	off  int
	mode Mode
}

// NewScanner returns a Scanner over src.
func NewScanner(src string, mode Mode) *Scanner {
	return &Scanner{src: src, mode: mode}
}

// Next returns the next token. For an Illegal token it also returns the
// *Error that describes it, and a nil error for every other token. At the
// end of the source it returns an EOF token at offset len(src), as often
// as it is called.
func (s *Scanner) Next() (Token, error) {
	t, err := s.next()
	if err != nil {
		return t, err
	}
	return t, nil
}

// Scan returns the tokens of src, comments and EOF left out, up to its first
// error, which it returns as an *Error.
func Scan(src string) ([]Token, error) {
	s := Scanner{src: src}
	var toks []Token
	for {
		t, err := s.next()
		switch {
		case err != nil:
			return toks, err
		case t.Kind == EOF:
			return toks, nil
		}
		toks = append(toks, t)
	}
}

// Complete reports whether src ends with a ';' that is outside any string,
// quoted identifier or comment, ignoring trailing white space and comments.
// A shell uses it to decide whether a statement has been fully typed.
func Complete(src string) bool {
	s := Scanner{src: src}
	last := Token{}
	for {
		t, err := s.next()
		if err != nil && errors.Is(err, ErrUnterminated) {
			return false
		}
		if t.Kind == EOF {
			return last.Kind == Op && last.Text == ";"
		}
		last = t
	}
}

func (s *Scanner) token(kind TokenKind, start int) Token {
	return Token{Kind: kind, Pos: Pos(start), Text: s.src[start:s.off]}
}

// illegal returns the malformed text from start to the scanner's offset
// with an error at offset at.
func (s *Scanner) illegal(start, at int, cause error, format string, args ...any) (Token, *Error) {
	e := newError(s.src, Pos(at), fmt.Sprintf(format, args...))
	e.Err = cause
	return s.token(Illegal, start), e
}

func (s *Scanner) next() (Token, *Error) {
	src := s.src
	for {
		for s.off < len(src) && isSpace(src[s.off]) {
			s.off++
		}
		if !s.atComment() {
			break
		}
		t, err := s.comment()
		if err != nil || s.mode&ScanComments != 0 {
			return t, err
		}
	}
	if s.off >= len(src) {
		return Token{Kind: EOF, Pos: Pos(len(src))}, nil
	}
	start := s.off
	c := src[start]
	next := byte(0)
	if start+1 < len(src) {
		next = src[start+1]
	}
	switch {
	case (c == 'x' || c == 'X') && next == '\'':
		return s.scanBytes()
	case isIdentStart(c):
		for s.off < len(src) && isIdentChar(src[s.off]) {
			s.off++
		}
		return s.token(Word, start), nil
	case isDigit(c) || (c == '.' && isDigit(next)):
		return s.scanNumber()
	case c == '\'':
		if !s.scanQuoted('\'') {
			return s.illegal(start, start, ErrUnterminated, "unterminated string literal")
		}
		return s.token(String, start), nil
	case c == '"':
		if !s.scanQuoted('"') {
			return s.illegal(start, start, ErrUnterminated, "unterminated quoted identifier")
		}
		if s.off-start == 2 {
			return s.illegal(start, start, nil, "zero-length quoted identifier")
		}
		return s.token(QuotedIdent, start), nil
	}
	return s.scanOp()
}

// atComment reports whether a comment starts at the scanner's offset.
func (s *Scanner) atComment() bool {
	src, i := s.src, s.off
	if i+1 >= len(src) {
		return false
	}
	return (src[i] == '-' && src[i+1] == '-') || (src[i] == '/' && src[i+1] == '*')
}

// comment scans the comment at the scanner's offset.
func (s *Scanner) comment() (Token, *Error) {
	src, start := s.src, s.off
	if src[start] == '-' {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src) - start
		}
		s.off = start + end
		return s.token(Comment, start), nil
	}
	end := strings.Index(src[start+2:], "*/")
	if end < 0 {
		s.off = len(src)
		return s.illegal(start, start, ErrUnterminated, "unterminated comment")
	}
	s.off = start + 2 + end + 2
	return s.token(Comment, start), nil
}

// scanQuoted scans a literal enclosed in q, where qq stands for one q. It
// reports false, having consumed the rest of the source, when the literal
// is not terminated.
func (s *Scanner) scanQuoted(q byte) bool {
	src := s.src
	for i := s.off + 1; i < len(src); i++ {
		if src[i] != q {
			continue
		}
		if i+1 < len(src) && src[i+1] == q {
			i++
			continue
		}
		s.off = i + 1
		return true
	}
	s.off = len(src)
	return false
}

func (s *Scanner) scanBytes() (Token, *Error) {
	start := s.off
	s.off++ // the x
	if !s.scanQuoted('\'') {
		return s.illegal(start, start, ErrUnterminated, "unterminated hex literal")
	}
	body := s.src[start+2 : s.off-1]
	for i := 0; i < len(body); i++ {
		if !isHex(body[i]) {
			r, _ := utf8.DecodeRuneInString(body[i:])
			return s.illegal(start, start+2+i, nil, "invalid hex digit %q in hex literal", r)
		}
	}
	if len(body)%2 != 0 {
		return s.illegal(start, start, nil, "invalid hex literal %s: odd number of hex digits", s.src[start:s.off])
	}
	return s.token(Bytes, start), nil
}

func (s *Scanner) scanNumber() (Token, *Error) {
	src, start := s.src, s.off
	kind := Int
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
		kind = Float
		s.off++
		digits()
	}
	if s.off < len(src) && (src[s.off] == 'e' || src[s.off] == 'E') {
		kind = Float
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
	return s.token(kind, start), nil
}

// badNumber returns a malformed number that starts at start, running on
// over letters, digits and points.
func (s *Scanner) badNumber(start int) (Token, *Error) {
	for s.off < len(s.src) && (isIdentChar(s.src[s.off]) || s.src[s.off] == '.') {
		s.off++
	}
	return s.illegal(start, start, nil, "invalid number literal %s", s.src[start:s.off])
}

func (s *Scanner) scanOp() (Token, *Error) {
	src, start := s.src, s.off
	next := byte(0)
	if start+1 < len(src) {
		next = src[start+1]
	}
	switch src[start] {
	case '(', ')', ',', ';', '*', '-', '=', '+', '/', '%', '[', ']', '.':
		s.off++
	case '|':
		s.off++
		if next != '|' {
			return s.illegal(start, start, nil, "unexpected character '|', expected ||")
		}
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
		s.off++
		if next != '=' {
			return s.illegal(start, start, nil, "unexpected character '!', expected !=")
		}
		s.off++
	default:
		r, n := utf8.DecodeRuneInString(src[start:])
		s.off += n
		return s.illegal(start, start, nil, "unexpected character %s", quoteRune(r))
	}
	return s.token(Op, start), nil
}

func quoteRune(r rune) string {
	if r == utf8.RuneError {
		return "(invalid UTF-8)"
	}
	return fmt.Sprintf("%q", r)
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
