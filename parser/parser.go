package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// maxNesting bounds the depth of parentheses and of runs of unary operators,
// so that no input can exhaust the stack.
const maxNesting = 200

// Parse parses src as a script: statements separated by ';'. Empty
// statements are ignored and the last ';' is optional, so a script of only
// comments parses to no statements. The error, if any, is an *Error for the
// first statement that fails.
func Parse(src string) ([]Stmt, error) {
	stmts, err := parseScript(src)
	if err != nil {
		return nil, err
	}
	return stmts, nil
}

// ParseOne parses src as exactly one statement, with an optional trailing ';'.
func ParseOne(src string) (Stmt, error) {
	stmts, err := parseScript(src)
	if err != nil {
		return nil, err
	}
	switch len(stmts) {
	case 0:
		return nil, newError(src, Pos(len(src)), "expected a statement")
	case 1:
		return stmts[0], nil
	}
	return nil, newError(src, stmts[1].Pos(), "expected a single statement, found more")
}

func parseScript(src string) ([]Stmt, *Error) {
	toks, lexErr := tokenize(src)
	var out []Stmt
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !(toks[i].Type == tokPunct && toks[i].Value == ";") {
			continue
		}
		group := toks[start:i]
		start = i + 1
		if len(group) == 0 {
			continue
		}
		eof := lexer.Token{Type: lexer.EOF}
		if i < len(toks) {
			eof.Value, eof.Pos = ";", toks[i].Pos
		} else {
			last := group[len(group)-1]
			eof.Pos.Offset = last.Pos.Offset + len(last.Value)
		}
		s, err := parseStmt(src, group, eof)
		if err != nil {
			// A lexical error after the statement's last token is the
			// real cause of an error at its end.
			if lexErr != nil && i == len(toks) && int(err.Pos) >= eof.Pos.Offset {
				return nil, lexErr
			}
			return nil, err
		}
		out = append(out, s)
	}
	if lexErr != nil {
		return nil, lexErr
	}
	return out, nil
}

// parseStmt parses the tokens of one statement; eof stands for what ends it.
func parseStmt(src string, toks []lexer.Token, eof lexer.Token) (Stmt, *Error) {
	if err := checkNesting(src, toks); err != nil {
		return nil, err
	}
	peek, err := lexer.Upgrade(&sliceLexer{toks: toks, eof: eof})
	if err != nil {
		return nil, newError(src, Pos(eof.Pos.Offset), err.Error())
	}
	g, err := stmtParser().ParseFromLexer(peek)
	if err != nil {
		return nil, syntaxError(src, err, g, toks)
	}
	c := converter{src: src, toks: toks}
	return c.stmt(g)
}

// checkNesting rejects statements nested deeper than maxNesting.
func checkNesting(src string, toks []lexer.Token) *Error {
	depth, run := 0, 0
	for _, t := range toks {
		switch {
		case t.Type == tokPunct && t.Value == "(":
			depth++
			run = 0
		case t.Type == tokPunct && t.Value == ")":
			depth--
			run = 0
		case t.Type == tokPunct && t.Value == "-",
			t.Type == tokKeyword && strings.EqualFold(t.Value, "NOT"):
			run++
		default:
			run = 0
		}
		if depth+run > maxNesting {
			return newError(src, Pos(t.Pos.Offset), "expression nested too deeply")
		}
	}
	return nil
}
