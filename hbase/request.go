package hbase

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/hbase/filter"
	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// maxKeyLen is the longest row key HBase accepts.
const maxKeyLen = 32767

// Option configures a request value. Each option says which requests it
// applies to; a constructor given one that does not apply returns an
// error.
type Option struct {
	name  string
	kinds kind
	apply func(*options)
}

type kind uint8

const (
	kindGet kind = 1 << iota
	kindScan
	kindPut
	kindDelete
)

func (k kind) String() string {
	switch k {
	case kindGet:
		return "get"
	case kindScan:
		return "scan"
	case kindPut:
		return "put"
	}
	return "delete"
}

type column struct {
	family     []byte
	qualifiers [][]byte
	// ts, when set, is the newest version a Delete removes from these
	// columns, in place of the Delete's Timestamp.
	ts *int64
}

type options struct {
	columns       []column
	versions      uint32
	filter        filter.Filter
	timeRange     *pb.TimeRange
	reversed      bool
	caching       int
	maxResultSize int64
	limit         int
	timestamp     int64
	excludeStart  bool
	includeStop   bool
	trackMetrics  bool
	badTimeRange  bool
	raw           bool
	// blockCache, when set, is the cache_blocks of a Get or Scan.
	blockCache *bool
}

// Families restricts a Get or Scan to whole families, or makes a Delete
// delete whole families.
func Families(families ...string) Option {
	return Option{"Families", kindGet | kindScan | kindDelete, func(o *options) {
		for _, f := range families {
			o.columns = append(o.columns, column{family: []byte(f)})
		}
	}}
}

// Columns restricts a Get or Scan to some columns of a family, or makes a
// Delete delete all versions of them.
func Columns(family string, qualifiers ...string) Option {
	return Option{"Columns", kindGet | kindScan | kindDelete, func(o *options) {
		c := column{family: []byte(family)}
		for _, q := range qualifiers {
			c.qualifiers = append(c.qualifiers, []byte(q))
		}
		o.columns = append(o.columns, c)
	}}
}

// ColumnsAt makes a Delete delete the versions of some columns of a
// family written at or before ts, whatever the Delete's Timestamp: Java's
// Delete.addColumns(family, qualifier, ts) for each qualifier.
func ColumnsAt(ts int64, family string, qualifiers ...string) Option {
	return Option{"ColumnsAt", kindDelete, func(o *options) {
		c := column{family: []byte(family), ts: &ts}
		for _, q := range qualifiers {
			c.qualifiers = append(c.qualifiers, []byte(q))
		}
		o.columns = append(o.columns, c)
	}}
}

// MaxVersions asks for up to n versions of each column (default 1).
func MaxVersions(n int) Option {
	return Option{"MaxVersions", kindGet | kindScan, func(o *options) { o.versions = uint32(max(n, 0)) }}
}

// Versions is MaxVersions.
func Versions(n int) Option { o := MaxVersions(n); o.name = "Versions"; return o }

// WithFilter sets a server-side filter, for a Get (and so for the rows
// of a MultiGet) or a Scan. Filters see only the cells the column options
// select.
func WithFilter(f filter.Filter) Option {
	return Option{"WithFilter", kindGet | kindScan, func(o *options) { o.filter = f }}
}

// TimeRange keeps cells with from <= timestamp < to (milliseconds). It
// needs 0 <= from <= to.
func TimeRange(from, to int64) Option {
	return Option{"TimeRange", kindGet | kindScan, func(o *options) {
		o.badTimeRange = from < 0 || to < from
		o.timeRange = &pb.TimeRange{From: proto.Uint64(uint64(from)), To: proto.Uint64(uint64(to))}
	}}
}

// Raw makes a Get or Scan return what the store holds rather than what a
// reader sees: the delete markers (CellDelete, CellDeleteColumn,
// CellDeleteFamily, CellDeleteFamilyVersion), and the puts they hide,
// until a major compaction removes both. MaxVersions still bounds the puts
// of each column, but not the markers. HBase reads it as the operation
// attribute "_raw_".
func Raw() Option {
	return Option{"Raw", kindGet | kindScan, func(o *options) { o.raw = true }}
}

