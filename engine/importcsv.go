package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// CSVNull is the CSV field a lone NULL is written as, and an unquoted
// field that is read as NULL, beside the empty unquoted field. The shell's
// csv output format writes it; Import reads it.
const CSVNull = `\N`

// posError is an error at a column of the line an import reports it at.
type posError struct {
	col int // 1-based byte column
	err error
}

func (e *posError) Error() string { return e.err.Error() }

func (e *posError) Unwrap() error { return e.err }

// atCol is err at byte column col of its line.
func atCol(col int, err error) error { return &posError{col: col, err: err} }

// inputError is the ImportError of err at line of the input, with the
// column when err has one.
func inputError(name string, line int, written int64, err error) *ImportError {
	ie := &ImportError{Name: name, Line: line, Written: written, Err: err}
	if pe := (*posError)(nil); errors.As(err, &pe) && line > 0 {
		ie.Col = pe.col
	}
	return ie
}

// csvField is one field of a record: its text, and whether it was quoted,
// since an unquoted empty field (or \N) is NULL and a quoted one ("") is
// the empty string.
type csvField struct {
	s      string
	quoted bool
}

// csvReader reads RFC 4180 records, as encoding/csv does, but keeps what
// encoding/csv loses: whether each field was quoted, and a CR inside a
// quoted field. A CR before the LF that ends a line is dropped, blank
// lines are skipped, and a quote inside an unquoted field, or anything
// but a comma or the line's end after a closing quote, is an error with
// its line and column.
type csvReader struct {
	inputLines
	rec    []byte // the fields of the record being read, unquoted
	ends   []int  // where each field ends in rec
	quoted []bool
	fields []csvField
}

// inputLines reads the lines of CSV and TSV input, counting them.
type inputLines struct {
	r    *bufio.Reader
	line int    // lines read
	long []byte // a line longer than r's buffer
}

// readLine returns the next line with its LF, or without one at the end
// of the input; io.EOF once nothing is left. The slice is valid until the
// next read.
func (l *inputLines) readLine() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.r.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if len(b) == 0 {
		if err == nil {
			err = io.EOF
		}
		return nil, err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	l.line++
	return b, nil
}

// trimEOL drops the LF or CRLF that ends a line.
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n > 1 && b[n-2] == '\r' {
			b = b[:n-2]
		}
	}
	return b
}

var (
	errBareQuote = errors.New(`bare " in non-quoted field`)
	errQuote     = errors.New(`extraneous or missing " in quoted-field`)
)

// read returns the next record and the line it starts on; io.EOF ends the
// input. The fields are valid until the next read.
func (c *csvReader) read() ([]csvField, int, error) {
	var line []byte
	var err error
	for {
		if line, err = c.readLine(); err != nil {
			return nil, c.line + 1, err
		}
		if len(trimEOL(line)) > 0 {
			break
		}
	}
	start := c.line
	c.rec, c.ends, c.quoted = c.rec[:0], c.ends[:0], c.quoted[:0]
	for pos := 0; ; {
		if pos < len(line) && line[pos] == '"' {
			if line, pos, err = c.quotedField(line, pos+1); err != nil {
				return nil, c.line, err
			}
		} else {
			rest := trimEOL(line[pos:])
			n := bytes.IndexByte(rest, ',')
			if n < 0 {
				n = len(rest)
			}
			if q := bytes.IndexByte(rest[:n], '"'); q >= 0 {
				return nil, c.line, atCol(pos+q+1, errBareQuote)
			}
			c.rec = append(c.rec, rest[:n]...)
			c.ends, c.quoted = append(c.ends, len(c.rec)), append(c.quoted, false)
			pos += n
		}
		// pos is at the comma after the field, or at the line's end.
		if pos >= len(line) || line[pos] != ',' {
			break
		}
		pos++
	}
	text := string(c.rec)
	c.fields = c.fields[:0]
	from := 0
	for i, end := range c.ends {
		c.fields = append(c.fields, csvField{s: text[from:end], quoted: c.quoted[i]})
		from = end
	}
	return c.fields, start, nil
}

