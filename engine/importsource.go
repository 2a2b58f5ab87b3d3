package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// ImportFormats are the input formats ImportOptions.Format names.
var ImportFormats = []string{"csv", "tsv", "json", "jsonl"}

// RowReader reads the rows of an import's input without writing them:
// the rows Import would write, each with its line, or the error that
// would stop it.
type RowReader struct{ src rowSource }

// NewRowReader reads r, in format (or as ImportOptions.Format's "" picks
// one, by name or the input), as rows of t.
func NewRowReader(t *catalog.Table, format, name string, r io.Reader) (*RowReader, error) {
	src, err := newRowSource(t, format, name, r)
	if err != nil {
		return nil, err
	}
	return &RowReader{src: src}, nil
}

// Next returns the next row and its line (for a JSON array, the line
// where the object ends), or io.EOF after the last row. An error about a
// line comes with that line.
func (r *RowReader) Next() (catalog.Row, int, error) { return r.src.next() }

// newRowSource picks the reader for the input's format.
func newRowSource(t *catalog.Table, format, name string, r io.Reader) (rowSource, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xEF\xBB\xBF")) {
		_, _ = br.Discard(3)
	}
	if format == "" {
		format = inputFormat(name, br)
	}
	switch format {
	case "csv":
		return newCSVSource(t, br)
	case "tsv":
		return newTSVSource(t, br)
	case "json", "jsonl":
		if firstByte(br) == '[' {
			return newJSONArraySource(t, br)
		}
		return &jsonLinesSource{t: t, r: br}, nil
	}
	return nil, fmt.Errorf("unknown input format %q (want %s)", format, strings.Join(ImportFormats, ", "))
}

// inputFormat is the format of an input named name: by its extension, or
// else by its first byte ('{' or '[': JSON) or its first line (a tab:
// TSV, since a tab cannot be part of a column name), else CSV.
func inputFormat(name string, br *bufio.Reader) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return "csv"
	case ".tsv", ".tab":
		return "tsv"
	case ".jsonl", ".ndjson", ".json":
		return "json"
	}
	switch firstByte(br) {
	case '{', '[':
		return "json"
	}
	for n := 1; n <= br.Size(); n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			break
		}
		switch b[n-1] {
		case '\t':
			return "tsv"
		case '\n':
			return "csv"
		}
	}
	return "csv"
}

// firstByte is the first byte that is not white space, without consuming it.
func firstByte(br *bufio.Reader) byte {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if len(b) < n || err != nil {
			return 0
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
		default:
			return c
		}
		if n >= br.Size() {
			return 0
		}
	}
}

// jsonLinesSource reads one JSON object per line; blank lines are skipped.
type jsonLinesSource struct {
	t    *catalog.Table
	r    *bufio.Reader
	line int
	seen []bool
}

func (j *jsonLinesSource) next() (catalog.Row, int, error) {
	for {
		text, err := j.r.ReadString('\n')
		if text == "" && err != nil {
			return nil, j.line + 1, err
		}
		j.line++
		if strings.TrimSpace(text) == "" {
			continue
		}
		if j.seen == nil {
			j.seen = make([]bool, len(j.t.Columns))
		}
		if row, ok := flatObject(j.t, text, j.seen); ok {
			return row, j.line, nil
		}
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, j.line, fmt.Errorf("not a JSON object: %w", err)
		}
		if dec.More() {
			return nil, j.line, errors.New("more than one JSON value on the line")
		}
		row, err := jsonObject(j.t, raw)
		if oe := (*offsetError)(nil); errors.As(err, &oe) {
			err = atCol(int(dec.InputOffset())-len(raw)+oe.off+1, oe.err)
		}
		return row, j.line, err
	}
}

// jsonArraySource reads one JSON array of objects, as --format json
// writes it.
type jsonArraySource struct {
	t     *catalog.Table
	dec   *json.Decoder
	lines *lineTracker
	done  bool
	seen  []bool
}

func newJSONArraySource(t *catalog.Table, r io.Reader) (*jsonArraySource, error) {
	lt := &lineTracker{r: r, last: -1}
	dec := json.NewDecoder(lt)
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not a JSON array: %w", err)
	}
	return &jsonArraySource{t: t, dec: dec, lines: lt}, nil
}

func (j *jsonArraySource) next() (catalog.Row, int, error) {
	if j.done {
		return nil, j.lines.lineAt(j.dec.InputOffset()), io.EOF
	}
	if !j.dec.More() {
		j.done = true
		err := j.end()
		off := j.dec.InputOffset()
		if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
			// The decoder stops before the white space ahead of the bad
			// character; the line is the character's. lineAt counts the
			// byte before its offset.
			rest, _ := io.ReadAll(j.dec.Buffered())
			off += int64(len(rest)-len(bytes.TrimLeft(rest, " \t\r\n"))) + 1
		}
		return nil, j.lines.lineAt(off), err
	}
	var raw json.RawMessage
	err := j.dec.Decode(&raw)
	end := j.dec.InputOffset()
	if err != nil {
		j.done = true
		return nil, j.lines.lineAt(end), fmt.Errorf("not a JSON object: %w", err)
	}
	if j.seen == nil {
		j.seen = make([]bool, len(j.t.Columns))
	}
	if row, ok := flatObject(j.t, string(raw), j.seen); ok {
		return row, j.lines.lineAt(end), nil
	}
	row, err := jsonObject(j.t, raw)
	if oe := (*offsetError)(nil); errors.As(err, &oe) {
		// The line and column of the place, not of the object's end.
		line, col := j.lines.position(end - int64(len(raw)) + int64(oe.off))
		return nil, line, atCol(col, oe.err)
	}
	return row, j.lines.lineAt(end), err
}

// end reads the array's closing ] and checks that only white space
// follows it: a file holds exactly one array. It returns io.EOF when so.
func (j *jsonArraySource) end() error {
	tok, err := j.dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("the JSON array is not closed: the input ends before its ]")
	case err != nil:
		return fmt.Errorf("not a JSON array: %w", err)
	case tok != json.Delim(']'):
		return fmt.Errorf("not a JSON array: unexpected %v", tok)
	}
	tok, err = j.dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return io.EOF
	case err != nil:
		return fmt.Errorf("after the JSON array's closing ]: %w", err)
	}
	return fmt.Errorf("more input after the JSON array's closing ] (%v): a file holds one array", tok)
}

// lineTracker counts the lines of what passes through it, so that a byte
// offset can be turned into a line number. Offsets must be asked for in
// increasing order; it keeps only the newlines not yet passed.
type lineTracker struct {
	r    io.Reader
	read int64
	nl   []int64 // offsets of newlines not yet counted
	base int     // newlines before nl
	last int64   // the offset of the last newline counted, -1 for none
}

func (l *lineTracker) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.nl = append(l.nl, l.read+int64(i))
		}
	}
	l.read += int64(n)
	return n, err
}

// lineAt is the 1-based line holding the byte just before offset off.
func (l *lineTracker) lineAt(off int64) int {
	i := 0
	for i < len(l.nl) && l.nl[i] < off-1 {
		i++
	}
	if i > 0 {
		l.last = l.nl[i-1]
	}
	l.base += i
	l.nl = l.nl[i:]
	return l.base + 1
}

// position is the 1-based line and byte column of the byte at offset off.
func (l *lineTracker) position(off int64) (line, col int) {
	line = l.lineAt(off + 1)
	return line, int(off - l.last)
}