// BlockCache sets whether the region servers keep the blocks a Get or
// Scan reads in their block cache (the cache_blocks field; HBase's
// Scan.setCacheBlocks). Without it the request leaves the server's
// default, which is to cache them. A scan over much of a table turns it
// off so that its blocks do not evict those of other readers.
func BlockCache(on bool) Option {
	return Option{"BlockCache", kindGet | kindScan, func(o *options) { o.blockCache = &on }}
}

// rawAttr is the attribute by which HBase's Scan.setRaw reaches the
// server; a Get carries it over when the server turns it into a scan.
const rawAttr = "_raw_"

func (o *options) attributes() []*pb.NameBytesPair {
	if !o.raw {
		return nil
	}
	return []*pb.NameBytesPair{{Name: proto.String(rawAttr), Value: []byte{0xff}}}
}

// Reversed scans from the start key down to the stop key.
func Reversed() Option {
	return Option{"Reversed", kindScan, func(o *options) { o.reversed = true }}
}

// ExcludeStart leaves the start key's own row out of a scan; a reversed
// scan then begins just below it.
func ExcludeStart() Option {
	return Option{"ExcludeStart", kindScan, func(o *options) { o.excludeStart = true }}
}

// IncludeStop takes the stop key's own row into a scan, so a reversed
// scan from b down to a reads the keys of [a, b].
func IncludeStop() Option {
	return Option{"IncludeStop", kindScan, func(o *options) { o.includeStop = true }}
}

// Caching sets how many rows each scan RPC asks for (default
// Config.ScanCaching).
func Caching(rows int) Option {
	return Option{"Caching", kindScan, func(o *options) { o.caching = rows }}
}

// MaxResultSize caps the bytes each scan RPC returns (default
// Config.ScanMaxResultSize). Rows larger than this come in partial pieces,
// which the Scanner stitches back together.
func MaxResultSize(bytes int64) Option {
	return Option{"MaxResultSize", kindScan, func(o *options) { o.maxResultSize = bytes }}
}

// Limit stops a scan after n rows. Each scan RPC tells the server how
// many rows are still wanted, so the server closes its scanner once it has
// sent them.
func Limit(n int) Option {
	return Option{"Limit", kindScan, func(o *options) { o.limit = n }}
}

// TrackScanMetrics asks the servers for their scan counters (rows scanned,
// rows filtered, ...), which Scanner.Stats then reports.
func TrackScanMetrics() Option {
	return Option{"TrackScanMetrics", kindScan, func(o *options) { o.trackMetrics = true }}
}

// Timestamp sets the version a Put writes, or the newest version a Delete
// removes (default: now).
func Timestamp(ts int64) Option {
	return Option{"Timestamp", kindPut | kindDelete, func(o *options) { o.timestamp = ts }}
}

func build(k kind, table string, key []byte, checkKey bool, opts []Option) (*options, error) {
	if table == "" {
		return nil, fmt.Errorf("hbase: %s: empty table name", k)
	}
	if checkKey && len(key) == 0 {
		return nil, fmt.Errorf("hbase: %s on %s: empty row key", k, table)
	}
	if len(key) > maxKeyLen {
		return nil, fmt.Errorf("hbase: %s on %s: row key of %d bytes is longer than %d", k, table, len(key), maxKeyLen)
	}
	o := &options{}
	for _, opt := range opts {
		if opt.apply == nil {
			return nil, fmt.Errorf("hbase: %s on %s: zero Option", k, table)
		}
		if opt.kinds&k == 0 {
			return nil, fmt.Errorf("hbase: %s does not apply to a %s", opt.name, k)
		}
		opt.apply(o)
	}
	for _, c := range o.columns {
		if len(c.family) == 0 {
			return nil, fmt.Errorf("hbase: %s on %s: empty column family", k, table)
		}
		if c.ts != nil && (*c.ts < 0 || len(c.qualifiers) == 0) {
			return nil, fmt.Errorf("hbase: %s on %s: ColumnsAt needs qualifiers and a timestamp of 0 or more", k, table)
		}
	}
	if o.badTimeRange {
		tr := o.timeRange
		return nil, fmt.Errorf("hbase: %s on %s: time range [%d, %d) is not within 0 <= from <= to", k, table, int64(tr.GetFrom()), int64(tr.GetTo()))
	}
	return o, nil
}

