package shell

import (
	"errors"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
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
	// layout: in a statement whose words include the layout keywords.
	layout bool
}

// layoutStarters begin the statements that use layout keywords.
var layoutStarters = map[string]bool{"CREATE": true, "ALTER": true, "UPDATE": true, "INFER": true}

// readContext reads the tokens of the current statement that come before the
// word being completed.
func readContext(toks []parser.Token) completionContext {
	n := len(toks)
	up := func(i int) string { // the i-th token from the end, 1-based
		if i > n {
			return ""
		}
		switch toks[n-i].Kind {
		case parser.String, parser.QuotedIdent, parser.Bytes:
			return ""
		}
		return strings.ToUpper(toks[n-i].Text)
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
	case tableWords[p1] || (n == 1 && (p1 == "DESCRIBE" || p1 == "DESC")) || (n == 2 && p2 == "CHECK" && (p1 == "CLUSTER" || p1 == "META")):
		cx.kind = wantTable
		return cx
	}
	if up(n) == "EXPLAIN" {
		cx.explain = true
	}
	cx.layout = layoutStarters[up(n)]
	var parens []string // the word before each open '('
	values := false
	for i, t := range toks {
		w := strings.ToUpper(t.Text)
		switch {
		case t.Kind == parser.Word && (w == "SELECT" || w == "INSERT" || w == "DELETE"):
			cx.explain = false
		case t.Kind == parser.Word && w == "VALUES":
			values = true
		case t.Kind == parser.Op && t.Text == "(":
			before := ""
			if i > 0 {
				before = strings.ToUpper(toks[i-1].Text)
			}
			parens = append(parens, before)
		case t.Kind == parser.Op && t.Text == ")" && len(parens) > 0:
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
func (cx completionContext) keyword(k parser.Keyword) bool {
	switch {
	case k.Layout && !cx.layout:
		return false
	case cx.start:
		return k.Starter
	case cx.explain:
		return !k.Starter || k.Word == "SELECT" || k.Word == "INSERT" || k.Word == "DELETE"
	}
	return !k.Starter || k.Word == "DESC"
}

// indexOf returns the tables whose indexes fit: the statement's tables
// for USE INDEX, every table otherwise (nil).
func (cx completionContext) indexOf(c *completer, stmt string) []*catalog.Table {
	if !cx.useIndex {
		return nil
	}
	return c.namedTables(stmt)
}

// scanSQL returns the tokens of src, comments left out, and whether src
// ends inside a string, a quoted name or a comment, where nothing is
// completed. Malformed tokens stay in the list: completion reads past them.
func scanSQL(src string) (toks []parser.Token, open bool) {
	s := parser.NewScanner(src, parser.ScanComments)
	for {
		t, err := s.Next()
		switch {
		case errors.Is(err, parser.ErrUnterminated):
			return toks, true
		case t.Kind == parser.EOF:
			return toks, false
		case t.Kind == parser.Comment:
			if strings.HasPrefix(t.Text, "--") && int(t.End()) == len(src) {
				return toks, true
			}
			continue
		}
		toks = append(toks, t)
	}
}

func isSemicolon(t parser.Token) bool { return t.Kind == parser.Op && t.Text == ";" }
