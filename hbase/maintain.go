package hbase

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"github.com/rkql/rkql/hbase/internal/rpc"
	"google.golang.org/protobuf/proto"
)

// callAdmin sends one AdminService call to the region server of r.
func (c *Client) callAdmin(ctx context.Context, r *Region, method string, req, resp proto.Message) error {
	if r.Server == "" {
		return &RegionError{Region: string(r.Name), Err: fmt.Errorf("hbase: region %s is not assigned to a server", r.Name)}
	}
	conn, err := c.conn(ctx, r.Server, rpc.AdminService, "region server")
	if err != nil {
		return err
	}
	_, err = conn.Call(ctx, method, req, 100, resp) // the admin handlers' priority
	return wrapCallError(err, "region server", r.Server, string(r.Name))
}

// eachRegion runs op on every region of table, once each. A region that
// moved or split while op ran is looked up again: the regions covering
// what is left are listed anew from hbase:meta and op runs on those not
// yet done (a daughter of a region done is done).
func (c *Client) eachRegion(ctx context.Context, what, table string, op func(ctx context.Context, r *Region) error) error {
	var done [][2][]byte // start and end keys covered
	covered := func(r *Region) bool {
		for _, d := range done {
			if bytes.Compare(r.StartKey, d[0]) >= 0 && (len(d[1]) == 0 || len(r.EndKey) > 0 && bytes.Compare(r.EndKey, d[1]) <= 0) {
				return true
			}
		}
		return false
	}
	return c.retry(ctx, what, func(ctx context.Context) error {
		regions, err := c.Regions(ctx, table)
		if err != nil {
			return err
		}
		for _, r := range regions {
			if covered(r) {
				continue
			}
			err := op(ctx, r)
			c.noteError(r, err)
			if err != nil {
				return err
			}
			done = append(done, [2][]byte{r.StartKey, r.EndKey})
		}
		return nil
	})
}

// Flush writes the memstore of every region of table out to new store
// files. Each region server's call returns once its flush is done.
func (a *Admin) Flush(ctx context.Context, table string) error {
	return a.c.eachRegion(ctx, "flush "+table, table, func(ctx context.Context, r *Region) error {
		var resp pb.FlushRegionResponse
		return a.c.callAdmin(ctx, r, "FlushRegion", &pb.FlushRegionRequest{Region: regionSpec(r)}, &resp)
	})
}

// StoreFiles returns the number of store files of each region of table,
// by region name, as their servers list them, and the most any one
// column family of the region holds.
func (a *Admin) StoreFiles(ctx context.Context, table string) (map[string]int, map[string]int, error) {
	files := map[string]int{}
	most := map[string]int{}
	err := a.c.eachRegion(ctx, "list store files of "+table, table, func(ctx context.Context, r *Region) error {
		n, m, err := a.regionStoreFiles(ctx, r)
		if err == nil {
			files[string(r.Name)], most[string(r.Name)] = n, m
		}
		return err
	})
	return files, most, err
}

// regionStoreFiles returns the store files of r and the most of them one
// family holds (the files of a family share its directory).
func (a *Admin) regionStoreFiles(ctx context.Context, r *Region) (n, most int, err error) {
	var resp pb.GetStoreFileResponse
	if err := a.c.callAdmin(ctx, r, "GetStoreFile", &pb.GetStoreFileRequest{Region: regionSpec(r)}, &resp); err != nil {
		return 0, 0, err
	}
	per := map[string]int{}
	for _, f := range resp.GetStoreFile() {
		d := path.Dir(f)
		per[d]++
		most = max(most, per[d])
	}
	return len(resp.GetStoreFile()), most, nil
}

// CompactProgress is told how many regions of how many have finished
// compacting.
type CompactProgress func(done, total int)

