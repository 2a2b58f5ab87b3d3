package hbasestore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

// Options tune a Store. The zero value gives the defaults.
type Options struct {
	// CompressionFallback creates a family without compression when the
	// cluster cannot use the codec its spec names (SNAPPY without its
	// native library, say), instead of failing. Fallbacks lists each one.
	CompressionFallback bool
	// Clock gives write timestamps; nil means time.Now.
	Clock func() time.Time
	// GetBatch is the most keys read by one MultiGet; 0 means 1000.
	GetBatch int
	// MutateBatch is the most mutations written by one MultiMutate; 0
	// means 2000.
	MutateBatch int
	// Coprocessors are region coprocessor classes, on the region
	// servers' classpath, that every table CreateTable makes loads (e.g.
	// hbase.AggregateClass, which lets COUNT(*) run in the regions).
	Coprocessors []string
}

func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.GetBatch <= 0 {
		o.GetBatch = 1000
	}
	if o.MutateBatch <= 0 {
		o.MutateBatch = 2000
	}
	return o
}

// defaultCaching is the rows per scan RPC when the Config leaves it unset:
// rkql's rows are small, and fewer round trips matter more than memory.
const defaultCaching = 1000

// Store is an exec.Store over one HBase cluster. It is safe for concurrent
// use.
type Store struct {
	c    *hbase.Client
	opts Options
	// bg runs the closes of server scanners, which must not hold up the
	// statement that stopped reading; Close waits for them.
	bg sync.WaitGroup

	mu struct {
		sync.Mutex
		lastTS    int64    // last write timestamp handed out
		fallbacks []string // "table:family COMPRESSION X -> NONE"
		closed    bool
		// endpoints remembers, by physical table, whether its descriptor
		// loads the aggregation endpoint (see CanAggregate).
		endpoints map[string]bool
	}
}

var _ exec.Store = (*Store)(nil)

// Open connects to the cluster cfg names, with default Options.
func Open(ctx context.Context, cfg hbase.Config) (*Store, error) {
	return OpenWith(ctx, cfg, Options{})
}

// OpenWith connects to the cluster cfg names.
func OpenWith(ctx context.Context, cfg hbase.Config, opts Options) (*Store, error) {
	if cfg.ScanCaching <= 0 {
		cfg.ScanCaching = defaultCaching
	}
	c, err := hbase.NewClient(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot reach HBase through ZooKeeper %s: %w", quorumOf(cfg), err)
	}
	return &Store{c: c, opts: opts.withDefaults()}, nil
}

func quorumOf(cfg hbase.Config) string {
	if cfg.ZKQuorum == "" {
		return "127.0.0.1:2181"
	}
	return cfg.ZKQuorum
}

// Client returns the HBase client the store uses.
func (s *Store) Client() *hbase.Client { return s.c }

// Close closes the client, then waits for the background scanner closes,
// which fail at once on a closed client.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.mu.closed {
		s.mu.Unlock()
		return nil
	}
	s.mu.closed = true
	s.mu.Unlock()
	err := s.c.Close()
	s.bg.Wait()
	return err
}

// Fallbacks lists the families CreateTable created without the
// compression their spec asked for, as "table:family SNAPPY -> NONE".
func (s *Store) Fallbacks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.mu.fallbacks...)
}

// CreateTable creates a table with its families and split keys, and waits
// until its regions are online.
func (s *Store) CreateTable(ctx context.Context, spec exec.TableSpec) error {
	hs := toHBaseSpec(spec)
	hs.Coprocessors = s.opts.Coprocessors
	err := s.c.Admin().CreateTable(ctx, hs)
	if err != nil && s.opts.CompressionFallback && compressionFailed(err) {
		var fell []string
		for i := range hs.Families {
			f := &hs.Families[i]
			if c := strings.ToUpper(f.Compression); c != "" && c != "NONE" {
				fell = append(fell, fmt.Sprintf("%s:%s %s -> NONE", spec.Name, f.Name, c))
				f.Compression = "NONE"
			}
		}
		if err = s.c.Admin().CreateTable(ctx, hs); err == nil {
			s.mu.Lock()
			s.mu.fallbacks = append(s.mu.fallbacks, fell...)
			s.mu.Unlock()
		}
	}
	if errors.Is(err, hbase.ErrNamespaceNotFound) {
		ns, _, _ := strings.Cut(spec.Name, ":")
		// The server's message says no more: the error says only this, and
		// still matches the sentinels.
		return &storeError{err: fmt.Errorf("create HBase table %s: namespace %s does not exist: CREATE NAMESPACE %s creates it", spec.Name, ns, ns), sentinel: mapErr(err)}
	}
	if err != nil {
		return fmt.Errorf("create HBase table %s: %w", spec.Name, mapErr(err))
	}
	return nil
}

