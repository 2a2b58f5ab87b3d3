package shell

import (
	"bytes"
	"strings"
	"sync"
	"syscall"
	"time"

	prompt "github.com/elk-language/go-prompt"
	istrings "github.com/elk-language/go-prompt/strings"

	"github.com/rkql/rkql/parser"
)

// This file holds what PromptIO adds to go-prompt: pasted text that runs
// line by line, rkql's own continuation prompt, Up that walks whole
// statements, Ctrl-R, and colours from the parser's scanner.

// upCode stands for the Up key once lineReader has taken it from
// go-prompt, which would otherwise walk the lines of a recalled statement
// one by one: go-prompt knows no such sequence, and hands it to the
// ASCIICodeBind PromptIO registers for it.
var upCode = []byte("\x1b[rkql-up")

// upKeys are what terminals send for Up, in normal and application mode.
var upKeys = [][]byte{[]byte("\x1b[A"), []byte("\x1bOA")}

// keyReader is go-prompt's terminal reader, changed in two ways:
//
//   - It hands out what the terminal sent up to and including the first
//     line end, keeps the rest, and then hands out nothing more until
//     the line was taken (resume) or a short while passed. go-prompt reads
//     ahead on a goroutine of its own and drops what it read when Enter
//     ends the input; so each line of a pasted block reaches the editor
//     alone, and what follows a statement that runs waits here for the
//     next prompt.
//   - The Up key becomes upCode.
//
// Read runs on go-prompt's reading goroutine, the rest on the editor's.
type keyReader struct {
	prompt.Reader
	mu struct {
		sync.Mutex
		// pending are bytes read from the terminal and not yet handed out.
		pending []byte
		// partial is the start of a bracketed paste mark that a read
		// cut in two, put before what the next read brings.
		partial []byte
		// held is when a line end was handed out, while it has not been
		// taken; zero otherwise.
		held time.Time
		// stopped is set when the input ended with that line: nothing is
		// handed out until the next prompt.
		stopped bool
		// choosing is set while Tab's suggestions are walked: Up is
		// then go-prompt's.
		choosing bool
	}
}

// menuKeys move through the suggestions once Tab chose one: Tab and
// Shift-Tab start it, and Up and Down go on with it.
var (
	startMenuKeys = [][]byte{[]byte("\t"), []byte("\x1b[Z")}
	moreMenuKeys  = [][]byte{[]byte("\x1b[A"), []byte("\x1bOA"), []byte("\x1b[B"), []byte("\x1bOB")}
)

// menuKey reports whether chunk is one key that walks the suggestions,
// given whether they were being walked. A tab in pasted text is no key.
func menuKey(chunk []byte, choosing bool) bool {
	for _, k := range startMenuKeys {
		if bytes.Equal(chunk, k) {
			return true
		}
	}
	if choosing {
		for _, k := range moreMenuKeys {
			if bytes.Equal(chunk, k) {
				return true
			}
		}
	}
	return false
}

// holdFor bounds how long a line end holds back what follows, should the
// editor never say it took the line (a key it handles on its own).
const holdFor = 300 * time.Millisecond

func (r *keyReader) Read(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.stopped || !r.mu.held.IsZero() && time.Since(r.mu.held) < holdFor {
		return 0, syscall.EAGAIN
	}
	r.mu.held = time.Time{}
	if len(r.mu.pending) == 0 {
		n, err := r.Reader.Read(b)
		if n <= 0 || err != nil {
			return n, err
		}
		r.mu.pending = append(r.mu.partial, b[:n]...)
		r.mu.partial = nil
		// In bracketed paste mode (see PromptIO) the terminal marks
		// pasted text; go-prompt would drop a chunk that starts with
		// the mark. The line ends in the text do what Enter does.
		for _, m := range pasteMarks {
			r.mu.pending = bytes.ReplaceAll(r.mu.pending, m, nil)
		}
		if k := cutMark(r.mu.pending); k > 0 {
			r.mu.partial = bytes.Clone(r.mu.pending[len(r.mu.pending)-k:])
			r.mu.pending = r.mu.pending[:len(r.mu.pending)-k]
		}
		if len(r.mu.pending) == 0 {
			return 0, syscall.EAGAIN
		}
	}
	for _, k := range upKeys {
		if strings.HasPrefix(string(r.mu.pending), string(k)) && !r.mu.choosing {
			r.mu.pending = r.mu.pending[len(k):]
			return copy(b, upCode), nil
		}
	}
	chunk := r.mu.pending
	// After Tab, Up and Down move through the suggestions, as go-prompt
	// does, until another key.
	r.mu.choosing = menuKey(chunk, r.mu.choosing)
	if i := strings.IndexAny(string(chunk), "\r\n"); i >= 0 {
		chunk = chunk[:i+1]
	}
	n := copy(b, chunk)
	r.mu.pending = r.mu.pending[n:]
	if n > 0 && (b[n-1] == '\r' || b[n-1] == '\n') {
		r.mu.held = time.Now()
	}
	return n, nil
}

// pasteMarks are what a terminal in bracketed paste mode sends before and
// after pasted text.
var pasteMarks = [][]byte{[]byte("\x1b[200~"), []byte("\x1b[201~")}

// cutMark returns how many bytes at the end of b begin a paste mark that
// the read cut off: from "\x1b[2" on, which begins no key a terminal sends
// alone.
func cutMark(b []byte) int {
	for k := len(pasteMarks[0]) - 1; k >= 3; k-- {
		if len(b) < k {
			continue
		}
		for _, m := range pasteMarks {
			if bytes.Equal(b[len(b)-k:], m[:k]) {
				return k
			}
		}
	}
	return 0
}

