package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/rkql/rkql/exec"
)

var _ exec.KeyScanner = (*Store)(nil)

// keysBatch is how many times Options.ScanBatch rows ScanKeys walks per
// read transaction: it copies nothing out, so a batch costs little time.
const keysBatch = 16

// ScanKeys calls fn with the key of each row of r that Scan would return
// with the same options: rows with a visible cell that pass opts.Filter.
// Without a filter, a row's cells are walked to check them and find one
// that TTL does not hide, and nothing is copied or built; with one, the
// row is decoded and matched as Scan does, on borrowed bytes. Like Scan,
// it reads in read transactions of a bounded number of rows; fn is called
// inside one and must not call back into the Store.
func (s *Store) ScanKeys(ctx context.Context, tableName string, r exec.Range, opts exec.ReadOptions, fn func(key []byte) error) error {
	t, err := s.keysTable(ctx, tableName, &opts)
	if err != nil {
		return err
	}
	k := s.newKeyScan(t, &opts, fn, nonEmpty(r.Stop), s.scanBatch*keysBatch)
	start := nonEmpty(r.Start)
	if st := opts.Stats; st != nil {
		st.RPCs.Add(1)
		st.Regions.Add(int64(t.regionsTouched(start, k.stop)))
		defer func() {
			st.RowsRead.Add(k.walked)
			st.Bytes.Add(k.size)
		}()
	}
	if t.absent || emptyRange(start, k.stop) {
		return nil
	}
	k.last = start
	for more := true; more; {
		if more, err = k.batchOnce(ctx); err != nil {
			return err
		}
	}
	return nil
}

// keysTable returns the table a keys-only read reads, after checking that
// opts ask for one ScanKeys serves: keys alone, with no Limit, Reverse or
// Ranges.
func (s *Store) keysTable(ctx context.Context, tableName string, opts *exec.ReadOptions) (*table, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !opts.KeysOnly() || opts.Limit != 0 || opts.Reverse || opts.Ranges != nil {
		return nil, fmt.Errorf("keys of a read that is not keys-only, or is limited, reversed or of several ranges: %w", exec.ErrNotPushable)
	}
	return s.table(tableName)
}

// newKeyScan returns the state of a keys-only read of t that hands keys
// before stop to fn, batch rows per read transaction.
func (s *Store) newKeyScan(t *table, opts *exec.ReadOptions, fn func([]byte) error, stop []byte, batch int) *keyScan {
	k := &keyScan{s: s, t: t, fn: fn, stop: stop, batch: batch, build: newRowBuilder(t, opts.Versions, s.now())}
	k.build.setRead(opts)
	k.noTTL = !t.hasTTL()
	k.headOnly = k.noTTL && k.build.match == nil && k.build.times == nil && k.build.pick == nil
	return k
}

// keyScan is the state of one ScanKeys call.
type keyScan struct {
	s     *Store
	t     *table
	fn    func([]byte) error
	build *rowBuilder
	stop  []byte
	batch int
	// last is where the next batch starts: the range's start (nil: the
	// table's first key), then the first key a batch did not walk.
	last   []byte
	walked int64
	size   int64 // bytes of the keys handed to fn
	// noTTL is set when no family of the table has a TTL.
	noTTL bool
	// headOnly is set when a row's first family header decides whether
	// it is visible: no TTL, no filter and no time range.
	headOnly bool
	// The batch being walked: its context, the rows walked and the bytes
	// of the keys handed to fn so far, and whether rows are left after it.
	ctx   context.Context
	n     int
	bsize int
	more  bool
}

// batchOnce walks up to k.batch rows in one read transaction and reports
// whether rows are left. It walks the bucket's pages itself where the
// store file can be mapped (leafScan), and with bbolt's cursor otherwise.
func (k *keyScan) batchOnce(ctx context.Context) (more bool, err error) {
	tx, err := k.s.db.Begin(false)
	if err != nil {
		return false, wrapDB(err)
	}
	defer func() { _ = tx.Rollback() }()
	bk, err := k.t.bucket(tx)
	if err != nil {
		return false, err
	}
	k.n, k.more, k.ctx = 0, false, ctx
	defer func() {
		k.walked += int64(k.n)
		k.size += int64(k.bsize)
		k.bsize = 0
	}()
	if root := uint64(bk.Root()); root != 0 {
		if ls, ok := k.s.leafScan(tx, k.stop); ok {
			ls.to = k
			if err := ls.scan(root, k.last); err != nil {
				return false, pageErr(err, k.t)
			}
			return k.more, nil
		}
	}
	c := bk.Cursor()
	key, v := c.Seek(k.last)
	if k.last == nil {
		key, v = c.First()
	}
	for ; key != nil && (k.stop == nil || bytes.Compare(key, k.stop) < 0); key, v = c.Next() {
		if err := k.visit(key, v); errors.Is(err, errStopScan) {
			break
		} else if err != nil {
			return false, err
		}
	}
	return k.more, nil
}

