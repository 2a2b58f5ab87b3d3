package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
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
	regions, _, err := c.scanMeta(ctx, start, metaKey(table, nil, ""), true, metaPrefetch)
	if err != nil {
		return nil, err
	}
	var found *Region
	for _, r := range regions {
		if r.Table != table {
			break
		}
		if found == nil {
			found = r
		}
		if r.Server != "" {
			c.cache.add(r)
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%w: %s", ErrTableNotFound, table)
	}
	if (!before && !found.Contains(key)) || (before && !found.containsBefore(key)) {
		// A hole in meta: a split or merge is in progress.
		return nil, &RetryableError{Err: fmt.Errorf("hbase: no region of %s holds key %q yet", table, key)}
	}
	return found, nil
}

// scanMeta runs one scan of hbase:meta and returns the regions found, in
// scan order, without split parents, and the last row key it read (nil if
// it read fewer than rows rows).
func (c *Client) scanMeta(ctx context.Context, start, stop []byte, reversed bool, rows int) ([]*Region, []byte, error) {
	addr, err := c.metaAddr(ctx)
	if err != nil {
		return nil, nil, err
	}
	meta := metaRegion(addr)
	req := &pb.ScanRequest{
		Region: regionSpec(meta),
		Scan: &pb.Scan{
			Column:   []*pb.Column{{Family: metaFamily}},
			StartRow: start,
			StopRow:  stop,
			Reversed: proto.Bool(reversed),
		},
		NumberOfRows: proto.Uint32(uint32(rows)),
		CloseScanner: proto.Bool(true),
	}
	var resp pb.ScanResponse
	rep, err := c.callRegion(ctx, meta, "Scan", req, &resp)
	c.noteError(meta, err)
	if err != nil {
		return nil, nil, err
	}
	results, err := scanResults(&resp, rep.Cells)
	if err != nil {
		return nil, nil, err
	}
	var last []byte
	if len(results) >= rows {
		last = results[len(results)-1].Row
	}
	var out []*Region
	for _, res := range results {
		r, splitParent, err := regionFromMeta(res)
		if errors.Is(err, errNotRegionRow) {
			continue // e.g. a table-state row
		}
		if err != nil {
			return nil, nil, err
		}
		if !splitParent {
			out = append(out, r)
		}
	}
	return out, last, nil
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

// Regions lists the regions of table in key order, read from hbase:meta.
func (c *Client) Regions(ctx context.Context, table string) ([]*Region, error) {
	if table == metaTable {
		addr, err := c.metaAddr(ctx)
		if err != nil {
			return nil, err
		}
		return []*Region{metaRegion(addr)}, nil
	}
	var out []*Region
	err := c.retry(ctx, "list regions of "+table, func(ctx context.Context) error {
		out = out[:0]
		start := metaKey(table, nil, "")
		for {
			regions, last, err := c.scanMeta(ctx, start, nil, false, 100)
			if err != nil {
				return err
			}
			for _, r := range regions {
				if r.Table != table {
					return c.regionsDone(table, out)
				}
				if len(out) == 0 || !bytes.Equal(out[len(out)-1].Name, r.Name) {
					out = append(out, r)
				}
			}
			if last == nil {
				return c.regionsDone(table, out)
			}
			start = append(append([]byte(nil), last...), 0)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *Client) regionsDone(table string, regions []*Region) error {
	if len(regions) == 0 {
		return fmt.Errorf("%w: %s", ErrTableNotFound, table)
	}
	for _, r := range regions {
		if r.Server != "" {
			c.cache.add(r)
		}
	}
	return nil
}
