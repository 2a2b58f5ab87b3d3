package hbase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// AggregateClass is the region coprocessor that serves HBase's aggregation
// endpoint (hbase-endpoint's AggregateService). A table loads it through
// its descriptor (TableSpec.Coprocessors) or a cluster for every table.
const AggregateClass = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation"

// aggregateService is the name a region finds the endpoint by: the
// protobuf service's full name, less the package for services in HBase's
// own package (hbase.pb.AggregateService).
const aggregateService = "AggregateService"

// ErrNoEndpoint means a region does not load the coprocessor endpoint a
// call names: the caller can do the work another way.
var ErrNoEndpoint = errors.New("hbase: coprocessor endpoint not available")

// clsUnknownProtocol is what a region answers for a service it does not
// serve.
const clsUnknownProtocol = pkgHBase + "exceptions.UnknownProtocolException"

// AggregateFunc is what an Aggregate computes over its scan's rows.
type AggregateFunc uint8

const (
	// RowCount counts the rows the scan returns (GetRowNum).
	RowCount AggregateFunc = iota
	// Sum adds the values of the scan's cells (GetSum).
	Sum
	// Min and Max are the least and greatest value (GetMin, GetMax).
	Min
	Max
	// Avg is the sum and the region servers' row count (GetAvg); see
	// AggregateResult.Rows.
	Avg
)

var aggregateMethods = [...]string{RowCount: "GetRowNum", Sum: "GetSum", Min: "GetMin", Max: "GetMax", Avg: "GetAvg"}

func (f AggregateFunc) String() string {
	if int(f) < len(aggregateMethods) {
		return aggregateMethods[f]
	}
	return fmt.Sprintf("AggregateFunc(%d)", uint8(f))
}

// Interpreter is the Java ColumnInterpreter that turns a cell into a
// value on the region server. Both read only cells of exactly 8 bytes and
// skip the rest; neither looks at the cell's column, so the scan must
// return only the cells to aggregate.
type Interpreter uint8

const (
	// LongInterpreter reads a big-endian int64 (Java's Bytes.toBytes(long)).
	LongInterpreter Interpreter = iota + 1
	// DoubleInterpreter reads a big-endian IEEE 754 double.
	DoubleInterpreter
)

func (in Interpreter) class() string {
	switch in {
	case LongInterpreter:
		return "org.apache.hadoop.hbase.client.coprocessor.LongColumnInterpreter"
	case DoubleInterpreter:
		return "org.apache.hadoop.hbase.client.coprocessor.DoubleColumnInterpreter"
	}
	return ""
}

// Aggregate is one aggregation endpoint call over a Scan's range, run in
// every region the range covers. Build it with NewAggregate; it does no
// I/O.
type Aggregate struct {
	fn     AggregateFunc
	interp Interpreter
	scan   *Scan
	// ranges, when set, are the only key ranges inside the scan's range
	// that hold rows to aggregate (the scan's filter keeps to them): only
	// the regions they meet are asked.
	ranges []KeyRange
}

// KeyRange is a half-open key range [Start, Stop); an empty Stop is open.
type KeyRange struct{ Start, Stop []byte }

// AggregateOption tunes an Aggregate.
type AggregateOption func(*Aggregate)

// InRanges says that only rows in ranges, sorted and apart, can count
// (the scan's filter, e.g. a MultiRowRangeFilter, keeps to them): regions
// that none of them meets are not asked.
func InRanges(ranges ...KeyRange) AggregateOption {
	return func(a *Aggregate) { a.ranges = ranges }
}

// NewAggregate builds fn over the rows and cells s returns. Sum, Min, Max
// and Avg need s to name at least one family (Families or Columns): the
// endpoint reads the first. s must read forward and without a Limit.
func NewAggregate(fn AggregateFunc, in Interpreter, s *Scan, opts ...AggregateOption) (*Aggregate, error) {
	switch {
	case s == nil:
		return nil, errNilRequest
	case int(fn) >= len(aggregateMethods):
		return nil, fmt.Errorf("hbase: aggregate on %s: unknown function %d", s.table, fn)
	case in.class() == "":
		return nil, fmt.Errorf("hbase: aggregate on %s: unknown interpreter %d", s.table, in)
	case s.opts.reversed || s.opts.excludeStart || s.opts.limit > 0:
		return nil, fmt.Errorf("hbase: aggregate on %s: a reversed or limited scan", s.table)
	case fn != RowCount && len(s.pb.GetColumn()) == 0:
		return nil, fmt.Errorf("hbase: %s on %s: the scan names no column family", fn, s.table)
	}
	a := &Aggregate{fn: fn, interp: in, scan: s}
	for _, o := range opts {
		o(a)
	}
	return a, nil
}

