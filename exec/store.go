package exec

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
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
	// Markers are the row's delete markers, read only when
	// ReadOptions.Markers asks for them.
	Markers []Marker
}

// Marker is a delete a store keeps after it is applied: it hides the
// puts it covers, even puts written after it. HBase keeps each delete's
// marker until a major compaction; a store that removes the versions a
// delete covers keeps none.
type Marker struct {
	Family string
	// Qualifier is the column the marker covers, unless WholeFamily.
	Qualifier string
	// WholeFamily: the marker covers every column of Family (a row
	// delete is one such marker in each family).
	WholeFamily bool
	// Exact: the marker covers the version at Timestamp alone, not
	// every version at or before it.
	Exact     bool
	Timestamp int64
}

// Hides reports whether m hides a put of family:qualifier at ts.
func (m Marker) Hides(family, qualifier string, ts int64) bool {
	if m.Family != family || (!m.WholeFamily && m.Qualifier != qualifier) {
		return false
	}
	if m.Exact {
		return ts == m.Timestamp
	}
	return ts <= m.Timestamp
}

// Range is a half-open key range [Start, Stop). A nil Start is the first key
// of the table and a nil Stop is past the last.
type Range struct {
	Start []byte
	Stop  []byte
}

// ReadOptions shape a Get or a Scan declaratively: they say what to
// read, never how, so that each store can do as much of it as it is able
// to where the data lives. The zero value reads the newest version of
// every column of every row, with no limit, forward.
//
// Columns, KeysOnly and Filter need Table, the logical layout of the
// physical table read. A store evaluates only the parts of a read it
// declared in its Pushdown; the caller asks first (see Place) and sends
// only those. A store sent a part it did not declare must refuse the read
// with ErrNotPushable rather than ignore the part.
type ReadOptions struct {
	// Versions is the number of versions per column to return; 0 means 1.
	Versions int
	// Limit stops a scan after this many rows that pass Filter; 0 means
	// no limit.
	Limit int
	// Reverse scans from the end of the range to its start.
	Reverse bool
	// Table is the layout of the rows read.
	Table *catalog.Table
	// Columns, when not nil, are the stored columns (indexes into
	// Table.Columns) whose cells the reader needs. Every row that exists
	// is still returned, even one holding none of them; it may then carry
	// cells of other columns with empty values, so a reader ignores the
	// cells of columns it did not ask for. An empty, non-nil Columns asks
	// for keys alone.
	Columns []int
	// Ranges, when set, are several key ranges, sorted, not overlapping,
	// inside the Range given to Scan, that one scan reads in key order
	// (see Features.MultiRange). Limit then counts rows over all of them.
	Ranges []Range
	// Filter is a condition over Table's logical rows (key fields decoded
	// from the key, stored columns from the newest cells): only rows for
	// which it is true are returned (expr.Match), and a row it cannot
	// decide fails the read with its error. nil returns every row.
	Filter expr.Expr
	// Qualifiers, when set, keeps of the cells of Family only those
	// whose qualifier is in one of the ranges [Start, Stop) (sorted, not
	// overlapping; a nil Stop is open; one qualifier q is [q, q\x00));
	// cells of other families are kept. A row left with no cell is not
	// returned. Only a store that is a QualifierPushdown is sent it.
	Qualifiers *QualifierRanges
	// Entries, for a MAP column among Columns that holds a family, are
	// the only qualifiers of the family the reader needs; a MAP column
	// among Columns without entries needs its whole family.
	Entries map[int][][]byte
	// Markers asks a Get for each row's delete markers too, in
	// StoreRow.Markers; a row holding only markers is then returned,
	// with no Cells. A store that keeps no markers returns none. It
	// goes with no Filter, Columns or Limit.
	Markers bool
	// Stats, when set, receives the work done. Stores add to it; it may be
	// shared by concurrent scans and so is updated atomically.
	Stats *Stats
	// TimeRange, when set, keeps only the cells written within it, before
	// Versions counts them (HBase's Scan.setTimeRange). It needs no Table.
	TimeRange *TimeRange
	// Cells, when set, keeps only the cells of some families and
	// qualifiers, by name (HBase's Scan.addFamily and addColumn). It
	// needs no Table; a row none of whose cells is kept is not returned.
	Cells *CellSelect
	// NoBlockCache asks a store with Features.BlockCache to read without
	// keeping the blocks it reads in its servers' block cache (HBase's
	// Scan.setCacheBlocks(false)), for a read too big to be worth it.
	NoBlockCache bool
}

