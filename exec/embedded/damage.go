package embedded

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged matches the error Open, Check and Repair return for a store
// file that cannot be trusted.
var ErrDamaged = errors.New("embedded: store is damaged")

// DamagedError says that a store file is damaged and what to do about it.
// It matches ErrDamaged with errors.Is.
type DamagedError struct {
	// Path is the store file.
	Path string
	// Reason is the first problem found, one line.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("embedded: store %s is damaged (%s): run rkql store check, or rkql store repair to save what can be read", e.Path, e.Reason)
}

func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

func (e *DamagedError) Unwrap() error { return e.Err }

func damaged(path string, err error) error {
	return &DamagedError{Path: path, Reason: oneLine(err.Error()), Err: err}
}

// defaultVerifyLimit is the largest file Open checks page by page.
const defaultVerifyLimit = 4 << 20

// guard runs fn with memory faults turned into panics, and turns any panic
// into an error. bbolt reads its file through a memory map, so a page past
// the end of a truncated file is a SIGBUS and a wild page id a SIGSEGV;
// neither may end the process.
func guard(what string, fn func() error) (err error) {
	prev := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(prev)
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{msg: what + ": " + oneLine(fmt.Sprint(r))}
		}
	}()
	return fn()
}

// panicError is a panic or memory fault that guard recovered.
type panicError struct{ msg string }

func (e *panicError) Error() string { return e.msg }

// preCheck reads the store file at path without mapping it: an empty file,
// a file shorter than its pages need and a file with no valid meta page
// are damage. A missing file is not: it becomes a new store.
func preCheck(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("embedded: open store: %w", err)
	}
	defer f.Close()
	if _, err := openPageFile(f); err != nil {
		var d *damage
		if errors.As(err, &d) {
			return damaged(path, err)
		}
		return fmt.Errorf("embedded: open store %s: %w", path, err)
	}
	return nil
}

// verify reads the store file at path page by page: every page the store
// can reach must be sound, so that no later read of the memory map can
// fault. Files larger than limit are left to rkql store check.
func verify(path string, limit int64) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("embedded: open store: %w", err)
	}
	defer f.Close()
	pf, err := openPageFile(f)
	if err != nil {
		return damaged(path, err)
	}
	if limit >= 0 && pf.size > limit {
		return nil
	}
	res := scanStore(pf, scanOptions{})
	if len(res.problems) > 0 {
		reason := res.problems[0]
		if n := len(res.problems) - 1; n > 0 {
			reason += fmt.Sprintf(", and %d more problems", n)
		}
		return damaged(path, errors.New(reason))
	}
	return nil
}

// openBolt opens the bbolt file under guard. If bbolt panics or faults
// while reading the file, the file is closed, which releases its lock, so
// that a later Open in the same process is not locked out.
func openBolt(path string, opts *bolt.Options) (*bolt.DB, error) {
	var file *os.File
	opts.OpenFile = func(name string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, mode)
		file = f
		return f, err
	}
	var db *bolt.DB
	err := guard("bbolt", func() error {
		var err error
		db, err = bolt.Open(path, 0o644, opts)
		return err
	})
	var pe *panicError
	switch {
	case errors.As(err, &pe):
		// bbolt panicked before it could close the file itself, and
		// left its memory map behind, which a process cannot reach to
		// unmap; dropping the lock lets the next Open in this process
		// go ahead.
		if file != nil {
			unlockFile(file)
			_ = file.Close()
		}
		return nil, damaged(path, err)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, berrors.ErrVersionMismatch):
		return nil, damaged(path, err)
	}
	return db, err
}

// checkSize checks, through bbolt, that the file covers the pages its
// meta page counts.
func checkSize(db *bolt.DB, path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return guard("bbolt", func() error {
		return db.View(func(tx *bolt.Tx) error {
			if need := tx.Size(); st.Size() < need {
				return damaged(path, fmt.Errorf("file is %d bytes, its pages need %d", st.Size(), need))
			}
			return nil
		})
	})
}

// stamp is the time in file names, such as rkql.db.damaged-20240501T120000Z.
func stamp(t time.Time) string { return t.UTC().Format("20060102T150405.000Z") }
