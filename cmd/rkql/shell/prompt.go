package shell

import (
	"fmt"
	"io"
	"os"
	"strings"

	prompt "github.com/elk-language/go-prompt"
	istrings "github.com/elk-language/go-prompt/strings"
	"github.com/pkg/term/termios"
	"golang.org/x/sys/unix"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// PromptOptions configure a PromptIO. The zero value of each field means
// the default.
type PromptOptions struct {
	// Catalog names the tables, columns and indexes that Tab completes.
	Catalog *catalog.Catalog
	// HistoryFile keeps the statements across sessions; "" keeps them
	// for this session only.
	HistoryFile string
	// HistorySize is the most statements kept; 0 means DefaultHistorySize.
	HistorySize int
	// Colour highlights keywords, strings, numbers and comments as they
	// are typed; off when NO_COLOR is set.
	Colour bool
}

// PromptIO is the REPL's line editor on a terminal, on go-prompt. Each
// ReadLine edits one statement, which may span lines: Enter runs the text
// when it is a whole statement (see enterRuns) and starts an indented new
// line otherwise. A line end in pasted text does what Enter does, so a
// pasted block runs each statement as its line ends arrive. Lines after
// the first are drawn behind PromptCont, and the screen lines a long line
// wraps onto behind blanks. Up and Down browse the history a whole
// statement at a time, Ctrl-R finds the newest earlier statement holding
// the text typed (again for older ones), Tab completes, Ctrl-C clears the
// text and Ctrl-D on an empty prompt ends the input.
//
// go-prompt puts the terminal in raw mode while a statement is edited and
// restores it before ReadLine returns, so the terminal is in its normal
// mode while a statement runs: Ctrl-C then raises SIGINT, which cancels
// the statement. ReadLine likewise turns the terminal's bracketed paste
// mode on while a statement is edited, so that pasted text comes marked
// and is never taken for keys, and off before it returns; RestoreTerminal
// and Close turn it off too.
//
// go-prompt reads /dev/tty and draws on the process's standard output;
// Out must write to that same standard output, and is flushed before each
// prompt.
type PromptIO struct {
	out, errw io.Writer
	pr        *prompt.Prompt
	// input edits one statement: pr.Input.
	input func() string
	// tty is the terminal, and mode its mode before the first prompt,
	// put back should go-prompt panic with the terminal raw.
	tty  *os.File
	mode *unix.Termios
	hist *history
	// prefix is the prompt of the ReadLine in progress.
	prefix string
	// entered is set when Enter ran the text, so that ReadLine can tell
	// it from Ctrl-D, for which go-prompt also returns "".
	entered bool
	// pasted is the text a line end in pasted text ran; go-prompt then
	// returns "" and leaves the text in its buffer.
	pasted *string
	keys   *keyReader
	// search is the state of Ctrl-R: the text searched for, and the
	// entry it found last.
	search struct {
		query, match string
		at           int
	}
	// term is the standard output, where go-prompt draws, for the
	// bracketed paste mode's sequences.
	term io.Writer
}

// NewPromptIO returns the line editor of an interactive session. It fails
// when the process has no terminal to read. A history file that cannot be
// used is reported once on errw, and the history is then kept in memory.
func NewPromptIO(out, errw io.Writer, o PromptOptions) (*PromptIO, error) {
	// go-prompt panics when it cannot open the terminal; find out first.
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil, fmt.Errorf("no terminal: %w", err)
	}
	mode, err := termios.Tcgetattr(tty.Fd())
	if err != nil {
		_ = tty.Close()
		return nil, fmt.Errorf("no terminal: %w", err)
	}
	p := &PromptIO{out: out, errw: errw, term: os.Stdout, prefix: PromptMain, tty: tty, mode: mode}
	p.keys = &keyReader{Reader: prompt.NewStdinReader()}
	w := &contWriter{Writer: prompt.NewStdoutWriter(), dots: dotsFor(PromptMain)}
	lex := &sqlLexer{colour: o.Colour, onInit: func(text string) {
		w.layout(text, p.pr.TerminalColumns()-istrings.GetWidth(p.prefix))
	}}
	p.hist = openHistory(o.HistoryFile, o.HistorySize, func(err error) {
		fmt.Fprintf(errw, "rkql: %v\n", err)
		flush(errw)
	})
	opts := []prompt.Option{
		prompt.WithPrefixCallback(func() string { return p.prefix }),
		prompt.WithCustomHistory(p.hist),
		prompt.WithExecuteOnEnterCallback(p.onEnter),
		prompt.WithIndentSize(2),
		prompt.WithCompletionWordSeparator(wordSeparators),
		prompt.WithMaxSuggestion(8),
		prompt.WithPrefixTextColor(prompt.DefaultColor),
		prompt.WithReader(p.keys),
		prompt.WithWriter(w),
		prompt.WithLexer(lex),
		prompt.WithExitChecker(p.onKey),
		prompt.WithASCIICodeBind(prompt.ASCIICodeBind{ASCIICode: upCode, Fn: p.up}),
		prompt.WithKeyBind(prompt.KeyBind{Key: prompt.ControlR, Fn: p.searchHistory}),
	}
	if o.Catalog != nil {
		opts = append(opts, prompt.WithCompleter(newCompleter(o.Catalog).Complete))
	}
	p.pr = prompt.New(func(string) {}, opts...)
	p.input = p.pr.Input
	return p, nil
}

