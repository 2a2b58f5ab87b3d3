package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"sync"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
	"google.golang.org/protobuf/proto"
)

// ScanStats counts what a Scanner did.
type ScanStats struct {
	// RPCs is the number of scan RPCs sent, including renewals and closes.
	RPCs int
	// Regions is the number of region scanners opened.
	Regions int
	// Rows is the number of rows returned by Next.
	Rows int
	// Renewals is the number of lease renewals sent while the caller was
	// not reading.
	Renewals int
	// Reopens is the number of times a lost server scanner was reopened
	// after the last row seen.
	Reopens int
	// Bytes is the size of every scan response frame received, as read
	// off the socket: length prefix, header, message and cellblock.
	// Responses to renewals and closes, responses that carried an
	// exception and responses of retried calls count too. Region lookups
	// in hbase:meta do not.
	Bytes int64
	// Cells is the number of cells received, counting each partial piece
	// of a row apart, and cells of rows past a Limit that the server had
	// already sent.
	Cells int
	// RowsScanned and RowsFiltered are the server's ROWS_SCANNED and
	// ROWS_FILTERED counters summed over the scan RPCs: the rows the
	// region scanners read, and those of them a filter dropped. They stay
	// zero unless the Scan has the TrackScanMetrics option.
	RowsScanned, RowsFiltered int64
	// ServerMetrics holds every server scan counter by name, summed over
	// the scan RPCs; nil unless the Scan has the TrackScanMetrics option.
	ServerMetrics map[string]int64
}

// Server scan metric names.
const (
	MetricRowsScanned  = "ROWS_SCANNED"
	MetricRowsFiltered = "ROWS_FILTERED"
)

// Scanner streams the rows of a Scan in key order (reverse key order for a
// reversed scan), region after region. Get one from Client.Scan; read it
// with Next until io.EOF and Close it, also when stopping early.
//
// A Scanner is not safe for concurrent use. While the caller does not call
// Next, a timer renews the server-side scanner lease so slow readers do not
// lose their place.
type Scanner struct {
	c         *Client
	scan      *Scan
	caching   int
	maxResult int64
	what      string

	// mu serialises Next and Close with the lease-renewal timer.
	mu struct {
		sync.Mutex
		// Position. Invariant: open means id names a live server scanner
		// on region.
		region *Region
		id     uint64
		open   bool
		seq    uint64 // next_call_seq of the next continuation
		ttl    time.Duration
		// Where the next open starts: pos, inclusive or not, in the region
		// holding pos (or just below pos when before is set).
		pos     []byte
		posIncl bool
		before  bool

		buf     []*Result // complete rows not yet returned
		partial *Result   // a row whose remaining cells are still coming
		lastRow []byte    // last complete row put in buf
		emitted int       // rows put in buf
		done    bool      // no rows beyond buf
		closed  bool
		err     error // sticky failure

		gen   uint64 // bumped by Next so a pending renewal stands down
		renew *time.Timer
		stats ScanStats
	}
}

// Scan returns a Scanner over s. It does no I/O until Next.
func (c *Client) Scan(s *Scan) *Scanner {
	sc := &Scanner{c: c, scan: s}
	if s == nil {
		sc.mu.err = errNilRequest
		return sc
	}
	sc.caching = s.opts.caching
	if sc.caching <= 0 {
		sc.caching = c.cfg.ScanCaching
	}
	sc.maxResult = s.opts.maxResultSize
	if sc.maxResult <= 0 {
		sc.maxResult = c.cfg.ScanMaxResultSize
	}
	sc.what = fmt.Sprintf("scan %s from %q to %q", s.table, s.start, s.stop)
	sc.mu.pos = s.start
	excl := s.opts.excludeStart && len(s.start) > 0
	sc.mu.posIncl = !excl
	// A reversed scan without a start key begins in the table's last
	// region; one that leaves its start key out, in the region below it.
	sc.mu.before = s.opts.reversed && (len(s.start) == 0 || excl)
	return sc
}