// entries takes entries i to j-1 of leaf page p, as visit takes one row.
// It is visit's loop with the common case written out: a table without
// TTL read without a filter, whose row header headFits. It runs once per
// key.
func (k *keyScan) entries(p []byte, i, j int) error {
	for ; i < j; i++ {
		key, v, ok := leafEntry(p, i)
		if !ok {
			return errPageDamaged
		}
		if !k.headOnly || k.n == k.batch || k.n%1024 == 0 || !k.t.headFits(v) {
			if err := k.visit(key, v); err != nil {
				return err
			}
			continue
		}
		k.n++
		k.bsize += len(key)
		if err := k.fn(key); err != nil {
			return err
		}
	}
	return nil
}

// visit takes one stored row of a batch: it hands the key to fn if the row
// is visible. When the batch is full it keeps the key as where the next
// batch starts and returns errStopScan.
func (k *keyScan) visit(key, v []byte) error {
	if k.n == k.batch {
		k.last, k.more = bytes.Clone(key), true
		return errStopScan
	}
	if k.n%1024 == 0 {
		if err := k.ctx.Err(); err != nil {
			return err
		}
	}
	k.n++
	var vis, ok bool
	var err error
	if k.headOnly {
		vis, ok = visibleHead(k.t, v)
	} else {
		vis, ok, err = k.visible(key, v)
	}
	switch {
	case err != nil:
		return err
	case !ok:
		return corrupt(k.t.spec.Name, key)
	case !vis:
		return nil
	}
	k.bsize += len(key)
	return k.fn(key)
}

// visible reports whether Scan would return the row stored under key as
// raw; ok is false if the row is malformed, and err is the filter's for a
// row it cannot decide.
func (k *keyScan) visible(key, raw []byte) (vis, ok bool, err error) {
	b := k.build
	// A time range or a cell selection needs the cells decoded.
	whole := b.times == nil && b.pick == nil
	switch {
	case b.match == nil && k.noTTL && whole:
		vis, ok = visibleHead(b.t, raw)
		return vis, ok, nil
	case b.match == nil && whole:
		vis, ok = visibleCells(b.t, b.cutoffs, raw)
		return vis, ok, nil
	}
	start, _, ok := b.decode(raw)
	cells := b.cells[start:]
	if ok && len(cells) > 0 && b.match == nil {
		vis = true
	} else if ok && len(cells) > 0 {
		vis, err = b.match.Match(&exec.StoreRow{Key: key, Cells: cells})
	}
	b.cells = b.cells[:start]
	return vis, ok, err
}

// headFits is visibleHead's common case, small enough to inline: the row
// starts with a one-byte family name of the table and a one-byte column
// count with room for its columns after it.
func (t *table) headFits(raw []byte) bool {
	return len(raw) >= 6 && raw[0] == rowFormat && raw[1] == 1 && t.fam1[raw[2]] &&
		raw[3] > 0 && raw[3] < 0x80 && int(raw[3]) <= (len(raw)-4)/2
}

// visibleHead is visibleCells for a table without TTL, where every cell
// is visible: a row is visible if it holds a cell, which its first family
// header says. It checks the format byte, that the family is one of the
// table's, and the column count, but not the cells after it: a damaged
// tail is found by the reads that return cells and by Check.
func visibleHead(t *table, raw []byte) (vis, ok bool) {
	// The common case, read in place: a family name and a column count
	// of one byte each, and at least two bytes per column after them.
	if t.headFits(raw) {
		return true, true
	}
	if len(raw) >= 3 && raw[0] == rowFormat && raw[1] > 0 && raw[1] < 0x80 {
		n := 2 + int(raw[1])
		if n < len(raw) {
			cols, rest := raw[n], len(raw)-n-1
			if cols > 0 && cols < 0x80 && int(cols) <= rest/2 && t.familyBytes(raw[2:n]) >= 0 {
				return true, true
			}
		}
	}
	r := newCellReader(raw)
	if r.bad || len(r.b) == 0 {
		return false, !r.bad
	}
	if fam := r.bytes(); r.bad || t.familyBytes(fam) < 0 {
		return false, false
	}
	r.count()
	return !r.bad, !r.bad
}

// visibleCells walks the cells of a stored row, as decode does, and
// reports whether one of them is visible: a column's newest version, unless
// its family's TTL hides it. ok is false if the row is malformed.
func visibleCells(t *table, cutoffs []int64, raw []byte) (vis, ok bool) {
	r := newCellReader(raw)
	var cutoff int64
	for {
		_, more := r.next()
		if !more {
			return vis, !r.bad
		}
		if r.newFam {
			fi := t.familyBytes(r.fam)
			if fi < 0 {
				return false, false
			}
			cutoff = cutoffs[fi]
		}
		// Versions are newest first: a column shows its first one or
		// none.
		if r.newCol && r.ts >= cutoff {
			vis = true
		}
	}
}
