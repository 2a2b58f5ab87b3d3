package hbase

import (
	"context"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// RegionLoad is what a region server last reported to the master about
// one region. Counts are totals since the region opened on its server.
type RegionLoad struct {
	ReadRequests         uint64
	FilteredReadRequests uint64
	WriteRequests        uint64
	Stores               uint32
	StoreFiles           uint32
	StoreFileMB          uint32
	MemStoreMB           uint32
}

// RegionLoads asks the master for every live region server's load and
// returns it per region, keyed by full region name. Region servers report
// every few seconds (hbase.regionserver.msginterval, 3 s by default), so
// the figures trail the traffic by that much.
func (a *Admin) RegionLoads(ctx context.Context) (map[string]RegionLoad, error) {
	req := &pb.GetClusterStatusRequest{Options: []pb.ClusterStatusOption{pb.ClusterStatusOption_LIVE_SERVERS}}
	var resp pb.GetClusterStatusResponse
	if err := a.callMaster(ctx, "read cluster status", "GetClusterStatus", req, &resp); err != nil {
		return nil, err
	}
	out := map[string]RegionLoad{}
	for _, s := range resp.GetClusterStatus().GetLiveServers() {
		for _, r := range s.GetServerLoad().GetRegionLoads() {
			out[string(r.GetRegionSpecifier().GetValue())] = RegionLoad{
				ReadRequests:         r.GetReadRequestsCount(),
				FilteredReadRequests: r.GetFilteredReadRequestsCount(),
				WriteRequests:        r.GetWriteRequestsCount(),
				Stores:               r.GetStores(),
				StoreFiles:           r.GetStorefiles(),
				StoreFileMB:          r.GetStorefileSize_MB(),
				MemStoreMB:           r.GetMemStoreSize_MB(),
			}
		}
	}
	return out, nil
}
