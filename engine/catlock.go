package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rkql/rkql/parser"
)

// A layout statement that edits the catalog file, or creates or drops the
// physical tables it names, is one unit: it holds an exclusive flock on
// the lock file beside the catalog (<catalog>.lock) while it reads the
// file as it is now, computes its edit, creates or drops the physical
// tables, and writes the file; BUILD INDEX holds it while it marks the
// index unbuilt, and again while it marks it built, but not while it
// writes the entries. Two processes editing one catalog therefore never
// lose each other's entries, on any store.
//
// Lock order: the catalog's lock comes before the store's. A layout
// statement takes the catalog lock first and opens the store under it;
// an engine that holds its store open when the catalog lock is busy
// closes the store before it waits. No process ever waits for the
// catalog while holding the store, so two cannot wait for each other.
// Where the system has no flock (catlock_other.go), edits are not kept
// apart.

// ErrCatalogInUse is matched by the error of a layout statement that gave
// up waiting for another process's edit of the same catalog file.
var ErrCatalogInUse = errors.New("engine: the catalog is being changed by another process")

// catalogInUseError is a wait for the catalog lock given up after waited.
type catalogInUseError struct {
	file   string
	waited time.Duration
}

func (e *catalogInUseError) Error() string {
	msg := fmt.Sprintf("catalog %s is being changed by another rkql process", e.file)
	if e.waited > 0 {
		msg += fmt.Sprintf(": gave up after %s", e.waited)
	}
	return msg
}

func (e *catalogInUseError) Is(target error) bool { return target == ErrCatalogInUse }

// lockFileError is a catalog lock whose file cannot be opened, as in a
// directory this process may not write: no edit of the catalog can be
// written there either.
type lockFileError struct{ err error }

func (e *lockFileError) Error() string { return "locking the catalog: " + e.err.Error() }
func (e *lockFileError) Unwrap() error { return e.err }

// defaultCatalogLockTimeout is how long a layout statement waits for the
// catalog lock when Config.CatalogLockTimeout is 0.
const defaultCatalogLockTimeout = 10 * time.Second

// lockPoll is how often a waiting layout statement tries the lock again.
const lockPoll = 50 * time.Millisecond

// lockFor takes the catalog lock for the layout statement st, and
// returns what lets go of it: nothing to let go of for SHOW CATALOG, for a
// session without a catalog file, and for a TRUNCATE beside a catalog in
// a directory this process may not write, which no edit can change.
func (e *Engine) lockFor(ctx context.Context, st parser.Stmt) (func(), error) {
	none := func() {}
	if inf, ok := st.(*parser.InferStmt); ok && !inf.Save {
		return none, nil
	}
	if _, show := st.(*parser.ShowCatalogStmt); show || e.cfg.CatalogFile == "" {
		return none, nil
	}
	release, err := e.lockCatalog(ctx)
	var noFile *lockFileError
	if _, truncate := st.(*parser.TruncateStmt); truncate && errors.As(err, &noFile) {
		return none, nil
	}
	return release, err
}

// lockCatalog takes the catalog lock, waiting for another process's edit
// up to Config.CatalogLockTimeout or the end of ctx. The caller calls the
// function it returns when its edit is written.
func (e *Engine) lockCatalog(ctx context.Context) (func(), error) {
	path := e.cfg.CatalogFile + ".lock"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, &lockFileError{err}
	}
	// Read access is all a flock needs: a lock file another user made
	// serves every user who may change the catalog beside it.
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &lockFileError{err}
	}
	ok, err := tryLock(f)
	if err == nil && !ok {
		// Never wait for the catalog while holding the store: the
		// process that holds the catalog may be waiting for it.
		if err = e.Close(); err == nil {
			err = e.waitLock(ctx, f)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		unlock(f)
		f.Close()
	}, nil
}

// waitLock tries f's lock until it is free, the timeout passes or ctx
// ends.
func (e *Engine) waitLock(ctx context.Context, f *os.File) error {
	timeout := e.cfg.CatalogLockTimeout
	if timeout == 0 {
		timeout = defaultCatalogLockTimeout
	}
	gaveUp := &catalogInUseError{file: e.cfg.CatalogFile, waited: max(timeout, 0)}
	if timeout < 0 {
		return gaveUp
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(lockPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the catalog lock: %w", ctx.Err())
		case <-deadline.C:
			return gaveUp
		case <-tick.C:
		}
		ok, err := tryLock(f)
		if err != nil || ok {
			return err
		}
	}
}
