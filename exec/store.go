package exec

import (
	"context"
	"errors"
	"sync/atomic"
)

// Cell is one version of one column of one row, as HBase stores it.
type Cell struct {
	Family    string
	Qualifier string
	// Timestamp is the cell timestamp in milliseconds since the epoch.
	Timestamp int64
	Value     []byte
}

// StoreRow is a physical row: its key and its cells, sorted by family, then
// qualifier, then timestamp newest first. Cells holds at most the requested
// number of versions per column.
type StoreRow struct {
	Key   []byte
	Cells []Cell
}

// Range is a half-open key range [Start, Stop). A nil Start is the first key
// of the table and a nil Stop is past the last.
type Range struct {
	Start []byte
	Stop  []byte
}

// ReadOptions shape a Get or a Scan. The zero value reads the newest
// version of every column, with no limit, forward.
type ReadOptions struct {
	// Versions is the number of versions per column to return; 0 means 1.
	Versions int
	// Limit stops a scan after this many rows; 0 means no limit.
	Limit int
	// Reverse scans from the end of the range to its start.
	Reverse bool
	// Filter, when set, is evaluated by the store on each row before it is
	// returned (a "server filter"). Rows it rejects still count as read.
	Filter func(*StoreRow) bool
	// Stats, when set, receives the work done. Stores add to it; it may be
	// shared by concurrent scans and so is updated atomically.
	Stats *Stats
}

// RowIter streams rows. Next returns io.EOF after the last row. An iterator
// is not safe for concurrent use. Close releases it and may be called at any
// time, more than once.
type RowIter interface {
	Next(ctx context.Context) (*StoreRow, error)
	Close() error
}

// Mutation writes or deletes cells of one row.
type Mutation struct {
	Key []byte
	// Cells to put. A zero Timestamp means the time of the write.
	Cells []Cell
	// DeleteRow deletes the whole row before Cells are applied.
	DeleteRow bool
	// Deletes names columns (Family and Qualifier) whose versions written
	// at or before Timestamp are deleted before Cells are applied; a zero
	// Timestamp means the time of the write, so every version. Value is
	// ignored. This is HBase's Delete.addColumns(family, qualifier, ts).
	Deletes []Cell
}

// FamilySpec is a column family's physical settings.
type FamilySpec struct {
	Name string
	// Versions is the maximum number of versions kept; 0 means 1.
	Versions int
	// TTL in seconds; 0 means forever.
	TTL         int64
	Compression string
	BloomFilter string
	BlockSize   int
	BlockCache  *bool
	InMemory    bool
}

// TableSpec describes a physical table to create.
type TableSpec struct {
	Name     string // physical name, "ns:table" or "table"
	Families []FamilySpec
	// Splits are the region boundaries, sorted.
	Splits [][]byte
}

// Region is one region of a table.
type Region struct {
	Name     string
	StartKey []byte
	EndKey   []byte
	Server   string
}

// Store is what a plan runs against. Implementations must be safe for
// concurrent use by several goroutines.
type Store interface {
	// Get returns the rows with the given keys that exist, in the order of
	// keys. Missing keys are skipped.
	Get(ctx context.Context, table string, keys [][]byte, opts ReadOptions) ([]*StoreRow, error)
	// Scan streams the rows in r, in key order (reversed if opts.Reverse).
	Scan(ctx context.Context, table string, r Range, opts ReadOptions) (RowIter, error)
	// Mutate applies the mutations. Each row's mutation is atomic.
	Mutate(ctx context.Context, table string, muts []Mutation) error
	// CreateTable creates a physical table. ErrTableExists if it exists.
	CreateTable(ctx context.Context, spec TableSpec) error
	// Tables lists the physical tables.
	Tables(ctx context.Context) ([]string, error)
	// Regions lists a table's regions in key order.
	Regions(ctx context.Context, table string) ([]Region, error)
	// Close releases the store.
	Close() error
}

// Sentinel errors returned by stores.
var (
	ErrTableNotFound = errors.New("exec: table not found")
	ErrTableExists   = errors.New("exec: table already exists")
)

// Stats counts the work a statement did. Its fields are updated atomically,
// so concurrent scans may share one.
type Stats struct {
	RowsRead atomic.Int64 // rows the store walked, filtered or not
	RPCs     atomic.Int64 // round trips to the store (1 per embedded call)
	Regions  atomic.Int64 // regions touched
	// DataReads counts data rows read through an index.
	DataReads atomic.Int64
	// Dangling counts index entries skipped because no data row matches.
	Dangling atomic.Int64
	// Malformed counts rows skipped because their key or cells do not fit
	// the table's layout (written by something else, or corrupt).
	Malformed atomic.Int64
	// firstMalformed holds the error of the first such row.
	firstMalformed atomic.Pointer[error]
}

// FirstMalformed returns why the first malformed row was skipped, or nil.
func (s *Stats) FirstMalformed() error {
	if p := s.firstMalformed.Load(); p != nil {
		return *p
	}
	return nil
}

// malformed counts a row that cannot be decoded.
func (s *Stats) malformed(err error) {
	s.Malformed.Add(1)
	s.firstMalformed.CompareAndSwap(nil, &err)
}