// compressionFailed reports whether a create failed because the cluster
// could not load a compression codec.
func compressionFailed(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "compression") || strings.Contains(msg, "codec") ||
		strings.Contains(msg, "snappy") || strings.Contains(msg, "native")
}

func toHBaseSpec(spec exec.TableSpec) hbase.TableSpec {
	hs := hbase.TableSpec{Name: spec.Name, SplitKeys: spec.Splits}
	for _, f := range spec.Families {
		hs.Families = append(hs.Families, toHBaseFamily(f))
	}
	return hs
}

func toHBaseFamily(f exec.FamilySpec) hbase.FamilySpec {
	return hbase.FamilySpec{
		Name:        f.Name,
		Versions:    max(f.Versions, 1),
		TTL:         time.Duration(f.TTL) * time.Second,
		Compression: f.Compression,
		BloomFilter: f.BloomFilter,
		BlockSize:   f.BlockSize,
		BlockCache:  f.BlockCache,
		InMemory:    f.InMemory,
	}
}

// AlterFamily gives one family of an existing table the settings of f,
// as ALTER TABLE … SET FAMILY writes them in the catalog.
func (s *Store) AlterFamily(ctx context.Context, table string, f exec.FamilySpec) error {
	if err := s.c.Admin().ModifyFamily(ctx, table, toHBaseFamily(f)); err != nil {
		return fmt.Errorf("alter HBase table %s family %s: %w", table, f.Name, mapErr(err))
	}
	return nil
}

// DropTable disables and deletes a table.
func (s *Store) DropTable(ctx context.Context, table string) error {
	a := s.c.Admin()
	if err := a.DisableTable(ctx, table); err != nil && !errors.Is(err, hbase.ErrTableNotEnabled) {
		return fmt.Errorf("drop HBase table %s: %w", table, mapErr(err))
	}
	if err := a.DeleteTable(ctx, table); err != nil {
		return fmt.Errorf("drop HBase table %s: %w", table, mapErr(err))
	}
	return nil
}

// Tables lists the user tables of the cluster.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	names, err := s.c.Admin().ListTables(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return names, nil
}

var _ exec.RegionLoader = (*Store)(nil)

// Regions lists a table's regions in key order, from hbase:meta.
func (s *Store) Regions(ctx context.Context, table string) ([]exec.Region, error) {
	return s.regions(ctx, table, false)
}

// RegionsWithLoad is Regions with the load each region's server last
// reported to the master.
func (s *Store) RegionsWithLoad(ctx context.Context, table string) ([]exec.Region, error) {
	return s.regions(ctx, table, true)
}

func (s *Store) regions(ctx context.Context, table string, withLoad bool) ([]exec.Region, error) {
	rs, err := s.c.Regions(ctx, table)
	if err != nil {
		return nil, mapErr(err)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("HBase table %s: %w", table, exec.ErrTableNotFound)
	}
	// The load is a call to the master whose answer holds every region of
	// the cluster; a cluster that refuses it (a permission, an old
	// master) still lists its regions.
	var loads map[string]hbase.RegionLoad
	if withLoad {
		loads, _ = s.c.Admin().RegionLoads(ctx)
	}
	out := make([]exec.Region, len(rs))
	for i, r := range rs {
		out[i] = exec.Region{Name: string(r.Name), StartKey: r.StartKey, EndKey: r.EndKey, Server: r.Server}
		if l, ok := loads[string(r.Name)]; ok {
			out[i].Load = &exec.RegionLoad{ReadRequests: l.ReadRequests, WriteRequests: l.WriteRequests,
				StoreFileMB: l.StoreFileMB, MemStoreMB: l.MemStoreMB}
		}
	}
	return out, nil
}

// storeError is a client error that also matches an exec sentinel, so
// callers test for exec.ErrTableNotFound without knowing the backend.
type storeError struct {
	err, sentinel error
}

func (e *storeError) Error() string   { return e.err.Error() }
func (e *storeError) Unwrap() []error { return []error{e.err, e.sentinel} }

// mapErr makes the client's table errors match exec's sentinels too.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, hbase.ErrTableNotFound):
		return &storeError{err: err, sentinel: exec.ErrTableNotFound}
	case errors.Is(err, hbase.ErrTableExists):
		return &storeError{err: err, sentinel: exec.ErrTableExists}
	case errors.Is(err, hbase.ErrNamespaceNotFound):
		return &storeError{err: err, sentinel: exec.ErrNamespaceNotFound}
	case errors.Is(err, hbase.ErrNamespaceExists):
		return &storeError{err: err, sentinel: exec.ErrNamespaceExists}
	}
	return err
}
