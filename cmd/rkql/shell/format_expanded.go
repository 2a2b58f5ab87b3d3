package shell

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rkql/rkql/catalog"
)

// expandedWriter is psql's expanded display (\x): a block per row, a line
// per column, headed "-[ RECORD n ]".
type expandedWriter struct {
	w      io.Writer
	null   string
	footer bool
	names  []string
	width  int // of the widest column name
	n      int64
}

func (e *expandedWriter) begin(cols []column) error {
	e.names = make([]string, len(cols))
	for i, c := range cols {
		e.names[i] = tableEscape.String(c.Name)
		e.width = max(e.width, text.StringWidth(e.names[i]))
	}
	return nil
}

func (e *expandedWriter) row(r catalog.Row) error {
	e.n++
	vals := make([]string, len(r))
	valWidth := 0
	for i, v := range r {
		vals[i] = tableEscape.String(cellText(v, nullText(e.null)))
		for _, l := range strings.Split(vals[i], "\n") {
			valWidth = max(valWidth, text.StringWidth(l))
		}
	}
	var b strings.Builder
	head := fmt.Sprintf("-[ RECORD %d ]", e.n)
	if pad := e.width + 1 - len(head); pad > 0 {
		head += strings.Repeat("-", pad)
	}
	b.WriteString(head + "+" + strings.Repeat("-", valWidth+1) + "\n")
	for i, name := range e.names {
		lines := strings.Split(vals[i], "\n")
		for j, l := range lines {
			if j > 0 {
				name = ""
			}
			line := name + strings.Repeat(" ", e.width-text.StringWidth(name)) + " | " + l
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	_, err := io.WriteString(e.w, b.String())
	return err
}

func (e *expandedWriter) end(n int64) error {
	if n == 0 && e.footer {
		_, err := io.WriteString(e.w, "(0 rows)\n\n")
		return err
	}
	if e.footer && n > 0 {
		_, err := io.WriteString(e.w, "\n")
		return err
	}
	return nil
}

// nullText is how NULL looks in a table: null, or NULL when null is "".
func nullText(null string) string {
	if null == "" {
		return "NULL"
	}
	return null
}

// autoWriter is \x auto: it holds the first rows, and lays them and all
// that follow out as a table if the table fits the terminal's width, and
// expanded otherwise.
type autoWriter struct {
	w      io.Writer
	null   string
	footer bool
	width  int // of the terminal
	cols   []column
	held   []catalog.Row
	to     rowWriter // once chosen
}

// autoHold is how many rows autoWriter looks at before it chooses.
const autoHold = 100

func (a *autoWriter) begin(cols []column) error {
	a.cols = cols
	return nil
}

func (a *autoWriter) row(r catalog.Row) error {
	if a.to != nil {
		return a.to.row(r)
	}
	// The rows it is handed may be reused once it returns (see
	// exec.RowReuser): keep a copy.
	a.held = append(a.held, slices.Clone(r))
	if len(a.held) < autoHold {
		return nil
	}
	return a.choose()
}

// choose renders the rows held as a table, and picks the table writer if
// no line of it is wider than the terminal.
func (a *autoWriter) choose() error {
	var probe strings.Builder
	tw := &tableWriter{w: &probe, chunk: tableChunk, null: a.null}
	_ = tw.begin(a.cols)
	for _, r := range a.held {
		_ = tw.row(r)
	}
	_ = tw.render()
	wide := false
	for _, l := range strings.Split(probe.String(), "\n") {
		if text.StringWidth(l) > a.width {
			wide = true
			break
		}
	}
	if wide {
		a.to = &expandedWriter{w: a.w, null: a.null, footer: a.footer}
	} else {
		a.to = &tableWriter{w: a.w, footer: a.footer, chunk: tableChunk, null: a.null}
	}
	if err := a.to.begin(a.cols); err != nil {
		return err
	}
	held := a.held
	a.held = nil
	for _, r := range held {
		if err := a.to.row(r); err != nil {
			return err
		}
	}
	return nil
}

func (a *autoWriter) end(n int64) error {
	if a.to == nil {
		if err := a.choose(); err != nil {
			return err
		}
	}
	return a.to.end(n)
}
