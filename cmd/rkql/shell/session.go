package shell

import (
	"context"
	"errors"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/planner"
)

// ErrFailed is returned by Run when at least one statement failed. Each
// failure has already been reported on the IO's error writer.
var ErrFailed = errors.New("shell: a statement failed")

// ErrReadOnly is matched by the error of a write refused because the
// session is read-only.
var ErrReadOnly = engine.ErrReadOnly

// Settings are what meta-commands and flags change during a session.
type Settings struct {
	Format Format
	// Footer prints "(n rows)" after a table.
	Footer bool
	// Caret shows the source line and a caret under a parse or plan
	// error, after the one-line message; for a terminal.
	Caret bool
	// Timing prints how long each statement took.
	Timing bool
	// Quiet leaves out command tags such as "INSERT 3".
	Quiet bool
	// StopOnError stops reading at the first failed statement.
	StopOnError bool
	// Timeout bounds each statement; 0 means none.
	Timeout time.Duration
	// NoPushdown keeps every filter, projection and limit in the client,
	// but a LIMIT that bounds a read of the whole table (\pushdown off).
	NoPushdown bool
	// BlockCache says which reads skip the region servers' block cache
	// (\blockcache, --block-cache).
	BlockCache engine.BlockCache
	// Parallel is how many regions a read reads side by side
	// (\parallel, --parallel); the zero value is auto.
	Parallel engine.Parallel
	// Yes answers yes to the questions a DELETE, TRUNCATE TABLE or DROP
	// TABLE asks before removing rows or tables (--yes); without it a
	// script is answered no.
	Yes bool
	// Progress shows how far BUILD INDEX and CHECK INDEX have got on
	// the error writer, a line that overwrites itself; for a terminal.
	Progress bool
	// Expanded lays rows out a line per column (\x).
	Expanded Expanded
	// Pager shows results taller than the terminal in a pager; it needs
	// Config.TermSize.
	Pager bool
	// Null is how NULL looks in tables; "" means NULL.
	Null string
}

// Config builds a Session. The zero value of each optional field means the
// default.
type Config struct {
	Catalog *catalog.Catalog
	// CatalogSource is the catalog's YAML text and CatalogFile where the
	// layout statements write it; "" refuses them.
	CatalogSource []byte
	CatalogFile   string
	// CatalogLockTimeout is how long a layout statement waits for another
	// process's edit of the catalog (see engine.Config.CatalogLockTimeout).
	CatalogLockTimeout time.Duration
	// Open opens the store. It is called on first use, and again after a
	// failure, so statements that need no store run without one.
	Open engine.OpenFunc
	// OpenRead, when set, opens the store for statements that only read,
	// sharing it with other readers (see engine.Config.OpenRead).
	OpenRead engine.OpenFunc
	// CreateOnDemand creates a table's physical table before it is first
	// read or written, as the embedded store wants.
	CreateOnDemand bool
	// ReadOnly refuses every statement that writes or changes a table
	// (CREATE TABLE, INSERT, DELETE, BUILD INDEX, CHECK INDEX … REPAIR,
	// import) before it touches the store. ReadOnlyHint ends the error
	// and says how to allow writes.
	ReadOnly     bool
	ReadOnlyHint string
	Planner      planner.Options
	// SortBudget is the most rows a client sort may hold; 0 means exec's
	// default.
	SortBudget int
	// GroupBudget is the most groups a hash aggregation may hold; 0
	// means exec's default.
	GroupBudget int
	// Strict makes a row that does not fit its layout an error.
	Strict   bool
	Settings Settings
	// StatementContext derives the context of one statement, so that Ctrl-C
	// can cancel it; nil means context.WithCancel.
	StatementContext func(context.Context) (context.Context, context.CancelFunc)
	// Clock times statements; nil means time.Now.
	Clock func() time.Time
	// ProgressInterval is the least time between two progress reports;
	// 0 means a second.
	ProgressInterval time.Duration
	// ConnInfo says what the session uses, for \conninfo: the store or
	// cluster, the catalog and the version.
	ConnInfo string
	// TermSize returns the terminal's width and height, or false when
	// the results do not go to a terminal; nil means never.
	TermSize func() (width, height int, ok bool)
	// ReleaseStore closes the store after each statement, so that other
	// processes can use it between statements; it is opened again for
	// the next one.
	ReleaseStore bool
	// PagerCommand is the pager's command line, run by sh; "" means
	// less -SFX.
	PagerCommand string
	// Connect resolves the target of \connect (an HBase quorum or an
	// embedded store) to a connection; nil refuses \connect.
	Connect func(target string) (Connection, error)
	// Sleep waits d for \watch, or until ctx ends, and reports whether
	// it waited d; nil means a timer. Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) bool
}

