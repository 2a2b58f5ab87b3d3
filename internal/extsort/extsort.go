package extsort

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// ErrBadRecord is a spilled record that does not decode: a temporary file
// was changed under the sorter.
var ErrBadRecord = errors.New("extsort: bad record in a temporary file")

// prefix is the width of a record's length prefix in a run: a uvarint
// padded with continuation bytes, so that it can be written in front of a
// record once the record's length is known.
const prefix = binary.MaxVarintLen32

// maxRecord is the largest record a run may hold.
const maxRecord = 1 << 31

// Sorter orders records by key, stably. It is not safe for concurrent
// use; Close it when done.
type Sorter struct {
	limit int
	buf   []byte // the current run's records, each length-prefixed
	offs  []int  // where each record of the current run starts in buf
	runs  []*os.File
	iter  bool
}

// New returns a sorter that holds at most about limit bytes of records in
// memory before it spills them to a temporary file.
func New(limit int) *Sorter { return &Sorter{limit: limit} }

// Add appends a record of key and value to the current run, spilling the
// run when it is full. Sorter copies both. Add must not be called once
// Iter has been.
func (s *Sorter) Add(key, value []byte) error {
	if s.iter {
		return errors.New("extsort: Add after Iter")
	}
	if len(key)+len(value)+binary.MaxVarintLen64 >= maxRecord {
		return fmt.Errorf("extsort: a record of %d bytes is too large", len(key)+len(value))
	}
	start := len(s.buf)
	s.buf = append(s.buf, make([]byte, prefix)...)
	s.buf = binary.AppendUvarint(s.buf, uint64(len(key)))
	s.buf = append(s.buf, key...)
	s.buf = append(s.buf, value...)
	putFixedUvarint(s.buf[start:], uint64(len(s.buf)-start-prefix))
	s.offs = append(s.offs, start)
	if len(s.buf) >= s.limit {
		return s.spill()
	}
	return nil
}

// Runs is the number of runs spilled to temporary files so far.
func (s *Sorter) Runs() int { return len(s.runs) }

// Close removes the temporary files.
func (s *Sorter) Close() {
	for _, f := range s.runs {
		f.Close()
	}
	s.runs = nil
}

// putFixedUvarint writes v as a uvarint of exactly prefix bytes.
func putFixedUvarint(b []byte, v uint64) {
	for i := 0; i < prefix-1; i++ {
		b[i] = byte(v) | 0x80
		v >>= 7
	}
	b[prefix-1] = byte(v)
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

// split parts a record into its key and value; ok is false when it does
// not decode.
func split(rec []byte) (key, value []byte, ok bool) {
	n, w := binary.Uvarint(rec)
	if w <= 0 || uint64(len(rec)-w) < n {
		return nil, nil, false
	}
	return rec[w : w+int(n)], rec[w+int(n):], true
}

// sortRun orders the current run's records by key, then by the order they
// were added in. Each key is found once, not at every comparison.
func (s *Sorter) sortRun() {
	type entry struct {
		key []byte
		off int
	}
	ents := make([]entry, len(s.offs))
	for i, off := range s.offs {
		rec, _ := record(s.buf[off:])
		k, _, _ := split(rec)
		ents[i] = entry{k, off}
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
func (s *Sorter) spill() error {
	s.sortRun()
	f, err := os.CreateTemp("", "rkql-sort-*")
	if err != nil {
		return fmt.Errorf("extsort: %w", err)
	}
	// The file is gone once closed, however the sort ends.
	_ = os.Remove(f.Name())
	s.runs = append(s.runs, f)
	w := bufio.NewWriterSize(f, 1<<20)
	for _, off := range s.offs {
		_, size := record(s.buf[off:])
		if _, err := w.Write(s.buf[off : off+size]); err != nil {
			return fmt.Errorf("extsort: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("extsort: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("extsort: %w", err)
	}
	s.buf, s.offs = s.buf[:0], s.offs[:0]
	return nil
}

// Iter ends the adding and returns the records in key order, those of one
// key in the order they were added.
func (s *Sorter) Iter() (*Iter, error) {
	s.iter = true
	if len(s.runs) == 0 {
		s.sortRun()
		return &Iter{mem: s}, nil
	}
	if len(s.offs) > 0 {
		if err := s.spill(); err != nil {
			return nil, err
		}
	}
	it := &Iter{h: &runHeap{}}
	for i, f := range s.runs {
		r := &runReader{r: bufio.NewReaderSize(f, 256<<10), run: i}
		if err := r.advance(); err != nil {
			if errors.Is(err, io.EOF) {
				continue
			}
			return nil, err
		}
		it.h.rs = append(it.h.rs, r)
	}
	heap.Init(it.h)
	return it, nil
}

// Iter yields a Sorter's records in order. It reads from the Sorter's
// memory or temporary files, so the Sorter must not be closed while it is
// in use.
type Iter struct {
	mem  *Sorter // the run in memory, when nothing was spilled
	i    int
	h    *runHeap
	last *runReader
}

// Next returns the next record's key and value, or io.EOF after the last.
// They are valid until the next call.
func (it *Iter) Next() (key, value []byte, err error) {
	if it.mem != nil {
		if it.i == len(it.mem.offs) {
			return nil, nil, io.EOF
		}
		rec, _ := record(it.mem.buf[it.mem.offs[it.i]:])
		it.i++
		k, v, _ := split(rec)
		return k, v, nil
	}
	if it.last != nil {
		if err := it.last.advance(); errors.Is(err, io.EOF) {
			heap.Pop(it.h)
		} else if err != nil {
			return nil, nil, err
		} else {
			heap.Fix(it.h, 0)
		}
		it.last = nil
	}
	if len(it.h.rs) == 0 {
		return nil, nil, io.EOF
	}
	it.last = it.h.rs[0]
	return it.last.key, it.last.value, nil
}

// runReader reads the records of one spilled run.
type runReader struct {
	r     *bufio.Reader
	run   int // runs spilled earlier hold earlier records of a key
	rec   []byte
	key   []byte
	value []byte
}

func (r *runReader) advance() error {
	n, err := binary.ReadUvarint(r.r)
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	if err != nil || n > maxRecord {
		return ErrBadRecord
	}
	if uint64(cap(r.rec)) < n {
		r.rec = make([]byte, n)
	}
	r.rec = r.rec[:n]
	if _, err := io.ReadFull(r.r, r.rec); err != nil {
		return ErrBadRecord
	}
	var ok bool
	if r.key, r.value, ok = split(r.rec); !ok {
		return ErrBadRecord
	}
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
