package parser

import (
	"fmt"
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
	if err := checkChains(src, toks); err != nil {
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

// maxChain bounds the binary operators of one chain (a + b + …, a OR b
// OR …): a chain is a tree as deep as it is long, and every step after
// the parser walks it.
const maxChain = 1 << 18

// chainOps are the binary operators that make chains.
var chainOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "||": true,
	"=": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

// checkChains rejects a chain of more than maxChain binary operators
// between one comma or parenthesis and the next.
func checkChains(src string, toks []lexer.Token) *Error {
	counts := []int{0} // per open parenthesis, the operators since its last comma
	for i, t := range toks {
		top := len(counts) - 1
		switch {
		case t.Type == tokPunct && t.Value == "(":
			counts = append(counts, 0)
		case t.Type == tokPunct && t.Value == ")":
			if top > 0 {
				counts = counts[:top]
			}
		case t.Type == tokPunct && t.Value == ",":
			counts[top] = 0
		case (t.Type == tokPunct || t.Type == tokCmp) && chainOps[t.Value] && i > 0 && endsOperand(toks[i-1]),
			t.Type == tokLogic, t.Type == tokKeyword && (strings.EqualFold(t.Value, "AND") || strings.EqualFold(t.Value, "OR")):
			// A binary operator (not SELECT *, nor a unary minus).
			if counts[top]++; counts[top] > maxChain {
				return newError(src, Pos(t.Pos.Offset), fmt.Sprintf("expression too long: more than %d operators in one chain; an IN list holds many values in one term", maxChain))
			}
		}
	}
	return nil
}

// endsOperand reports whether t may end an operand, so that an operator
// after it is binary.
func endsOperand(t lexer.Token) bool {
	switch t.Type {
	case tokIdent, tokString, tokBytes, tokInt, tokFloat:
		return true
	}
	return t.Type == tokPunct && t.Value == ")"
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