// Compact asks the server of every region of table to compact it (a
// major compaction, which rewrites each family's files into one and drops
// deleted and expired cells, when major is set), and waits until no
// region reports a compaction running; a major compaction also waits
// until no family of a region has more than one store file. The region
// servers run compactions in the background: a minor compaction they find
// nothing to do for ends at once.
func (a *Admin) Compact(ctx context.Context, table string, major bool, progress CompactProgress) error {
	what := "compact " + table
	if major {
		what = "major compact " + table
	}
	var asked []*Region
	err := a.c.eachRegion(ctx, what, table, func(ctx context.Context, r *Region) error {
		var resp pb.CompactRegionResponse
		err := a.c.callAdmin(ctx, r, "CompactRegion", &pb.CompactRegionRequest{Region: regionSpec(r), Major: proto.Bool(major)}, &resp)
		if err == nil {
			asked = append(asked, r)
		}
		return err
	})
	if err != nil {
		return err
	}
	pause := 50 * time.Millisecond
	pending := asked
	for {
		var still []*Region
		for _, r := range pending {
			busy, err := a.compacting(ctx, r, major)
			if err != nil {
				// A region that moved or split is no longer the one asked;
				// its compaction went with it or is done.
				if isRetryable(err) {
					continue
				}
				return fmt.Errorf("hbase: %s: %w", what, err)
			}
			if busy {
				still = append(still, r)
			}
		}
		pending = still
		if progress != nil {
			progress(len(asked)-len(pending), len(asked))
		}
		if len(pending) == 0 {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("hbase: %s: waiting for %d regions to finish: %w", what, len(pending), ctx.Err())
		}
		pause = min(pause*2, time.Second)
	}
}

// compacting reports whether r still has a compaction to finish.
func (a *Admin) compacting(ctx context.Context, r *Region, major bool) (bool, error) {
	var resp pb.GetRegionInfoResponse
	req := &pb.GetRegionInfoRequest{Region: regionSpec(r), CompactionState: proto.Bool(true)}
	if err := a.c.callAdmin(ctx, r, "GetRegionInfo", req, &resp); err != nil {
		return false, err
	}
	if resp.GetCompactionState() != pb.GetRegionInfoResponse_NONE {
		return true, nil
	}
	if !major {
		return false, nil
	}
	_, most, err := a.regionStoreFiles(ctx, r)
	return most > 1, err
}

