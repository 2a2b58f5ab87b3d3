package shell

import (
	"context"
	"errors"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// ErrFailed is returned by Run when at least one statement failed. Each
// failure has already been reported on the IO's error writer.
var ErrFailed = errors.New("shell: a statement failed")

// ErrReadOnly is matched by the error of a write refused because the
// session is read-only.
var ErrReadOnly = errors.New("shell: the session is read-only")

// readOnlyError is a refused write: what names the statement.
type readOnlyError struct{ what, hint string }

func (e *readOnlyError) Error() string {
	if e.hint == "" {
		return e.what + " refused: the session is read-only"
	}
	return e.what + " refused: " + e.hint
}

func (e *readOnlyError) Is(target error) bool { return target == ErrReadOnly }

// writable refuses the write what when the session is read-only.
func (s *Session) writable(what string) error {
	if s.cfg.ReadOnly {
		return &readOnlyError{what: what, hint: s.cfg.ReadOnlyHint}
	}
	return nil
}

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
}

// Config builds a Session. The zero value of each optional field means the
// default.
type Config struct {
	Catalog *catalog.Catalog
	// Open opens the store. It is called on first use, and again after a
	// failure, so statements that need no store run without one.
	Open func(ctx context.Context) (exec.Store, error)
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
	Settings   Settings
	// StatementContext derives the context of one statement, so that Ctrl-C
	// can cancel it; nil means context.WithCancel.
	StatementContext func(context.Context) (context.Context, context.CancelFunc)
	// Clock times statements; nil means time.Now.
	Clock func() time.Time
}

// Session runs statements against one catalog and store. It is not safe for
// concurrent use.
type Session struct {
	cfg   Config
	set   Settings
	pl    *planner.Planner
	store exec.Store
	// ensured holds the physical tables known to exist.
	ensured map[string]bool
	failed  bool
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
	return &Session{cfg: cfg, set: cfg.Settings, pl: planner.New(cfg.Catalog, cfg.Planner), ensured: map[string]bool{}}
}

// Settings returns the current settings.
func (s *Session) Settings() Settings { return s.set }

// Close closes the store if it was opened.
func (s *Session) Close() error {
	if s.store == nil {
		return nil
	}
	err := s.store.Close()
	s.store = nil
	return err
}

// Store opens the store on first use.
func (s *Session) Store(ctx context.Context) (exec.Store, error) {
	if s.store != nil {
		return s.store, nil
	}
	if s.cfg.Open == nil {
		return nil, errors.New("no store is configured")
	}
	st, err := s.cfg.Open(ctx)
	if err != nil {
		return nil, err
	}
	s.store = st
	return st, nil
}

func (s *Session) executor(ctx context.Context) (*exec.Executor, error) {
	st, err := s.Store(ctx)
	if err != nil {
		return nil, err
	}
	return &exec.Executor{Store: st, SortBudget: s.cfg.SortBudget}, nil
}

// ensure creates t's physical table when the session creates tables on
// demand.
func (s *Session) ensure(ctx context.Context, x *exec.Executor, t *catalog.Table) error {
	if !s.cfg.CreateOnDemand || s.ensured[t.Physical] {
		return nil
	}
	if err := x.EnsureTable(ctx, t); err != nil {
		return err
	}
	s.ensured[t.Physical] = true
	return nil
}

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
func (s *Session) Catalog() *catalog.Catalog { return s.cfg.Catalog }