// TimeRange is the half-open range [From, To) of cell timestamps, in
// milliseconds, with 0 <= From <= To.
type TimeRange struct {
	From, To int64
}

// Holds reports whether a cell written at ts is in the range.
func (r *TimeRange) Holds(ts int64) bool { return r == nil || ts >= r.From && ts < r.To }

// CellSelect names the cells a raw read keeps. Families alone keeps
// whole families; Families and Qualifiers keep each family's cells of
// those qualifiers (addColumn(f, q) for every pair); Qualifiers alone
// keeps the cells of those qualifiers in every family. Both nil keeps
// every cell.
type CellSelect struct {
	Families   []string
	Qualifiers []string
}

// Keeps reports whether the cell family:qualifier is selected.
func (s *CellSelect) Keeps(family, qualifier string) bool {
	if s == nil {
		return true
	}
	return (s.Families == nil || slices.Contains(s.Families, family)) &&
		(s.Qualifiers == nil || slices.Contains(s.Qualifiers, qualifier))
}

// KeysOnly reports whether the reader needs the keys alone.
func (o *ReadOptions) KeysOnly() bool { return o.Columns != nil && len(o.Columns) == 0 }

// Pushdown is what a store evaluates itself, declared without I/O. The
// planner leaves every filter to the client; Place then hands the store
// what its Pushdown accepts, and EXPLAIN says SERVER only for that.
type Pushdown interface {
	// StoreName is how EXPLAIN names the store.
	StoreName() string
	// Features are the read options the store applies itself.
	Features() Features
	// SplitFilter splits a filter over t's logical rows, read with the
	// given number of versions, into the part the store evaluates and
	// the rest, which the client evaluates.
	SplitFilter(t *catalog.Table, f expr.Expr, versions int) Split
}

// QualifierRanges are the qualifiers of one family that a read keeps.
type QualifierRanges struct {
	Family string
	Ranges []Range
	// Alone is set when Family is the table's only family, so that no
	// other family's cells need keeping.
	Alone bool
}

// Keeps reports whether q keeps a cell of family:qualifier.
func (q *QualifierRanges) Keeps(family, qualifier string) bool {
	if q == nil || family != q.Family {
		return true
	}
	for _, r := range q.Ranges {
		if qualifier >= string(r.Start) && (r.Stop == nil || qualifier < string(r.Stop)) {
			return true
		}
	}
	return false
}

// QualifierPushdown is a Pushdown that keeps only the cells of some
// qualifiers of a family where the data lives (ReadOptions.Qualifiers).
type QualifierPushdown interface {
	// QualifierFilter says how the store keeps the qualifiers of q, for
	// EXPLAIN: the filter each range becomes.
	QualifierFilter(q *QualifierRanges) []string
}

// Features are the parts of ReadOptions a store applies itself.
type Features struct {
	// Projection: only the cells of ReadOptions.Columns travel.
	Projection bool
	// KeysOnly: a keys-only read moves no values.
	KeysOnly bool
	// Limit: the store stops after ReadOptions.Limit rows.
	Limit bool
	// MultiRange: one forward Scan reads many ranges (ReadOptions.Ranges),
	// seeking from one to the next where the data lives.
	MultiRange bool
	// Cells: the store applies ReadOptions.TimeRange and Cells, so only
	// the cells they keep travel. A raw read needs it.
	Cells bool
	// BlockCache: the store reads without filling its servers' block
	// cache when ReadOptions.NoBlockCache asks.
	BlockCache bool
}

// Split is a filter divided between a store and the client.
type Split struct {
	// Server is the part the store evaluates; nil when none.
	Server expr.Expr
	// Client is the rest; nil when none.
	Client expr.Expr
	// How says how the store evaluates each part of Server, e.g. the
	// HBase filter it becomes.
	How []string
	// Why says, for each part of Client, why the store cannot take it.
	Why []string
}