// Connection is what \connect switches a session to: how to open the
// store, and the settings that go with that store.
type Connection struct {
	Open, OpenRead engine.OpenFunc
	CreateOnDemand bool
	ReadOnly       bool
	ReadOnlyHint   string
	ReleaseStore   bool
	// Name says which store or cluster it is, for "You are now connected
	// to …"; Info is what \conninfo says of it.
	Name, Info string
}

// Session reads statements and formats their results; an engine runs
// them. It is not safe for concurrent use.
type Session struct {
	cfg    Config
	set    Settings
	eng    *engine.Engine
	failed bool
	// failures counts the failures reported, for \watch to stop at one.
	failures int
	// outErr is set once writing results failed: the session stops.
	outErr bool
	// vars are the variables of \set.
	vars map[string]string
	// outFile is where \o sends results; nil for the IO's Stdout.
	outFile *outputFile
	// depth counts the \i files being read, one inside the other.
	depth int
	// last is the last statement run, for \e.
	last string
	// progress is the progress line of the statement running, or nil.
	progress *progressLine
	// sets counts the csv and tsv result sets written, which a blank
	// line separates.
	sets int
}

// New returns a session.
func New(cfg Config) *Session {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.StatementContext == nil {
		cfg.StatementContext = func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithCancel(ctx)
		}
	}
	return &Session{cfg: cfg, set: cfg.Settings, eng: newEngine(cfg, cfg.Settings)}
}

// newEngine is the engine of a session with configuration cfg and
// settings set.
func newEngine(cfg Config, set Settings) *engine.Engine {
	return engine.New(engine.Config{
		Catalog: cfg.Catalog, CatalogSource: cfg.CatalogSource, CatalogFile: cfg.CatalogFile,
		Open: cfg.Open, OpenRead: cfg.OpenRead, CreateOnDemand: cfg.CreateOnDemand, CatalogLockTimeout: cfg.CatalogLockTimeout,
		ReadOnly: cfg.ReadOnly, ReadOnlyHint: cfg.ReadOnlyHint, Planner: cfg.Planner,
		SortBudget: cfg.SortBudget, GroupBudget: cfg.GroupBudget, NoPushdown: set.NoPushdown, BlockCache: set.BlockCache, Parallel: set.Parallel, Clock: cfg.Clock, Strict: cfg.Strict,
	})
}

// Settings returns the current settings.
func (s *Session) Settings() Settings { return s.set }

// Engine returns the engine that runs the session's statements.
func (s *Session) Engine() *engine.Engine { return s.eng }

// Close closes the store if it was opened, and the file \o sends
// results to.
func (s *Session) Close() error { return errors.Join(s.CloseOutput(), s.eng.Close()) }

// statementContext is the context of one statement: Ctrl-C and the
// timeout end it.
func (s *Session) statementContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := s.cfg.StatementContext(ctx)
	if s.set.Timeout <= 0 {
		return ctx, cancel
	}
	tctx, tcancel := context.WithTimeout(ctx, s.set.Timeout)
	return tctx, func() { tcancel(); cancel() }
}

// SetStopOnError changes whether reading stops at the first failed
// statement.
func (s *Session) SetStopOnError(stop bool) { s.set.StopOnError = stop }

// Catalog returns the session's catalog.
func (s *Session) Catalog() *catalog.Catalog { return s.eng.Catalog() }
