package hbase

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// Meta row key suffixes: a region id that sorts after (nines) or before
// (zeroes) every real region id with the same start key.
const (
	metaNines  = "99999999999999"
	metaZeroes = "00000000000000"
)

// metaPrefetch is how many meta rows one lookup reads: the region asked
// for and the ones just before it, which reversed scans want next.
const metaPrefetch = 5

// metaRegion is the single region of hbase:meta, hosted at addr.
func metaRegion(addr string) *Region {
	return &Region{Table: metaTable, Name: []byte(metaRegionName), Server: addr}
}

// metaAddr returns where hbase:meta is, asking ZooKeeper if it is not known.
func (c *Client) metaAddr(ctx context.Context) (string, error) {
	c.mu.Lock()
	addr := c.mu.meta
	c.mu.Unlock()
	if addr != "" {
		return addr, nil
	}
	addr, err := c.zk.Meta(ctx)
	if err != nil {
		return "", c.zkError(ctx, err)
	}
	c.mu.Lock()
	c.mu.meta = addr
	c.mu.Unlock()
	return addr, nil
}

// masterAddr returns where the active master is, asking ZooKeeper if needed.
func (c *Client) masterAddr(ctx context.Context) (string, error) {
	c.mu.Lock()
	addr := c.mu.master
	c.mu.Unlock()
	if addr != "" {
		return addr, nil
	}
	addr, err := c.zk.Master(ctx)
	if err != nil {
		return "", c.zkError(ctx, err)
	}
	c.mu.Lock()
	c.mu.master = addr
	c.mu.Unlock()
	return addr, nil
}

// zkError makes ZooKeeper failures retryable (HBase may be starting) and
// words them for an operator.
func (c *Client) zkError(ctx context.Context, err error) error {
	e := &zkError{err: err}
	if ctx.Err() != nil {
		return e
	}
	return &RetryableError{Err: e}
}

// zkError is a failure of a ZooKeeper lookup.
type zkError struct{ err error }

func (e *zkError) Error() string { return "hbase: " + strings.TrimPrefix(e.err.Error(), "zk: ") }
func (e *zkError) Unwrap() error { return e.err }

func (c *Client) forgetMeta() {
	c.mu.Lock()
	c.mu.meta = ""
	c.mu.Unlock()
}

func (c *Client) forgetMaster() {
	c.mu.Lock()
	c.mu.master = ""
	c.mu.Unlock()
}

// Locate returns the region of table that holds key, from the cache or
// hbase:meta.
func (c *Client) Locate(ctx context.Context, table string, key []byte) (*Region, error) {
	var r *Region
	err := c.retry(ctx, fmt.Sprintf("locate %q in %s", key, table), func(ctx context.Context) error {
		var err error
		r, err = c.locate(ctx, table, key, false)
		return err
	})
	return r, err
}

// locate finds the region holding key, or with before=true the region
// holding the keys just below key (the last region when key is empty).
// It makes one attempt; the caller retries.
func (c *Client) locate(ctx context.Context, table string, key []byte, before bool) (*Region, error) {
	if table == metaTable {
		// hbase:meta is one region, found through ZooKeeper.
		addr, err := c.metaAddr(ctx)
		if err != nil {
			return nil, err
		}
		return metaRegion(addr), nil
	}
	if r := c.cache.lookup(table, key, before); r != nil {
		return r, nil
	}
	if len(key) > maxKeyLen {
		key = key[:maxKeyLen]
	}
	var start []byte
	switch {
	case !before:
		start = metaKey(table, key, metaNines)
	case len(key) == 0:
		start = append([]byte(table), 0) // sorts after every row of table
	default:
		start = metaKey(table, key, metaZeroes)
	}
	found, err := c.lookupMeta(ctx, table, start)
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("%w: %s", ErrTableNotFound, table)
	}
	if (!before && !found.Contains(key)) || (before && !found.containsBefore(key)) {
		// A hole in meta: a split or merge is in progress.
		return nil, &RetryableError{Err: fmt.Errorf("hbase: hbase:meta lists no region of %s that holds key %q yet", table, key)}
	}
	return found, nil
}

// lookupMeta reads hbase:meta backwards from the meta row start, down to
// the start of table, for up to metaPrefetch regions: the first is the
// region asked for, the others the ones just before it, which reversed
// scans want next. It caches those it can and returns the first, or nil
// when table has no region there. Rows of split parents do not count,
// and where metaPrefetch rows held none but them, it reads on.
func (c *Client) lookupMeta(ctx context.Context, table string, start []byte) (*Region, error) {
	var found *Region
	s := metaScan{start: start, stop: metaKey(table, nil, ""), reversed: true, limit: metaPrefetch}
	for {
		var last []byte
		rows, regions, ended := 0, 0, false
		err := c.scanMeta(ctx, s, func(res *Result) (bool, error) {
			rows++
			last = res.Row
			r, splitParent, err := regionFromMeta(res)
			switch {
			case errors.Is(err, errNotRegionRow):
				return true, nil
			case err != nil:
				return false, err
			case r.Table != table:
				ended = true
				return false, nil
			case splitParent:
				return true, nil // its daughters hold its keys
			}
			if found == nil {
				found = r
			}
			c.cacheRegion(r)
			regions++
			return regions < metaPrefetch, nil
		})
		if err != nil || found != nil || ended || rows < metaPrefetch {
			return found, err
		}
		s.start, s.excludeStart = last, true
	}
}

// scanResults decodes the Results of a ScanResponse, inline or from the
// cellblock, keeping each one's partial flag.
func scanResults(resp *pb.ScanResponse, cells []byte) ([]*Result, error) {
	var out []*Result
	for _, r := range resp.GetResults() {
		res, rest, err := newResult(r, cells)
		if err != nil {
			return nil, err
		}
		cells = rest
		out = append(out, res)
	}
	partial := resp.GetPartialFlagPerResult()
	for i, n := range resp.GetCellsPerResult() {
		res := &Result{}
		var err error
		res.Cells, cells, err = decodeCells(nil, cells, int(n))
		if err != nil {
			return nil, err
		}
		if len(res.Cells) > 0 {
			res.Row = res.Cells[0].Row
		}
		res.partial = i < len(partial) && partial[i]
		out = append(out, res)
	}
	return out, nil
}