// Merge merges adjacent regions of table, named by their region names,
// into one, and waits until the master's procedure is done.
func (a *Admin) Merge(ctx context.Context, table string, regionNames ...[]byte) error {
	if len(regionNames) < 2 {
		return fmt.Errorf("hbase: merge regions of %s: two regions or more are needed", table)
	}
	g, n := a.nonces()
	req := &pb.MergeTableRegionsRequest{NonceGroup: g, Nonce: n}
	for _, name := range regionNames {
		// The master takes the regions by their encoded names.
		req.Region = append(req.Region, &pb.RegionSpecifier{Type: pb.RegionSpecifier_ENCODED_REGION_NAME.Enum(), Value: encodedName(name)})
	}
	what := fmt.Sprintf("merge %d regions of %s", len(regionNames), table)
	var resp pb.MergeTableRegionsResponse
	if err := a.callMaster(ctx, what, "MergeTableRegions", req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(table)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}

// SetBalancer turns the master's balancer on or off, waiting for a
// balancer run under way to end, and returns the state it had before.
func (a *Admin) SetBalancer(ctx context.Context, on bool) (bool, error) {
	var resp pb.SetBalancerRunningResponse
	req := &pb.SetBalancerRunningRequest{On: proto.Bool(on), Synchronous: proto.Bool(true)}
	if err := a.callMaster(ctx, "switch the balancer", "SetBalancerRunning", req, &resp); err != nil {
		return false, err
	}
	return resp.GetPrevBalanceValue(), nil
}

// BalancerEnabled reports whether the master's balancer is on.
func (a *Admin) BalancerEnabled(ctx context.Context) (bool, error) {
	var resp pb.IsBalancerEnabledResponse
	if err := a.callMaster(ctx, "ask for the balancer's state", "IsBalancerEnabled", &pb.IsBalancerEnabledRequest{}, &resp); err != nil {
		return false, err
	}
	return resp.GetEnabled(), nil
}

// encodedName is the encoded part of a region name
// "<table>,<start key>,<id>.<encoded>.", or the name itself when it has
// no such part.
func encodedName(name []byte) []byte {
	if len(name) < 2 || name[len(name)-1] != '.' {
		return name
	}
	i := bytes.LastIndexByte(name[:len(name)-1], '.')
	if i < 0 {
		return name
	}
	return name[i+1 : len(name)-1]
}

// ClusterStatus is the master's view of the cluster.
type ClusterStatus struct {
	// Master is the active master's host:port.
	Master string
	// Live are the live region servers, sorted by name.
	Live []ServerStatus
	// Dead are the region servers the master holds dead, host:port.
	Dead []string
	// InTransition are the regions moving between states.
	InTransition []RegionTransition
	BalancerOn   bool
}

// ServerStatus is what a live region server last reported (every few
// seconds).
type ServerStatus struct {
	Server            string
	Regions           int
	RequestsPerSecond uint64
	TotalRequests     uint64
	StoreFiles        uint64
	StoreFileMB       uint64
	MemStoreMB        uint64
	UsedHeapMB        uint32
	MaxHeapMB         uint32
}

// RegionTransition is a region in transition and its state.
type RegionTransition struct {
	Region string
	State  string
	Since  time.Time
}

// ClusterStatus asks the master for the cluster's servers, regions in
// transition and balancer state.
func (a *Admin) ClusterStatus(ctx context.Context) (*ClusterStatus, error) {
	req := &pb.GetClusterStatusRequest{Options: []pb.ClusterStatusOption{
		pb.ClusterStatusOption_LIVE_SERVERS, pb.ClusterStatusOption_DEAD_SERVERS, pb.ClusterStatusOption_MASTER,
		pb.ClusterStatusOption_REGIONS_IN_TRANSITION, pb.ClusterStatusOption_BALANCER_ON,
	}}
	var resp pb.GetClusterStatusResponse
	if err := a.callMaster(ctx, "read cluster status", "GetClusterStatus", req, &resp); err != nil {
		return nil, err
	}
	cs := resp.GetClusterStatus()
	hostPort := func(s *pb.ServerName) string { return fmt.Sprintf("%s:%d", s.GetHostName(), s.GetPort()) }
	out := &ClusterStatus{BalancerOn: cs.GetBalancerOn()}
	if m := cs.GetMaster(); m != nil {
		out.Master = hostPort(m)
	}
	for _, s := range cs.GetLiveServers() {
		l := s.GetServerLoad()
		st := ServerStatus{Server: hostPort(s.GetServer()), Regions: len(l.GetRegionLoads()),
			RequestsPerSecond: l.GetNumberOfRequests(), TotalRequests: l.GetTotalNumberOfRequests(),
			UsedHeapMB: l.GetUsedHeap_MB(), MaxHeapMB: l.GetMaxHeap_MB()}
		for _, r := range l.GetRegionLoads() {
			st.StoreFiles += uint64(r.GetStorefiles())
			st.StoreFileMB += uint64(r.GetStorefileSize_MB())
			st.MemStoreMB += uint64(r.GetMemStoreSize_MB())
		}
		out.Live = append(out.Live, st)
	}
	slices.SortFunc(out.Live, func(x, y ServerStatus) int { return strings.Compare(x.Server, y.Server) })
	for _, s := range cs.GetDeadServers() {
		out.Dead = append(out.Dead, hostPort(s))
	}
	slices.Sort(out.Dead)
	for _, r := range cs.GetRegionsInTransition() {
		rs := r.GetRegionState()
		out.InTransition = append(out.InTransition, RegionTransition{
			Region: string(r.GetSpec().GetValue()), State: rs.GetState().String(),
			Since: time.UnixMilli(int64(rs.GetStamp())),
		})
	}
	return out, nil
}
