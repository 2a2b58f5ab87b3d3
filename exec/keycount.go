package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// keyCountIter counts the rows of a keys-only access over a KeyScanner:
// the store hands over each visible row's key, which is checked against
// the layout on its bytes; no row is built. It yields one row holding the
// count, as countIter does.
type keyCountIter struct {
	ks    KeyScanner
	acc   *planner.Access
	stats *Stats
	done  bool
}

func (c *keyCountIter) next(ctx context.Context) (*Row, error) {
	if c.done {
		return nil, io.EOF
	}
	c.done = true
	t := c.acc.Table
	check := t.NewKeyChecker()
	var n, got int64
	defer func() { c.stats.RowsReceived.Add(got) }()
	fn := func(key []byte) error {
		got++
		if err := check.Check(key); err != nil {
			// As a scan does: a row that does not fit the layout is
			// skipped and counted.
			c.stats.malformed(fmt.Errorf("table %s: %w", t.Name, err))
			return nil
		}
		n++
		return nil
	}
	opts := readOptions(c.acc, c.stats)
	opts.Reverse = false // the order of the keys does not change their number
	for _, r := range c.acc.Ranges {
		if err := c.ks.ScanKeys(ctx, t.Physical, Range{Start: r.Start, Stop: r.Stop}, opts, fn); err != nil {
			return nil, err
		}
	}
	return &Row{Vals: catalog.Row{catalog.Bigint(n)}}, nil
}

func (c *keyCountIter) close() { c.done = true }