// AggregateResult is an Aggregate's answer, combined over its regions.
type AggregateResult struct {
	// Rows is the row count of RowCount, and of Avg the region servers'
	// count, which is not exact: AggregateImplementation counts its
	// scanner's steps, not the rows holding a value, and was measured on
	// HBase 2.6 over-counting by up to one per region (more with a
	// filter). For an exact average, divide Sum by the RowCount of the
	// same scan.
	Rows int64
	// Valid is false when no region held a value to Sum, Min, Max or Avg.
	Valid bool
	// Long is the value under LongInterpreter, Double under
	// DoubleInterpreter. For Avg it is the sum.
	Long   int64
	Double float64
}

// AggregateStats counts what an Aggregate received. Region lookups in
// hbase:meta are not counted.
type AggregateStats struct {
	// RPCs is the number of ExecService calls attempted, retries included.
	RPCs int
	// Regions is the number of regions that answered.
	Regions int
	// Bytes is the size of every response frame received.
	Bytes int64
}

// maxAggregateCalls bounds the ExecService calls of one Aggregate in
// flight.
const maxAggregateCalls = 8

// Aggregate runs a in every region its scan's range covers, in parallel,
// and combines their answers. A region without the endpoint fails the
// call with an error that matches ErrNoEndpoint.
func (c *Client) Aggregate(ctx context.Context, a *Aggregate) (AggregateResult, AggregateStats, error) {
	var st AggregateStats
	if a == nil {
		return AggregateResult{}, st, errNilRequest
	}
	regions, err := c.Regions(ctx, a.scan.table)
	if err != nil {
		return AggregateResult{}, st, err
	}
	// One piece per region the range covers, as the regions are now (a
	// list that tiles the table, or Regions failed); a piece whose region
	// has split or moved since walks the regions that hold it now, each
	// looked up at the end of the one before.
	pieces := a.pieces(regions)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		acc   = aggregateAcc{fn: a.fn, interp: a.interp}
		first error
		wg    sync.WaitGroup
		slots = make(chan struct{}, maxAggregateCalls)
	)
	for _, p := range pieces {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			var pst AggregateStats
			err := c.aggregatePiece(ctx, a, p[0], p[1], &pst, func(resp *pb.AggregateResponse) error {
				mu.Lock()
				defer mu.Unlock()
				return acc.add(resp)
			})
			mu.Lock()
			defer mu.Unlock()
			st.RPCs += pst.RPCs
			st.Regions += pst.Regions
			st.Bytes += pst.Bytes
			if err != nil && first == nil {
				first = err
				cancel()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return AggregateResult{}, st, first
	}
	return acc.res, st, nil
}

// pieces are the parts of the scan's range to ask each region for: the
// region's part of the range or, with InRanges, from the first to the
// last key of the ranges it holds.
func (a *Aggregate) pieces(regions []*Region) [][2][]byte {
	var out [][2][]byte
	for _, r := range regions {
		from, to := clampRange(a.scan.start, a.scan.stop, r.StartKey, r.EndKey)
		if from == nil || a.ranges == nil {
			if from != nil {
				out = append(out, [2][]byte{from, to})
			}
			continue
		}
		var first, last []byte
		met := false
		for _, kr := range a.ranges {
			f, t := clampRange(from, to, kr.Start, kr.Stop)
			if f == nil {
				continue
			}
			if !met {
				first, met = f, true
			}
			last = t
		}
		if met {
			out = append(out, [2][]byte{first, last})
		}
	}
	return out
}

// clampRange intersects the scan range [start, stop) with a region's
// [rstart, rend); empty stop and rend are open ends. It returns a nil
// from when they do not meet; from is never nil otherwise.
func clampRange(start, stop, rstart, rend []byte) (from, to []byte) {
	from = start
	if bytes.Compare(rstart, from) > 0 {
		from = rstart
	}
	to = stop
	if len(rend) > 0 && (len(to) == 0 || bytes.Compare(rend, to) < 0) {
		to = rend
	}
	if len(to) > 0 && bytes.Compare(from, to) >= 0 {
		return nil, nil
	}
	return nonNil(from), to
}

// aggregatePiece runs a over [from, to), region by region as they are
// when each call is sent, and hands each region's answer to add.
func (c *Client) aggregatePiece(ctx context.Context, a *Aggregate, from, to []byte, st *AggregateStats, add func(*pb.AggregateResponse) error) error {
	key := from
	for {
		var region *Region
		var resp pb.AggregateResponse
		what := fmt.Sprintf("%s on %s from %q", a.fn, a.scan.table, key)
		err := c.withRegion(ctx, what, a.scan.table, key, func(ctx context.Context, r *Region) error {
			region = r
			resp.Reset()
			return c.execAggregate(ctx, a, r, key, to, st, &resp)
		})
		if err != nil {
			return err
		}
		st.Regions++
		if err := add(&resp); err != nil {
			return fmt.Errorf("hbase: %s on %s, region %s: %w", a.fn, a.scan.table, region.Name, err)
		}
		if len(region.EndKey) == 0 || (len(to) > 0 && bytes.Compare(region.EndKey, to) >= 0) {
			return nil
		}
		key = region.EndKey
	}
}

