package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// errScanClosed is returned by Next after Close.
var errScanClosed = errors.New("embedded: scan is closed")

// Get returns the rows with the given keys that exist and have a visible
// cell and pass opts.Filter, in the order of keys, within one read
// transaction. opts.Limit and opts.Columns apply; opts.Reverse does not.
func (s *Store) Get(ctx context.Context, tableName string, keys [][]byte, opts exec.ReadOptions) ([]*exec.StoreRow, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.table(tableName)
	if err != nil || t.absent {
		return nil, err
	}
	if err := t.hasFamilies(opts.Cells); err != nil {
		return nil, err
	}
	b := newRowBuilder(t, opts.Versions, s.now())
	b.setRead(&opts)
	var rows []*exec.StoreRow
	var read int64
	err = s.view(func(tx *bolt.Tx) error {
		bk, err := t.bucket(tx)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := ctx.Err(); err != nil {
				return err
			}
			v := bk.Get(k)
			if v == nil {
				continue
			}
			read++
			row, err := b.build(k, v)
			if err != nil {
				return err
			}
			if row == nil {
				continue
			}
			rows = append(rows, row)
			if opts.Limit > 0 && len(rows) >= opts.Limit {
				return nil
			}
		}
		return nil
	})
	if st := opts.Stats; st != nil {
		st.RPCs.Add(1)
		st.RowsRead.Add(read)
		st.Bytes.Add(b.copied)
		st.Regions.Add(int64(regionsOfKeys(t, keys)))
	}
	if err != nil {
		return nil, wrapDB(err)
	}
	return rows, nil
}

// regionsOfKeys counts the distinct regions holding keys.
func regionsOfKeys(t *table, keys [][]byte) int {
	if len(t.spec.Splits) == 0 {
		return min(len(keys), 1)
	}
	seen := make([]bool, len(t.spec.Splits)+1)
	n := 0
	for _, k := range keys {
		if r := t.regionOf(k); !seen[r] {
			seen[r] = true
			n++
		}
	}
	return n
}

// Scan streams the rows of r that have a visible cell. The returned
// iterator holds no transaction between calls to Next; see the package
// documentation. Empty Start and Stop mean open bounds, like nil ones.
func (s *Store) Scan(ctx context.Context, tableName string, r exec.Range, opts exec.ReadOptions) (exec.RowIter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Ranges != nil {
		return nil, fmt.Errorf("several ranges in one scan: %w", exec.ErrNotPushable)
	}
	t, err := s.table(tableName)
	if err != nil {
		return nil, err
	}
	if err := t.hasFamilies(opts.Cells); err != nil {
		return nil, err
	}
	it := &scanIter{
		s:       s,
		t:       t,
		start:   bytes.Clone(nonEmpty(r.Start)),
		stop:    bytes.Clone(nonEmpty(r.Stop)),
		reverse: opts.Reverse,
		limit:   opts.Limit,
		stats:   opts.Stats,
		batch:   min(64, s.scanBatch),
		build:   newRowBuilder(t, opts.Versions, s.now()),
	}
	it.build.setRead(&opts)
	if it.limit <= 0 {
		it.limit = -1
	}
	it.done = t.absent || emptyRange(it.start, it.stop)
	if st := opts.Stats; st != nil {
		st.RPCs.Add(1)
		st.Regions.Add(int64(t.regionsTouched(it.start, it.stop)))
	}
	return it, nil
}

func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// scanIter is the RowIter of Scan. Each refill reads up to batch rows in
// one read transaction into buf; Next hands them out. It is not safe for
// concurrent use.
type scanIter struct {
	s           *Store
	t           *table
	start, stop []byte // bounds; nil is open
	reverse     bool
	limit       int // rows still to return; -1 means no limit
	stats       *exec.Stats
	batch       int // rows to walk in the next refill; doubles up to s.scanBatch
	build       *rowBuilder

	buf  []pending
	pos  int    // next entry of buf to hand out
	tail int64  // rows walked after the last entry of buf
	last []byte // last key walked; nil before the first refill
	done bool   // nothing is left to walk
	err  error  // sticky error
	shut bool   // Close was called
}

