package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// keyCountIter counts the rows of a keys-only access over a KeyScanner:
// the store hands over each visible row's key, which is checked against
// the layout on its bytes; no row is built. The access's ranges are cut
// at the table's region boundaries, and the pieces are counted by up to
// GOMAXPROCS goroutines, as a cluster's regions would be scanned side by
// side. It yields one row holding the count, as countIter does.
type keyCountIter struct {
	ks    KeyScanner
	store Store
	acc   *planner.Access
	stats *Stats
	done  bool
}

// pieceCount is what counting one piece of the access found.
type pieceCount struct {
	n, got    int64 // keys that fit the layout; keys received
	malformed int64
	first     error // the first key that does not fit
	err       error
}

func (c *keyCountIter) next(ctx context.Context) (*Row, error) {
	if c.done {
		return nil, io.EOF
	}
	c.done = true
	pieces, err := c.pieces(ctx)
	if err != nil {
		return nil, err
	}
	counts := make([]pieceCount, len(pieces))
	workers := min(len(pieces), runtime.GOMAXPROCS(0))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check := c.acc.Table.NewKeyChecker()
			for i := int(next.Add(1) - 1); i < len(pieces); i = int(next.Add(1) - 1) {
				if counts[i] = c.count(ctx, check, pieces[i]); counts[i].err != nil {
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	// The figures are added in key order, so that the first malformed
	// key reported is the first in the table.
	var n int64
	for _, pc := range counts {
		c.stats.RowsReceived.Add(pc.got)
		if pc.malformed > 0 {
			c.stats.malformed(pc.first)
			c.stats.Malformed.Add(pc.malformed - 1)
		}
		if pc.err != nil {
			return nil, pc.err
		}
		n += pc.n
	}
	return &Row{Vals: catalog.Row{catalog.Bigint(n)}}, nil
}

// count counts the keys of one piece.
func (c *keyCountIter) count(ctx context.Context, check *catalog.KeyChecker, r Range) pieceCount {
	var pc pieceCount
	t := c.acc.Table
	opts := readOptions(c.acc, c.stats)
	opts.Reverse = false // the order of the keys does not change their number
	pc.err = c.ks.ScanKeys(ctx, t.Physical, r, opts, func(key []byte) error {
		pc.got++
		if err := check.Check(key); err != nil {
			// As a scan does: a row that does not fit the layout is
			// skipped and counted.
			if pc.malformed++; pc.first == nil {
				pc.first = fmt.Errorf("table %s: %w", t.Name, err)
			}
			return nil
		}
		pc.n++
		return nil
	})
	return pc
}

// pieces returns the access's ranges in key order, each cut where a
// region of the table starts inside it.
func (c *keyCountIter) pieces(ctx context.Context) ([]Range, error) {
	regions, err := c.store.Regions(ctx, c.acc.Table.Physical)
	if err != nil {
		return nil, err
	}
	var out []Range
	for _, kr := range c.acc.Ranges {
		start := kr.Start
		for _, reg := range regions {
			b := reg.StartKey
			if len(b) == 0 || bytes.Compare(b, start) <= 0 || len(kr.Stop) > 0 && bytes.Compare(b, kr.Stop) >= 0 {
				continue
			}
			out = append(out, Range{Start: start, Stop: b})
			start = b
		}
		out = append(out, Range{Start: start, Stop: kr.Stop})
	}
	return out, nil
}

func (c *keyCountIter) close() { c.done = true }
