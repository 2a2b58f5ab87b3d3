package shell

import (
	"fmt"
	"strings"

	prompt "github.com/elk-language/go-prompt"
	istrings "github.com/elk-language/go-prompt/strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// wordSeparators end the word that completion replaces. go-prompt is given
// the same set, so that a chosen suggestion replaces exactly that word.
const wordSeparators = " \t\r\n(),;=<>!*+-/%|'."

// completer suggests words from the catalog, the grammar and the
// meta-command table. It reads nothing but the catalog in memory, so it is
// cheap enough to run on every key. It is not safe for concurrent use.
type completer struct {
	cat *catalog.Catalog
	// keywords are the parser's, in the order completion lists them.
	keywords []parser.Keyword
	// last is the list handed out last. go-prompt's Input asks again
	// after each Tab, with the chosen suggestion in place of the word;
	// Tab walks the list only if it gets the same list and range back.
	last struct {
		before, after string // the text around the word
		word          string
		list          []prompt.Suggest
		start, end    istrings.RuneNumber
	}
}

func newCompleter(cat *catalog.Catalog) *completer {
	return &completer{cat: cat, keywords: parser.Keywords()}
}

// Complete implements prompt.Completer. A panic in the completer would
// end the shell with the terminal left raw; it is turned into no
// suggestions instead.
func (c *completer) Complete(d prompt.Document) (sugs []prompt.Suggest, start, end istrings.RuneNumber) {
	defer func() {
		if recover() != nil {
			sugs, start, end = nil, d.CurrentRuneIndex(), d.CurrentRuneIndex()
			c.last.list = nil
		}
	}()
	return c.complete(d.LastKeyStroke(), d.Text, len(d.TextBeforeCursor()))
}

// complete returns the suggestions for the cursor at byte offset cur of
// text, after key, and the rune range of the word they replace.
func (c *completer) complete(key prompt.Key, text string, cur int) ([]prompt.Suggest, istrings.RuneNumber, istrings.RuneNumber) {
	before, after := text[:cur], text[cur:]
	if c.walking(key, before, after) {
		return c.last.list, c.last.start, c.last.end
	}
	sugs, word := c.suggest(text, cur)
	end := istrings.RuneCountInString(before)
	start := end - istrings.RuneCountInString(word)
	l := &c.last
	l.before, l.after, l.word, l.list, l.start, l.end = before[:len(before)-len(word)], after, word, sugs, start, end
	return sugs, start, end
}

// walking reports whether key moved through the last list: the text is
// the same but for the word, which is the word typed or one of the
// suggestions.
func (c *completer) walking(key prompt.Key, before, after string) bool {
	switch key {
	case prompt.Tab, prompt.BackTab, prompt.Up, prompt.Down:
	default:
		return false
	}
	l := &c.last
	if len(l.list) == 0 || after != l.after || !strings.HasPrefix(before, l.before) {
		return false
	}
	w := before[len(l.before):]
	if w == l.word {
		return true
	}
	for _, s := range l.list {
		if s.Text == w {
			return true
		}
	}
	return false
}

// suggest returns the suggestions for the word that ends at byte offset
// cur of text, and that word. Matching is a case-insensitive prefix match.
// An empty word gets suggestions only where a name is expected.
func (c *completer) suggest(text string, cur int) ([]prompt.Suggest, string) {
	before := text[:cur]
	start := strings.LastIndexAny(before, wordSeparators) + 1
	word := before[start:]
	if _, open := scanSQL(before); open {
		return nil, word
	}
	if strings.HasPrefix(strings.TrimLeft(text, " \t"), `\`) && !strings.Contains(before, "\n") {
		return c.meta(before, word).done(word), word
	}
	toks, _ := scanSQL(before[:start])
	stmtStart := 0
	for i := len(toks) - 1; i >= 0; i-- {
		if isSemicolon(toks[i]) {
			toks, stmtStart = toks[i+1:], int(toks[i].End())
			break
		}
	}
	ctx := readContext(toks)
	l := &suggestions{word: word}
	switch ctx.kind {
	case wantTable:
		c.tables(l)
		return l.done(word), word
	case wantIndex:
		c.indexes(l, ctx.indexOf(c, text[stmtStart:]))
		return l.done(word), word
	}
	if ctx.columns && (word != "" || ctx.nameNext) {
		for _, t := range c.namedTables(text[stmtStart:]) {
			c.columns(l, t)
		}
	}
	if word != "" {
		for _, k := range c.keywords {
			if ctx.keyword(k) {
				l.add(k.Word, keywordCase(k.Word, word), "")
			}
		}
	}
	return l.done(word), word
}

// suggestions collects the candidates that match a word.
type suggestions struct {
	word string
	list []prompt.Suggest
	seen map[string]bool
}

// add adds a candidate whose name starts with the word; text is what is
// inserted.
func (l *suggestions) add(name, text, desc string) {
	if !strings.HasPrefix(strings.ToLower(name), strings.ToLower(l.word)) || l.seen[text] {
		return
	}
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	l.seen[text] = true
	l.list = append(l.list, prompt.Suggest{Text: text, Description: desc})
}

// done returns the list, or nothing when its only entry is the word itself.
func (l *suggestions) done(word string) []prompt.Suggest {
	if len(l.list) == 1 && strings.EqualFold(l.list[0].Text, word) {
		return nil
	}
	return l.list
}

// keywordCase writes a keyword in lower case when the user started it in
// lower case.
func keywordCase(kw, typed string) string {
	if typed != "" && 'a' <= typed[0] && typed[0] <= 'z' {
		return strings.ToLower(kw)
	}
	return kw
}

// name is a catalog name as it must be written in a statement.
func (c *completer) name(n string) string {
	k, kw := parser.LookupKeyword(n)
	plain := n != "" && !(kw && k.Reserved)
	for i := 0; i < len(n) && plain; i++ {
		ch := n[i]
		plain = ch == '_' || ('a' <= ch && ch <= 'z') || ('A' <= ch && ch <= 'Z') || (i > 0 && '0' <= ch && ch <= '9')
	}
	if plain {
		return n
	}
	return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
}

// keyDesc describes a table's rowkey layout.
func keyDesc(t *catalog.Table) string {
	if t == nil || t.Key == nil {
		return ""
	}
	return "key " + t.Key.String()
}

// tables adds the data tables, then the index tables.
func (c *completer) tables(l *suggestions) {
	for _, n := range c.cat.Names() {
		t, _ := c.cat.Table(n)
		l.add(n, c.name(n), keyDesc(t))
	}
	for _, t := range c.cat.Tables {
		for _, ix := range t.Indexes {
			l.add(ix.Name, c.name(ix.Name), "index on "+t.Name+", "+keyDesc(ix.Table))
		}
	}
}

// indexes adds the indexes of the given tables, or of every table when
// none is given.
func (c *completer) indexes(l *suggestions, of []*catalog.Table) {
	if len(of) == 0 {
		of = c.cat.Tables
	}
	for _, t := range of {
		for _, ix := range t.Indexes {
			l.add(ix.Name, c.name(ix.Name), "on "+t.Name+", "+keyDesc(ix.Table))
		}
	}
}

func (c *completer) columns(l *suggestions, t *catalog.Table) {
	for _, col := range t.Columns {
		var where []string
		if col.KeyField {
			where = append(where, "key")
		}
		if col.Family != "" {
			where = append(where, col.Family+":"+col.Qualifier)
		}
		l.add(col.Name, c.name(col.Name), fmt.Sprintf("%s %s", col.Type, strings.Join(where, ", ")))
	}
}

// meta completes a meta-command line: the command, then its argument.
func (c *completer) meta(before, word string) *suggestions {
	l := &suggestions{word: word}
	fields := strings.Fields(before)
	arg := len(fields) - 1
	if before == "" || strings.ContainsAny(before[len(before)-1:], " \t") {
		arg = len(fields)
	}
	switch {
	case arg == 0:
		for _, m := range metaCmds {
			l.add(m.name, m.name, m.desc)
		}
	case arg == 1 && (fields[0] == `\d` || fields[0] == `\d+` || fields[0] == `\di`):
		c.tables(l)
	case arg == 1 && fields[0] == `\format`:
		for _, f := range formatNames {
			l.add(f, f, "output format")
		}
	case arg == 1 && (fields[0] == `\timing` || fields[0] == `\pushdown` || fields[0] == `\x` || fields[0] == `\pager` || fields[0] == `\blockcache`):
		l.add("on", "on", "")
		l.add("off", "off", "")
		if fields[0] == `\x` || fields[0] == `\blockcache` {
			l.add("auto", "auto", "")
		}
	case arg == 1 && fields[0] == `\parallel`:
		l.add("auto", "auto", "one scanner per region server")
		l.add("1", "1", "read regions one after another")
	}
	return l
}

// namedTables returns the catalog tables that a statement names, in the
// order it names them. The statement ends at its first ';'.
func (c *completer) namedTables(stmt string) []*catalog.Table {
	toks, _ := scanSQL(stmt)
	var out []*catalog.Table
	for i := 1; i < len(toks); i++ {
		if isSemicolon(toks[i-1]) {
			break
		}
		p := strings.ToUpper(toks[i-1].Text)
		if !tableWords[p] && !(i == 1 && (p == "DESCRIBE" || p == "DESC")) {
			continue
		}
		if t, ok := c.lookup(toks[i].Ident()); ok {
			out = append(out, t)
		}
	}
	return out
}

// lookup finds a data or index table by name, ignoring case if it must.
func (c *completer) lookup(name string) (*catalog.Table, bool) {
	if t, ok := c.cat.Table(name); ok {
		return t, true
	}
	for _, n := range c.cat.Names() {
		if strings.EqualFold(n, name) {
			return c.cat.Table(n)
		}
	}
	return nil, false
}