// onEnter decides what Enter does: run the text, or start a new line
// indented like the current one, and at least one level.
func (p *PromptIO) onEnter(pr *prompt.Prompt, indentSize int) (int, bool) {
	doc := pr.Buffer().Document()
	if enterRuns(doc.Text) {
		p.entered = true
		p.keys.stop()
		if doc.TextAfterCursor() == "" {
			// A pasted statement ends with a newline; leave the empty
			// line out of the screen and the history.
			trimmed := strings.TrimRight(doc.Text, " \t\r\n")
			pr.DeleteBeforeCursorRunes(istrings.RuneCountInString(doc.Text[len(trimmed):]))
		}
		return 0, true
	}
	p.keys.taken()
	return max(1, doc.CurrentLineIndentLevel(indentSize)), false
}

// onKey is go-prompt's exit checker, asked after each key: it ends the
// input when pasted text brought a line end after which Enter would run
// the text. That line end is taken out of the text.
func (p *PromptIO) onKey(_ string, breakline bool) bool {
	doc := p.pr.Buffer().Document()
	before := doc.TextBeforeCursor()
	if breakline || doc.LastKeyStroke() != prompt.NotDefined || !strings.HasSuffix(before, "\n") {
		return false
	}
	text := strings.TrimSuffix(before, "\n")
	if strings.TrimSpace(doc.TextAfterCursor()) != "" || !enterRuns(text) {
		p.keys.taken()
		return false
	}
	p.keys.stop()
	p.pr.DeleteRunes(istrings.RuneCountInString(doc.TextAfterCursor()))
	p.pr.DeleteBeforeCursorRunes(1)
	p.pasted, p.entered = &text, true
	return true
}

// up is the Up key: the previous statement of the history, unless the
// text was edited and the cursor is below its first line.
func (p *PromptIO) up(pr *prompt.Prompt) bool {
	d := pr.Buffer().Document()
	if !p.hist.recalled(d.Text) && d.CursorPositionRow() > 0 {
		return pr.CursorUp(1)
	}
	if t, ok := p.hist.older(d.Text); ok {
		setText(pr, t)
	}
	return true
}

// searchHistory is Ctrl-R: the newest statement of the history, older
// than the one Ctrl-R found last, that holds the text typed, in any case.
func (p *PromptIO) searchHistory(pr *prompt.Prompt) bool {
	text := pr.Buffer().Text()
	entries := p.hist.Entries()
	s := &p.search
	from := len(entries) - 1
	if s.match != "" && text == s.match {
		from = s.at - 1
	} else {
		s.query = text
	}
	q := strings.ToLower(s.query)
	for i := min(from, len(entries)-1); i >= 0; i-- {
		if strings.Contains(strings.ToLower(entries[i]), q) {
			s.match, s.at = entries[i], i
			setText(pr, entries[i])
			return true
		}
	}
	return true
}

// enterRuns reports whether Enter runs text rather than continuing it on
// a new line: it does when text is empty, is a meta-command (its first
// line starts with '\', or is quit or exit), or is complete, that is ends
// with a ';' outside strings and comments.
func enterRuns(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	return strings.TrimSpace(text) == "" || isMeta(first) || parser.Complete(text)
}

// ReadLine implements IO. It returns the whole text edited, which may hold
// several lines, and io.EOF for Ctrl-D on an empty prompt. Should the
// editor panic, the terminal's mode is put back and the panic becomes an
// error.
func (p *PromptIO) ReadLine(prefix string) (text string, err error) {
	flush(p.out)
	p.prefix, p.entered, p.pasted = prefix, false, nil
	p.keys.resume()
	defer func() {
		if r := recover(); r != nil {
			_ = p.RestoreTerminal()
			text, err = "", fmt.Errorf("line editor failed: %v", r)
		}
	}()
	p.bracketedPaste(true)
	text = p.input()
	p.bracketedPaste(false)
	if p.pasted != nil {
		text = *p.pasted
		p.hist.Add(text)
		setText(p.pr, "")
	}
	p.hist.save()
	if !p.entered {
		return "", io.EOF
	}
	return text, nil
}

// Remember adds a statement that ran without being typed, such as one
// \e edited, to the history.
func (p *PromptIO) Remember(text string) {
	p.hist.Add(text)
	p.hist.save()
}

// RestoreTerminal puts back the terminal's mode from before the first
// prompt; for a process that is ending on a signal while the editor has
// the terminal raw.
func (p *PromptIO) RestoreTerminal() error {
	p.bracketedPaste(false)
	return termios.Tcsetattr(p.tty.Fd(), termios.TCSANOW, p.mode)
}

// Close turns bracketed paste mode off and releases the terminal.
func (p *PromptIO) Close() error {
	p.bracketedPaste(false)
	return p.tty.Close()
}

// bracketedPaste turns the terminal's bracketed paste mode on or off.
func (p *PromptIO) bracketedPaste(on bool) {
	if p.term == nil {
		return
	}
	seq := "\x1b[?2004l"
	if on {
		seq = "\x1b[?2004h"
	}
	_, _ = io.WriteString(p.term, seq)
}

// Stdout implements IO.
func (p *PromptIO) Stdout() io.Writer { return p.out }

// Stderr implements IO.
func (p *PromptIO) Stderr() io.Writer { return p.errw }

// Interactive implements IO.
func (p *PromptIO) Interactive() bool { return true }
