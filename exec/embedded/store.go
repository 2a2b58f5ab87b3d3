package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/rkql/rkql/exec"
)

// FileName is the name of the bbolt file inside a store directory.
const FileName = "rkql.db"

const (
	metaBucket    = "#meta"
	formatKey     = "#format"
	formatVersion = "1"

	defaultLockTimeout = time.Second
	defaultRowsPerTx   = 10000
	defaultScanBatch   = 1024
	defaultMaxTxnRows  = 2_000_000
)

// ErrInUse is returned by Open when another process holds the store's lock.
// The error Open returns names the directory and matches ErrInUse with
// errors.Is.
var ErrInUse = errors.New("embedded: store is in use by another rkql process")

// ErrReadOnly is returned by a write to a store opened with
// Options.ReadOnly.
var ErrReadOnly = errors.New("embedded: store is open for reading only")

// errClosed is returned by calls on a closed Store.
var errClosed = errors.New("embedded: store is closed")

type inUseError struct{ dir string }

func (e *inUseError) Error() string {
	return fmt.Sprintf("embedded: store %s is in use by another rkql process", e.dir)
}

func (e *inUseError) Is(target error) bool { return target == ErrInUse }

// Options tune a Store. The zero value means the defaults.
type Options struct {
	// Clock returns the current time. It stamps cells written with
	// timestamp 0 and decides which cells have outlived their TTL.
	// nil means time.Now.
	Clock func() time.Time
	// LockTimeout is how long Open waits for another process to release
	// the store. 0 means one second; a negative value means not at all.
	LockTimeout time.Duration
	// NoSync skips fsync on commit. A crash may then lose or corrupt the
	// store; use it only for throwaway stores such as tests.
	NoSync bool
	// RowsPerTx is the number of rows Mutate writes per transaction.
	// 0 means 10000.
	RowsPerTx int
	// MaxTxnRows is the most row writes (a table's row or an index
	// entry; an UPDATE of a table with one index makes five a row) a
	// statement's transaction (Atomically) holds; past it the statement
	// fails and is undone. Each costs about 400 bytes of memory until the
	// transaction commits. 0 means 2,000,000.
	MaxTxnRows int
	// ScanBatch is the most rows a scan reads per read transaction
	// (ScanKeys: 16 times as many). 0 means 1024.
	ScanBatch int
	// VerifyLimit is the largest store file, in bytes, whose every page
	// Open checks before trusting it. 0 means 4 MiB; a negative value
	// means any size. Larger files get the quick check only (meta pages,
	// file size, table metadata); rkql store check reads all of them.
	VerifyLimit int64
	// RepairTables are the tables Repair gives the rows of intact pages
	// it finds when both the store's table metadata and its copy
	// (TablesFileName) are lost: rkql store repair passes its catalog's.
	// A table of them that gets no row is not created. Open ignores it.
	RepairTables []exec.TableSpec
	// ReadOnly opens the store for reading only, under a lock that other
	// readers share and a writer waits for. Nothing is ever written: a
	// store that does not exist reads as empty and is not created, and
	// CreateTable of a table that does not exist makes one in memory
	// only, which reads as empty. Mutate and DropTable fail with
	// ErrReadOnly.
	ReadOnly bool
}

// Store is an exec.Store over a local bbolt file. It is safe for concurrent
// use by several goroutines.
type Store struct {
	// db is nil for a store opened read-only whose file does not exist.
	db        *bolt.DB
	dir       string
	readOnly  bool
	clock     func() time.Time
	rowsPerTx int
	scanBatch int

	// pages are read-only maps of the store file, for reads that walk
	// its pages themselves (leafScan). A map is replaced by a larger one
	// when the file grows; all are unmapped by Close, after the last
	// read transaction has ended.
	pages struct {
		sync.Mutex
		maps   [][]byte
		failed bool // mapping failed once: read with bbolt's cursor
	}

	// txn is the write transaction of Atomically while one runs; Mutate
	// and Get use it, under its lock, instead of their own.
	txn struct {
		sync.Mutex
		tx   *bolt.Tx
		rows int // rows written into tx
	}
	maxTxnRows int
	// cellAtomic runs Increment and CheckAndPut one at a time.
	cellAtomic sync.Mutex

	mu struct {
		sync.RWMutex
		// tables caches the meta bucket: name -> table.
		tables map[string]*table
		// lastTS is the last write timestamp handed out, in ms.
		lastTS int64
	}
}

var _ exec.Store = (*Store)(nil)