// pending is a row waiting in scanIter.buf.
type pending struct {
	row *exec.StoreRow
	// walked counts the rows walked since the previous pending row, this
	// one included.
	walked int64
}

// Next returns the next row, or io.EOF after the last.
func (it *scanIter) Next(ctx context.Context) (*exec.StoreRow, error) {
	switch {
	case it.shut:
		return nil, errScanClosed
	case it.err != nil:
		return nil, it.err
	}
	for it.pos >= len(it.buf) {
		it.addRead(it.tail)
		it.tail = 0
		if it.done {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := it.refill(ctx); err != nil {
			it.err = err
			return nil, err
		}
	}
	p := it.buf[it.pos]
	it.buf[it.pos] = pending{}
	it.pos++
	it.addRead(p.walked)
	return p.row, nil
}

func (it *scanIter) addRead(n int64) {
	if it.stats != nil && n != 0 {
		it.stats.RowsRead.Add(n)
	}
}

// Close releases the iterator. It never fails and may be called again.
func (it *scanIter) Close() error {
	it.shut = true
	it.buf, it.build, it.last = nil, nil, nil
	return nil
}

// refill reads the next batch of rows in one read transaction.
func (it *scanIter) refill(ctx context.Context) error {
	it.buf, it.pos = it.buf[:0], 0
	tx, err := it.s.db.Begin(false)
	if err != nil {
		return wrapDB(err)
	}
	defer func() { _ = tx.Rollback() }()
	bk, err := it.t.bucket(tx)
	if err != nil {
		return err
	}
	c := bk.Cursor()
	done := ctx.Done()
	var walked, sinceRow int64
	k, v := it.seek(c)
	for ; k != nil && it.inRange(k); k, v = it.step(c) {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		walked++
		sinceRow++
		row, err := it.build.build(k, v)
		if err != nil {
			return err
		}
		if row != nil {
			it.buf = append(it.buf, pending{row: row, walked: sinceRow})
			sinceRow = 0
			if it.limit > 0 {
				it.limit--
			}
			if it.limit == 0 {
				it.done = true
				break
			}
		}
		if walked >= int64(it.batch) {
			it.last = append(it.last[:0], k...)
			break
		}
	}
	if k == nil || !it.inRange(k) {
		it.done = true
	}
	it.tail = sinceRow
	it.batch = min(2*it.batch, it.s.scanBatch)
	if it.stats != nil {
		it.stats.Bytes.Add(it.build.copied)
	}
	it.build.copied = 0
	return nil
}

// seek positions c on the first key to walk: the start of the range, or
// the key after it.last.
func (it *scanIter) seek(c *bolt.Cursor) (k, v []byte) {
	switch {
	case !it.reverse && it.last != nil:
		k, v = c.Seek(it.last)
		if k != nil && bytes.Equal(k, it.last) {
			k, v = c.Next()
		}
		return k, v
	case !it.reverse && it.start != nil:
		return c.Seek(it.start)
	case !it.reverse:
		return c.First()
	}
	// Reverse: the largest key below the bound.
	bound := it.stop
	if it.last != nil {
		bound = it.last
	}
	if bound == nil {
		return c.Last()
	}
	if k, _ = c.Seek(bound); k == nil {
		return c.Last()
	}
	return c.Prev()
}

func (it *scanIter) step(c *bolt.Cursor) (k, v []byte) {
	if it.reverse {
		return c.Prev()
	}
	return c.Next()
}

// inRange reports whether k is still inside the range in the scan's
// direction.
func (it *scanIter) inRange(k []byte) bool {
	if it.reverse {
		return it.start == nil || bytes.Compare(k, it.start) >= 0
	}
	return it.stop == nil || bytes.Compare(k, it.stop) < 0
}

// hasFamilies refuses a read of cells of a family t does not have, as
// HBase does.
func (t *table) hasFamilies(sel *exec.CellSelect) error {
	if sel == nil {
		return nil
	}
	for _, f := range sel.Families {
		if t.family(f) < 0 {
			return fmt.Errorf("embedded: no such column family: %s in table %s", f, t.spec.Name)
		}
	}
	return nil
}
