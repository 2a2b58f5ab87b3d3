package shell

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
)

// ImportOptions say what to import and where.
type ImportOptions struct {
	// Table is the logical table to load.
	Table string
	// Name names the input in messages ("orders.jsonl"; "stdin" for -).
	Name string
	// Format is the input's format: csv, tsv, json or jsonl (json and
	// jsonl both read an array or lines, as the first byte says). "" lets
	// Name's extension choose (.csv; .tsv or .tab; .jsonl, .ndjson or
	// .json), and without one the input itself: '{' or '[' first for
	// JSON, a tab in the first line for TSV, else CSV.
	Format string
	// Batch is the number of rows written at once; 0 means 5000. A batch
	// is written whole or, if a line of it is bad, not at all. A table
	// without indexes is written in key order, at least sortedWriteRows
	// rows at a time, and nothing is written when a line is bad: see
	// Import.
	Batch int
	// Replaced, when set, is told after each batch how many rows so far
	// replaced a row with the same key (one in the table, or an earlier
	// row of the input); counting them reads each batch's keys first.
	Replaced func(n int64)
	// Progress, when set, is told the rows written so far after each batch.
	Progress func(rows int64)
	// WriteTimeout bounds each write of a batch to the store; 0 means none.
	// A store that stops answering then ends the import instead of
	// holding it forever. It does not bound the whole import, which runs
	// as long as its input.
	WriteTimeout time.Duration
	// SecondWrite, when set, is called once, just before the import's
	// second write to the store, with a note for the user: an import cut
	// short from then on leaves the rows of the writes before it.
	SecondWrite func(note string)
}

// ImportError is an import that stopped: at a line of the input, or while
// writing. Written rows were committed before the failure. Unsure rows
// were in the write that failed: the store may have committed some of
// them, as it commits a large write in parts.
type ImportError struct {
	Name    string
	Line    int // 0 when the failure is not about a line
	Col     int // the byte column in Line, from 1; 0 when not known
	Written int64
	Unsure  int64
	Err     error
}

func (e *ImportError) Error() string {
	where := e.Name
	switch {
	case e.Line > 0 && e.Col > 0:
		where = fmt.Sprintf("%s:%d:%d", e.Name, e.Line, e.Col)
	case e.Line > 0:
		where = fmt.Sprintf("%s:%d", e.Name, e.Line)
	}
	if e.Unsure > 0 {
		return fmt.Sprintf("%s: %v (%d %s written, and up to %d more of the write that failed may have been)", where, e.Err, e.Written, plural(e.Written, "row", "rows"), e.Unsure)
	}
	return fmt.Sprintf("%s: %v (%d %s written)", where, e.Err, e.Written, plural(e.Written, "row", "rows"))
}