// Open opens the store in directory path, creating the directory and the
// store if they do not exist. A store file that exists but is damaged (even
// an empty one) is an error matching ErrDamaged; see the package doc.
//
// A store opened for writing holds an exclusive lock on its file until it
// is closed; one opened with Options.ReadOnly holds a shared one. Both are
// bbolt's flock, so that readers in several processes read at once while
// a writer waits for all of them, and they for it.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.LockTimeout
	if timeout == 0 {
		timeout = defaultLockTimeout
	}
	file := filepath.Join(path, FileName)
	if opts.ReadOnly {
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			return newStore(nil, path, opts, map[string]*table{}), nil
		}
	} else if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("embedded: open store: %w", err)
	}
	if err := preCheck(file); err != nil {
		return nil, err
	}
	db, err := openBolt(file, &bolt.Options{
		Timeout:      timeout,
		NoSync:       opts.NoSync,
		FreelistType: bolt.FreelistMapType,
		ReadOnly:     opts.ReadOnly,
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &inUseError{dir: path}
	}
	if err != nil {
		if errors.Is(err, ErrDamaged) {
			return nil, err
		}
		return nil, fmt.Errorf("embedded: open store %s: %w", path, err)
	}
	tables, err := checkOpened(db, file, opts)
	if err != nil {
		_ = guard("bbolt", db.Close)
		return nil, err
	}
	if !opts.ReadOnly {
		ensureTablesFile(path, tables)
	}
	return newStore(db, path, opts, tables), nil
}

// newStore returns the Store over db, which holds tables.
func newStore(db *bolt.DB, dir string, opts Options, tables map[string]*table) *Store {
	s := &Store{
		db:         db,
		dir:        dir,
		readOnly:   opts.ReadOnly,
		clock:      opts.Clock,
		rowsPerTx:  opts.RowsPerTx,
		scanBatch:  opts.ScanBatch,
		maxTxnRows: opts.MaxTxnRows,
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.rowsPerTx <= 0 {
		s.rowsPerTx = defaultRowsPerTx
	}
	if s.scanBatch <= 0 {
		s.scanBatch = defaultScanBatch
	}
	if s.maxTxnRows <= 0 {
		s.maxTxnRows = defaultMaxTxnRows
	}
	s.mu.tables = tables
	return s
}

// checkOpened checks a store bbolt has opened, now that this process holds
// its lock, and reads its tables. Any panic or fault on the way becomes an
// error.
func checkOpened(db *bolt.DB, file string, opts Options) (map[string]*table, error) {
	if err := checkSize(db, file); err != nil {
		return nil, err
	}
	limit := opts.VerifyLimit
	if limit == 0 {
		limit = defaultVerifyLimit
	}
	if err := verify(file, limit); err != nil {
		return nil, err
	}
	var tables map[string]*table
	err := guard("bbolt", func() error {
		var err error
		tables, err = loadMeta(db, opts.ReadOnly)
		return err
	})
	var pe *panicError
	if errors.As(err, &pe) {
		return nil, damaged(file, err)
	}
	if err != nil {
		return nil, fmt.Errorf("embedded: open store %s: %w", filepath.Dir(file), err)
	}
	return tables, nil
}

// loadMeta creates or checks the meta bucket and reads every table's
// metadata. A store that already has its meta bucket is only read: a write
// transaction would sync the file at every start. Read-only, a store
// without one has no tables.
func loadMeta(db *bolt.DB, readOnly bool) (map[string]*table, error) {
	tables := make(map[string]*table)
	var missing bool
	err := db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte(metaBucket))
		if meta == nil || meta.Get([]byte(formatKey)) == nil {
			missing = true
			return nil
		}
		return readMeta(tx, meta, tables)
	})
	if err != nil || !missing || readOnly {
		return tables, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists([]byte(metaBucket))
		if err != nil {
			return err
		}
		if meta.Get([]byte(formatKey)) == nil {
			if err := meta.Put([]byte(formatKey), []byte(formatVersion)); err != nil {
				return err
			}
		}
		return readMeta(tx, meta, tables)
	})
	return tables, err
}

// readMeta checks the format version and reads every table's metadata into
// tables.
func readMeta(tx *bolt.Tx, meta *bolt.Bucket, tables map[string]*table) error {
	if v := meta.Get([]byte(formatKey)); string(v) != formatVersion {
		return fmt.Errorf("unsupported format version %q", v)
	}
	return meta.ForEach(func(k, v []byte) error {
		if string(k) == formatKey {
			return nil
		}
		var m tableMeta
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("table %s: corrupt metadata: %w", k, err)
		}
		if tx.Bucket(k) == nil {
			return fmt.Errorf("table %s: bucket is missing", k)
		}
		tables[string(k)] = newTable(m, bytes.Clone(v))
		return nil
	})
}

// Close releases the store. It waits for running calls to finish. Scans
// still open fail on their next refill.
func (s *Store) Close() error {
	if s.db == nil {
		return nil
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("embedded: close: %w", err)
	}
	s.pages.Lock()
	defer s.pages.Unlock()
	for _, m := range s.pages.maps {
		_ = unmapFile(m)
	}
	s.pages.maps = nil
	return nil
}

