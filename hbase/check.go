package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/hbase/internal/pb"
)

// FaultKind names what is wrong with a table's regions.
type FaultKind string

// The faults a check of hbase:meta finds.
const (
	// FaultNoRegions: hbase:meta lists no region of the table.
	FaultNoRegions FaultKind = "no regions"
	// FaultHole: no region covers the keys from Start to End.
	FaultHole FaultKind = "hole"
	// FaultOverlap: Region and Other both cover the keys from Start to
	// End.
	FaultOverlap FaultKind = "overlap"
	// FaultBadRange: Region ends before it starts.
	FaultBadRange FaultKind = "bad key range"
	// FaultUndeployed: Region is not open on a live server.
	FaultUndeployed FaultKind = "not deployed"
	// FaultInTransition: the master has Region in transition.
	FaultInTransition FaultKind = "in transition"
)

// Fault is one thing wrong with a table's regions.
type Fault struct {
	Kind FaultKind
	// Region is the region at fault; nil for a hole and for no regions.
	Region *Region
	// Other is, for an overlap, the region that covered the keys first.
	Other *Region
	// Start and End are the keys at fault: the hole, the overlap, or
	// the region's own. An empty End is the end of the table.
	Start, End []byte
	// Detail says what is wrong in words.
	Detail string
}

// tilingFaults lists every way regions (in hbase:meta's order: by start
// key) fail to tile [start, stop) of a table: keys before the first
// region, between two regions or after the last that no region covers,
// and keys that two regions cover. An empty stop or end key is the end
// of the table. The read path refuses a region list with any (see
// checkTiling); CHECK CLUSTER reports them all.
func tilingFaults(regions []*Region, start, stop []byte) []Fault {
	if len(regions) == 0 {
		return []Fault{{Kind: FaultNoRegions, Start: start, End: stop, Detail: "hbase:meta lists no region of the table"}}
	}
	var out []Fault
	// The keys up to cover are covered, by holder last; toEnd is a
	// cover up to the end of the table.
	cover, toEnd := start, false
	var holder *Region
	for i, r := range regions {
		if len(r.EndKey) > 0 && bytes.Compare(r.EndKey, r.StartKey) <= 0 {
			out = append(out, Fault{Kind: FaultBadRange, Region: r, Start: r.StartKey, End: r.EndKey,
				Detail: fmt.Sprintf("its end key %q is not after its start key %q", r.EndKey, r.StartKey)})
			continue
		}
		switch cmp := bytes.Compare(r.StartKey, cover); {
		case i > 0 && holder != nil && (toEnd || cmp < 0):
			end := r.EndKey
			if !toEnd && (len(end) == 0 || bytes.Compare(cover, end) < 0) {
				end = cover
			}
			out = append(out, Fault{Kind: FaultOverlap, Region: r, Other: holder, Start: r.StartKey, End: end,
				Detail: fmt.Sprintf("region %s covers these keys too", holder.Name)})
		case cmp > 0:
			out = append(out, Fault{Kind: FaultHole, Start: cover, End: r.StartKey,
				Detail: fmt.Sprintf("no region covers the keys from %s to %q", keyText(cover, "the start of the table"), r.StartKey)})
		}
		switch {
		case toEnd:
		case len(r.EndKey) == 0:
			toEnd, holder = true, r
		case bytes.Compare(r.EndKey, cover) > 0:
			cover, holder = r.EndKey, r
		}
	}
	if !toEnd && (len(stop) == 0 || bytes.Compare(cover, stop) < 0) {
		out = append(out, Fault{Kind: FaultHole, Start: cover, End: stop,
			Detail: fmt.Sprintf("no region covers the keys from %q to %s", cover, keyText(stop, "the end of the table"))})
	}
	return out
}

// keyText quotes key, or says empty when it is empty.
func keyText(key []byte, empty string) string {
	if len(key) == 0 {
		return empty
	}
	return fmt.Sprintf("%q", key)
}

// deployed reports whether requests can be sent to r and its location
// cached: it has a server, is not offline, and its state is OPEN (or
// unknown, in a meta row that has none).
func (r *Region) deployed() bool {
	return r.Server != "" && !r.offline && (r.state == "" || r.state == "OPEN")
}

// deploymentFault says why r is not deployed, or returns false when it
// is: deployed by hbase:meta and, when live is not nil, on one of the
// live servers (host:port).
func deploymentFault(r *Region, live map[string]bool) (Fault, bool) {
	f := Fault{Kind: FaultUndeployed, Region: r, Start: r.StartKey, End: r.EndKey}
	switch {
	case r.offline:
		f.Detail = "hbase:meta marks it offline"
	case r.state != "" && r.state != "OPEN":
		f.Detail = "its state in hbase:meta is " + r.state
		if r.Server != "" {
			f.Detail += " (last on " + r.Server + ")"
		}
	case r.Server == "":
		f.Detail = "hbase:meta names no server for it"
	case live != nil && !live[r.Server]:
		f.Detail = "hbase:meta puts it on " + r.Server + ", which is not a live region server"
	default:
		return Fault{}, false
	}
	return f, true
}