func (e *ImportError) Unwrap() error { return e.Err }

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rowSource yields converted rows with their line (for a JSON array, the
// line where the object ends); io.EOF ends it. An error about a line comes
// with that line.
type rowSource interface {
	next() (catalog.Row, int, error)
}

// countReplaced adds the keys of a batch that replace a row to *total and
// reports the total.
func (s *Session) countReplaced(ctx context.Context, t *catalog.Table, keys [][]byte, total *int64, report func(int64)) error {
	if len(keys) == 0 {
		return nil
	}
	n, err := s.eng.Replaced(ctx, t, keys)
	if err != nil {
		return err
	}
	*total += n
	report(*total)
	return nil
}

// Import loads logical rows into a table, creating its physical table on
// demand. It returns the number of rows written. Reading and checking the
// input runs alongside the writes, one batch ahead.
//
// A table without indexes is loaded in key order: the whole input is read,
// checked and sorted (spilling to temporary files past sortRunBytes) before
// the first row is written, so a bad line writes nothing.
func (s *Session) Import(ctx context.Context, r io.Reader, opts ImportOptions) (int64, error) {
	t, ok := s.eng.Catalog().Table(opts.Table)
	if !ok {
		return 0, fmt.Errorf("table %q does not exist (tables: %s)", opts.Table, strings.Join(s.eng.Catalog().Names(), ", "))
	}
	if err := s.eng.Writable("import"); err != nil {
		return 0, err
	}
	src, err := newRowSource(t, opts.Format, opts.Name, r)
	if err != nil {
		return 0, inputError(opts.Name, 1, 0, err)
	}
	size := opts.Batch
	if size <= 0 {
		size = 5000
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var replaced int64
	writes := 0
	beforeWrite := func() {
		if writes++; writes == 2 && opts.SecondWrite != nil {
			opts.SecondWrite(cutNote(t))
		}
	}
	batches := make(chan importBatch, 1)
	go readBatches(rctx, t, src, size, batches)
	if len(t.Indexes) == 0 {
		write := func(ctx context.Context, muts []exec.Mutation) error {
			beforeWrite()
			wctx, cancel := writeContext(ctx, opts.WriteTimeout)
			defer cancel()
			if opts.Replaced != nil {
				keys := make([][]byte, len(muts))
				for i := range muts {
					keys[i] = muts[i].Key
				}
				if err := s.countReplaced(wctx, t, keys, &replaced, opts.Replaced); err != nil {
					return writeError(ctx, err, opts.WriteTimeout)
				}
			}
			return writeError(ctx, s.eng.WriteMutations(wctx, t, muts), opts.WriteTimeout)
		}
		return importSorted(ctx, write, t, batches, opts, size)
	}
	var written int64
	for b := range batches {
		if b.err != nil {
			return written, inputError(opts.Name, b.line, written, b.err)
		}
		beforeWrite()
		wctx, wcancel := writeContext(ctx, opts.WriteTimeout)
		var err error
		if opts.Replaced != nil {
			var keys [][]byte
			if keys, _, err = engine.RowKeys(t, b.rows); err == nil {
				err = s.countReplaced(wctx, t, keys, &replaced, opts.Replaced)
			}
		}
		if err == nil {
			err = s.eng.Write(wctx, t, nil, b.rows, 0, nil)
		}
		wcancel()
		if err != nil {
			ie := &ImportError{Name: opts.Name, Written: written, Unsure: int64(len(b.rows)), Err: writeError(ctx, err, opts.WriteTimeout)}
			if ue := (*exec.UniqueError)(nil); errors.As(err, &ue) {
				// The write was refused before anything was written.
				ie.Unsure, ie.Line = 0, lineOfKey(t, b, ue.Row)
			}
			return written, ie
		}
		written += int64(len(b.rows))
		if opts.Progress != nil {
			opts.Progress(written)
		}
	}
	if err := ctx.Err(); err != nil {
		return written, &ImportError{Name: opts.Name, Written: written, Err: err}
	}
	return written, nil
}

// cutNote says what an import into t leaves when it is cut short.
func cutNote(t *catalog.Table) string {
	const note = "%s is written in parts, each committed as it is written: an import cut short (Ctrl-C, a timeout, a crash) leaves the rows of the parts before, and "
	for _, c := range t.Key.Components {
		if c.Kind == catalog.KindRandom {
			return fmt.Sprintf(note+"running it again writes those rows a second time, since the keys end in a random number", t.Name)
		}
	}
	return fmt.Sprintf(note+"running it again finishes it, writing the same keys again", t.Name)
}

// importBatch is rows read and checked with the line of each, or the
// error that ended reading with its line.
type importBatch struct {
	rows  []catalog.Row
	lines []int
	line  int
	err   error
}

// lineOfKey is the input line of the row of b stored under key, or 0 when
// no row of b has it (a key with a random part cannot be computed again).
func lineOfKey(t *catalog.Table, b importBatch, key []byte) int {
	zero := func(int64) int64 { return 0 }
	for i, r := range b.rows {
		if k, err := t.EncodeKey(r, zero); err == nil && bytes.Equal(k, key) && i < len(b.lines) {
			return b.lines[i]
		}
	}
	return 0
}

// writeContext is the context of one write of an import: the import's,
// with the write timeout when there is one.
func writeContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}

// writeError says which limit stopped a write that ran out of time: the
// import's own deadline is the write timeout when ctx itself is not done.
func writeError(ctx context.Context, err error, timeout time.Duration) error {
	if err != nil && timeout > 0 && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("a write to the store took longer than %s (the --timeout limit on each batch write; 0 turns it off): %w", timeout, err)
	}
	return err
}

// readBatches reads rows, checks that each has a key, and sends them in
// batches of size. It closes out when the input ends, at the first bad
// row (sent as an error), or when ctx is done.
func readBatches(ctx context.Context, t *catalog.Table, src rowSource, size int, out chan<- importBatch) {
	defer close(out)
	send := func(b importBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	rows := make([]catalog.Row, 0, size)
	lines := make([]int, 0, size)
	for {
		row, line, err := src.next()
		if errors.Is(err, io.EOF) {
			if len(rows) > 0 {
				send(importBatch{rows: rows, lines: lines})
			}
			return
		}
		if err == nil && t.Wide != nil {
			row, err = t.Wide.Complete(row)
		}
		if err == nil {
			err = t.CheckStoredKeys(row)
		}
		if err != nil {
			send(importBatch{line: line, err: err})
			return
		}
		rows, lines = append(rows, row), append(lines, line)
		if len(rows) == size {
			if !send(importBatch{rows: rows, lines: lines}) {
				return
			}
			rows, lines = make([]catalog.Row, 0, size), make([]int, 0, size)
		}
	}
}

// ImportFormats are the input formats ImportOptions.Format names.
var ImportFormats = []string{"csv", "tsv", "json", "jsonl"}

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
