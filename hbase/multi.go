package hbase

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
)

// MultiGet reads many rows in one round of RPCs: one Multi call per region
// server, run in parallel. results[i] belongs to gets[i]; a missing row
// gives a Result with no cells. Each Get keeps its own options (columns,
// filter, time range, versions), which the server applies per row.
func (c *Client) MultiGet(ctx context.Context, gets []*Get) ([]*Result, error) {
	res, _, err := c.MultiGetWithStats(ctx, gets)
	return res, err
}

// MultiGetWithStats is MultiGet that also reports what the reads
// received, on failure too. Bytes are those of whole Multi responses.
func (c *Client) MultiGetWithStats(ctx context.Context, gets []*Get) ([]*Result, ReadStats, error) {
	var st ReadStats
	acts := make([]action, len(gets))
	for i, g := range gets {
		if g == nil {
			return nil, st, errNilRequest
		}
		acts[i] = action{table: g.table, key: g.key, get: g.pb}
	}
	results := make([]*Result, len(gets))
	if err := c.multi(ctx, fmt.Sprintf("multi-get of %d rows", len(gets)), acts, results, &st); err != nil {
		return nil, st, err
	}
	return results, st, nil
}

// MultiMutate applies many Puts and Deletes, grouped into one Multi call
// per region server. Mutations of different rows are not atomic together.
func (c *Client) MultiMutate(ctx context.Context, ms []Mutation) error {
	acts := make([]action, len(ms))
	for i, m := range ms {
		if m == nil {
			return errNilRequest
		}
		acts[i] = action{table: m.Table(), key: m.Key(), mut: m.proto()}
	}
	return c.multi(ctx, fmt.Sprintf("multi-mutate of %d rows", len(ms)), acts, nil, nil)
}

// action is one Get or mutation of a Multi.
type action struct {
	table string
	key   []byte
	get   *pb.Get
	mut   *pb.MutationProto
}

// regionBatch is the actions of one region, by index into the action list.
type regionBatch struct {
	region *Region
	idx    []int
}

// multi runs acts until each has succeeded, retrying only the failed ones.
// results, when not nil, receives each Get's Result; st, when not nil,
// counts what the calls received.
func (c *Client) multi(ctx context.Context, what string, acts []action, results []*Result, st *ReadStats) error {
	pending := make([]int, len(acts))
	for i := range pending {
		pending[i] = i
	}
	var regionErrs int
	seen := map[string]bool{}
	defer func() {
		if st != nil {
			st.Regions = len(seen)
		}
	}()
	return c.retry(ctx, what, func(ctx context.Context) error {
		if len(pending) == 0 {
			return nil
		}
		byServer := map[string][]*regionBatch{}
		byRegion := map[string]*regionBatch{}
		var firstErr error
		var unplaced []int
		for _, i := range pending {
			r, err := c.locate(ctx, acts[i].table, acts[i].key, false)
			if err != nil {
				if !isRetryable(err) {
					return err
				}
				firstErr = cmpErr(firstErr, err)
				unplaced = append(unplaced, i)
				continue
			}
			seen[string(r.Name)] = true
			b := byRegion[string(r.Name)]
			if b == nil {
				b = &regionBatch{region: r}
				byRegion[string(r.Name)] = b
				byServer[r.Server] = append(byServer[r.Server], b)
			}
			b.idx = append(b.idx, i)
		}
		var mu sync.Mutex
		failed := unplaced
		var wg sync.WaitGroup
		for addr, batches := range byServer {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var one ReadStats
				bad, err := c.multiServer(ctx, addr, batches, acts, results, &one)
				mu.Lock()
				defer mu.Unlock()
				if st != nil {
					st.RPCs += one.RPCs
					st.Bytes += one.Bytes
					st.Cells += one.Cells
					st.Rows += one.Rows
				}
				failed = append(failed, bad...)
				firstErr = cmpErr(firstErr, err)
			}()
		}
		wg.Wait()
		if len(failed) > 0 {
			firstErr = c.checkDisabled(ctx, acts[failed[0]].table, firstErr, &regionErrs)
		}
		pending = failed
		if len(pending) == 0 {
			return nil
		}
		return firstErr
	})
}