// mapped returns a read-only map of at least the first size bytes of the
// store file, or nil where the file cannot be mapped. The caller holds a
// read transaction whose pages lie in those bytes.
func (s *Store) mapped(size int64) []byte {
	s.pages.Lock()
	defer s.pages.Unlock()
	if s.pages.failed {
		return nil
	}
	if n := len(s.pages.maps); n > 0 && int64(len(s.pages.maps[n-1])) >= size {
		return s.pages.maps[n-1]
	}
	m, err := mapFile(s.db.Path(), int(size))
	if err != nil {
		s.pages.failed = true
		return nil
	}
	s.pages.maps = append(s.pages.maps, m)
	return m
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// now returns the clock's time in milliseconds.
func (s *Store) now() int64 { return s.clock().UnixMilli() }

// writeTimestamp returns the timestamp for one Mutate call: the clock's time
// in milliseconds, or one more than the previous call's if the clock has not
// moved past it.
func (s *Store) writeTimestamp() int64 {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if now <= s.mu.lastTS {
		now = s.mu.lastTS + 1
	}
	s.mu.lastTS = now
	return now
}

// table returns the cached metadata of a table.
func (s *Store) table(name string) (*table, error) {
	s.mu.RLock()
	t := s.mu.tables[name]
	s.mu.RUnlock()
	if t == nil {
		return nil, notFound(name)
	}
	return t, nil
}

func notFound(name string) error {
	return fmt.Errorf("embedded: table %s: %w", name, exec.ErrTableNotFound)
}

// CreateTable creates a physical table. It returns an error matching
// exec.ErrTableExists if the table exists.
func (s *Store) CreateTable(ctx context.Context, spec exec.TableSpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validateSpec(spec); err != nil {
		return err
	}
	if err := s.noTxn("create table", spec.Name); err != nil {
		return err
	}
	m := tableMeta{Spec: cloneSpec(spec), Created: s.now()}
	enc, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("embedded: create table %s: %w", spec.Name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.tables[spec.Name] != nil {
		// No write transaction, which would sync the file, and none at
		// all in a read-only store.
		return fmt.Errorf("embedded: create table %s: %w", spec.Name, exec.ErrTableExists)
	}
	if s.readOnly {
		t := newTable(m, enc)
		t.absent = true
		s.mu.tables[spec.Name] = t
		return nil
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte(metaBucket))
		if meta.Get([]byte(spec.Name)) != nil {
			return fmt.Errorf("embedded: create table %s: %w", spec.Name, exec.ErrTableExists)
		}
		if _, err := tx.CreateBucket([]byte(spec.Name)); err != nil {
			return fmt.Errorf("embedded: create table %s: %w", spec.Name, err)
		}
		return meta.Put([]byte(spec.Name), enc)
	})
	if err != nil {
		return wrapDB(err)
	}
	s.mu.tables[spec.Name] = newTable(m, enc)
	writeTablesFile(s.dir, s.mu.tables)
	return nil
}

// DropTable deletes a table and all its rows. It returns an error matching
// exec.ErrTableNotFound if there is no such table.
func (s *Store) DropTable(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.readOnly {
		return fmt.Errorf("embedded: drop table %s: %w", name, ErrReadOnly)
	}
	if err := s.noTxn("drop table", name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.tables[name] == nil {
		return notFound(name)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(name)); err != nil {
			return fmt.Errorf("embedded: drop table %s: %w", name, err)
		}
		return tx.Bucket([]byte(metaBucket)).Delete([]byte(name))
	})
	if err != nil {
		return wrapDB(err)
	}
	delete(s.mu.tables, name)
	writeTablesFile(s.dir, s.mu.tables)
	return nil
}

// Tables lists the physical tables, sorted by name.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	names := make([]string, 0, len(s.mu.tables))
	for name, t := range s.mu.tables {
		if !t.absent {
			names = append(names, name)
		}
	}
	s.mu.RUnlock()
	slices.Sort(names)
	return names, nil
}

// Spec returns the spec a table was created with.
func (s *Store) Spec(ctx context.Context, name string) (exec.TableSpec, error) {
	if err := ctx.Err(); err != nil {
		return exec.TableSpec{}, err
	}
	t, err := s.table(name)
	if err != nil {
		return exec.TableSpec{}, err
	}
	return cloneSpec(t.spec), nil
}

// Regions lists a table's regions in key order, one per split plus one.
func (s *Store) Regions(ctx context.Context, name string) ([]exec.Region, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.table(name)
	if err != nil {
		return nil, err
	}
	return t.regionList(), nil
}

// Count returns the number of rows stored in a table, expired or not.
func (s *Store) Count(ctx context.Context, name string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	t, err := s.table(name)
	if err != nil || t.absent {
		return 0, err
	}
	var n int64
	err = s.view(func(tx *bolt.Tx) error {
		b, err := t.bucket(tx)
		if err != nil {
			return err
		}
		n = int64(b.Stats().KeyN)
		return nil
	})
	return n, wrapDB(err)
}

// wrapDB turns bbolt's "database not open" into errClosed.
func wrapDB(err error) error {
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return errClosed
	}
	return err
}
