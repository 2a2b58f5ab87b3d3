package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/internal/extsort"
)

// sortRunBytes is the most bytes of encoded mutations an import holds in
// memory; beyond it, each sorted run spills to a temporary file and the
// runs are merged as they are written.
const sortRunBytes = 64 << 20

// errBadRecord is a sorted mutation that does not decode: the temporary
// file was changed under the import.
var errBadRecord = errors.New("import sort: bad record in a temporary file")

// mutationSorter puts an import's mutations in key order before they are
// written, so that the store receives them as one ascending sequence: each
// of its pages is then written about once, however the input is ordered.
// Mutations of one key keep the order they were added in.
//
// A mutation is an extsort record: its key, and as the value its cells
// (family, qualifier, timestamp, value), deletes (family, qualifier) and
// the DeleteRow flag, each field length-prefixed.
type mutationSorter struct {
	s     *extsort.Sorter
	enc   []byte            // the value being encoded
	names map[string]string // interned families and qualifiers
}

func newMutationSorter(limit int) *mutationSorter {
	return &mutationSorter{s: extsort.New(limit), names: map[string]string{}}
}

// add adds m to the sort.
func (s *mutationSorter) add(m *exec.Mutation) error {
	s.enc = appendMutation(s.enc[:0], m)
	if err := s.s.Add(m.Key, s.enc); err != nil {
		return fmt.Errorf("import sort: %w", err)
	}
	return nil
}

// Close removes the temporary files.
func (s *mutationSorter) Close() { s.s.Close() }

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func appendStr(b []byte, v string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// appendMutation appends what of m is not its key.
func appendMutation(b []byte, m *exec.Mutation) []byte {
	b = binary.AppendUvarint(b, uint64(len(m.Cells)))
	for i := range m.Cells {
		c := &m.Cells[i]
		b = appendStr(appendStr(b, c.Family), c.Qualifier)
		b = binary.AppendVarint(b, c.Timestamp)
		b = appendBytes(b, c.Value)
	}
	b = binary.AppendUvarint(b, uint64(len(m.Deletes)))
	for i := range m.Deletes {
		b = appendStr(appendStr(b, m.Deletes[i].Family), m.Deletes[i].Qualifier)
	}
	if m.DeleteRow {
		return append(b, 1)
	}
	return append(b, 0)
}

// each calls fn with every mutation in key order, in batches of at most
// size. A batch's memory is its own: fn may keep it.
func (s *mutationSorter) each(size int, fn func([]exec.Mutation) error) error {
	it, err := s.s.Iter()
	if err != nil {
		return importSortError(err)
	}
	batch := make([]exec.Mutation, 0, size)
	var a batchArena
	for {
		key, val, err := it.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return importSortError(err)
		}
		m, err := s.decode(key, val, &a)
		if err != nil {
			return err
		}
		if batch = append(batch, m); len(batch) == size {
			if err := fn(batch); err != nil {
				return err
			}
			batch, a = make([]exec.Mutation, 0, size), batchArena{}
		}
	}
	if len(batch) > 0 {
		return fn(batch)
	}
	return nil
}

// importSortError is an error of the sort, in the import's words.
func importSortError(err error) error {
	if errors.Is(err, extsort.ErrBadRecord) {
		return errBadRecord
	}
	return fmt.Errorf("import sort: %w", err)
}

// recordDecoder reads the fields of one record.
type recordDecoder struct {
	b   []byte
	err bool
}

func (d *recordDecoder) uvarint() uint64 {
	v, w := binary.Uvarint(d.b)
	if w <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[w:]
	return v
}