// cmpErr keeps the error that matters most: a final one over a retryable.
func cmpErr(old, new error) error {
	if old == nil || (new != nil && isRetryable(old) && !isRetryable(new)) {
		return new
	}
	return old
}

// multiServer sends one Multi call to one server and returns the indices
// of the actions that failed, with the most serious error among them.
func (c *Client) multiServer(ctx context.Context, addr string, batches []*regionBatch, acts []action, results []*Result, st *ReadStats) ([]int, error) {
	req := &pb.MultiRequest{}
	for _, b := range batches {
		ra := &pb.RegionAction{Region: regionSpec(b.region)}
		for _, i := range b.idx {
			a := &pb.Action{Index: new(uint32(i + 1)), Get: acts[i].get, Mutation: acts[i].mut}
			ra.Action = append(ra.Action, a)
		}
		req.RegionAction = append(req.RegionAction, ra)
	}
	all := func() []int {
		var out []int
		for _, b := range batches {
			out = append(out, b.idx...)
		}
		return out
	}
	var resp pb.MultiResponse
	st.RPCs++
	rep, err := c.callRegion(ctx, batches[0].region, "Multi", req, &resp)
	st.Bytes += int64(rep.Bytes)
	cells := rep.Cells
	if err != nil {
		var srvErr *ServerError
		if errors.As(err, &srvErr) {
			c.noteError(batches[0].region, err)
		}
		return all(), err
	}
	rars := resp.GetRegionActionResult()
	if len(rars) != len(batches) {
		return all(), &RetryableError{Err: fmt.Errorf("hbase: multi response from %s has %d region results for %d regions", addr, len(rars), len(batches))}
	}
	var failed []int
	var firstErr error
	for bi, rar := range rars {
		bad, err := c.regionResults(addr, batches[bi], rar, &cells, len(acts), results, st)
		if err != nil && !isRetryable(err) && bad == nil {
			return all(), err // a malformed response
		}
		failed = append(failed, bad...)
		firstErr = cmpErr(firstErr, err)
	}
	return failed, firstErr
}

// regionResults files the results of one region's actions, consuming
// their cells from *cells. It returns the failed actions and the most
// serious of their errors; a nil list with an error means the response
// cannot be trusted.
func (c *Client) regionResults(addr string, b *regionBatch, rar *pb.RegionActionResult, cells *[]byte, nActs int, results []*Result, st *ReadStats) ([]int, error) {
	if ex := rar.GetException(); ex != nil {
		err := multiException(ex, b.region)
		c.noteError(b.region, err)
		return b.idx, err
	}
	var failed []int
	var firstErr error
	seen := map[int]bool{}
	for _, roe := range rar.GetResultOrException() {
		i := int(roe.GetIndex()) - 1
		if i < 0 || i >= nActs {
			return nil, fmt.Errorf("hbase: multi response from %s names unknown action %d", addr, i+1)
		}
		seen[i] = true
		if ex := roe.GetException(); ex != nil {
			err := multiException(ex, b.region)
			c.noteError(b.region, err)
			failed = append(failed, i)
			firstErr = cmpErr(firstErr, err)
			continue
		}
		if roe.Result == nil {
			continue
		}
		res, rest, err := newResult(roe.GetResult(), *cells)
		if err != nil {
			return nil, err
		}
		*cells = rest
		if results != nil {
			results[i] = res
			st.addResult(res)
		}
	}
	for _, i := range b.idx {
		if !seen[i] {
			failed = append(failed, i)
			firstErr = cmpErr(firstErr, &RetryableError{Err: fmt.Errorf("hbase: multi response from %s lacks action %d", addr, i+1)})
		}
	}
	return failed, firstErr
}

// doNotRetry lists exceptions that are final even though a Multi result
// does not carry the server's do-not-retry flag.
var doNotRetry = map[string]bool{
	pkgHBase + "DoNotRetryIOException":                 true,
	pkgHBase + "exceptions.FailedSanityCheckException": true,
	pkgHBase + "exceptions.UnknownProtocolException":   true,
	pkgHBase + "UnknownRegionException":                true,
}

func multiException(ex *pb.NameBytesPair, r *Region) error {
	e := toException(rpc.NewRemoteError(ex.GetName(), string(ex.GetValue())))
	e.DoNotRetry = doNotRetry[e.Class]
	return classifyException(e, string(r.Name), "region server", r.Server)
}