// quotedField reads the quoted field whose text starts at line[pos],
// reading more lines while the quote is open. It returns the line it ends
// on and the position after it: at a comma, or at the line's end.
func (c *csvReader) quotedField(line []byte, pos int) ([]byte, int, error) {
	for {
		i := bytes.IndexByte(line[pos:], '"')
		if i < 0 {
			c.rec = append(c.rec, line[pos:]...)
			end := len(trimEOL(line)) + 1
			var err error
			if line, err = c.readLine(); err != nil {
				if errors.Is(err, io.EOF) {
					err = atCol(end, errQuote)
				}
				return nil, 0, err
			}
			pos = 0
			continue
		}
		c.rec = append(c.rec, line[pos:pos+i]...)
		pos += i + 1
		if pos < len(line) && line[pos] == '"' {
			c.rec = append(c.rec, '"')
			pos++
			continue
		}
		c.ends, c.quoted = append(c.ends, len(c.rec)), append(c.quoted, true)
		if rest := line[pos:]; len(trimEOL(rest)) > 0 && rest[0] != ',' {
			return nil, 0, atCol(pos+1, errQuote)
		}
		return line, pos, nil
	}
}

// csvSource reads CSV with a header row of column names. An unquoted
// empty field, or an unquoted \N, is NULL; a quoted field is always a
// value, so "" is the empty string.
type csvSource struct {
	t    *catalog.Table
	r    *csvReader
	cols []int
}

func newCSVSource(t *catalog.Table, r *bufio.Reader) (*csvSource, error) {
	cr := &csvReader{inputLines: inputLines{r: r}}
	hdr, _, err := cr.read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the CSV input is empty: it needs a header row of column names")
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, len(hdr))
	for i, h := range hdr {
		names[i] = h.s
	}
	cols, err := headerColumns(t, names)
	if err != nil {
		return nil, err
	}
	return &csvSource{t: t, r: cr, cols: cols}, nil
}

// headerColumns maps the names of a CSV or TSV header to columns of t. It
// refuses an unknown name, a name given twice, and a header that leaves
// out a key column, which every row needs.
func headerColumns(t *catalog.Table, names []string) ([]int, error) {
	var cols []int
	at := map[int]int{} // column -> its field in the header, from 1
	for f, h := range names {
		name := strings.TrimSpace(h)
		i, ok := t.Column(name)
		if !ok {
			return nil, fmt.Errorf("header: column %q does not exist in table %s (columns: %s)", name, t.Name, strings.Join(t.ColumnNames(), ", "))
		}
		if prev, dup := at[i]; dup {
			return nil, fmt.Errorf("header: column %q is both field %d and field %d", t.Columns[i].Name, prev, f+1)
		}
		at[i] = f + 1
		cols = append(cols, i)
	}
	var missing []string
	for _, i := range t.KeyColumns() {
		if _, ok := at[i]; !ok && !baseFromTime(t, i, at) {
			missing = append(missing, t.Columns[i].Name)
		}
	}
	switch len(missing) {
	case 0:
		return cols, nil
	case 1:
		return nil, fmt.Errorf("header: key column %s is missing, and every row needs it for its key", missing[0])
	}
	return nil, fmt.Errorf("header: key columns %s are missing, and every row needs them for its key", strings.Join(missing, ", "))
}

// fieldCountError is a record whose field count is not the header's.
func fieldCountError(n, want int) error {
	return fmt.Errorf("wrong number of fields: %d, and the header has %d", n, want)
}

func (c *csvSource) next() (catalog.Row, int, error) {
	rec, line, err := c.r.read()
	if err != nil {
		return nil, line, err
	}
	if len(rec) != len(c.cols) {
		return nil, line, fieldCountError(len(rec), len(c.cols))
	}
	row := c.t.NewRow()
	for i, f := range rec {
		if !f.quoted && (f.s == "" || f.s == CSVNull) {
			continue
		}
		v, err := convertText(&c.t.Columns[c.cols[i]], f.s)
		if err != nil {
			if f.s == "" {
				err = fmt.Errorf("%w (\"\" is the empty string; NULL is a field left empty, without quotes)", err)
			}
			return nil, line, err
		}
		row[c.cols[i]] = v
	}
	return row, line, nil
}

// baseFromTime reports whether key column i of t is an OpenTSDB row's
// base that the time column, present at at, fills in (catalog.Wide.Complete).
func baseFromTime(t *catalog.Table, i int, at map[int]int) bool {
	w := t.Wide
	if w == nil || !w.BaseFromTime() || i != w.Base {
		return false
	}
	_, ok := at[w.Time]
	return ok
}
