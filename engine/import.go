package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
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

// rowSource yields converted rows with their line (for a JSON array, the
// line where the object ends); io.EOF ends it. An error about a line comes
// with that line. A source that also has a close method is closed when
// reading ends, however it ends.
type rowSource interface {
	next() (catalog.Row, int, error)
}

// seqSource yields the rows of a sequence, each on the "line" of its place
// in it.
type seqSource struct {
	pull func() (catalog.Row, bool)
	stop func()
	line int
}

func newSeqSource(rows iter.Seq[catalog.Row]) *seqSource {
	next, stop := iter.Pull(rows)
	return &seqSource{pull: next, stop: stop}
}

func (s *seqSource) next() (catalog.Row, int, error) {
	s.line++
	r, ok := s.pull()
	if !ok {
		return nil, s.line, io.EOF
	}
	return r, s.line, nil
}

func (s *seqSource) close() { s.stop() }

// countReplaced adds the keys of a batch that replace a row to *total and
// reports the total.
func (e *Engine) countReplaced(ctx context.Context, t *catalog.Table, keys [][]byte, total *int64, report func(int64)) error {
	if len(keys) == 0 {
		return nil
	}
	n, err := e.Replaced(ctx, t, keys)
	if err != nil {
		return err
	}
	*total += n
	report(*total)
	return nil
}

// Import loads the rows of r, in opts.Format, into opts.Table, creating
// its physical table on demand. It returns the number of rows written.
// Reading and checking the input runs alongside the writes, one batch
// ahead. It is what `rkql import` runs.
//
// A table without indexes is loaded in key order: the whole input is read,
// checked and sorted (spilling to temporary files past sortRunBytes) before
// the first row is written, so a bad line writes nothing.
func (e *Engine) Import(ctx context.Context, r io.Reader, opts ImportOptions) (int64, error) {
	t, err := e.importTable(opts)
	if err != nil {
		return 0, err
	}
	src, err := newRowSource(t, opts.Format, opts.Name, r)
	if err != nil {
		return 0, inputError(opts.Name, 1, 0, err)
	}
	return e.importFrom(ctx, t, src, opts)
}

// ImportRows loads rows already made into opts.Table, as Import loads the
// rows it reads: the same checks, batches, key order, counts and errors,
// where the line of a row is its place in rows, from 1. opts.Format is
// not used. The import keeps the rows it is given until they are written:
// they must not change meanwhile. It is what the examples loader runs.
func (e *Engine) ImportRows(ctx context.Context, rows iter.Seq[catalog.Row], opts ImportOptions) (int64, error) {
	t, err := e.importTable(opts)
	if err != nil {
		return 0, err
	}
	return e.importFrom(ctx, t, newSeqSource(rows), opts)
}

// importTable is the table an import loads, once the engine may write.
func (e *Engine) importTable(opts ImportOptions) (*catalog.Table, error) {
	t, ok := e.Catalog().Table(opts.Table)
	if !ok {
		return nil, fmt.Errorf("table %q does not exist (tables: %s)", opts.Table, strings.Join(e.Catalog().Names(), ", "))
	}
	if err := e.Writable("import"); err != nil {
		return nil, err
	}
	return t, nil
}

// importer is one import's state: what it loads, and the counts it
// reports as it goes.
type importer struct {
	e        *Engine
	t        *catalog.Table
	opts     ImportOptions
	replaced int64
	writes   int
}

// beforeWrite is called before each write to the store.
func (im *importer) beforeWrite() {
	if im.writes++; im.writes == 2 && im.opts.SecondWrite != nil {
		im.opts.SecondWrite(cutNote(im.t))
	}
}

// importFrom loads the rows of src into t: in key order when t has no
// indexes, else batch by batch with their index entries.
func (e *Engine) importFrom(ctx context.Context, t *catalog.Table, src rowSource, opts ImportOptions) (int64, error) {
	size := opts.Batch
	if size <= 0 {
		size = 5000
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	im := &importer{e: e, t: t, opts: opts}
	batches := make(chan importBatch, 1)
	go readBatches(rctx, t, src, size, batches)
	if len(t.Indexes) == 0 {
		return importSorted(ctx, im.writeSorted, t, batches, opts, size)
	}
	return im.batched(ctx, batches)
}

// writeSorted writes mutations of the sorted path, counting the rows they
// replace first when asked to.
func (im *importer) writeSorted(ctx context.Context, muts []exec.Mutation) error {
	im.beforeWrite()
	timeout := im.opts.WriteTimeout
	wctx, cancel := writeContext(ctx, timeout)
	defer cancel()
	if im.opts.Replaced != nil {
		keys := make([][]byte, len(muts))
		for i := range muts {
			keys[i] = muts[i].Key
		}
		if err := im.e.countReplaced(wctx, im.t, keys, &im.replaced, im.opts.Replaced); err != nil {
			return writeError(ctx, err, timeout)
		}
	}
	return writeError(ctx, im.e.WriteMutations(wctx, im.t, muts), timeout)
}

// batched writes each batch as it comes, with its index entries.
func (im *importer) batched(ctx context.Context, batches <-chan importBatch) (int64, error) {
	opts := im.opts
	var written int64
	for b := range batches {
		if b.err != nil {
			return written, inputError(opts.Name, b.line, written, b.err)
		}
		im.beforeWrite()
		wctx, wcancel := writeContext(ctx, opts.WriteTimeout)
		var err error
		if opts.Replaced != nil {
			var keys [][]byte
			if keys, _, err = RowKeys(im.t, b.rows); err == nil {
				err = im.e.countReplaced(wctx, im.t, keys, &im.replaced, opts.Replaced)
			}
		}
		if err == nil {
			err = im.e.Write(wctx, im.t, nil, b.rows, 0, nil)
		}
		wcancel()
		if err != nil {
			ie := &ImportError{Name: opts.Name, Written: written, Unsure: int64(len(b.rows)), Err: writeError(ctx, err, opts.WriteTimeout)}
			if ue := (*exec.UniqueError)(nil); errors.As(err, &ue) {
				// The write was refused before anything was written.
				ie.Unsure, ie.Line = 0, lineOfKey(im.t, b, ue.Row)
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
	if c, ok := src.(interface{ close() }); ok {
		defer c.close()
	}
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