func (o *options) columnProtos() []*pb.Column {
	var out []*pb.Column
	for _, c := range o.columns {
		out = append(out, &pb.Column{Family: c.family, Qualifier: c.qualifiers})
	}
	return out
}

// Get reads one row. Build it with NewGet; it does no I/O.
type Get struct {
	table string
	key   []byte
	pb    *pb.Get
}

// NewGet builds a Get of key in table. Options: Families, Columns,
// MaxVersions, WithFilter, TimeRange, Raw, BlockCache.
func NewGet(table string, key []byte, opts ...Option) (*Get, error) {
	o, err := build(kindGet, table, key, true, opts)
	if err != nil {
		return nil, err
	}
	g := &pb.Get{Row: key, Column: o.columnProtos(), TimeRange: o.timeRange, Attribute: o.attributes(), CacheBlocks: o.blockCache}
	if o.versions > 0 {
		g.MaxVersions = proto.Uint32(o.versions)
	}
	if o.filter != nil {
		if g.Filter, err = filter.ToProto(o.filter); err != nil {
			return nil, err
		}
	}
	return &Get{table: table, key: key, pb: g}, nil
}

// Table is the table the Get reads.
func (g *Get) Table() string { return g.table }

// Key is the row key the Get reads.
func (g *Get) Key() []byte { return g.key }

// Scan reads a key range. Build it with NewScan; it does no I/O.
type Scan struct {
	table       string
	start, stop []byte
	opts        options
	pb          *pb.Scan // without start and stop rows
}

// NewScan builds a scan of table over [start, stop); an empty start or
// stop leaves that end open. A Reversed scan walks from start down to stop,
// so start must be the larger key. Options: Families, Columns,
// MaxVersions, WithFilter, TimeRange, Raw, Reversed, ExcludeStart,
// IncludeStop, Caching, MaxResultSize, Limit, TrackScanMetrics,
// BlockCache.
func NewScan(table string, start, stop []byte, opts ...Option) (*Scan, error) {
	o, err := build(kindScan, table, start, false, opts)
	if err != nil {
		return nil, err
	}
	if len(stop) > maxKeyLen {
		return nil, fmt.Errorf("hbase: scan on %s: stop key of %d bytes is longer than %d", table, len(stop), maxKeyLen)
	}
	if len(start) > 0 && len(stop) > 0 {
		cmp := strings.Compare(string(start), string(stop))
		if (!o.reversed && cmp > 0) || (o.reversed && cmp < 0) {
			return nil, fmt.Errorf("hbase: scan on %s: start key %q is past stop key %q", table, start, stop)
		}
	}
	if o.caching < 0 || o.maxResultSize < 0 || o.limit < 0 {
		return nil, fmt.Errorf("hbase: scan on %s: negative caching, result size or limit", table)
	}
	s := &pb.Scan{Column: o.columnProtos(), TimeRange: o.timeRange, Attribute: o.attributes(), CacheBlocks: o.blockCache}
	if o.versions > 0 {
		s.MaxVersions = proto.Uint32(o.versions)
	}
	if o.reversed {
		s.Reversed = proto.Bool(true)
	}
	if o.includeStop && len(stop) > 0 {
		s.IncludeStopRow = proto.Bool(true)
	}
	if o.filter != nil {
		if s.Filter, err = filter.ToProto(o.filter); err != nil {
			return nil, err
		}
	}
	return &Scan{table: table, start: start, stop: stop, opts: *o, pb: s}, nil
}

// Table is the table the Scan reads.
func (s *Scan) Table() string { return s.table }

// Mutation is a Put or a Delete.
type Mutation interface {
	// Table is the table the mutation writes.
	Table() string
	// Key is the row the mutation writes.
	Key() []byte
	proto() *pb.MutationProto
}

