package hbase

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// fakeServer is an in-process stand-in for a region server that also hosts
// hbase:meta. It keeps table "t" as rows with one cell each (f:q = row)
// and serves Get, Mutate, Multi and Scan, with hooks to inject faults.
type fakeServer struct {
	t    *testing.T
	addr string

	mu       sync.Mutex
	regions  []*Region // of table "t", sorted
	rows     []string  // sorted
	scanners map[uint64]*fakeScanner
	nextID   uint64
	calls    map[string]int // method (or "Scan.open" etc.) -> count
	sent     map[string]int // method ("Scan.meta" for meta scans) -> bytes written
	// limits are the limit_of_rows of each data scan call, 0 if unset.
	limits []uint32
	// Fault hooks, consumed as they fire.
	lostScannerAfter int  // fail the n-th next call with UnknownScannerException
	partial          bool // send each row as two partial pieces
	ttlMillis        uint32
	nsreRows         map[string]int // Get/Multi of row -> NSRE count
	meta             fakeMeta
	aggregated       []string // regions that answered an ExecService call
	// beforeExec, if set, runs before each ExecService call is served.
	beforeExec func()
}

type fakeScanner struct {
	region   *Region
	reversed bool
	stop     []byte
	next     int // index into rows of the next row to return
	seq      uint64
}

func newFakeServer(t *testing.T, splits []string, rows []string) *fakeServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeServer{t: t, addr: l.Addr().String(), scanners: map[uint64]*fakeScanner{},
		calls: map[string]int{}, sent: map[string]int{}, nsreRows: map[string]int{}, ttlMillis: 60000}
	fs.rows = append(fs.rows, rows...)
	sort.Strings(fs.rows)
	fs.setRegions(splits, 1)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go fs.serve(c)
		}
	}()
	return fs
}

// setRegions replaces the table's regions with ones split at splits.
func (fs *fakeServer) setRegions(splits []string, id uint64) {
	bounds := append(append([]string{""}, splits...), "")
	fs.regions = nil
	for i := 0; i+1 < len(bounds); i++ {
		fs.regions = append(fs.regions, &Region{
			Table: "t", Name: metaKey("t", []byte(bounds[i]), fmt.Sprintf("%d.e%d.", id, i)),
			StartKey: []byte(bounds[i]), EndKey: []byte(bounds[i+1]), ID: id, Server: fs.addr,
		})
	}
}

func (fs *fakeServer) count(name string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.calls[name]
}

