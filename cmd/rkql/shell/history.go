package shell

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	prompt "github.com/elk-language/go-prompt"
	istrings "github.com/elk-language/go-prompt/strings"
)

// DefaultHistorySize is how many statements the REPL's history keeps.
const DefaultHistorySize = 1000

// history is the REPL's statement history: go-prompt's HistoryInterface
// over a list of whole statements, kept in a file across sessions.
//
// The file holds one statement a line, oldest first, with '\' written as
// `\\` and a newline as `\n`, so a statement typed on several lines stays
// one entry. Statements are appended as they are run; the file is cut back
// to the newest max entries when a session opens it. When the file cannot
// be created or written, the history lives in memory only and warn is
// called once.
type history struct {
	// entries are the statements, oldest first; at most max.
	entries []string
	max     int
	// tmp is entries plus the line being edited, as Up and Down show
	// them: edits made while browsing stay until the next Add or Clear.
	tmp      []string
	selected int // index into tmp

	// path is the history file; "" when nothing is saved.
	path string
	// unsaved are the entries added since the last save.
	unsaved []string
	warn    func(error)
}

var _ prompt.HistoryInterface = (*history)(nil)

// openHistory loads the history file at path ("" for none), creating it
// and its directory if need be. It never fails: a file that cannot be read
// or created leaves an empty history that is not saved, and warn is told
// why, once.
func openHistory(path string, max int, warn func(error)) *history {
	if max <= 0 {
		max = DefaultHistorySize
	}
	h := &history{max: max, path: path, warn: warn}
	if path != "" {
		if err := h.load(); err != nil {
			h.disable(err)
		}
	}
	h.Clear()
	return h
}

func (h *history) load() error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(h.path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	entries, err := readHistory(f)
	if err != nil {
		return err
	}
	if len(entries) <= h.max {
		h.entries = entries
		return nil
	}
	h.entries = entries[len(entries)-h.max:]
	return h.rewrite(h.entries)
}

// readHistory reads the entries of a history file.
func readHistory(r io.Reader) ([]string, error) {
	var entries []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if e := decodeHistory(sc.Text()); e != "" {
			entries = append(entries, e)
		}
	}
	return entries, sc.Err()
}

// rewrite replaces the file with entries, through a temporary file so that
// a failure leaves the old file whole.
func (h *history) rewrite(entries []string) error {
	tmp, err := os.CreateTemp(filepath.Dir(h.path), filepath.Base(h.path)+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	for _, e := range entries {
		w.WriteString(encodeHistory(e))
		w.WriteByte('\n')
	}
	err = errors.Join(w.Flush(), tmp.Chmod(0o600), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// save appends the entries added since the last save to the file.
func (h *history) save() {
	if h.path == "" || len(h.unsaved) == 0 {
		h.unsaved = nil
		return
	}
	var b strings.Builder
	for _, e := range h.unsaved {
		b.WriteString(encodeHistory(e))
		b.WriteByte('\n')
	}
	h.unsaved = nil
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.WriteString(b.String())
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		h.disable(err)
	}
}

// disable stops saving, and says why once.
func (h *history) disable(err error) {
	if h.path == "" {
		return
	}
	h.path = ""
	if h.warn != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Path, pe.Err)
		}
		h.warn(fmt.Errorf("history is not saved: %w", err))
	}
}

func encodeHistory(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

func decodeHistory(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Add implements prompt.HistoryInterface: it records a statement that was
// run, without its trailing white space, unless it repeats the last one.
func (h *history) Add(s string) {
	s = strings.TrimRight(s, " \t\r\n")
	if s != "" && (len(h.entries) == 0 || h.entries[len(h.entries)-1] != s) {
		h.entries = append(h.entries, s)
		if len(h.entries) > h.max {
			h.entries = h.entries[len(h.entries)-h.max:]
		}
		h.unsaved = append(h.unsaved, s)
	}
	h.Clear()
}

// Clear implements prompt.HistoryInterface: it forgets the edits made
// while browsing, not the entries.
func (h *history) Clear() {
	h.tmp = append(append(h.tmp[:0], h.entries...), "")
	h.selected = len(h.tmp) - 1
}

// Older implements prompt.HistoryInterface.
func (h *history) Older(buf *prompt.Buffer, cols istrings.Width, rows int) (*prompt.Buffer, bool) {
	if h.selected == 0 {
		return buf, false
	}
	return h.move(buf, -1, cols, rows), true
}

// Newer implements prompt.HistoryInterface.
func (h *history) Newer(buf *prompt.Buffer, cols istrings.Width, rows int) (*prompt.Buffer, bool) {
	if h.selected >= len(h.tmp)-1 {
		return buf, false
	}
	return h.move(buf, 1, cols, rows), true
}

func (h *history) move(buf *prompt.Buffer, by int, cols istrings.Width, rows int) *prompt.Buffer {
	h.tmp[h.selected] = buf.Text()
	h.selected += by
	nb := prompt.NewBuffer()
	nb.InsertTextMoveCursor(h.tmp[h.selected], cols, rows, false)
	return nb
}

// recalled reports whether text is the entry Up or Down showed last,
// unedited.
func (h *history) recalled(text string) bool {
	return h.selected < len(h.tmp)-1 && h.tmp[h.selected] == text
}

// older keeps text, the text being edited, and returns the entry before
// the one shown; false at the oldest.
func (h *history) older(text string) (string, bool) {
	if h.selected == 0 {
		return "", false
	}
	h.tmp[h.selected] = text
	h.selected--
	return h.tmp[h.selected], true
}

// Get implements prompt.HistoryInterface.
func (h *history) Get(i int) (string, bool) {
	if i < 0 || i >= len(h.entries) {
		return "", false
	}
	return h.entries[i], true
}

// Entries implements prompt.HistoryInterface.
func (h *history) Entries() []string { return h.entries }

// DeleteAll implements prompt.HistoryInterface. The file is left alone.
func (h *history) DeleteAll() {
	h.entries = nil
	h.unsaved = nil
	h.Clear()
}
