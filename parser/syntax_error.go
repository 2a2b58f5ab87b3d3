package parser

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file rewrites participle's errors, which print the unmatched rest of
// the grammar in EBNF, into "unexpected X, expected A, B or C", where the
// expected items are the tokens that could have started that rest.

// statementWords are the words that can start a statement.
var statementWords = []string{
	"SELECT", "INSERT", "DELETE", "EXPLAIN", "SHOW", "DESCRIBE", "CREATE",
	"ENCODE", "DECODE", "BUILD", "CHECK",
}

// productionLabels names what each grammar struct starts with. Struct names
// appear capitalised in participle's EBNF.
var productionLabels = map[string][]string{
	"GStmt":        statementWords,
	"GExplainable": {"SELECT", "INSERT", "DELETE"},
	"GExplainOpt":  {"ANALYZE", "FORMAT"},
	"GIdent":       {"name"},
	"GTable":       {"table name"},
	"GColumn":      {"column name"},
	"GIndex":       {"index name"},
	"GAlias":       {"alias"},
	"GNamespace":   {"namespace name"},
	"GInt":         {"integer"},
	"GItem":        {"expression"},
	"GOrder":       {"expression"},
	"GSum":         {"expression"},
	"GProd":        {"expression"},
	"GCall":        {"function call"},
	"GCast":        {"CAST"},
	"GCase":        {"CASE"},
	"GWhen":        {"WHEN"},
	"GInterval":    {"INTERVAL"},
	"<interval>":   {"INTERVAL"},
	"GRow":         {`"("`},
	"GAssign":      {"column name"},
	"GKey":         {"string literal", "hex literal"},
	"GExpr":        {"expression"},
	"GUnary":       {"expression"},
	"GNeg":         {"expression"},
	"GTyped":       {"TIMESTAMP", "DATE"},
	"<string>":     {"string literal"},
	"<int>":        {"integer"},
	"<float>":      {"number"},
	"<bytes>":      {"hex literal"},
	"<ident>":      {"name"},
	"<typed>":      {"name"},
	"<func>":       {"name"},
	"<cmp>":        {"comparison operator"},
	"<logic>":      {"AND", "OR"},
}

// syntaxError turns an error from participle into an *Error with a readable
// message. g is the statement as far as it was parsed, or nil; toks are the
// statement's tokens.
func syntaxError(src string, err error, g *gStmt, toks []lexer.Token) *Error {
	var uerr *participle.UnexpectedTokenError
	if errors.As(err, &uerr) {
		tok := uerr.Unexpected
		if afterExists(tok, toks) {
			return newError(src, Pos(tok.Pos.Offset), "EXISTS takes a subquery: EXISTS (SELECT …)")
		}
		if subquery(tok, toks) {
			return newError(src, Pos(tok.Pos.Offset), "a subquery is not supported here: a subquery is a derived table, (SELECT …) AS d, in FROM or JOIN, or IN (SELECT …), EXISTS (SELECT …) or (SELECT …) as a value")
		}
		msg := "unexpected " + describeToken(tok)
		expected := expectedFromMessage(uerr.Message())
		if expected == nil {
			expected = follow(g)
		}
		if len(expected) > 0 {
			msg += ", expected " + joinOr(expected)
		}
		msg += hint(tok, expected, g)
		msg += nameHint(tok, expected, toks)
		return newError(src, Pos(tok.Pos.Offset), msg)
	}
	var perr participle.Error
	if errors.As(err, &perr) {
		return newError(src, Pos(perr.Position().Offset), perr.Message())
	}
	return newError(src, NoPos, err.Error())
}

// subquery reports whether tok is a SELECT right after an opening
// parenthesis: a subquery where the grammar takes none (FROM (SELECT …)).
func subquery(tok lexer.Token, toks []lexer.Token) bool {
	if tok.Value == "(" {
		// FROM (SELECT …): the "(" is the unexpected token.
		for i, t := range toks {
			if t.Pos.Offset == tok.Pos.Offset {
				for j := i + 1; j < len(toks); j++ {
					if strings.TrimSpace(toks[j].Value) != "" {
						return strings.EqualFold(toks[j].Value, "SELECT")
					}
				}
			}
		}
		return false
	}
	if !strings.EqualFold(tok.Value, "SELECT") {
		return false
	}
	for i, t := range toks {
		if t.Pos.Offset == tok.Pos.Offset {
			for j := i - 1; j >= 0; j-- {
				if strings.TrimSpace(toks[j].Value) != "" {
					return toks[j].Value == "("
				}
			}
			return false
		}
	}
	return false
}