func (d *recordDecoder) bytes() []byte {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.err, d.b = true, nil
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// batchArena hands out the memory of one batch's mutations in chunks, so
// that decoding a record allocates only now and then. A chunk is never
// reused: the batch's mutations point into it.
type batchArena struct {
	bytes []byte
	cells []exec.Cell
}

const arenaChunk = 256 << 10

func (a *batchArena) copy(b []byte) []byte {
	if cap(a.bytes)-len(a.bytes) < len(b) {
		a.bytes = make([]byte, 0, max(arenaChunk, len(b)))
	}
	start := len(a.bytes)
	a.bytes = append(a.bytes, b...)
	return a.bytes[start:len(a.bytes):len(a.bytes)]
}

func (a *batchArena) cellSlice(n int) []exec.Cell {
	if cap(a.cells)-len(a.cells) < n {
		a.cells = make([]exec.Cell, 0, max(arenaChunk/64, n))
	}
	start := len(a.cells)
	a.cells = a.cells[:start+n]
	return a.cells[start : start+n : start+n]
}

// decode turns a record back into a mutation whose key and values are
// copies in a, so they outlive the record.
func (s *mutationSorter) decode(key, val []byte, a *batchArena) (exec.Mutation, error) {
	d := &recordDecoder{b: a.copy(val)}
	name := func() string {
		b := d.bytes()
		n, ok := s.names[string(b)]
		if !ok {
			n = string(b)
			s.names[n] = n
		}
		return n
	}
	m := exec.Mutation{Key: a.copy(key)}
	if nc := d.uvarint(); nc > 0 && nc <= uint64(len(d.b)) {
		m.Cells = a.cellSlice(int(nc))
		for i := range m.Cells {
			c := &m.Cells[i]
			c.Family, c.Qualifier = name(), name()
			ts, w := binary.Varint(d.b)
			if w <= 0 {
				return m, errBadRecord
			}
			d.b = d.b[w:]
			c.Timestamp, c.Value = ts, d.bytes()
		}
	}
	if nd := d.uvarint(); nd > 0 && nd <= uint64(len(d.b)) {
		m.Deletes = a.cellSlice(int(nd))
		for i := range m.Deletes {
			m.Deletes[i].Family, m.Deletes[i].Qualifier = name(), name()
		}
	}
	if d.err || len(d.b) != 1 {
		return m, errBadRecord
	}
	m.DeleteRow = d.b[0] == 1
	return m, nil
}

// importSorted reads every batch, sorts the rows' mutations by key and
// writes them in that order, size at a time.
func importSorted(ctx context.Context, write func(context.Context, []exec.Mutation) error, t *catalog.Table, batches <-chan importBatch, opts ImportOptions, size int) (int64, error) {
	s := newMutationSorter(sortRunBytes)
	defer s.Close()
	for b := range batches {
		if b.err != nil {
			return 0, inputError(opts.Name, b.line, 0, b.err)
		}
		for _, r := range b.rows {
			m, err := exec.RowMutation(t, r, 0, nil, nil)
			if err == nil {
				err = s.add(&m)
			}
			if err != nil {
				return 0, &ImportError{Name: opts.Name, Err: err}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, &ImportError{Name: opts.Name, Err: err}
	}
	var written, unsure int64
	err := s.each(max(size, sortedWriteRows), func(muts []exec.Mutation) error {
		// Each write is at most commitRows, so that when one fails the
		// rows counted are the ones the store committed, give or take
		// that one write.
		for len(muts) > 0 {
			part := muts[:min(len(muts), commitRows)]
			if err := write(ctx, part); err != nil {
				unsure = int64(len(part))
				return err
			}
			written += int64(len(part))
			muts = muts[len(part):]
		}
		if opts.Progress != nil {
			opts.Progress(written)
		}
		return nil
	})
	if err != nil {
		return written, &ImportError{Name: opts.Name, Written: written, Unsure: unsure, Err: err}
	}
	return written, nil
}

// sortedWriteRows is the fewest rows a sorted import decodes from its
// sorted runs at once.
const sortedWriteRows = 100_000

// commitRows is the most rows of one write of a sorted import: the
// embedded store's rows per transaction, so that a write there commits
// whole or not at all.
const commitRows = 10_000
