package hbase

import (
	"bytes"
	"sort"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// fakeMeta is the fake server's hbase:meta: the rows of the table's
// regions and of extra rows, ordered as HBase's meta comparator orders
// them, served by scanners that page as the real ones do.
type fakeMeta struct {
	// extra are rows beside those of the regions: split parents, say.
	extra []fakeMetaRow
	// hide maps a region's start key to the meta scans that leave its
	// row out (a hole in meta); a negative count hides it for good.
	hide map[string]int
	// page caps the rows of one response, whatever the call asks for.
	page int
	// heartbeat makes every open answer with an empty heartbeat page.
	heartbeat bool
	// transit maps a region's start key to the meta scans that show it
	// in transition: no server, state OPENING; negative is for good.
	transit map[string]int
	// loseAfter, when positive, counts down the continuations of meta
	// scanners; the one that brings it to zero finds its scanner gone.
	loseAfter int
	// offline lists the start keys of regions whose row says offline
	// (and not split), with no server.
	offline map[string]bool

	scanners map[uint64]*fakeMetaScanner
}

// fakeMetaRow is one region row of hbase:meta.
type fakeMetaRow struct {
	r              *Region // Server "" writes no info:server
	offline, split bool
	state          string // "" writes no info:state
	corrupt        bool   // info:regioninfo lacks its PBUF magic
}

type fakeMetaScanner struct {
	rows []fakeMetaRow // what the scan reads, in scan order, fixed at open
	next int
	seq  uint64
	left int // rows still allowed by limit_of_rows; <= 0 is no limit
}

// metaOrder compares meta row keys as HBase does: by table, then start
// key, then region id, split at the first and last commas.
func metaOrder(a, b []byte) int {
	split := func(k []byte) (t, s, id []byte) {
		first, last := bytes.IndexByte(k, ','), bytes.LastIndexByte(k, ',')
		if first < 0 {
			return k, nil, nil
		}
		if first == last {
			return k[:first], k[first+1:], nil
		}
		return k[:first], k[first+1 : last], k[last+1:]
	}
	at, as, aid := split(a)
	bt, bs, bid := split(b)
	if c := bytes.Compare(at, bt); c != 0 {
		return c
	}
	if c := bytes.Compare(as, bs); c != 0 {
		return c
	}
	return bytes.Compare(aid, bid)
}

// metaRows are the rows a scan opened now sees, in meta order. Called
// with fs.mu held; each call counts as one scan for hide.
func (fs *fakeServer) metaRows() []fakeMetaRow {
	var rows []fakeMetaRow
	for _, r := range fs.regions {
		if n, ok := fs.meta.hide[string(r.StartKey)]; ok && n != 0 {
			if n > 0 {
				fs.meta.hide[string(r.StartKey)] = n - 1
			}
			continue
		}
		row := fakeMetaRow{r: r, state: "OPEN"}
		if n, ok := fs.meta.transit[string(r.StartKey)]; ok && n != 0 {
			if n > 0 {
				fs.meta.transit[string(r.StartKey)] = n - 1
			}
			moving := *r
			moving.Server = ""
			row.r, row.state = &moving, "OPENING"
		}
		if fs.meta.offline[string(r.StartKey)] {
			gone := *r
			gone.Server = ""
			row.r, row.offline, row.state = &gone, true, "OFFLINE"
		}
		rows = append(rows, row)
	}
	rows = append(rows, fs.meta.extra...)
	sort.SliceStable(rows, func(i, j int) bool { return metaOrder(rows[i].r.Name, rows[j].r.Name) < 0 })
	return rows
}

// metaScan serves the opens, nexts and closes of meta scanners.
func (fs *fakeServer) metaScan(req *pb.ScanRequest) (proto.Message, []byte, *pb.ExceptionResponse) {
	if fs.meta.scanners == nil {
		fs.meta.scanners = map[uint64]*fakeMetaScanner{}
	}
	var id uint64
	var sc *fakeMetaScanner
	open := req.ScannerId == nil
	if open {
		sc = fs.metaOpen(req.GetScan())
		fs.nextID++
		id = fs.nextID
		fs.meta.scanners[id] = sc
	} else {
		id = req.GetScannerId()
		if sc = fs.meta.scanners[id]; sc == nil {
			return nil, nil, exception(clsUnknownScanner, "unknown meta scanner")
		}
		if fs.meta.loseAfter > 0 {
			if fs.meta.loseAfter--; fs.meta.loseAfter == 0 {
				delete(fs.meta.scanners, id)
				ex := exception(clsUnknownScanner, "lease expired")
				ex.DoNotRetry = proto.Bool(true) // as HBase marks it
				return nil, nil, ex
			}
		}
		if req.NextCallSeq != nil { // as HBase: checked only when sent
			if req.GetNextCallSeq() != sc.seq {
				return nil, nil, exception(clsOutOfOrderScannerNext, "seq")
			}
			sc.seq++
		}
	}
	if req.LimitOfRows != nil {
		sc.left = int(req.GetLimitOfRows())
	}
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(id), MoreResults: proto.Bool(true)}
	if req.GetCloseScanner() && req.GetNumberOfRows() == 0 {
		delete(fs.meta.scanners, id)
		return resp, nil, nil
	}
	n := int(req.GetNumberOfRows())
	if fs.meta.page > 0 {
		n = min(n, fs.meta.page)
	}
	if open && fs.meta.heartbeat {
		n = 0
		resp.HeartbeatMessage = proto.Bool(true)
	}
	var cells []byte
	for i := 0; i < n && sc.next < len(sc.rows) && (sc.left == 0 || i < sc.left); i++ {
		cells = appendMetaRow(cells, sc.rows[sc.next])
		resp.CellsPerResult = append(resp.CellsPerResult, uint32(len(metaCells(sc.rows[sc.next]))))
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, false)
		sc.next++
	}
	sent := len(resp.CellsPerResult)
	resp.MoreResultsInRegion = proto.Bool(sc.next < len(sc.rows))
	if sc.left > 0 && sent >= sc.left {
		resp.MoreResults = proto.Bool(false)
	}
	if sc.left > 0 {
		sc.left -= sent
	}
	if !resp.GetMoreResults() || !resp.GetMoreResultsInRegion() || req.GetCloseScanner() {
		delete(fs.meta.scanners, id)
	}
	return resp, cells, nil
}