// execAggregate sends one ExecService call to region r over [from, to).
func (c *Client) execAggregate(ctx context.Context, a *Aggregate, r *Region, from, to []byte, st *AggregateStats, resp *pb.AggregateResponse) error {
	sp := proto.Clone(a.scan.pb).(*pb.Scan)
	sp.StartRow, sp.StopRow = from, to
	body, err := proto.Marshal(&pb.AggregateRequest{InterpreterClassName: proto.String(a.interp.class()), Scan: sp})
	if err != nil {
		return fmt.Errorf("hbase: encode %s request: %w", a.fn, err)
	}
	req := &pb.CoprocessorServiceRequest{
		Region: regionSpec(r),
		Call: &pb.CoprocessorServiceCall{
			Row: nonNil(from), ServiceName: proto.String(aggregateService),
			MethodName: proto.String(a.fn.String()), Request: body,
		},
	}
	var out pb.CoprocessorServiceResponse
	st.RPCs++
	rep, err := c.callRegion(ctx, r, "ExecService", req, &out)
	st.Bytes += int64(rep.Bytes)
	if err != nil {
		return endpointError(err)
	}
	if err := proto.Unmarshal(out.GetValue().GetValue(), resp); err != nil {
		return fmt.Errorf("hbase: decode %s response of region %s: %w", a.fn, r.Name, err)
	}
	return nil
}

// endpointError keeps retrying for what says "elsewhere" or "later"; any
// other failure of the endpoint itself (a bad interpreter, a failed
// region scan) would fail the same way again, so it is final.
func endpointError(err error) error {
	var retErr *RetryableError
	if errors.As(err, &retErr) && !retryLater[exceptionClass(err)] {
		return retErr.Err
	}
	return err
}

// aggregateAcc combines the regions' partial answers.
type aggregateAcc struct {
	fn     AggregateFunc
	interp Interpreter
	res    AggregateResult
}

// add folds one region's answer in. An empty answer means the region had
// no value.
func (acc *aggregateAcc) add(resp *pb.AggregateResponse) error {
	parts := resp.GetFirstPart()
	if acc.fn == RowCount {
		if len(parts) == 0 {
			return errors.New("no row count in the answer")
		}
		n, err := beInt64(parts[0])
		if err != nil {
			return err
		}
		acc.res.Rows += n
		return nil
	}
	if len(parts) == 0 {
		return nil
	}
	l, d, err := acc.value(parts[0])
	if err != nil {
		return err
	}
	if acc.fn == Avg {
		n, err := beInt64(resp.GetSecondPart())
		if err != nil {
			return err
		}
		acc.res.Rows += n
	}
	r := &acc.res
	switch {
	case !r.Valid:
		r.Long, r.Double = l, d
	case acc.fn == Sum || acc.fn == Avg:
		if acc.interp == LongInterpreter {
			s := r.Long + l
			if (l > 0 && s < r.Long) || (l < 0 && s > r.Long) {
				return errors.New("the sum overflows a 64-bit integer")
			}
			r.Long = s
		}
		r.Double += d
	case acc.fn == Min:
		if acc.less(l, d, r.Long, r.Double) {
			r.Long, r.Double = l, d
		}
	case acc.fn == Max:
		if acc.less(r.Long, r.Double, l, d) {
			r.Long, r.Double = l, d
		}
	}
	r.Valid = true
	return nil
}

// value decodes the interpreter's value message.
func (acc *aggregateAcc) value(b []byte) (int64, float64, error) {
	if acc.interp == LongInterpreter {
		var m pb.LongMsg
		if err := proto.Unmarshal(b, &m); err != nil {
			return 0, 0, fmt.Errorf("decode a long value: %w", err)
		}
		return m.GetLongMsg(), 0, nil
	}
	var m pb.DoubleMsg
	if err := proto.Unmarshal(b, &m); err != nil {
		return 0, 0, fmt.Errorf("decode a double value: %w", err)
	}
	return 0, m.GetDoubleMsg(), nil
}

// less orders values as the interpreters do: longs numerically, doubles
// as Java's Double.compare (-0.0 before 0.0, NaN after everything).
func (acc *aggregateAcc) less(l1 int64, d1 float64, l2 int64, d2 float64) bool {
	if acc.interp == LongInterpreter {
		return l1 < l2
	}
	switch {
	case math.IsNaN(d1):
		return false
	case math.IsNaN(d2):
		return true
	case d1 == d2:
		return math.Signbit(d1) && !math.Signbit(d2)
	}
	return d1 < d2
}

func beInt64(b []byte) (int64, error) {
	if len(b) != 8 {
		return 0, fmt.Errorf("a count of %d bytes, not 8", len(b))
	}
	return int64(binary.BigEndian.Uint64(b)), nil
}