// hint explains two common surprises: a reserved word where a name was
// expected, and a misspelt FROM that was read as a column alias.
func hint(tok lexer.Token, expected []string, g *gStmt) string {
	if (tok.Type == tokKeyword || tok.Type == tokLogic) && len(expected) > 0 {
		names := true
		for _, e := range expected {
			names = names && (strings.HasSuffix(e, "name") || e == "expression" && !strings.EqualFold(tok.Value, "FROM"))
		}
		if names {
			return " (" + strings.ToUpper(tok.Value) + " is a reserved word: write \"" + tok.Value + "\" to use it as a name)"
		}
	}
	if g == nil || g.Select == nil || g.Select.Table != nil || len(g.Select.Items) == 0 {
		return ""
	}
	last := g.Select.Items[len(g.Select.Items)-1]
	if last.Alias != "" && !last.As && len(expected) == 1 && expected[0] == "FROM" {
		return " (" + strconv.Quote(last.Alias) + " was read as an alias)"
	}
	return ""
}

// nameHint explains an error right after a non-reserved keyword that was
// read as a name where the keyword itself could have come, as OFFSET in
// "ORDER BY a, OFFSET 5".
func nameHint(tok lexer.Token, expected []string, toks []lexer.Token) string {
	i := slices.IndexFunc(toks, func(t lexer.Token) bool { return t.Pos.Offset >= tok.Pos.Offset })
	if i < 0 {
		i = len(toks)
	}
	if i == 0 || toks[i-1].Type != tokIdent || toks[i-1].Value[0] == '"' {
		return ""
	}
	prev := toks[i-1].Value
	k, ok := LookupKeyword(prev)
	if !ok || !slices.ContainsFunc(expected, func(e string) bool { return e == k.Word || strings.HasPrefix(e, k.Word+" ") }) {
		return ""
	}
	return " (" + strconv.Quote(prev) + " was read as a name)"
}

// describeToken names a token for "unexpected …".
func describeToken(t lexer.Token) string {
	text := t.Value
	if utf8.RuneCountInString(text) > 24 {
		r := []rune(text)
		text = string(r[:20]) + "…"
	}
	switch t.Type {
	case lexer.EOF:
		if t.Value == ";" {
			return `";"`
		}
		return "end of input"
	case tokString:
		return "string " + text
	case tokBytes:
		return "hex literal " + text
	case tokIdent:
		if text[0] == '"' {
			return "name " + text
		}
	case tokInt, tokFloat:
		return "number " + text
	}
	return strconv.Quote(text)
}

func joinOr(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// expectedFromMessage extracts the EBNF after "(expected " in a participle
// message and returns the labels of the tokens that can start it.
func expectedFromMessage(msg string) []string {
	const marker = " (expected "
	i := strings.Index(msg, marker)
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return nil
	}
	e := &ebnfFirst{src: msg[i+len(marker) : len(msg)-1]}
	labels, _ := e.alt()
	return dedupe(labels)
}