// Put writes cells into one row. Build it with NewPut; it does no I/O.
type Put struct {
	table string
	key   []byte
	pb    *pb.MutationProto
}

// NewPut builds a Put of cells into row key. Each cell needs Family; its
// Row must be empty or key; a zero Timestamp means the Timestamp option,
// or else the server's clock. Options: Timestamp.
func NewPut(table string, key []byte, cells []Cell, opts ...Option) (*Put, error) {
	o, err := build(kindPut, table, key, true, opts)
	if err != nil {
		return nil, err
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("hbase: put on %s: no cells", table)
	}
	m := &pb.MutationProto{Row: key, MutateType: pb.MutationProto_PUT.Enum()}
	if o.timestamp != 0 {
		m.Timestamp = proto.Uint64(uint64(o.timestamp))
	}
	byFamily := map[string]*pb.MutationProto_ColumnValue{}
	for _, c := range cells {
		if len(c.Family) == 0 {
			return nil, fmt.Errorf("hbase: put on %s: cell without a family", table)
		}
		if len(c.Row) > 0 && string(c.Row) != string(key) {
			return nil, fmt.Errorf("hbase: put on %s: cell row %q is not the put's row %q", table, c.Row, key)
		}
		cv := byFamily[string(c.Family)]
		if cv == nil {
			cv = &pb.MutationProto_ColumnValue{Family: c.Family}
			byFamily[string(c.Family)] = cv
			m.ColumnValue = append(m.ColumnValue, cv)
		}
		qv := &pb.MutationProto_ColumnValue_QualifierValue{Qualifier: nonNil(c.Qualifier), Value: nonNil(c.Value)}
		if c.Timestamp != 0 {
			qv.Timestamp = proto.Uint64(uint64(c.Timestamp))
		}
		cv.QualifierValue = append(cv.QualifierValue, qv)
	}
	return &Put{table: table, key: key, pb: m}, nil
}

func (p *Put) Table() string            { return p.table }
func (p *Put) Key() []byte              { return p.key }
func (p *Put) proto() *pb.MutationProto { return p.pb }

// Delete removes a row, whole families of it, or all versions of some
// columns. Build it with NewDelete; it does no I/O.
type Delete struct {
	table string
	key   []byte
	pb    *pb.MutationProto
}

// NewDelete builds a Delete of row key: the whole row, or only what the
// Families, Columns and ColumnsAt options name. Timestamp limits it to
// versions at or before that time; ColumnsAt sets its own.
func NewDelete(table string, key []byte, opts ...Option) (*Delete, error) {
	o, err := build(kindDelete, table, key, true, opts)
	if err != nil {
		return nil, err
	}
	m := &pb.MutationProto{Row: key, MutateType: pb.MutationProto_DELETE.Enum()}
	var ts *uint64
	if o.timestamp != 0 {
		ts = proto.Uint64(uint64(o.timestamp))
		m.Timestamp = ts
	}
	for _, c := range o.columns {
		cv := &pb.MutationProto_ColumnValue{Family: c.family}
		if len(c.qualifiers) == 0 {
			cv.QualifierValue = append(cv.QualifierValue, &pb.MutationProto_ColumnValue_QualifierValue{
				Qualifier: []byte{}, Timestamp: ts, DeleteType: pb.MutationProto_DELETE_FAMILY.Enum()})
		}
		qts := ts
		if c.ts != nil {
			qts = proto.Uint64(uint64(*c.ts))
		}
		for _, q := range c.qualifiers {
			cv.QualifierValue = append(cv.QualifierValue, &pb.MutationProto_ColumnValue_QualifierValue{
				Qualifier: q, Timestamp: qts, DeleteType: pb.MutationProto_DELETE_MULTIPLE_VERSIONS.Enum()})
		}
		m.ColumnValue = append(m.ColumnValue, cv)
	}
	return &Delete{table: table, key: key, pb: m}, nil
}

func (d *Delete) Table() string            { return d.table }
func (d *Delete) Key() []byte              { return d.key }
func (d *Delete) proto() *pb.MutationProto { return d.pb }

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

var errNilRequest = errors.New("hbase: nil request")
