package hbasestore

import (
	"bytes"
	"context"

	"github.com/rkql/rkql/exec"
)

var _ exec.Parter = (*Store)(nil)

// Parts cuts r at the table's region boundaries, for a read that runs a
// scanner per region. A range inside the region of its start key, which
// the client's region cache usually knows, costs no call to hbase:meta;
// a wider one lists the table's regions. Each part is an ordinary scan
// range, so a region that splits or moves while it is read is followed
// as any scan follows it.
func (s *Store) Parts(ctx context.Context, table string, r exec.Range, _ int) ([]exec.Part, string, error) {
	if table == metaTable {
		return []exec.Part{{Range: r}}, "REGIONS", nil
	}
	if loc, err := s.c.Locate(ctx, table, r.Start); err == nil {
		inside := len(loc.EndKey) > 0 && len(r.Stop) > 0 && bytes.Compare(r.Stop, loc.EndKey) <= 0
		if len(loc.EndKey) == 0 || inside {
			return []exec.Part{{Range: r, Server: loc.Server}}, "REGIONS", nil
		}
	}
	regions, err := s.Regions(ctx, table)
	if err != nil {
		return nil, "", err
	}
	return exec.RegionParts(regions, r), "REGIONS", nil
}