// ErrNotPushable is returned by a store asked to evaluate a part of a
// read its Pushdown did not accept.
var ErrNotPushable = errors.New("exec: the store cannot evaluate this part of the read")

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
	// DeleteRow deletes the whole row before Cells are applied: every
	// version written at or before DeleteAt (0: the time of the write). A
	// store that removes cells outright may remove them all.
	DeleteRow bool
	DeleteAt  int64
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
	// Load is the region's traffic and size as its server last reported
	// them; nil where the store has no such figures, and from Regions
	// (see RegionLoader).
	Load *RegionLoad
}

// RegionLoad is a region's request counts since it opened and its sizes.
type RegionLoad struct {
	ReadRequests, WriteRequests uint64
	StoreFileMB, MemStoreMB     uint32
}

// RegionLoader is a Store whose regions can carry their Load. Regions
// leaves it out, since finding it may cost a call that EXPLAIN and the
// other readers of region boundaries should not pay.
type RegionLoader interface {
	// RegionsWithLoad is Regions with each region's Load where the store
	// has it.
	RegionsWithLoad(ctx context.Context, table string) ([]Region, error)
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
	// Pushdown says what the store evaluates itself.
	Pushdown() Pushdown
	// Close releases the store.
	Close() error
}

// KeyScanner is a Store that hands a reader the keys of a range's rows
// without building rows, for a read that only counts them. It is optional:
// without it, such a read goes through Scan.
type KeyScanner interface {
	// ScanKeys calls fn with the key of each row of r that Scan with the
	// same options would return, in key order. opts must ask for keys
	// alone, with no Limit, Reverse or Ranges. key is valid during the
	// call only, and fn must not call the Store. An error from fn ends
	// the scan and is returned. Stats count what Scan would count, except
	// RowsReceived and Cells, which are the reader's to count.
	ScanKeys(ctx context.Context, table string, r Range, opts ReadOptions, fn func(key []byte) error) error
}

// ParallelKeyScanner is a KeyScanner that can cut a range into parts, in
// key order, and hand each part's keys to its own reader on a goroutine of
// its own, for a count that uses more than one core.
type ParallelKeyScanner interface {
	KeyScanner
	// ScanKeysParallel is ScanKeys over up to parts parts. It calls
	// newFn(i) once for each part i it uses, 0 first and in order, before
	// any key is read; part i's fn then gets the keys of the i-th run of
	// the range, from one goroutine. A store may use fewer parts than
	// asked, even one. An error from a fn ends the scan; the error of the
	// part first in key order is returned.
	ScanKeysParallel(ctx context.Context, table string, r Range, opts ReadOptions, parts int, newFn func(part int) func(key []byte) error) error
}

// Sentinel errors returned by stores.
var (
	ErrTableNotFound = errors.New("exec: table not found")
	ErrTableExists   = errors.New("exec: table already exists")
)

// Stats counts the work a statement did. Its fields are updated atomically,
// so concurrent scans may share one.
type Stats struct {
	// RowsRead counts the rows the store walked, filtered or not, where
	// the store can tell (HBase reports it through scan metrics).
	RowsRead atomic.Int64
	// RowsReceived counts the rows the store returned.
	RowsReceived atomic.Int64
	// Cells counts the cells the store returned.
	Cells atomic.Int64
	// Bytes counts the bytes the store returned: on the wire for HBase,
	// keys and values copied out for the embedded store.
	Bytes   atomic.Int64
	RPCs    atomic.Int64 // round trips to the store (1 per embedded call)
	Regions atomic.Int64 // regions touched
	// DataReads counts data rows read through an index.
	DataReads atomic.Int64
	// Dangling counts index entries skipped because no data row matches.
	Dangling atomic.Int64
	// Malformed counts rows skipped because their key or cells do not fit
	// the table's layout (written by something else, or corrupt).
	Malformed atomic.Int64
	// Parts counts the parts of a parallel read (see Parter) read to
	// their end or stopped; SlowestPart is the longest one took, in
	// nanoseconds, from its scanner's opening to its last row.
	Parts       atomic.Int64
	SlowestPart atomic.Int64
	// firstMalformed holds the error of the first such row; malOrder
	// the order, in key order of parts, of the read that found it (0
	// for a serial read).
	firstMalformed atomic.Pointer[error]
	malOrder       atomic.Pointer[orderedErr]
}

