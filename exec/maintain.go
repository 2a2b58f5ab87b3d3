package exec

import "context"

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
