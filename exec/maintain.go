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