// Stats returns counts of what the scanner has done so far.
func (s *Scanner) Stats() ScanStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.mu.stats
	st.ServerMetrics = maps.Clone(st.ServerMetrics)
	return st
}

// Counts is Stats without ServerMetrics (nil), for a caller that polls
// the counts after every row: it copies no map.
func (s *Scanner) Counts() ScanStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.mu.stats
	st.ServerMetrics = nil
	return st
}

// count files the bytes and server metrics of one scan response.
func (s *Scanner) count(rep rpc.Reply, resp *pb.ScanResponse) {
	st := &s.mu.stats
	st.Bytes += int64(rep.Bytes)
	m := resp.GetScanMetrics()
	if m == nil {
		return
	}
	if st.ServerMetrics == nil {
		st.ServerMetrics = map[string]int64{}
	}
	for _, p := range m.GetMetrics() {
		st.ServerMetrics[p.GetName()] += p.GetValue()
	}
	st.RowsScanned = st.ServerMetrics[MetricRowsScanned]
	st.RowsFiltered = st.ServerMetrics[MetricRowsFiltered]
}

// Next returns the next row, or io.EOF after the last one. Errors other
// than the context's are final.
func (s *Scanner) Next(ctx context.Context) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	if s.mu.renew != nil {
		s.mu.renew.Stop()
	}
	if s.mu.err != nil {
		return nil, s.mu.err
	}
	for len(s.mu.buf) == 0 {
		if s.mu.done || s.mu.closed {
			s.closeServer(ctx)
			return nil, io.EOF
		}
		if err := s.fetch(ctx); err != nil {
			if ctx.Err() == nil {
				s.mu.err = err
				s.closeServer(context.WithoutCancel(ctx))
			}
			return nil, err
		}
	}
	r := s.mu.buf[0]
	s.mu.buf[0] = nil
	s.mu.buf = s.mu.buf[1:]
	s.mu.stats.Rows++
	s.armRenew()
	return r, nil
}

// Close stops the scan and closes the server-side scanner if it is still
// open. It is safe to call more than once.
func (s *Scanner) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.renew != nil {
		s.mu.renew.Stop()
	}
	if s.mu.closed {
		return nil
	}
	s.mu.closed = true
	s.mu.buf = nil
	ctx, cancel := context.WithTimeout(context.Background(), min(s.c.cfg.RPCTimeout, 10*time.Second))
	defer cancel()
	s.closeServer(ctx)
	return nil
}

// closeServer closes the open server scanner, ignoring failures (the
// server drops it when its lease ends anyway).
func (s *Scanner) closeServer(ctx context.Context) {
	if !s.mu.open {
		return
	}
	s.mu.open = false
	req := &pb.ScanRequest{ScannerId: proto.Uint64(s.mu.id), CloseScanner: proto.Bool(true), NumberOfRows: proto.Uint32(0)}
	var resp pb.ScanResponse
	s.mu.stats.RPCs++
	rep, _ := s.c.callRegion(ctx, s.mu.region, "Scan", req, &resp)
	s.count(rep, &resp)
}

// fetch makes one successful scan RPC, retrying as errors demand, and
// files what it returned.
func (s *Scanner) fetch(ctx context.Context) error {
	var regionErrs int
	err := s.c.retry(ctx, s.what, func(ctx context.Context) error {
		var err error
		if !s.mu.open {
			err = s.openRPC(ctx)
		} else {
			err = s.nextRPC(ctx)
		}
		return s.c.checkDisabled(ctx, s.scan.table, err, &regionErrs)
	})
	if err == nil && s.mu.done {
		s.closeServer(ctx)
	}
	return err
}

