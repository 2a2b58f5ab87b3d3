package exec

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/placed"
)

// keyCountIter counts the rows of a keys-only access over a KeyScanner:
// the store hands over each visible row's key, which is checked against
// the layout on its bytes; no row is built. It yields one row holding the
// count, as countIter does.
type keyCountIter struct {
	ks    KeyScanner
	acc   *placed.Scan
	stats *Stats
	done  bool
}

func (c *keyCountIter) next(ctx context.Context) (*Row, error) {
	if c.done {
		return nil, io.EOF
	}
	c.done = true
	t := c.acc.Table
	// One count per part of each range, in key order, so that the first
	// row that does not fit is the one a serial scan would report.
	var counts []*keyCount
	newFn := func(int) func([]byte) error {
		kc := &keyCount{check: t.NewKeyChecker(), table: t.Name}
		counts = append(counts, kc)
		return kc.add
	}
	pks, parallel := c.ks.(ParallelKeyScanner)
	parts := min(runtime.GOMAXPROCS(0), maxCountParts)
	opts := readOptions(c.acc, c.stats)
	opts.Reverse = false // the order of the keys does not change their number
	var err error
	for _, r := range c.acc.Ranges {
		rr := Range{Start: r.Start, Stop: r.Stop}
		if parallel && parts > 1 {
			err = pks.ScanKeysParallel(ctx, t.Physical, rr, opts, parts, newFn)
		} else {
			err = c.ks.ScanKeys(ctx, t.Physical, rr, opts, newFn(0))
		}
		if err != nil {
			break
		}
	}
	var n int64
	for _, kc := range counts {
		n += kc.n
		c.stats.RowsReceived.Add(kc.got)
		if kc.first != nil {
			// As a scan does: a row that does not fit the layout is
			// skipped and counted.
			c.stats.malformed(kc.first)
			c.stats.Malformed.Add(kc.bad - 1)
		}
	}
	if err != nil {
		return nil, err
	}
	return &Row{Vals: catalog.Row{catalog.Bigint(n)}}, nil
}

// maxCountParts bounds the goroutines a keys-only count uses.
const maxCountParts = 4

// keyCount counts the keys of one part of a keys-only read.
type keyCount struct {
	check       *catalog.KeyChecker
	table       string
	n, got, bad int64
	first       error // the first key that does not fit, if any
}

func (kc *keyCount) add(key []byte) error {
	kc.got++
	if err := kc.check.Check(key); err != nil {
		kc.bad++
		if kc.first == nil {
			kc.first = fmt.Errorf("table %s: %w", kc.table, err)
		}
		return nil
	}
	kc.n++
	return nil
}

func (c *keyCountIter) close() { c.done = true }