// Add adds the counts of o, a read's own Stats, to s: a read counted
// apart (such as one batch of a lookup) and then into the statement's.
// s may be nil. o must be done.
func (s *Stats) Add(o *Stats) {
	if s == nil {
		return
	}
	s.RowsRead.Add(o.RowsRead.Load())
	s.RowsReceived.Add(o.RowsReceived.Load())
	s.Cells.Add(o.Cells.Load())
	s.Bytes.Add(o.Bytes.Load())
	s.RPCs.Add(o.RPCs.Load())
	s.Regions.Add(o.Regions.Load())
	s.DataReads.Add(o.DataReads.Load())
	s.Dangling.Add(o.Dangling.Load())
	s.Parts.Add(o.Parts.Load())
	for {
		cur, d := s.SlowestPart.Load(), o.SlowestPart.Load()
		if d <= cur || s.SlowestPart.CompareAndSwap(cur, d) {
			break
		}
	}
	if n := o.Malformed.Load(); n > 0 {
		s.Malformed.Add(n)
		err := o.FirstMalformed()
		s.firstMalformed.CompareAndSwap(nil, &err)
	}
}

// orderedErr is a malformed row's error and the key order of its part.
type orderedErr struct {
	err   error
	order int
}

// partDone records that a part of a parallel read took d nanoseconds.
func (s *Stats) partDone(d int64) {
	s.Parts.Add(1)
	for {
		cur := s.SlowestPart.Load()
		if d <= cur || s.SlowestPart.CompareAndSwap(cur, d) {
			return
		}
	}
}

// malformedAt counts a row that cannot be decoded, found by the part
// order of a parallel read: the first malformed row reported is the one
// of the part first in key order, as a serial read would report it.
func (s *Stats) malformedAt(err error, order int) {
	s.Malformed.Add(1)
	e := &orderedErr{err: err, order: order}
	for {
		cur := s.malOrder.Load()
		if cur != nil && cur.order <= order {
			return
		}
		if s.malOrder.CompareAndSwap(cur, e) {
			return
		}
	}
}

// FirstMalformed returns why the first malformed row was skipped, or nil.
func (s *Stats) FirstMalformed() error {
	if p := s.firstMalformed.Load(); p != nil {
		return *p
	}
	if p := s.malOrder.Load(); p != nil {
		return p.err
	}
	return nil
}

// received counts a row the store returned, and its cells.
func (s *Stats) received(sr *StoreRow) {
	s.RowsReceived.Add(1)
	s.Cells.Add(int64(len(sr.Cells)))
}

// malformed counts a row that cannot be decoded.
func (s *Stats) malformed(err error) {
	s.Malformed.Add(1)
	s.firstMalformed.CompareAndSwap(nil, &err)
}

// ConcurrentWriter is a Store whose Mutate may be called from several
// goroutines at once, so that the index tables of a write are written
// side by side. It is optional; a store without it is written from one
// goroutine.
type ConcurrentWriter interface {
	ConcurrentWrites() bool
}

// CellAtomic is a Store that changes one cell atomically, as HBase's
// Increment and checkAndMutate do: what OpenTSDB's uid assignment needs
// (see AssignUID). It is optional.
type CellAtomic interface {
	// Increment adds delta to the counter in family:qualifier of row key,
	// 8 bytes big-endian (Bytes.toBytes(long)), 0 when the row has no
	// such cell, and returns its new value. Concurrent increments each
	// see their own value.
	Increment(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, error)
	// CheckAndPut applies m (cells to put in one row) only when
	// family:qualifier of m's row holds expected, or no cell when
	// expected is nil, and reports whether it did.
	CheckAndPut(ctx context.Context, table string, m Mutation, family, qualifier string, expected []byte) (bool, error)
}