func (s *Scanner) openRPC(ctx context.Context) error {
	r, err := s.c.locate(ctx, s.scan.table, s.mu.pos, s.mu.before)
	if err != nil {
		return err
	}
	sp := proto.Clone(s.scan.pb).(*pb.Scan)
	sp.StartRow = s.mu.pos
	sp.StopRow = s.scan.stop
	if !s.mu.posIncl {
		sp.IncludeStartRow = proto.Bool(false)
	}
	sp.MaxResultSize = proto.Uint64(uint64(s.maxResult))
	sp.Caching = proto.Uint32(uint32(s.rowsPerRPC()))
	req := &pb.ScanRequest{
		Region:                  regionSpec(r),
		Scan:                    sp,
		NumberOfRows:            proto.Uint32(uint32(s.rowsPerRPC())),
		ClientHandlesPartials:   proto.Bool(true),
		ClientHandlesHeartbeats: proto.Bool(true),
	}
	s.setPerCall(req)
	var resp pb.ScanResponse
	s.mu.stats.RPCs++
	rep, err := s.c.callRegion(ctx, r, "Scan", req, &resp)
	s.count(rep, &resp)
	s.c.noteError(r, err)
	if err != nil {
		return err
	}
	s.mu.stats.Regions++
	s.mu.region, s.mu.id, s.mu.open, s.mu.seq = r, resp.GetScannerId(), true, 0
	return s.handle(&resp, rep.Cells)
}

// setPerCall sets what every open and next call of the scan carries: the
// metrics flag, and the rows still wanted under a Limit, so the server
// closes its scanner once it has sent them.
func (s *Scanner) setPerCall(req *pb.ScanRequest) {
	if s.scan.opts.trackMetrics {
		req.TrackScanMetrics = proto.Bool(true)
	}
	if l := s.scan.opts.limit; l > 0 {
		req.LimitOfRows = proto.Uint32(uint32(max(l-s.mu.emitted, 1)))
	}
}

func (s *Scanner) nextRPC(ctx context.Context) error {
	req := &pb.ScanRequest{
		ScannerId:               proto.Uint64(s.mu.id),
		NumberOfRows:            proto.Uint32(uint32(s.rowsPerRPC())),
		NextCallSeq:             proto.Uint64(s.mu.seq),
		ClientHandlesPartials:   proto.Bool(true),
		ClientHandlesHeartbeats: proto.Bool(true),
	}
	s.setPerCall(req)
	var resp pb.ScanResponse
	s.mu.stats.RPCs++
	rep, err := s.c.callRegion(ctx, s.mu.region, "Scan", req, &resp)
	s.count(rep, &resp)
	if err != nil {
		s.c.noteError(s.mu.region, err)
		if s.scannerLost(err) || (isCtxErr(err) && ctx.Err() != nil) {
			// The server scanner is gone, or we cannot know how far it got:
			// reopen after the last row seen.
			s.resume()
			if !isCtxErr(err) {
				return &RetryableError{Err: err}
			}
		}
		return err
	}
	s.mu.seq++
	return s.handle(&resp, rep.Cells)
}

// scannerLost reports whether err means the server scanner is gone.
func (s *Scanner) scannerLost(err error) bool {
	var regErr *RegionError
	var srvErr *ServerError
	switch exceptionClass(err) {
	case clsUnknownScanner, clsOutOfOrderScannerNext, clsScannerReset:
		return true
	}
	return errors.As(err, &regErr) || errors.As(err, &srvErr)
}

// resume forgets the server scanner and positions the next open just
// after the last complete row, dropping any partial row to be re-read.
func (s *Scanner) resume() {
	s.mu.open = false
	s.mu.stats.Reopens++
	switch {
	case s.mu.partial != nil:
		s.mu.pos, s.mu.posIncl, s.mu.before = s.mu.partial.Row, true, false
		s.mu.partial = nil
	case s.mu.lastRow != nil:
		s.mu.pos, s.mu.posIncl, s.mu.before = s.mu.lastRow, false, false
	}
}

func (s *Scanner) rowsPerRPC() int {
	n := s.caching
	if l := s.scan.opts.limit; l > 0 {
		n = min(n, max(l-s.mu.emitted, 1))
	}
	return n
}

