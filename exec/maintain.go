package exec

import (
	"context"
	"time"
)

// Maintainer is an optional Store contract: the cluster's maintenance
// verbs on a physical table's regions, and the balancer switch. Each call
// returns once the work is done (a compaction, which region servers run
// in the background, once none of the table's regions reports one
// running).
type Maintainer interface {
	// Flush writes the table's memstores out to store files.
	Flush(ctx context.Context, table string) error
	// Compact compacts the table's regions (a major compaction when
	// major), telling progress how many regions of how many are done.
	Compact(ctx context.Context, table string, major bool, progress func(done, total int)) error
	// Split adds a region boundary at key, which must fall inside a
	// region and not start one.
	Split(ctx context.Context, table string, key []byte) error
	// Merge merges the adjacent regions starting at starts into one.
	Merge(ctx context.Context, table string, starts [][]byte) error
	// StoreFiles counts the table's store files.
	StoreFiles(ctx context.Context, table string) (int, error)
	// SetBalancer turns the balancer on or off and returns its state
	// before.
	SetBalancer(ctx context.Context, on bool) (bool, error)
	// BalancerEnabled reports whether the balancer is on.
	BalancerEnabled(ctx context.Context) (bool, error)
}

// StatusReporter is an optional Store contract: the cluster's health at a
// glance.
type StatusReporter interface {
	ClusterStatus(ctx context.Context) (*ClusterStatus, error)
}

// ClusterStatus is a cluster's servers, regions in transition and
// balancer state, as its master reports them.
type ClusterStatus struct {
	Master     string
	BalancerOn bool
	Servers    []ServerStatus
	// Dead are the region servers the master holds dead.
	Dead []string
	// InTransition are "region state" lines of the regions in transition.
	InTransition []string
}

// RegionChecker is an optional Store contract: a read-only check of
// physical tables' regions, as the cluster's catalog (hbase:meta) and its
// master see them.
type RegionChecker interface {
	// CheckRegions checks each table, or every user table when tables
	// is empty. A table that does not exist fails it with
	// ErrTableNotFound.
	CheckRegions(ctx context.Context, tables []string) ([]TableRegions, error)
}

// TableRegions is the outcome of the check of one physical table.
type TableRegions struct {
	Table string
	// State is ENABLED, DISABLED, DISABLING or ENABLING: the regions of
	// a table not enabled are not expected to be deployed.
	State string
	// Regions counts the table's regions in the catalog, deployed or
	// not, split parents left out.
	Regions int
	// Faults are in key order; none for a healthy table.
	Faults []RegionFault
}

// RegionFault is one thing wrong with a table's regions.
type RegionFault struct {
	// Problem is "hole", "overlap", "not deployed", "in transition",
	// "bad key range" or "no regions".
	Problem string
	// Region is the region's name; "" for a hole.
	Region string
	// Start and End are the keys at fault (empty End: the end of the
	// table): the hole, the keys two regions cover, or the region's.
	Start, End []byte
	Detail     string
}

// ServerStatus is what a live region server last reported.
type ServerStatus struct {
	Server                              string
	Regions                             int
	RequestsPerSecond, Requests         uint64
	StoreFiles, StoreFileMB, MemStoreMB uint64
	UsedHeapMB, MaxHeapMB               uint32
}

// Snapshotter is an optional Store contract: snapshots of physical
// tables.
type Snapshotter interface {
	// TakeSnapshot snapshots table as name and returns once it is done.
	TakeSnapshot(ctx context.Context, table, name string) error
	// Snapshots lists the completed snapshots by name.
	Snapshots(ctx context.Context) ([]Snapshot, error)
	// RestoreSnapshot puts table back as snapshot name holds it.
	RestoreSnapshot(ctx context.Context, table, name string) error
	// CloneSnapshot makes the new table table from snapshot name.
	CloneSnapshot(ctx context.Context, name, table string) error
	// DeleteSnapshot deletes the snapshot name.
	DeleteSnapshot(ctx context.Context, name string) error
}

// Snapshot is a completed snapshot.
type Snapshot struct {
	Name, Table string
	Created     time.Time
}
