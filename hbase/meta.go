package hbase

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// metaScan is one scan of hbase:meta.
type metaScan struct {
	start, stop []byte
	reversed    bool
	// excludeStart leaves the start row out.
	excludeStart bool
	// limit is the most rows to read; 0 reads to stop.
	limit int
}

// scanMeta runs s and calls visit with each row, in scan order, until
// visit returns false or the scan ends. One server scanner stays open
// from page to page, so that every page reads the same snapshot of meta,
// and the response's flags say whether another page follows: a page may
// hold fewer rows than asked for, or none (a heartbeat), and not be the
// last. A scanner left open when visit stops is closed.
func (c *Client) scanMeta(ctx context.Context, s metaScan, visit func(*Result) (bool, error)) error {
	addr, err := c.metaAddr(ctx)
	if err != nil {
		return err
	}
	meta := metaRegion(addr)
	rows := c.cfg.MetaScanRows
	req := &pb.ScanRequest{
		Region: regionSpec(meta),
		Scan: &pb.Scan{
			Column:   []*pb.Column{{Family: metaFamily}},
			StartRow: s.start,
			StopRow:  s.stop,
			Reversed: proto.Bool(s.reversed),
			// As for any scan: the server may cut a page short at this
			// size, so a page of meta is only as long as its rows allow.
			MaxResultSize: proto.Uint64(uint64(c.cfg.ScanMaxResultSize)),
		},
	}
	if s.excludeStart {
		req.Scan.IncludeStartRow = proto.Bool(false)
	}
	var id, seq uint64
	read := 0
	for {
		setMetaPage(req, rows, s.limit, read)
		var resp pb.ScanResponse
		rep, err := c.callRegion(ctx, meta, "Scan", req, &resp)
		c.noteError(meta, err)
		if err != nil {
			if metaScannerLost(err) {
				// The lease ran out between pages, say: read meta again.
				return &RetryableError{Err: err}
			}
			return err
		}
		if resp.ScannerId != nil {
			id = resp.GetScannerId()
		}
		results, err := scanResults(&resp, rep.Cells)
		if err != nil {
			return err
		}
		read += len(results)
		more := metaMore(&resp, len(results), int(req.GetNumberOfRows())) && (s.limit == 0 || read < s.limit)
		for _, res := range results {
			ok, err := visit(res)
			if err != nil || !ok {
				c.closeMetaScanner(ctx, meta, id, &resp)
				return err
			}
		}
		if !more {
			c.closeMetaScanner(ctx, meta, id, &resp)
			return nil
		}
		req = &pb.ScanRequest{ScannerId: proto.Uint64(id), NextCallSeq: proto.Uint64(seq)}
		seq++
	}
}

// metaScannerLost reports whether err says that the server no longer
// has the meta scanner a call continued.
func metaScannerLost(err error) bool {
	switch exceptionClass(err) {
	case clsUnknownScanner, clsOutOfOrderScannerNext, clsScannerReset:
		return true
	}
	return false
}

// setMetaPage sets the rows one meta scan call asks for, and under a
// limit the rows still wanted, so that the server closes its scanner once
// it has sent them.
func setMetaPage(req *pb.ScanRequest, rows, limit, read int) {
	if limit > 0 {
		rows = min(rows, limit-read)
		req.LimitOfRows = proto.Uint32(uint32(limit - read))
	}
	req.NumberOfRows = proto.Uint32(uint32(max(rows, 1)))
}

// metaMore reports whether a meta scan response leaves rows to read: the
// server's flags say so, and only a server that sets neither is judged by
// a full page.
func metaMore(resp *pb.ScanResponse, got, asked int) bool {
	switch {
	case resp.MoreResults != nil && !resp.GetMoreResults():
		return false
	case resp.MoreResultsInRegion != nil:
		return resp.GetMoreResultsInRegion()
	case resp.GetHeartbeatMessage():
		return true
	}
	return got >= asked
}

