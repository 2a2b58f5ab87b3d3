package shell

import (
	"encoding/csv"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rkql/rkql/catalog"
)

// tableChunk is the most rows a table holds before it renders them; the
// rows after it start a new table with the same header.
const tableChunk = 10000

// tableWriter renders psql-style tables with go-pretty.
type tableWriter struct {
	w      io.Writer
	footer bool
	chunk  int
	cols   []column
	t      table.Writer
	held   int
}

// psqlStyle draws " a | b " with a dashed line under the header and no
// outer border, as psql does.
func psqlStyle() table.Style {
	s := table.StyleDefault
	s.Name = "psql"
	s.Box.MiddleVertical = "|"
	s.Box.MiddleHorizontal = "-"
	s.Box.MiddleSeparator = "+"
	s.Box.PaddingLeft = " "
	s.Box.PaddingRight = " "
	s.Options = table.Options{SeparateColumns: true, SeparateHeader: true}
	s.Format.Header = text.FormatDefault
	s.Format.Footer = text.FormatDefault
	return s
}

func (t *tableWriter) begin(cols []column) error {
	t.cols = cols
	t.reset()
	return nil
}

func (t *tableWriter) reset() {
	tw := table.NewWriter()
	tw.SetStyle(psqlStyle())
	hdr := make(table.Row, len(t.cols))
	cfg := make([]table.ColumnConfig, len(t.cols))
	for i, c := range t.cols {
		hdr[i] = c.Name
		cfg[i] = table.ColumnConfig{Number: i + 1, AlignHeader: text.AlignLeft, Align: text.AlignLeft}
		switch c.Type {
		case catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble:
			cfg[i].Align = text.AlignRight
		}
	}
	tw.AppendHeader(hdr)
	tw.SetColumnConfigs(cfg)
	tw.SuppressTrailingSpaces()
	t.t, t.held = tw, 0
}

func (t *tableWriter) row(r catalog.Row) error {
	if t.held >= t.chunk {
		if err := t.render(); err != nil {
			return err
		}
		t.reset()
	}
	cells := make(table.Row, len(r))
	for i, v := range r {
		cells[i] = cellText(v, "NULL")
	}
	t.t.AppendRow(cells)
	t.held++
	return nil
}

func (t *tableWriter) render() error {
	_, err := io.WriteString(t.w, t.t.Render()+"\n")
	return err
}

func (t *tableWriter) end(n int64) error {
	if err := t.render(); err != nil {
		return err
	}
	if t.footer && n >= 0 {
		_, err := io.WriteString(t.w, rowCount(n)+"\n\n")
		return err
	}
	return nil
}

// csvWriter writes RFC 4180 CSV with a header; NULL is an empty field.
type csvWriter struct {
	w   io.Writer
	c   *csv.Writer
	rec []string
}

func (c *csvWriter) begin(cols []column) error {
	c.c = csv.NewWriter(c.w)
	hdr := make([]string, len(cols))
	for i, col := range cols {
		hdr[i] = col.Name
	}
	c.rec = make([]string, len(cols))
	return c.c.Write(hdr)
}

func (c *csvWriter) row(r catalog.Row) error {
	for i, v := range r {
		c.rec[i] = cellText(v, "")
	}
	return c.c.Write(c.rec)
}

func (c *csvWriter) end(int64) error {
	c.c.Flush()
	return c.c.Error()
}

// tsvWriter writes tab-separated values with a header. NULL is an empty
// field; tab, newline and carriage return in a value are written as \t, \n
// and \r. A backslash is left as it is, so toStringBinary text such as
// \x00 reads as HBase prints it.
type tsvWriter struct {
	w io.Writer
	b []byte
}

var tsvEscaper = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`)

func (t *tsvWriter) line(fields []string) error {
	t.b = t.b[:0]
	for i, f := range fields {
		if i > 0 {
			t.b = append(t.b, '\t')
		}
		t.b = append(t.b, tsvEscaper.Replace(f)...)
	}
	t.b = append(t.b, '\n')
	_, err := t.w.Write(t.b)
	return err
}

func (t *tsvWriter) begin(cols []column) error {
	hdr := make([]string, len(cols))
	for i, c := range cols {
		hdr[i] = c.Name
	}
	return t.line(hdr)
}

func (t *tsvWriter) row(r catalog.Row) error {
	f := make([]string, len(r))
	for i, v := range r {
		f[i] = cellText(v, "")
	}
	return t.line(f)
}

func (t *tsvWriter) end(int64) error { return nil }

// markdownWriter writes a GitHub-flavoured Markdown table, one line per
// row, so it streams.
type markdownWriter struct {
	w    io.Writer
	cols []column
}

var mdEscaper = strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "\r", "<br>")

func (m *markdownWriter) line(cells []string) error {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(mdEscaper.Replace(c))
		b.WriteString(" |")
	}
	b.WriteString("\n")
	_, err := io.WriteString(m.w, b.String())
	return err
}

func (m *markdownWriter) begin(cols []column) error {
	m.cols = cols
	hdr := make([]string, len(cols))
	sep := make([]string, len(cols))
	for i, c := range cols {
		hdr[i] = c.Name
		sep[i] = "---"
		switch c.Type {
		case catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble:
			sep[i] = "---:"
		}
	}
	if err := m.line(hdr); err != nil {
		return err
	}
	// The separator holds no user text, so it is written unescaped.
	_, err := io.WriteString(m.w, "| "+strings.Join(sep, " | ")+" |\n")
	return err
}

func (m *markdownWriter) row(r catalog.Row) error {
	cells := make([]string, len(r))
	for i, v := range r {
		cells[i] = cellText(v, "NULL")
	}
	return m.line(cells)
}

func (m *markdownWriter) end(int64) error { return nil }