func dedupe(items []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

// ebnfFirst computes the first set of an EBNF expression as printed by
// participle: alternatives "|", groups "(…)", modifiers "?", "*", "+",
// literals "…", productions Name and token types <name>.
type ebnfFirst struct {
	src string
	off int
}

func (e *ebnfFirst) skip() {
	for e.off < len(e.src) && e.src[e.off] == ' ' {
		e.off++
	}
}

func (e *ebnfFirst) peek() byte {
	e.skip()
	if e.off < len(e.src) {
		return e.src[e.off]
	}
	return 0
}

// alt parses alternatives; it returns their first set and whether the
// whole may match nothing.
func (e *ebnfFirst) alt() ([]string, bool) {
	labels, nullable := e.seq()
	for e.peek() == '|' {
		e.off++
		l, n := e.seq()
		labels = append(labels, l...)
		nullable = nullable || n
	}
	return labels, nullable
}

func (e *ebnfFirst) seq() ([]string, bool) {
	var labels []string
	nullable := true
	for {
		c := e.peek()
		if c == 0 || c == '|' || c == ')' {
			return labels, nullable
		}
		l, n := e.term()
		if nullable {
			labels = append(labels, l...)
		}
		nullable = nullable && n
	}
}

func (e *ebnfFirst) term() ([]string, bool) {
	labels, nullable := e.atom()
	switch e.peek() {
	case '?', '*':
		e.off++
		nullable = true
	case '+', '!':
		e.off++
	}
	return labels, nullable
}

func (e *ebnfFirst) atom() ([]string, bool) {
	start := e.off
	switch c := e.peek(); {
	case c == '(':
		e.off++
		if strings.HasPrefix(e.src[e.off:], "?=") || strings.HasPrefix(e.src[e.off:], "?!") {
			e.off += 2
			e.alt()
			e.off++
			return nil, true
		}
		labels, nullable := e.alt()
		if e.peek() == ')' {
			e.off++
		}
		return labels, nullable
	case c == '"':
		end := closingDoubleQuote(e.src, e.off+1)
		e.off = end + 1
		lit, err := strconv.Unquote(e.src[start:e.off])
		if err != nil {
			lit = e.src[start:e.off]
		}
		return []string{literalLabel(lit)}, false
	case c == '<':
		end := strings.IndexByte(e.src[e.off:], '>')
		if end < 0 {
			e.off = len(e.src)
			return nil, false
		}
		e.off += end + 1
		return productionLabels[e.src[start:e.off]], false
	case c == '~':
		e.off++
		e.atom()
		return nil, false
	case c == 0:
		return nil, true
	}
	for e.off < len(e.src) && isIdentChar(e.src[e.off]) {
		e.off++
	}
	if e.off == start {
		e.off++ // an unknown character: skip it
		return nil, true
	}
	return productionLabels[e.src[start:e.off]], false
}

// closingDoubleQuote finds the end of a Go-quoted string starting at from.
func closingDoubleQuote(s string, from int) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(s) - 1
}

// literalLabel prints a keyword bare and punctuation in quotes.
func literalLabel(lit string) string {
	if lit != "" && isIdentStart(lit[0]) {
		return strings.ToUpper(lit)
	}
	return strconv.Quote(lit)
}

// follow lists what may come after a statement that parsed completely but
// is followed by more tokens.
func follow(g *gStmt) []string {
	if g == nil {
		return nil
	}
	var out []string
	switch {
	case g.Explain != nil && g.Explain.Stmt != nil:
		return follow(&gStmt{
			Select: g.Explain.Stmt.Select,
			Insert: g.Explain.Stmt.Insert,
			Delete: g.Explain.Stmt.Delete,
		})
	case g.Select != nil:
		out = selectFollow(g.Select)
	case g.Insert != nil:
		if g.Insert.TS == nil {
			out = []string{`","`, "TIMESTAMP"}
		} else {
			out = []string{"AND", "OR"}
		}
	case g.Delete != nil:
		out = []string{"AND", "OR"}
	case g.Check != nil && !g.Check.Repair:
		out = []string{"REPAIR"}
	case *g == gStmt{}:
		return statementWords
	}
	return append(out, "end of statement")
}

// selectClauses are the optional clauses after FROM t, in order.
var selectClauses = []string{"USE INDEX", "NO INDEX", "AS OF", "FOR SYSTEM_TIME AS OF", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET", "VERSIONS", "ALLOW FULL SCAN"}

func selectFollow(s *gSelect) []string {
	var next int
	var out []string
	switch {
	case len(s.Allows) > 0:
		next = len(selectClauses)
	case s.Versions != nil:
		next = 11
	case s.Offset != nil:
		next = 10
	case s.Limit != nil:
		next = 9
	case len(s.Order) > 0:
		out = append(out, `","`)
		if s.Order[len(s.Order)-1].Dir == "" {
			out = append(out, "ASC", "DESC")
		}
		next = 8
	case s.Having != nil:
		out = append(out, "AND", "OR")
		next = 7
	case len(s.GroupBy) > 0:
		out = append(out, `","`)
		next = 6
	case s.Where != nil:
		out = append(out, "AND", "OR")
		next = 5
	case s.AsOf != nil:
		next = 4
	case s.Index != nil || len(s.NoIndex) > 0:
		next = 2
	}
	return append(out, selectClauses[next:]...)
}

// afterExists reports whether tok follows "EXISTS (": something other
// than the SELECT that EXISTS takes.
func afterExists(tok lexer.Token, toks []lexer.Token) bool {
	var before []string
	for _, t := range toks {
		if t.Pos.Offset == tok.Pos.Offset {
			break
		}
		if strings.TrimSpace(t.Value) != "" {
			before = append(before, t.Value)
		}
	}
	n := len(before)
	return n >= 2 && before[n-1] == "(" && strings.EqualFold(before[n-2], "EXISTS") && !strings.EqualFold(tok.Value, "SELECT")
}