// closeMetaScanner closes the meta scanner that gave resp, unless the
// server closed it already. A failure is ignored: the server drops the
// scanner when its lease ends anyway.
func (c *Client) closeMetaScanner(ctx context.Context, meta *Region, id uint64, resp *pb.ScanResponse) {
	if (resp.MoreResults != nil && !resp.GetMoreResults()) ||
		(resp.MoreResultsInRegion != nil && !resp.GetMoreResultsInRegion()) {
		return
	}
	req := &pb.ScanRequest{ScannerId: proto.Uint64(id), CloseScanner: proto.Bool(true), NumberOfRows: proto.Uint32(0)}
	var out pb.ScanResponse
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(c.cfg.RPCTimeout, 10*time.Second))
	defer cancel()
	_, _ = c.callRegion(ctx, meta, "Scan", req, &out)
}

// metaTableStop is the hbase:meta row just after every region row of
// table: HBase's meta comparator orders rows by table name first, and a
// space sorts before every byte a table name may hold.
func metaTableStop(table string) []byte {
	return []byte(table + " ,,")
}

// Regions lists the regions of table in key order, read from hbase:meta.
// The list tiles the table: the first region starts it, each region ends
// where the next starts, and the last ends it. While hbase:meta does not
// (a split, a merge or a reopen is being written), the client drops the
// table's cached regions, backs off and reads meta again; it fails when
// the attempts run out rather than return part of the table. Split
// parents are left out, as their daughters hold their keys; regions
// without a server or offline are listed.
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
		var err error
		out, err = c.listRegions(ctx, table)
		if err != nil {
			return err
		}
		if len(out) == 0 {
			return fmt.Errorf("%w: %s", ErrTableNotFound, table)
		}
		if err := checkTiling(table, out, nil, nil); err != nil {
			c.cache.removeTable(table)
			return &RetryableError{Err: err}
		}
		for _, r := range out {
			c.cacheRegion(r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// listRegions reads the region rows of table from hbase:meta, page by
// page, without split parents.
func (c *Client) listRegions(ctx context.Context, table string) ([]*Region, error) {
	var out []*Region
	s := metaScan{start: metaKey(table, nil, ""), stop: metaTableStop(table)}
	err := c.scanMeta(ctx, s, func(res *Result) (bool, error) {
		r, splitParent, err := regionFromMeta(res)
		switch {
		case errors.Is(err, errNotRegionRow):
			return true, nil // e.g. a table-state row
		case err != nil:
			return false, err
		case r.Table != table:
			return false, nil
		case !splitParent:
			out = append(out, r)
		}
		return true, nil
	})
	return out, err
}

// cacheRegion caches r if requests can be sent to it.
func (c *Client) cacheRegion(r *Region) {
	if r.deployed() {
		c.cache.add(r)
	}
}

// checkTiling reports, as an error that names the first fault, whether
// regions (in key order) fail to tile [start, stop) of table: the first
// must start at or before start, each must end where the next starts, and
// the last must end at or after stop. An empty stop or end key is the end
// of the table. The faults are those CHECK CLUSTER reports (tilingFaults).
func checkTiling(table string, regions []*Region, start, stop []byte) error {
	faults := tilingFaults(regions, start, stop)
	if len(faults) == 0 {
		return nil
	}
	switch f := faults[0]; f.Kind {
	case FaultNoRegions:
		return fmt.Errorf("hbase: hbase:meta lists no region of %s", table)
	case FaultOverlap:
		return fmt.Errorf("hbase: regions %s and %s of %s overlap in hbase:meta", f.Other.Name, f.Region.Name, table)
	case FaultBadRange:
		return fmt.Errorf("hbase: region %s of %s in hbase:meta: %s", f.Region.Name, table, f.Detail)
	default:
		return fmt.Errorf("hbase: hbase:meta lists no region of %s from %q to %s", table, f.Start, keyText(f.End, "the end of the table"))
	}
}
