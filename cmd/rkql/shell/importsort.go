package shell

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

// sortRunBytes is the most bytes of encoded mutations an import holds in
// memory; beyond it, each sorted run spills to a temporary file and the
// runs are merged as they are written.
const sortRunBytes = 64 << 20

// errBadRecord is a spilled record that does not decode: the temporary
// file was changed under the import.
var errBadRecord = errors.New("import sort: bad record in a temporary file")

// mutationSorter puts an import's mutations in key order before they are
// written, so that the store receives them as one ascending sequence: each
// of its pages is then written about once, however the input is ordered.
// Mutations of one key keep the order they were added in.
//
// A mutation is held as one length-prefixed record: key, cells (family,
// qualifier, timestamp, value), deletes (family, qualifier) and the
// DeleteRow flag, each field length-prefixed. Runs in memory and in
// temporary files hold the same records.
type mutationSorter struct {
	limit int
	buf   []byte // length-prefixed records of the current run
	offs  []int  // where each record of the current run starts in buf
	runs  []*os.File
	names map[string]string // interned families and qualifiers
}

func newMutationSorter(limit int) *mutationSorter {
	return &mutationSorter{limit: limit, names: map[string]string{}}
}

// add appends m to the current run, spilling the run when it is full.
func (s *mutationSorter) add(m *exec.Mutation) error {
	start := len(s.buf)
	s.buf = append(s.buf, make([]byte, binary.MaxVarintLen32)...)
	s.buf = appendMutation(s.buf, m)
	// The length prefix is written in front of the record once its length
	// is known; it always takes binary.MaxVarintLen32 bytes.
	n := len(s.buf) - start - binary.MaxVarintLen32
	putFixedUvarint(s.buf[start:], uint64(n))
	s.offs = append(s.offs, start)
	if len(s.buf) >= s.limit {
		return s.spill()
	}
	return nil
}

// putFixedUvarint writes v as a uvarint of exactly MaxVarintLen32 bytes,
// padding with continuation bytes.
func putFixedUvarint(b []byte, v uint64) {
	for i := 0; i < binary.MaxVarintLen32-1; i++ {
		b[i] = byte(v) | 0x80
		v >>= 7
	}
	b[binary.MaxVarintLen32-1] = byte(v)
}

// Close removes the temporary files.
func (s *mutationSorter) Close() {
	for _, f := range s.runs {
		f.Close()
	}
	s.runs = nil
}

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func appendStr(b []byte, v string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func appendMutation(b []byte, m *exec.Mutation) []byte {
	b = appendBytes(b, m.Key)
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

// record returns the length-prefixed record at the start of b, and the
// bytes it takes with its prefix.
func record(b []byte) (rec []byte, size int) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, 0
	}
	return b[w : w+int(n)], w + int(n)
}

// recordKey is the key of a record, nil if it does not decode.
func recordKey(rec []byte) []byte {
	k, _ := record(rec)
	return k
}

// sortRun orders the current run's records by key, then by the order they
// were added in. Each key is found once, not at every comparison.
func (s *mutationSorter) sortRun() {
	type entry struct {
		key []byte
		off int
	}
	ents := make([]entry, len(s.offs))
	for i, off := range s.offs {
		rec, _ := record(s.buf[off:])
		ents[i] = entry{recordKey(rec), off}
	}
	slices.SortFunc(ents, func(a, b entry) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.off, b.off)
	})
	for i := range ents {
		s.offs[i] = ents[i].off
	}
}

// spill writes the current run, sorted, to a temporary file.
func (s *mutationSorter) spill() error {
	s.sortRun()
	f, err := os.CreateTemp("", "rkql-import-*")
	if err != nil {
		return fmt.Errorf("import sort: %w", err)
	}
	// The file is gone once closed, however the import ends.
	_ = os.Remove(f.Name())
	s.runs = append(s.runs, f)
	w := bufio.NewWriterSize(f, 1<<20)
	for _, off := range s.offs {
		_, size := record(s.buf[off:])
		if _, err := w.Write(s.buf[off : off+size]); err != nil {
			return fmt.Errorf("import sort: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("import sort: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("import sort: %w", err)
	}
	s.buf, s.offs = s.buf[:0], s.offs[:0]
	return nil
}

// each calls fn with every mutation in key order, in batches of at most
// size. A batch's memory is its own: fn may keep it.
func (s *mutationSorter) each(size int, fn func([]exec.Mutation) error) error {
	next, err := s.merged()
	if err != nil {
		return err
	}
	batch := make([]exec.Mutation, 0, size)
	var a batchArena
	for {
		rec, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		m, err := s.decode(rec, &a)
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

// merged returns a function yielding the records of every run in order,
// then io.EOF. A record is valid until the next call.
func (s *mutationSorter) merged() (func() ([]byte, error), error) {
	if len(s.runs) == 0 {
		s.sortRun()
		i := 0
		return func() ([]byte, error) {
			if i == len(s.offs) {
				return nil, io.EOF
			}
			rec, _ := record(s.buf[s.offs[i]:])
			i++
			return rec, nil
		}, nil
	}
	if len(s.offs) > 0 {
		if err := s.spill(); err != nil {
			return nil, err
		}
	}
	h := &runHeap{}
	for i, f := range s.runs {
		r := &runReader{r: bufio.NewReaderSize(f, 256<<10), run: i}
		if err := r.advance(); err != nil {
			if errors.Is(err, io.EOF) {
				continue
			}
			return nil, err
		}
		h.rs = append(h.rs, r)
	}
	heap.Init(h)
	var last *runReader
	return func() ([]byte, error) {
		if last != nil {
			if err := last.advance(); errors.Is(err, io.EOF) {
				heap.Pop(h)
			} else if err != nil {
				return nil, err
			} else {
				heap.Fix(h, 0)
			}
			last = nil
		}
		if len(h.rs) == 0 {
			return nil, io.EOF
		}
		last = h.rs[0]
		return last.rec, nil
	}, nil
}

// runReader reads the records of one spilled run.
type runReader struct {
	r   *bufio.Reader
	run int // runs spilled earlier hold earlier mutations of a key
	rec []byte
	key []byte
}

func (r *runReader) advance() error {
	n, err := binary.ReadUvarint(r.r)
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	if err != nil || n > 1<<31 {
		return errBadRecord
	}
	if uint64(cap(r.rec)) < n {
		r.rec = make([]byte, n)
	}
	r.rec = r.rec[:n]
	if _, err := io.ReadFull(r.r, r.rec); err != nil {
		return errBadRecord
	}
	r.key = recordKey(r.rec)
	return nil
}

// runHeap orders run readers by their current key, then by run.
type runHeap struct{ rs []*runReader }

func (h *runHeap) Len() int { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool {
	if c := bytes.Compare(h.rs[i].key, h.rs[j].key); c != 0 {
		return c < 0
	}
	return h.rs[i].run < h.rs[j].run
}
func (h *runHeap) Swap(i, j int) { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)    { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	r := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return r
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
func (s *mutationSorter) decode(rec []byte, a *batchArena) (exec.Mutation, error) {
	d := &recordDecoder{b: a.copy(rec)}
	name := func() string {
		b := d.bytes()
		n, ok := s.names[string(b)]
		if !ok {
			n = string(b)
			s.names[n] = n
		}
		return n
	}
	m := exec.Mutation{Key: d.bytes()}
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
