package shell

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
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
	// null is how NULL looks; "" means NULL.
	null string
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
		hdr[i] = tableEscape.String(c.Name)
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
		cells[i] = tableEscape.String(cellText(v, nullText(t.null)))
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

// csvWriter writes RFC 4180 CSV with a header; NULL is an empty field,
// and an empty string "" so that the two differ. A row of one column that
// is NULL is \N, since an empty line would read as the blank line that
// separates result sets; so a text that is \N is quoted. It quotes as
// encoding/csv does otherwise, and appends each row's text to one buffer
// without making a string per cell.
type csvWriter struct {
	w io.Writer
	b []byte
}

// csvFlushAt is the buffered bytes past which a row flushes the buffer.
const csvFlushAt = 32 << 10

func (c *csvWriter) begin(cols []column) error {
	c.b = c.b[:0]
	for i, name := range uniqueNames(cols) {
		if i > 0 {
			c.b = append(c.b, ',')
		}
		c.b = appendCSVField(c.b, name)
	}
	c.b = append(c.b, '\n')
	return c.flush()
}

func (c *csvWriter) row(r catalog.Row) error {
	for i, v := range r {
		if i > 0 {
			c.b = append(c.b, ',')
		}
		switch {
		case v.Null && len(r) == 1:
			c.b = append(c.b, engine.CSVNull...)
		case v.Null:
		case v.Type == catalog.TypeBigint || v.Type == catalog.TypeInt || v.Type == catalog.TypeDouble || v.Type == catalog.TypeTimestamp:
			// Their text holds nothing CSV quotes.
			c.b = appendCellText(c.b, v)
		default:
			if t := v.Text(); t == "" {
				c.b = append(c.b, `""`...)
			} else {
				c.b = appendCSVField(c.b, t)
			}
		}
	}
	c.b = append(c.b, '\n')
	if len(c.b) >= csvFlushAt {
		return c.flush()
	}
	return nil
}

func (c *csvWriter) flush() error {
	_, err := c.w.Write(c.b)
	c.b = c.b[:0]
	return err
}

func (c *csvWriter) end(int64) error { return c.flush() }

// appendCSVField appends one field, quoted where encoding/csv quotes it:
// when it holds a comma, quote, CR or LF, starts with white space, or is
// \. (PostgreSQL's end of data); and when it is \N, which unquoted is NULL.
func appendCSVField(b []byte, f string) []byte {
	if !csvNeedsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for i := 0; i < len(f); i++ {
		if f[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, f[i])
	}
	return append(b, '"')
}

func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` || f == engine.CSVNull {
		return true
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '\n', '\r', '"', ',':
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// appendCellText appends v.Text() for a value that is not NULL, without
// making a string for the numeric and timestamp types.
func appendCellText(b []byte, v catalog.Value) []byte {
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt:
		return strconv.AppendInt(b, v.I, 10)
	case catalog.TypeDouble:
		return strconv.AppendFloat(b, v.F, 'g', -1, 64)
	case catalog.TypeTimestamp:
		return catalog.AppendTimestamp(b, v.I)
	}
	return append(b, v.Text()...)
}

// tsvWriter writes tab-separated values with a header, escaped as
// PostgreSQL's COPY text format escapes them, so that engine.Import reads
// back exactly what was written: NULL is \N; a backslash is \\; tab,
// newline and carriage return are \t, \n and \r, and the other control
// characters are as ctlEscape says. An empty string is an empty field,
// but in a row of one column it is \E, since an empty line would read as
// the blank line that separates result sets.
type tsvWriter struct {
	w io.Writer
	b []byte
}

func (t *tsvWriter) line(fields []string) error {
	t.b = t.b[:0]
	for i, f := range fields {
		if i > 0 {
			t.b = append(t.b, '\t')
		}
		t.b = tsvEscape.append(t.b, f)
	}
	t.b = append(t.b, '\n')
	_, err := t.w.Write(t.b)
	return err
}

func (t *tsvWriter) begin(cols []column) error {
	return t.line(uniqueNames(cols))
}

func (t *tsvWriter) row(r catalog.Row) error {
	t.b = t.b[:0]
	for i, v := range r {
		if i > 0 {
			t.b = append(t.b, '\t')
		}
		switch {
		case v.Null:
			t.b = append(t.b, engine.TSVNull...)
		case len(r) == 1 && (v.Type == catalog.TypeString && v.S == "" || v.Type == catalog.TypeBytes && len(v.B) == 0):
			t.b = append(t.b, engine.TSVEmpty...)
		case v.Type == catalog.TypeBigint || v.Type == catalog.TypeInt || v.Type == catalog.TypeDouble || v.Type == catalog.TypeTimestamp:
			// Their text holds no tab, newline or carriage return.
			t.b = appendCellText(t.b, v)
		default:
			t.b = tsvEscape.append(t.b, v.Text())
		}
	}
	t.b = append(t.b, '\n')
	_, err := t.w.Write(t.b)
	return err
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
		b.WriteString(mdEscaper.Replace(markdownEscape.String(c)))
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
