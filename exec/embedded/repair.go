package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

// RepairReport is the result of Repair.
type RepairReport struct {
	// Path is the store file, now the repaired one.
	Path string
	// Kept is where the damaged file was moved.
	Kept string
	// Problems lists the damage found, one line each.
	Problems []string
	// Tables says, per table, how many rows were saved (Rows) and what
	// could not be read.
	Tables []TableReport
	// Unattributed is the number of rows on intact pages that a damaged
	// tree no longer reaches, not saved because their table cannot be
	// told (see Repair).
	Unattributed int64
	// FreelistLost says that the rows saved from such pages were read
	// without the freelist, which tells old copies of pages from live
	// ones: they may include rows deleted or changed before the damage,
	// as they were before.
	FreelistLost bool
}

// Repair copies everything readable of the store in directory dir into a
// new file: the table metadata and every row that decodes, key by key,
// read page by page without trusting the file. It then keeps the damaged
// file next to it as rkql.db.damaged-<time> and moves the new one in
// place. Rows of a table whose metadata is lost cannot be saved; a table
// whose metadata survives but whose rows do not comes back empty.
//
// Where the tree is damaged, as in a file cut short whose root page is
// gone, Repair also reads every intact leaf page the tree no longer
// reaches, page by page, and saves the rows it can place in their table
// (salvage.go says how, and what it cannot tell): TableReport.Salvaged
// counts them, and Conflicting and Unattributed what it found but could
// not save.
func Repair(dir string, opts Options) (*RepairReport, error) {
	path := filepath.Join(dir, FileName)
	f, err := openLocked(path, true, opts)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	now := time.Now()
	if opts.Clock != nil {
		now = opts.Clock()
	}
	rep := &RepairReport{Path: path, Kept: path + ".damaged-" + stamp(now)}
	tmp := path + ".repair-" + stamp(now)
	_ = os.Remove(tmp)
	w, err := newRepairWriter(tmp, opts)
	if err != nil {
		return nil, err
	}
	err = guard("repair", func() error { return w.copy(f, rep, readTablesFile(dir)) })
	if cerr := w.db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("embedded: repair %s: %w", path, err)
	}
	if err := os.Rename(path, rep.Kept); err != nil {
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("embedded: repair %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("embedded: repair %s: the damaged file is now %s, and the repaired one %s: %w", path, rep.Kept, tmp, err)
	}
	// The copy of the tables goes with the damaged file; the next Open
	// writes one of the repaired store's.
	_ = os.Rename(filepath.Join(dir, TablesFileName), rep.Kept+".tables")
	syncDir(dir)
	return rep, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// repairWriter writes the saved rows into the new store file, in
// transactions of rowsPerTx rows.
type repairWriter struct {
	db        *bolt.DB
	tx        *bolt.Tx
	n         int
	rowsPerTx int
	created   map[string]bool
	saved     map[string]int64
	guesses   []exec.TableSpec
	err       error
}

func newRepairWriter(path string, opts Options) (*repairWriter, error) {
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: time.Second, NoSync: opts.NoSync, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("embedded: repair: %w", err)
	}
	w := &repairWriter{db: db, rowsPerTx: opts.RowsPerTx, created: map[string]bool{}, saved: map[string]int64{}, guesses: opts.RepairTables}
	if w.rowsPerTx <= 0 {
		w.rowsPerTx = defaultRowsPerTx
	}
	return w, nil
}

// copy reads the damaged file f and writes what it can read.
func (w *repairWriter) copy(f *os.File, rep *RepairReport, tables map[string][]byte) error {
	pf, err := openPageFile(f)
	if err != nil {
		var d *damage
		if !errors.As(err, &d) {
			return err
		}
		rep.Problems = append(rep.Problems, err.Error())
	}
	if err := w.begin(); err != nil {
		return err
	}
	meta, err := w.tx.CreateBucket([]byte(metaBucket))
	if err != nil {
		return err
	}
	if err := meta.Put([]byte(formatKey), []byte(formatVersion)); err != nil {
		return err
	}
	if pf != nil {
		res := scanStore(pf, scanOptions{decode: true, row: w.put, salvage: w.salvage, tables: tables, guesses: w.guesses})
		if w.err != nil {
			return w.err
		}
		if res.format != nil && string(res.format) != formatVersion {
			return fmt.Errorf("store format %q is not %q: repair it with the rkql that wrote it", res.format, formatVersion)
		}
		rep.Problems = append(rep.Problems, res.problems...)
		for _, ts := range res.tables {
			// A table whose metadata survived comes back, even empty;
			// a guessed one only with rows.
			if ts.t != nil && !ts.guessed {
				if err := w.ensure(ts); err != nil {
					return err
				}
			}
		}
		rep.Tables, rep.Unattributed = tableReports(res, w.saved), res.unattributed
		rep.FreelistLost = res.salvaged && res.freelistLost
		for i := range rep.Tables {
			rep.Tables[i].Rows = w.saved[rep.Tables[i].Name]
		}
	}
	return w.tx.Commit()
}

func (w *repairWriter) begin() error {
	tx, err := w.db.Begin(true)
	w.tx, w.n = tx, 0
	return err
}

// ensure creates a table's bucket and meta entry in the new file.
func (w *repairWriter) ensure(ts *tableScan) error {
	if w.created[ts.name] {
		return nil
	}
	if err := w.tx.Bucket([]byte(metaBucket)).Put([]byte(ts.name), ts.meta); err != nil {
		return err
	}
	if _, err := w.tx.CreateBucket([]byte(ts.name)); err != nil {
		return err
	}
	w.created[ts.name] = true
	return nil
}

// put saves one row; the first error stops the rest.
func (w *repairWriter) put(ts *tableScan, k, v []byte) {
	if w.err != nil {
		return
	}
	w.err = w.putErr(ts, k, v)
}

func (w *repairWriter) putErr(ts *tableScan, k, v []byte) error {
	if w.n >= w.rowsPerTx {
		if err := w.tx.Commit(); err != nil {
			return err
		}
		if err := w.begin(); err != nil {
			return err
		}
	}
	if err := w.ensure(ts); err != nil {
		return err
	}
	// bbolt keeps the slices it is given until commit; k and v alias a
	// page buffer the walk reuses, so they are copied.
	if err := w.tx.Bucket([]byte(ts.name)).Put(append([]byte(nil), k...), append([]byte(nil), v...)); err != nil {
		return err
	}
	w.n++
	w.saved[ts.name]++
	return nil
}

// salvage saves a row found on a page the damaged tree no longer reaches,
// unless a row with its key was saved already, and reports whether it did.
func (w *repairWriter) salvage(ts *tableScan, k, v []byte) bool {
	if w.err != nil {
		return false
	}
	if w.created[ts.name] && w.tx.Bucket([]byte(ts.name)).Get(k) != nil {
		return false
	}
	w.err = w.putErr(ts, k, v)
	return w.err == nil
}