// handle files the results of one response and decides where to go next.
func (s *Scanner) handle(resp *pb.ScanResponse, cells []byte) error {
	results, err := scanResults(resp, cells)
	if err != nil {
		return err
	}
	if resp.Ttl != nil {
		s.mu.ttl = time.Duration(resp.GetTtl()) * time.Millisecond
	}
	for _, r := range results {
		s.mu.stats.Cells += len(r.Cells)
		s.add(r)
	}
	switch {
	case resp.MoreResults != nil && !resp.GetMoreResults():
		// The scan is complete, or the server reached the row limit; it
		// has closed its scanner either way.
		s.mu.open = false
		s.finish()
	case s.mu.done:
		// The limit was reached.
	case resp.MoreResultsInRegion != nil:
		if !resp.GetMoreResultsInRegion() {
			s.mu.open = false
			s.nextRegion()
		}
	case len(results) == 0 && !resp.GetHeartbeatMessage():
		s.mu.open = false
		s.nextRegion()
	}
	return nil
}

// add stitches one result into the row being built or the buffer.
func (s *Scanner) add(r *Result) {
	if len(r.Cells) == 0 || s.mu.done {
		return
	}
	if p := s.mu.partial; p != nil {
		if p.stitch(r) {
			if !p.partial {
				s.mu.partial = nil
				s.emit(p)
			}
			return
		}
		// A new row began: the old one had all its cells.
		s.mu.partial = nil
		s.emit(p)
	}
	if r.partial {
		s.mu.partial = r
		return
	}
	s.emit(r)
}

func (s *Scanner) emit(r *Result) {
	if s.mu.done {
		return
	}
	r.partial = false
	s.mu.buf = append(s.mu.buf, r)
	s.mu.lastRow = r.Row
	s.mu.emitted++
	if l := s.scan.opts.limit; l > 0 && s.mu.emitted >= l {
		s.mu.done = true
		s.mu.partial = nil
	}
}

// finish ends the scan; a partial row still held is complete now.
func (s *Scanner) finish() {
	if p := s.mu.partial; p != nil {
		s.mu.partial = nil
		s.emit(p)
	}
	s.mu.done = true
}

// nextRegion moves past the region just exhausted, or finishes.
func (s *Scanner) nextRegion() {
	r, stop := s.mu.region, s.scan.stop
	if !s.scan.opts.reversed {
		// With an inclusive stop, a stop key equal to the end key lies in
		// the next region.
		end := 0
		if s.scan.opts.includeStop {
			end = 1
		}
		if len(r.EndKey) == 0 || (len(stop) > 0 && bytes.Compare(r.EndKey, stop) >= end) {
			s.finish()
			return
		}
		s.mu.pos, s.mu.posIncl, s.mu.before = r.EndKey, true, false
		return
	}
	if len(r.StartKey) == 0 || (len(stop) > 0 && bytes.Compare(r.StartKey, stop) <= 0) {
		s.finish()
		return
	}
	s.mu.pos, s.mu.posIncl, s.mu.before = r.StartKey, false, true
}

// armRenew schedules a lease renewal for when the caller is slow to call
// Next again. Called with mu held.
func (s *Scanner) armRenew() {
	if !s.mu.open || s.mu.ttl <= 0 || s.mu.closed {
		return
	}
	gen := s.mu.gen
	s.mu.renew = time.AfterFunc(s.mu.ttl/2, func() { s.renewLease(gen) })
}

func (s *Scanner) renewLease(gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.gen != gen || !s.mu.open || s.mu.closed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(s.mu.ttl/4, time.Second))
	defer cancel()
	req := &pb.ScanRequest{ScannerId: proto.Uint64(s.mu.id), Renew: proto.Bool(true), NumberOfRows: proto.Uint32(0)}
	var resp pb.ScanResponse
	s.mu.stats.RPCs++
	rep, err := s.c.callRegion(ctx, s.mu.region, "Scan", req, &resp)
	s.count(rep, &resp)
	if err != nil {
		s.resume() // the next Next reopens after the last row
		return
	}
	s.mu.stats.Renewals++
	s.armRenew()
}
