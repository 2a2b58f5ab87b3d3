package shell

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// Prompts of the read loop.
const (
	PromptMain = "rkql> "
	PromptCont = "   -> "
)

// IO is where a Session reads statements and writes results. ReadLine
// returns one line without its line ending, and io.EOF at the end of input.
// An editor that lets the user edit a whole statement may return several
// lines joined by '\n'; the Session takes them one by one, as if each had
// been read on its own. An interactive IO shows the prompt; others ignore
// it.
type IO interface {
	ReadLine(prompt string) (string, error)
	Stdout() io.Writer
	Stderr() io.Writer
	// Interactive reports whether a person is typing: it decides prompts,
	// positions relative to the statement rather than to the input, and
	// the caret under errors. It must not change once reading has begun.
	Interactive() bool
}

// flusher is implemented by writers that buffer, such as *bufio.Writer.
type flusher interface{ Flush() error }

func flush(w io.Writer) {
	if f, ok := w.(flusher); ok {
		_ = f.Flush()
	}
}

// ReaderIO reads lines from a reader. When Prompt is set, it writes the
// prompt to Out before each line, which is what a plain terminal REPL needs.
type ReaderIO struct {
	r   *bufio.Reader
	Out io.Writer
	Err io.Writer
	// Prompt makes the IO interactive: prompts are written to Out.
	Prompt bool
}

// NewReaderIO returns an IO that reads lines from r.
func NewReaderIO(r io.Reader, out, errw io.Writer, interactive bool) *ReaderIO {
	return &ReaderIO{r: bufio.NewReaderSize(r, 64<<10), Out: out, Err: errw, Prompt: interactive}
}

// ReadLine implements IO. Lines may be of any length.
func (r *ReaderIO) ReadLine(prompt string) (string, error) {
	if r.Prompt {
		_, _ = io.WriteString(r.Out, prompt)
		flush(r.Out)
	}
	line, err := r.r.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		if r.Prompt && errors.Is(err, io.EOF) {
			// End the prompt's line, as a shell does on Ctrl-D.
			_, _ = io.WriteString(r.Out, "\n")
			flush(r.Out)
		}
		return "", err
	}
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r"), nil
}

// Stdout implements IO.
func (r *ReaderIO) Stdout() io.Writer { return r.Out }

// Stderr implements IO.
func (r *ReaderIO) Stderr() io.Writer { return r.Err }

// Interactive implements IO.
func (r *ReaderIO) Interactive() bool { return r.Prompt }
