package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TableReport is what Check or Repair found of one table.
type TableReport struct {
	Name string
	// Rows is the number of rows read whole (by Repair: saved).
	Rows int64
	// BadRows is the number of rows found but unreadable: not decodable,
	// or in a table whose metadata is lost.
	BadRows int64
	// LostPages is the number of the table's pages that could not be
	// read; the rows on them and on the pages below them are lost.
	LostPages int
	// LostRows is how many rows the lost pages held, where their headers
	// still say; the true number may be larger.
	LostRows int64
	// Salvaged is how many of Rows Repair read from intact pages that the
	// damaged tree no longer reaches; Conflicting how many rows it found
	// there in versions that disagree, and did not save.
	Salvaged, Conflicting int64
}

// CheckReport is the result of Check.
type CheckReport struct {
	// Path is the store file.
	Path string
	// Problems lists the damage found, one line each; none means the
	// store is sound.
	Problems []string
	// Tables lists the tables found, in the order of the file.
	Tables []TableReport
}

// Damaged reports whether Check found a problem.
func (r *CheckReport) Damaged() bool { return len(r.Problems) > 0 }

// Check reads every page of the store in directory dir without trusting
// any of it, then runs bbolt's own consistency check when the pages are
// sound. It waits for the store's lock as Open does (Options.LockTimeout);
// damage is reported in the CheckReport, not as an error.
func Check(dir string, opts Options) (*CheckReport, error) {
	path := filepath.Join(dir, FileName)
	f, err := openLocked(path, false, opts)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep := &CheckReport{Path: path}
	pf, err := openPageFile(f)
	if err != nil {
		var d *damage
		if !errors.As(err, &d) {
			return nil, fmt.Errorf("embedded: check %s: %w", path, err)
		}
		rep.Problems = append(rep.Problems, err.Error())
		if pf == nil {
			return rep, nil
		}
	}
	var res *storeScan
	err = guard("check", func() error {
		res = scanStore(pf, scanOptions{decode: true})
		return nil
	})
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		return rep, nil
	}
	rep.Problems = append(rep.Problems, res.problems...)
	rep.Tables = tableReports(res, nil)
	if !rep.Damaged() && pf.metas < 2 {
		// bbolt reads the store from the other meta page, but its own
		// check asserts on the torn one and would end the process.
		rep.Problems = append(rep.Problems, "one of the two meta pages is unreadable: the store reads as of the other one; rkql store repair writes a new file with both")
	}
	if !rep.Damaged() {
		rep.Problems = boltCheck(path, opts)
	}
	return rep, nil
}

// openLocked opens the store file at path and takes its lock.
func openLocked(path string, exclusive bool, opts Options) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("embedded: no store at %s: %w", filepath.Dir(path), err)
	}
	if err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	if err := lockFile(f, exclusive, lockTimeout(opts)); err != nil {
		_ = f.Close()
		if errors.Is(err, ErrInUse) {
			return nil, &inUseError{dir: filepath.Dir(path)}
		}
		return nil, fmt.Errorf("embedded: lock %s: %w", path, err)
	}
	return f, nil
}

// tableReports reports the tables of res; with saved (Repair), a guessed
// table that got no row is left out.
func tableReports(res *storeScan, saved map[string]int64) []TableReport {
	out := make([]TableReport, 0, len(res.tables))
	for _, ts := range res.tables {
		if ts.guessed && saved[ts.name] == 0 {
			continue
		}
		tr := TableReport{Name: ts.name, Rows: ts.rows, BadRows: ts.bad, LostPages: ts.loss.pages, LostRows: ts.loss.rows,
			Salvaged: ts.salvaged, Conflicting: ts.conflicts}
		if ts.t == nil {
			tr.Rows, tr.BadRows = 0, ts.rows+ts.bad
		}
		out = append(out, tr)
	}
	return out
}

// boltCheck runs bbolt's consistency check on a file whose pages were
// found sound, and returns its findings, one line each.
func boltCheck(path string, opts Options) []string {
	var problems []string
	err := guard("bbolt check", func() error {
		db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, Timeout: lockTimeout(opts)})
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				if len(problems) < maxProblems {
					problems = append(problems, "bbolt: "+oneLine(err.Error()))
				}
			}
			return nil
		})
	})
	if err != nil {
		problems = append(problems, oneLine(err.Error()))
	}
	return problems
}

// lockTimeout is Options.LockTimeout with its default; bbolt waits
// forever on 0, so a negative value becomes a short wait.
func lockTimeout(opts Options) time.Duration {
	switch {
	case opts.LockTimeout == 0:
		return defaultLockTimeout
	case opts.LockTimeout < 0:
		return time.Millisecond
	}
	return opts.LockTimeout
}
