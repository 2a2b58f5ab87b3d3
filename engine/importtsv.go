package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// The whole TSV fields that are not text: NULL, and the empty string of a
// row of one column, which an empty field cannot be. The shell's tsv
// output format writes them; Import reads them.
const (
	TSVNull  = `\N`
	TSVEmpty = `\E`
)

// tsvField is one field of a TSV line, unescaped.
type tsvField struct {
	s    string
	null bool
}

// tsvSource reads tab-separated values with a header row of column names,
// escaped as the shell's tsv output format escapes them (PostgreSQL's COPY text format, with
// \xHH and \uHHHH): \N is NULL, \E the empty string, and in a field
// \\, \t, \n, \r, \b, \f, \v, \xHH (a byte) and \uHHHH (a character)
// stand for what they name. Any other backslash is an error, so nothing
// is read as anything but what it was written as. Blank lines are
// skipped, and a CR before the LF that ends a line is dropped.
type tsvSource struct {
	t      *catalog.Table
	r      inputLines
	cols   []int
	buf    []byte
	ends   []int
	nulls  []bool
	fields []tsvField
}

func newTSVSource(t *catalog.Table, r *bufio.Reader) (*tsvSource, error) {
	src := &tsvSource{t: t, r: inputLines{r: r}}
	hdr, _, err := src.read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the TSV input is empty: it needs a header row of column names")
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, len(hdr))
	for i, h := range hdr {
		names[i] = h.s
	}
	if src.cols, err = headerColumns(t, names); err != nil {
		return nil, err
	}
	return src, nil
}

func (s *tsvSource) next() (catalog.Row, int, error) {
	rec, line, err := s.read()
	if err != nil {
		return nil, line, err
	}
	if len(rec) != len(s.cols) {
		return nil, line, fieldCountError(len(rec), len(s.cols))
	}
	row := s.t.NewRow()
	for i, f := range rec {
		if f.null {
			continue
		}
		v, err := convertText(&s.t.Columns[s.cols[i]], f.s)
		if err != nil {
			return nil, line, err
		}
		row[s.cols[i]] = v
	}
	return row, line, nil
}

// read returns the fields of the next line that is not blank, and its
// number; io.EOF ends the input. The fields are valid until the next read.
func (s *tsvSource) read() ([]tsvField, int, error) {
	var b []byte
	for {
		line, err := s.r.readLine()
		if err != nil {
			return nil, s.r.line + 1, err
		}
		if b = trimEOL(line); len(b) > 0 {
			break
		}
	}
	s.buf, s.ends, s.nulls = s.buf[:0], s.ends[:0], s.nulls[:0]
	for pos := 0; ; {
		f := b[pos:]
		n := bytes.IndexByte(f, '\t')
		if n >= 0 {
			f = f[:n]
		}
		null := false
		switch {
		case string(f) == TSVNull:
			null = true
		case string(f) == TSVEmpty:
		case bytes.IndexByte(f, '\\') < 0:
			s.buf = append(s.buf, f...)
		default:
			var err error
			if s.buf, err = tsvUnescape(s.buf, f, pos); err != nil {
				return nil, s.r.line, err
			}
		}
		s.ends, s.nulls = append(s.ends, len(s.buf)), append(s.nulls, null)
		if n < 0 {
			break
		}
		pos += n + 1
	}
	text := string(s.buf)
	s.fields = s.fields[:0]
	from := 0
	for i, end := range s.ends {
		s.fields = append(s.fields, tsvField{s: text[from:end], null: s.nulls[i]})
		from = end
	}
	return s.fields, s.r.line, nil
}

// tsvUnescape appends field f, unescaped, to dst. at is where f starts in
// its line, for the column of an error.
func tsvUnescape(dst, f []byte, at int) ([]byte, error) {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		col := at + i + 1
		if i+1 == len(f) {
			return nil, atCol(col, errors.New(`a field ends in a lone backslash (a backslash is written \\)`))
		}
		i++
		switch e := f[i]; e {
		case '\\':
			dst = append(dst, '\\')
		case 't':
			dst = append(dst, '\t')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'v':
			dst = append(dst, '\v')
		case 'x', 'u':
			n := 2
			if e == 'u' {
				n = 4
			}
			v, ok := hexValue(f[i+1:], n)
			switch {
			case !ok:
				return nil, atCol(col, fmt.Errorf(`bad escape \%c: want %d hex digits after it`, e, n))
			case e == 'x':
				dst = append(dst, byte(v))
			case !utf8.ValidRune(rune(v)):
				return nil, atCol(col, fmt.Errorf(`bad escape \u%s: a surrogate is not a character`, f[i+1:i+5]))
			default:
				dst = utf8.AppendRune(dst, rune(v))
			}
			i += n
		case 'N', 'E':
			return nil, atCol(col, fmt.Errorf(`\%c is only a whole field (a backslash in text is written \\)`, e))
		default:
			return nil, atCol(col, fmt.Errorf(`bad escape \%s (want \\, \t, \n, \r, \b, \f, \v, \xHH or \uHHHH, or a whole field \N for NULL)`, visibleByte(f[i])))
		}
	}
	return dst, nil
}

// hexValue reads the n hex digits that start b.
func hexValue(b []byte, n int) (uint32, bool) {
	if len(b) < n {
		return 0, false
	}
	var v uint32
	for _, c := range b[:n] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint32(c)
	}
	return v, true
}

// visibleByte is c as an error message shows it: itself when printable
// ASCII, else \t, \r or \xHH, so that a control byte cannot reach the
// terminal.
func visibleByte(c byte) string {
	switch {
	case c == '\t':
		return `\t`
	case c == '\r':
		return `\r`
	case c >= 0x20 && c < 0x7F:
		return string(c)
	}
	return fmt.Sprintf(`\x%02X`, c)
}