// metaOpen picks the rows a meta scan reads, in scan order.
func (fs *fakeServer) metaOpen(s *pb.Scan) *fakeMetaScanner {
	start, stop := s.GetStartRow(), s.GetStopRow()
	incl := s.IncludeStartRow == nil || s.GetIncludeStartRow()
	all := fs.metaRows()
	sc := &fakeMetaScanner{}
	if !s.GetReversed() {
		for _, row := range all {
			c := metaOrder(row.r.Name, start)
			if (c > 0 || (c == 0 && incl)) && (len(stop) == 0 || metaOrder(row.r.Name, stop) < 0) {
				sc.rows = append(sc.rows, row)
			}
		}
		return sc
	}
	for i := len(all) - 1; i >= 0; i-- {
		row := all[i]
		c := metaOrder(row.r.Name, start)
		if (c < 0 || (c == 0 && incl) || len(start) == 0) && (len(stop) == 0 || metaOrder(row.r.Name, stop) > 0) {
			sc.rows = append(sc.rows, row)
		}
	}
	return sc
}

// metaCells are the cells of a meta row.
func metaCells(row fakeMetaRow) []Cell {
	r := row.r
	ri, _ := proto.Marshal(&pb.RegionInfo{RegionId: proto.Uint64(r.ID), TableName: tableName(r.Table),
		StartKey: r.StartKey, EndKey: r.EndKey, Offline: proto.Bool(row.offline), Split: proto.Bool(row.split)})
	magic := "PBUF"
	if row.corrupt {
		magic = "XXXX"
	}
	cells := []Cell{{Row: r.Name, Family: metaFamily, Qualifier: regionInfoQual, Type: CellPut, Value: append([]byte(magic), ri...)}}
	if r.Server != "" {
		cells = append(cells, Cell{Row: r.Name, Family: metaFamily, Qualifier: serverQual, Type: CellPut, Value: []byte(r.Server)})
	}
	if row.state != "" {
		cells = append(cells, Cell{Row: r.Name, Family: metaFamily, Qualifier: stateQual, Type: CellPut, Value: []byte(row.state)})
	}
	return cells
}

func appendMetaRow(b []byte, row fakeMetaRow) []byte {
	for _, c := range metaCells(row) {
		b = appendCell(b, c)
	}
	return b
}

// execService serves AggregateService.GetRowNum: the rows of the region
// inside the call's scan range.
func (fs *fakeServer) execService(req *pb.CoprocessorServiceRequest) (proto.Message, *pb.ExceptionResponse) {
	fs.calls["ExecService"]++
	r, ex := fs.region(req.GetRegion().GetValue(), nil)
	if ex != nil {
		return nil, ex
	}
	call := req.GetCall()
	if call.GetServiceName() != aggregateService || call.GetMethodName() != "GetRowNum" {
		return nil, exception(clsUnknownProtocol, call.GetServiceName()+"."+call.GetMethodName())
	}
	var areq pb.AggregateRequest
	if err := proto.Unmarshal(call.GetRequest(), &areq); err != nil {
		return nil, exception(pkgHBase+"DoNotRetryIOException", err.Error())
	}
	start, stop := areq.GetScan().GetStartRow(), areq.GetScan().GetStopRow()
	var n int64
	for _, row := range fs.rows {
		k := []byte(row)
		if r.Contains(k) && bytes.Compare(k, start) >= 0 && (len(stop) == 0 || bytes.Compare(k, stop) < 0) {
			n++
		}
	}
	fs.aggregated = append(fs.aggregated, string(r.Name))
	body, _ := proto.Marshal(&pb.AggregateResponse{FirstPart: [][]byte{countPart(n)}})
	return &pb.CoprocessorServiceResponse{Region: req.GetRegion(),
		Value: &pb.NameBytesPair{Name: proto.String(""), Value: body}}, nil
}