func (fs *fakeServer) serve(c net.Conn) {
	pre := make([]byte, 6)
	if _, err := io.ReadFull(c, pre); err != nil || !bytes.Equal(pre, rpc.Preamble) {
		return
	}
	if _, err := readFakeFrame(c); err != nil {
		return
	}
	for {
		frame, err := readFakeFrame(c)
		if err != nil {
			return
		}
		hb, n := protowire.ConsumeBytes(frame)
		param, _ := protowire.ConsumeBytes(frame[n:])
		var hdr pb.RequestHeader
		if err := proto.Unmarshal(hb, &hdr); err != nil {
			fs.t.Errorf("fake server: bad header: %v", err)
			return
		}
		msg, cells, ex, key := fs.handle(hdr.GetMethodName(), param)
		out := fakeResponse(hdr.GetCallId(), msg, cells, ex)
		fs.mu.Lock()
		fs.sent[key] += len(out)
		fs.mu.Unlock()
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

func readFakeFrame(r io.Reader) ([]byte, error) {
	var l [4]byte
	if _, err := io.ReadFull(r, l[:]); err != nil {
		return nil, err
	}
	b := make([]byte, binary.BigEndian.Uint32(l[:]))
	_, err := io.ReadFull(r, b)
	return b, err
}

func fakeResponse(id uint32, msg proto.Message, cells []byte, ex *pb.ExceptionResponse) []byte {
	hdr := &pb.ResponseHeader{CallId: proto.Uint32(id), Exception: ex}
	if len(cells) > 0 {
		hdr.CellBlockMeta = &pb.CellBlockMeta{Length: proto.Uint32(uint32(len(cells)))}
	}
	h, _ := proto.Marshal(hdr)
	out := protowire.AppendBytes(make([]byte, 4), h)
	if ex == nil {
		m, _ := proto.Marshal(msg)
		out = protowire.AppendBytes(out, m)
		out = append(out, cells...)
	}
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}

func exception(class, msg string) *pb.ExceptionResponse {
	return &pb.ExceptionResponse{ExceptionClassName: proto.String(class), StackTrace: proto.String(class + ": " + msg)}
}

// handle serves one call; key names it for the byte counts in sent.
func (fs *fakeServer) handle(method string, param []byte) (msg proto.Message, cells []byte, ex *pb.ExceptionResponse, key string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.calls[method]++
	switch method {
	case "Get":
		var req pb.GetRequest
		_ = proto.Unmarshal(param, &req)
		res, ex := fs.get(req.GetRegion().GetValue(), req.GetGet().GetRow())
		return &pb.GetResponse{Result: res}, nil, ex, method
	case "Mutate":
		var req pb.MutateRequest
		_ = proto.Unmarshal(param, &req)
		return &pb.MutateResponse{}, nil, fs.put(req.GetRegion().GetValue(), req.GetMutation().GetRow()), method
	case "Multi":
		var req pb.MultiRequest
		_ = proto.Unmarshal(param, &req)
		return fs.multi(&req), nil, nil, method
	case "ExecService":
		var req pb.CoprocessorServiceRequest
		_ = proto.Unmarshal(param, &req)
		if fs.beforeExec != nil {
			fs.beforeExec()
		}
		msg, ex := fs.execService(&req)
		return msg, nil, ex, method
	case "Scan":
		var req pb.ScanRequest
		_ = proto.Unmarshal(param, &req)
		_, metaNext := fs.meta.scanners[req.GetScannerId()]
		if string(req.GetRegion().GetValue()) == metaRegionName || (req.ScannerId != nil && metaNext) {
			fs.calls["Scan.meta"]++
			msg, cells, ex := fs.metaScan(&req)
			return msg, cells, ex, "Scan.meta"
		}
		msg, cells, ex := fs.scan(&req)
		return msg, cells, ex, method
	}
	return nil, nil, exception(pkgHBase+"DoNotRetryIOException", "unknown method "+method), method
}

// sentBytes is the bytes written in responses to key.
func (fs *fakeServer) sentBytes(key string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.sent[key]
}

func (fs *fakeServer) region(name []byte, row []byte) (*Region, *pb.ExceptionResponse) {
	for _, r := range fs.regions {
		if bytes.Equal(r.Name, name) && (row == nil || r.Contains(row)) {
			return r, nil
		}
	}
	return nil, exception(clsNotServingRegion, fmt.Sprintf("%s is not online", name))
}

func (fs *fakeServer) nsre(row []byte) *pb.ExceptionResponse {
	if fs.nsreRows[string(row)] > 0 {
		fs.nsreRows[string(row)]--
		return exception(clsNotServingRegion, "injected")
	}
	return nil
}

func rowResult(row string) *pb.Result {
	return &pb.Result{Cell: []*pb.Cell{{Row: []byte(row), Family: []byte("f"), Qualifier: []byte("q"),
		Timestamp: proto.Uint64(1), CellType: pb.CellType_PUT.Enum(), Value: []byte(row)}}}
}

func (fs *fakeServer) get(region, row []byte) (*pb.Result, *pb.ExceptionResponse) {
	if _, ex := fs.region(region, row); ex != nil {
		return nil, ex
	}
	if ex := fs.nsre(row); ex != nil {
		return nil, ex
	}
	i := sort.SearchStrings(fs.rows, string(row))
	if i < len(fs.rows) && fs.rows[i] == string(row) {
		return rowResult(string(row)), nil
	}
	return &pb.Result{}, nil
}

func (fs *fakeServer) put(region, row []byte) *pb.ExceptionResponse {
	if _, ex := fs.region(region, row); ex != nil {
		return ex
	}
	if ex := fs.nsre(row); ex != nil {
		return ex
	}
	i := sort.SearchStrings(fs.rows, string(row))
	if i == len(fs.rows) || fs.rows[i] != string(row) {
		fs.rows = append(fs.rows[:i], append([]string{string(row)}, fs.rows[i:]...)...)
	}
	return nil
}

func exPair(ex *pb.ExceptionResponse) *pb.NameBytesPair {
	return &pb.NameBytesPair{Name: ex.ExceptionClassName, Value: []byte(ex.GetStackTrace())}
}

func (fs *fakeServer) multi(req *pb.MultiRequest) *pb.MultiResponse {
	resp := &pb.MultiResponse{}
	for _, ra := range req.GetRegionAction() {
		rar := &pb.RegionActionResult{}
		if _, ex := fs.region(ra.GetRegion().GetValue(), nil); ex != nil {
			rar.Exception = exPair(ex)
			resp.RegionActionResult = append(resp.RegionActionResult, rar)
			continue
		}
		for _, a := range ra.GetAction() {
			roe := &pb.ResultOrException{Index: a.Index}
			var ex *pb.ExceptionResponse
			if a.Get != nil {
				roe.Result, ex = fs.get(ra.GetRegion().GetValue(), a.GetGet().GetRow())
			} else {
				ex = fs.put(ra.GetRegion().GetValue(), a.GetMutation().GetRow())
				roe.Result = &pb.Result{}
			}
			if ex != nil {
				roe.Result, roe.Exception = nil, exPair(ex)
			}
			rar.ResultOrException = append(rar.ResultOrException, roe)
		}
		resp.RegionActionResult = append(resp.RegionActionResult, rar)
	}
	return resp
}

// scan serves opens, nexts, renewals and closes of data scanners.
func (fs *fakeServer) scan(req *pb.ScanRequest) (proto.Message, []byte, *pb.ExceptionResponse) {
	resp := &pb.ScanResponse{Ttl: proto.Uint32(fs.ttlMillis)}
	var sc *fakeScanner
	var ex *pb.ExceptionResponse
	if req.ScannerId == nil {
		sc, ex = fs.scanOpen(req, resp)
	} else {
		sc, ex = fs.scanContinue(req, resp)
	}
	if ex != nil || sc == nil {
		return resp, nil, ex
	}
	fs.limits = append(fs.limits, req.GetLimitOfRows())
	n := int(req.GetNumberOfRows())
	limit := int(req.GetLimitOfRows())
	if limit > 0 {
		n = min(n, limit)
	}
	cells := fs.scanRows(sc, n, resp)
	rows := len(resp.CellsPerResult)
	if fs.partial {
		rows /= 2
	}
	if limit > 0 && rows >= limit {
		// Like the server: the limit reached ends the whole scan.
		resp.MoreResults = proto.Bool(false)
		delete(fs.scanners, resp.GetScannerId())
	}
	if req.GetTrackScanMetrics() {
		// The fake scans no row it does not send, and filters none.
		resp.ScanMetrics = &pb.ScanMetrics{Metrics: []*pb.NameInt64Pair{
			{Name: proto.String("ROWS_SCANNED"), Value: proto.Int64(int64(rows))},
			{Name: proto.String("ROWS_FILTERED"), Value: proto.Int64(0)},
		}}
	}
	if !resp.GetMoreResultsInRegion() {
		delete(fs.scanners, resp.GetScannerId())
	}
	return resp, cells, nil
}

func (fs *fakeServer) scanOpen(req *pb.ScanRequest, resp *pb.ScanResponse) (*fakeScanner, *pb.ExceptionResponse) {
	fs.calls["Scan.open"]++
	r, ex := fs.region(req.GetRegion().GetValue(), nil)
	if ex != nil {
		return nil, ex
	}
	s := req.GetScan()
	sc := &fakeScanner{region: r, reversed: s.GetReversed(), stop: s.GetStopRow()}
	start := string(s.GetStartRow())
	switch {
	case !sc.reversed:
		sc.next = sort.SearchStrings(fs.rows, start)
		if !s.GetIncludeStartRow() && sc.next < len(fs.rows) && fs.rows[sc.next] == start {
			sc.next++
		}
	case start == "":
		sc.next = len(fs.rows) - 1
	default:
		sc.next = sort.SearchStrings(fs.rows, start) // first row >= start
		if sc.next == len(fs.rows) || fs.rows[sc.next] != start || !s.GetIncludeStartRow() {
			sc.next--
		}
	}
	fs.nextID++
	fs.scanners[fs.nextID] = sc
	resp.ScannerId = proto.Uint64(fs.nextID)
	return sc, nil
}

// scanContinue handles a call on an open scanner; it returns a nil scanner
// when there are no rows to send.
func (fs *fakeServer) scanContinue(req *pb.ScanRequest, resp *pb.ScanResponse) (*fakeScanner, *pb.ExceptionResponse) {
	sc := fs.scanners[req.GetScannerId()]
	if sc == nil {
		return nil, exception(clsUnknownScanner, "unknown scanner")
	}
	switch {
	case req.GetCloseScanner():
		fs.calls["Scan.close"]++
		delete(fs.scanners, req.GetScannerId())
		return nil, nil
	case req.GetRenew():
		fs.calls["Scan.renew"]++
		return nil, nil
	}
	fs.calls["Scan.next"]++
	if fs.lostScannerAfter > 0 {
		fs.lostScannerAfter--
		if fs.lostScannerAfter == 0 {
			delete(fs.scanners, req.GetScannerId())
			return nil, exception(clsUnknownScanner, "lease expired")
		}
	}
	if req.GetNextCallSeq() != sc.seq {
		return nil, exception(clsOutOfOrderScannerNext, "seq")
	}
	sc.seq++
	resp.ScannerId = req.ScannerId
	return sc, nil
}

// scanRows moves sc over up to n rows, encoding them as a cellblock.
func (fs *fakeServer) scanRows(sc *fakeScanner, n int, resp *pb.ScanResponse) []byte {
	valid := func() bool {
		if sc.next < 0 || sc.next >= len(fs.rows) || !sc.region.Contains([]byte(fs.rows[sc.next])) {
			return false
		}
		row, stop := fs.rows[sc.next], string(sc.stop)
		return stop == "" || (!sc.reversed && row < stop) || (sc.reversed && row > stop)
	}
	var cells []byte
	add := func(row, qual string, partial bool) {
		cells = appendCell(cells, Cell{Row: []byte(row), Family: []byte("f"), Qualifier: []byte(qual), Timestamp: 1, Type: CellPut, Value: []byte(row)})
		resp.CellsPerResult = append(resp.CellsPerResult, 1)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, partial)
	}
	for i := 0; i < n && valid(); i++ {
		row := fs.rows[sc.next]
		if fs.partial {
			add(row, "q1", true)
			add(row, "q2", false)
		} else {
			add(row, "q", false)
		}
		if sc.reversed {
			sc.next--
		} else {
			sc.next++
		}
	}
	resp.MoreResultsInRegion = proto.Bool(valid())
	resp.MoreResults = proto.Bool(true)
	return cells
}

// fakeClient is a client whose meta location is the fake server.
func fakeClient(fs *fakeServer) *Client {
	c := testClient(Config{RetryBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	c.mu.meta = fs.addr
	fs.t.Cleanup(func() { c.Close() })
	return c
}