// taken says the editor dealt with the line end handed out last, and
// kept editing.
func (r *keyReader) taken() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.mu.held = time.Time{}
	r.mu.Unlock()
}

// stop says the input ended: hand out nothing until resume.
func (r *keyReader) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.mu.stopped = true
	r.mu.Unlock()
}

// resume starts handing out again, for the next prompt.
func (r *keyReader) resume() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.mu.stopped, r.mu.held = false, time.Time{}
	r.mu.Unlock()
}

// contWriter is go-prompt's terminal writer with rkql's continuation
// prompt. go-prompt draws each line of the text after the first, and
// each screen line a long line wraps onto, behind dots as wide as the
// prompt; contWriter draws PromptCont before a line of the text and blanks
// before a wrapped part, from the layout the lexer worked out.
type contWriter struct {
	prompt.Writer
	// dots is what go-prompt draws before the lines after the first.
	dots string
	// breaks says, for each screen line after the first, whether it
	// starts a line of the text (true) or continues a wrapped one.
	breaks []bool
}

// WriteString implements prompt.Writer.
func (w *contWriter) WriteString(s string) (int, error) {
	if s != w.dots {
		return w.Writer.WriteString(s)
	}
	cont := true
	if len(w.breaks) > 0 {
		cont, w.breaks = w.breaks[0], w.breaks[1:]
	}
	if cont {
		return w.Writer.WriteString(PromptCont)
	}
	return w.Writer.WriteString(strings.Repeat(" ", len(s)))
}

// layout sets breaks for text drawn cols columns wide after the prompt,
// wrapping as go-prompt does: a line that fills the width continues on
// the next screen line, and a line end right there ends it.
func (w *contWriter) layout(text string, cols istrings.Width) {
	w.breaks = w.breaks[:0]
	if cols <= 0 {
		return
	}
	var at istrings.Width
	for _, c := range text {
		if at >= cols || c == '\n' {
			w.breaks = append(w.breaks, c == '\n')
			at = 0
			if c == '\n' {
				continue
			}
		}
		at += istrings.GetRuneWidth(c)
	}
}

// dotsFor is the mark go-prompt draws for prefix on the lines after the
// first: a dot for each column up to its trailing blanks, then the blanks.
func dotsFor(prefix string) string {
	body := strings.TrimRight(prefix, " ")
	return strings.Repeat(".", int(istrings.GetWidth(body))) + strings.Repeat(" ", len(prefix)-len(body))
}

// sqlLexer colours the text being edited with the parser's own scanner:
// keywords, strings, numbers and comments. With colour off it only hands
// the text to the layout.
type sqlLexer struct {
	colour bool
	// onInit is told each text go-prompt is about to draw.
	onInit func(string)
	toks   []prompt.Token
	next   int
}

// Init implements prompt.Lexer.
func (l *sqlLexer) Init(text string) {
	l.toks, l.next = l.toks[:0], 0
	if l.onInit != nil {
		l.onInit(text)
	}
	if !l.colour {
		return
	}
	l.toks = colourTokens(text, l.toks)
}

// Next implements prompt.Lexer.
func (l *sqlLexer) Next() (prompt.Token, bool) {
	if l.next >= len(l.toks) {
		return nil, false
	}
	l.next++
	return l.toks[l.next-1], true
}

// colourTokens appends the coloured tokens of text to toks. A line that
// starts with '\' is a meta-command, drawn in one colour.
func colourTokens(text string, toks []prompt.Token) []prompt.Token {
	if first, _, _ := strings.Cut(text, "\n"); isMeta(first) {
		end := len(first)
		if end == 0 {
			return toks
		}
		return append(toks, prompt.NewSimpleToken(0, istrings.ByteNumber(end-1), prompt.SimpleTokenWithColor(prompt.Purple)))
	}
	sc := parser.NewScanner(text, parser.ScanComments)
	for i := 0; i < len(text)+1; i++ {
		t, _ := sc.Next()
		if t.Kind == parser.EOF || t.Text == "" {
			break
		}
		c := tokenColour(t)
		if c == prompt.DefaultColor {
			continue
		}
		toks = append(toks, prompt.NewSimpleToken(istrings.ByteNumber(t.Pos), istrings.ByteNumber(int(t.End())-1), prompt.SimpleTokenWithColor(c)))
	}
	return toks
}

func tokenColour(t parser.Token) prompt.Color {
	switch t.Kind {
	case parser.Word:
		if _, ok := parser.LookupKeyword(t.Text); ok {
			return prompt.Blue
		}
	case parser.String, parser.Bytes:
		return prompt.DarkGreen
	case parser.Int, parser.Float:
		return prompt.Brown
	case parser.Comment:
		return prompt.DarkGray
	case parser.Illegal:
		return prompt.Red
	}
	return prompt.DefaultColor
}

// setText replaces the text being edited, with the cursor at its end.
func setText(pr *prompt.Prompt, text string) {
	d := pr.Buffer().Document()
	pr.DeleteBeforeCursorRunes(istrings.RuneCountInString(d.TextBeforeCursor()))
	pr.DeleteRunes(istrings.RuneCountInString(d.TextAfterCursor()))
	pr.InsertTextMoveCursor(text, false)
}
