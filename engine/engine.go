package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// ErrReadOnly is matched by the error of a write refused because the
// engine is read-only.
var ErrReadOnly = errors.New("engine: the session is read-only")

// readOnlyError is a refused write: what names the statement.
type readOnlyError struct{ what, hint string }

func (e *readOnlyError) Error() string {
	if e.hint == "" {
		return e.what + " refused: the session is read-only"
	}
	return e.what + " refused: " + e.hint
}

func (e *readOnlyError) Is(target error) bool { return target == ErrReadOnly }

// OpenFunc opens a store: Config.Open and Config.OpenRead. It is the
// engine's name for what a caller hands it, so that a caller that only
// passes the function on (the shell) names no exec type.
type OpenFunc func(ctx context.Context) (exec.Store, error)

// Opened is the OpenFunc of a store already open: it returns st.
func Opened(st exec.Store) OpenFunc {
	return func(context.Context) (exec.Store, error) { return st, nil }
}

// OpenWith is the OpenFunc of open, which opens a store of a concrete
// type (embedded.Open's *embedded.Store). When open fails, the store is
// none at all, not an interface holding a nil pointer.
func OpenWith[S exec.Store](open func(context.Context) (S, error)) OpenFunc {
	return func(ctx context.Context) (exec.Store, error) {
		st, err := open(ctx)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
}

// Config builds an Engine. The zero value of each optional field means
// the default.
type Config struct {
	Catalog *catalog.Catalog
	// CatalogSource is the catalog's YAML text, which the layout
	// statements edit; CatalogFile is where they write it ("" refuses
	// them). The file need not exist yet.
	CatalogSource []byte
	CatalogFile   string
	// CatalogLockTimeout is how long a layout statement waits for another
	// process's edit of the same catalog file (see catlock.go). 0 means
	// ten seconds; a negative value means not at all.
	CatalogLockTimeout time.Duration
	// Confirm asks whether to go on with a statement that removes rows or
	// tables (DELETE, TRUNCATE TABLE, DROP TABLE of a physical table); a
	// no fails the statement, which then changes nothing. nil goes on
	// without asking (the shell always sets one).
	Confirm func(ctx context.Context, question string) (bool, error)
	// Open opens the store. It is called on first use, and again after a
	// failure, so statements that need no store run without one.
	Open OpenFunc
	// OpenRead, when set, opens the store for a statement that only
	// reads, so that other readers may share it; Open then opens it for
	// statements that write, and for Write. The engine closes a store
	// opened one way before it opens it the other way, so that a writer
	// holds the store only while it writes.
	OpenRead OpenFunc
	// CreateOnDemand creates a table's physical table before it is first
	// read or written, as the embedded store wants.
	CreateOnDemand bool
	// ReadOnly refuses every statement that writes or changes a table
	// before it touches the store. ReadOnlyHint ends the error and says
	// how to allow writes.
	ReadOnly     bool
	ReadOnlyHint string
	Planner      planner.Options
	// SortBudget is the most rows a client sort may hold; 0 means exec's
	// default.
	SortBudget int
	// GroupBudget is the most groups a hash aggregation may hold; 0
	// means exec's default.
	GroupBudget int
	// DistinctBudget is the most distinct rows a client DISTINCT may
	// hold; 0 means exec's default.
	DistinctBudget int
	// NoPushdown starts the engine with pushdown off (see SetPushdown).
	NoPushdown bool
	// BlockCache starts the engine with this choice of which reads skip
	// the region servers' block cache (see SetBlockCache).
	BlockCache exec.BlockCache
	// Parallel starts the engine with this choice of parallel region
	// reads (see SetParallel); the zero value is auto.
	Parallel Parallel
	// Strict makes a row whose key or cells do not fit its layout an
	// error (ErrMalformed); without it the row is skipped with a warning.
	Strict bool
	// Clock times statements; nil means time.Now.
	Clock func() time.Time
}

// Engine runs statements against one catalog and store. It is not safe
// for concurrent use.
type Engine struct {
	cfg   Config
	pl    *planner.Planner
	store exec.Store
	// storeWrites says whether store was opened with Config.Open.
	storeWrites bool
	// reading is set while RunPlan places a statement that only reads.
	reading    bool
	pushdown   bool
	blockCache exec.BlockCache
	parallel   Parallel
	// progress, when set, is told the rows done so far by a long
	// statement (BUILD INDEX, CHECK INDEX).
	progress func(rows int64)
	// ensured holds the physical tables known to exist.
	ensured map[string]bool
	// confirm, when set, replaces Config.Confirm (see SetConfirm).
	confirm func(ctx context.Context, question string) (bool, error)
	// lastWrite is the last timestamp handed to a write that named none
	// (see writeClock).
	lastWrite int64
	// uids reads OpenTSDB's uid tables of store, for the planner and the
	// executor; made with the store.
	uids *exec.UIDs
}

// engineUIDs looks up OpenTSDB's uids for the planner in the engine's
// store, opened on first use.
type engineUIDs struct{ e *Engine }

func (u engineUIDs) UID(ctx context.Context, table, kind, name string) (int64, bool, error) {
	e := u.e
	if e.store == nil {
		// A lookup only reads: a store opened for it need not write.
		prev := e.reading
		e.reading = true
		_, err := e.Store(ctx)
		e.reading = prev
		if err != nil {
			return 0, false, err
		}
	}
	return e.uids.UID(ctx, table, kind, name)
}

// writeClock hands out write timestamps in ms that never go backwards and
// never repeat, so that a later statement's write is always newer than an
// earlier one's, even within one millisecond.
func (e *Engine) writeClock() int64 {
	now := e.cfg.Clock().UnixMilli()
	if now <= e.lastWrite {
		now = e.lastWrite + 1
	}
	e.lastWrite = now
	return now
}

// New returns an engine. It opens no store until a statement needs one.
func New(cfg Config) *Engine {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Planner.Now == nil {
		cfg.Planner.Now = cfg.Clock
	}
	e := &Engine{pushdown: !cfg.NoPushdown, blockCache: cfg.BlockCache, parallel: cfg.Parallel, ensured: map[string]bool{}}
	if cfg.Planner.UIDs == nil {
		cfg.Planner.UIDs = engineUIDs{e}
	}
	e.cfg, e.pl = cfg, newPlanner(cfg.Catalog, cfg)
	return e
}

func newPlanner(c *catalog.Catalog, cfg Config) *planner.Planner { return planner.New(c, cfg.Planner) }

// Catalog returns the engine's catalog.
func (e *Engine) Catalog() *catalog.Catalog { return e.cfg.Catalog }

// Pushdown reports whether reads hand the store the work it can do.
func (e *Engine) Pushdown() bool { return e.pushdown }

// SetPushdown switches pushdown on or off. Off, the store only reads key
// ranges and every filter, projection and limit runs in the client: the
// setting that measures what pushdown saves. A LIMIT that bounds a read
// of the whole table (planner.ReadBound) stays the store's, a row limit
// being no filter, so that the read stops where EXPLAIN says it does.
func (e *Engine) SetPushdown(on bool) { e.pushdown = on }

// BlockCache reports which reads skip the region servers' block cache.
func (e *Engine) BlockCache() exec.BlockCache { return e.blockCache }

// SetBlockCache chooses which reads skip the region servers' block cache:
// auto skips it for big reads only (exec.BigReadRows), on and off for
// every read. Stores without a block cache ignore it.
func (e *Engine) SetBlockCache(b exec.BlockCache) { e.blockCache = b }

// SetProgress sets what BUILD INDEX, CHECK INDEX and DELETE tell the rows they
// have done so far, after each batch; nil tells nothing.
func (e *Engine) SetProgress(fn func(rows int64)) { e.progress = fn }

// SetConfirm sets what asks whether to go on with a statement that removes
// rows or tables, in place of Config.Confirm; nil goes back to it.
func (e *Engine) SetConfirm(fn func(ctx context.Context, question string) (bool, error)) {
	e.confirm = fn
}

// Close closes the store if it was opened. The tables known to exist are
// looked up again in the next store opened: one opened for reading only
// may hold tables made in memory only.
func (e *Engine) Close() error {
	if e.store == nil {
		return nil
	}
	err := e.store.Close()
	e.store, e.uids = nil, nil
	clear(e.ensured)
	return err
}

// Store opens the store on first use: for reading only while a statement
// that only reads runs and Config.OpenRead is set, else for writing. A
// store open the other way is closed first.
func (e *Engine) Store(ctx context.Context) (exec.Store, error) {
	write := !e.reading || e.cfg.OpenRead == nil
	if e.store != nil && e.storeWrites == write {
		return e.store, nil
	}
	if err := e.Close(); err != nil {
		return nil, err
	}
	open := e.cfg.Open
	if !write {
		open = e.cfg.OpenRead
	}
	if open == nil {
		return nil, errors.New("no store is configured")
	}
	st, err := open(ctx)
	if err != nil {
		return nil, err
	}
	e.store, e.storeWrites = st, write
	e.uids = &exec.UIDs{Store: st}
	return st, nil
}

func (e *Engine) executor(ctx context.Context) (*exec.Executor, error) {
	st, err := e.Store(ctx)
	if err != nil {
		return nil, err
	}
	return &exec.Executor{Store: st, SortBudget: e.cfg.SortBudget, GroupBudget: e.cfg.GroupBudget,
		DistinctBudget: e.cfg.DistinctBudget, WriteClock: e.writeClock, UIDs: e.uids}, nil
}

// ensure creates t's physical table when the engine creates tables on
// demand.
func (e *Engine) ensure(ctx context.Context, x *exec.Executor, t *catalog.Table) error {
	if !e.cfg.CreateOnDemand || e.ensured[t.Physical] {
		return nil
	}
	if err := x.EnsureTable(ctx, t); err != nil {
		return err
	}
	e.ensured[t.Physical] = true
	return nil
}

// Writable refuses the write what when the engine is read-only.
func (e *Engine) Writable(what string) error {
	if e.cfg.ReadOnly {
		return &readOnlyError{what: what, hint: e.cfg.ReadOnlyHint}
	}
	return nil
}

// Write inserts rows of table t, writing only the columns cols (all when
// nil) at cell timestamp ts (0: the time of the write), with their index
// entries. progress, when set, is told the rows written so far. It is
// what INSERT, rkql import and the examples loader write through.
func (e *Engine) Write(ctx context.Context, t *catalog.Table, cols []int, rows []catalog.Row, ts int64, progress func(int)) error {
	x, err := e.writer(ctx, t)
	if err != nil {
		return err
	}
	return x.InsertColumns(ctx, t, cols, rows, ts, progress)
}

// writer is the executor of a write to t: refused when the engine is
// read-only, with t's physical table created on demand.
func (e *Engine) writer(ctx context.Context, t *catalog.Table) (*exec.Executor, error) {
	if err := e.Writable("INSERT"); err != nil {
		return nil, err
	}
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	return x, e.ensure(ctx, x, t)
}

// WriteMutations writes mutations built by exec.RowMutation for a table
// without indexes, as they are: bulk loads sort them by key first, which
// the store writes fastest. A table with indexes is refused, since its
// entries must be kept in step (use Write).
func (e *Engine) WriteMutations(ctx context.Context, t *catalog.Table, muts []exec.Mutation) error {
	if len(t.Indexes) > 0 {
		return fmt.Errorf("table %s has indexes: its rows are written with their entries", t.Name)
	}
	x, err := e.writer(ctx, t)
	if err != nil {
		return err
	}
	return x.Store.Mutate(ctx, t.Physical, muts)
}