// TableHealth is what CheckTables found of one table.
type TableHealth struct {
	Table string
	// State is the table's state: ENABLED, DISABLED, DISABLING or
	// ENABLING. The regions of a table that is not enabled are not
	// expected to be deployed.
	State string
	// Regions are the table's region rows in hbase:meta, split parents
	// left out, deployed or not.
	Regions []*Region
	// Faults are in key order, those of the tiling first.
	Faults []Fault
}

// CheckTables checks the regions of each table in hbase:meta, reading
// and changing nothing else: that they tile the table (the check reads
// make, see Regions), that each is deployed (open, on a live region
// server), and which the master has in transition. Every table but
// hbase:meta is checked when tables is empty, but for those dropped
// while the check runs. A table named that does not exist fails the
// check with ErrTableNotFound.
func (a *Admin) CheckTables(ctx context.Context, tables []string) ([]*TableHealth, error) {
	listed := len(tables) == 0
	if listed {
		var err error
		if tables, err = a.ListTables(ctx); err != nil {
			return nil, err
		}
	}
	cs, err := a.ClusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	for _, s := range cs.Live {
		live[s.Server] = true
	}
	var out []*TableHealth
	for _, t := range tables {
		h, err := a.checkTable(ctx, t, live, cs.InTransition)
		if listed && gone(ctx, a, t, h, err) {
			continue // dropped since it was listed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// gone reports whether table, listed by ListTables, was dropped before
// its check (which gave h, err) read it.
func gone(ctx context.Context, a *Admin, table string, h *TableHealth, err error) bool {
	if errors.Is(err, ErrTableNotFound) {
		return true
	}
	if err != nil || len(h.Regions) > 0 {
		return false
	}
	_, err = a.tableState(ctx, table)
	return errors.Is(err, ErrTableNotFound)
}

func (a *Admin) checkTable(ctx context.Context, table string, live map[string]bool, rit []RegionTransition) (*TableHealth, error) {
	state, err := a.tableState(ctx, table)
	if err != nil {
		return nil, err
	}
	h := &TableHealth{Table: table, State: state}
	// One read of meta, as it is now: a fault is reported, not waited
	// out as the read path does.
	err = a.c.retry(ctx, "read the regions of "+table, func(ctx context.Context) error {
		var err error
		h.Regions, err = a.c.listRegions(ctx, table)
		return err
	})
	if err != nil {
		return nil, err
	}
	h.Faults = tableFaults(table, state, h.Regions, live, rit)
	return h, nil
}

// tableFaults lists the faults of table in key order: those of the
// tiling of regions (its region rows in hbase:meta), its regions in
// transition among rit, and, when the table is ENABLED, its regions not
// deployed on a live server (live, host:port).
func tableFaults(table, state string, regions []*Region, live map[string]bool, rit []RegionTransition) []Fault {
	faults := tilingFaults(regions, nil, nil)
	moving := map[string]RegionTransition{}
	for _, r := range rit {
		if t, _, _, err := parseRegionName([]byte(r.Region)); err == nil && t == table {
			moving[r.Region] = r
		}
	}
	for _, r := range regions {
		if m, ok := moving[string(r.Name)]; ok {
			delete(moving, string(r.Name))
			f := Fault{Kind: FaultInTransition, Region: r, Start: r.StartKey, End: r.EndKey,
				Detail: fmt.Sprintf("the master has it %s since %s", m.State, m.Since.UTC().Format("2006-01-02 15:04:05"))}
			if d, ok := deploymentFault(r, live); ok {
				f.Detail += "; " + d.Detail
			}
			faults = append(faults, f)
			continue
		}
		if state != "ENABLED" {
			continue
		}
		if f, ok := deploymentFault(r, live); ok {
			faults = append(faults, f)
		}
	}
	// Regions in transition that hbase:meta does not list (a split
	// parent, say), by name.
	for _, m := range rit {
		if _, ok := moving[m.Region]; !ok {
			continue
		}
		delete(moving, m.Region)
		_, start, id, _ := parseRegionName([]byte(m.Region))
		r := &Region{Table: table, Name: []byte(m.Region), StartKey: start, ID: id}
		faults = append(faults, Fault{Kind: FaultInTransition, Region: r, Start: start,
			Detail: fmt.Sprintf("the master has it %s since %s; hbase:meta lists it as no region of the table (a split parent?)", m.State, m.Since.UTC().Format("2006-01-02 15:04:05"))})
	}
	slices.SortStableFunc(faults, func(x, y Fault) int { return bytes.Compare(x.Start, y.Start) })
	return faults
}

// tableState is the master's state of table: ENABLED, DISABLED, ...
func (a *Admin) tableState(ctx context.Context, table string) (string, error) {
	var resp pb.GetTableStateResponse
	req := &pb.GetTableStateRequest{TableName: tableName(table)}
	if err := a.callMaster(ctx, "get state of table "+table, "GetTableState", req, &resp); err != nil {
		if errors.Is(err, ErrTableNotFound) {
			return "", fmt.Errorf("%w: %s", ErrTableNotFound, table)
		}
		return "", err
	}
	return strings.ToUpper(resp.GetTableState().GetState().String()), nil
}
