package embedded

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rkql/rkql/exec"
)

// tableScan is what a scan of the file found of one table.
type tableScan struct {
	name string
	// t is the table's metadata; nil when its meta entry is missing or
	// cannot be read.
	t *table
	// meta is the table's meta entry as stored.
	meta []byte
	// rows is the number of rows read whole; bad the number found but not
	// decodable.
	rows, bad int64
	// loss is what could not be read at all.
	loss   treeLoss
	hasBkt bool
	// salvaged is the number of rows saved from intact pages the tree
	// no longer reaches (counted in rows as well); conflicts the number
	// of rows found on such pages in versions that disagree, not saved.
	salvaged, conflicts int64
	// guessed is set when the metadata came from Options.RepairTables,
	// not from the store: the table is saved only if rows are.
	guessed bool
}

// storeScan is the result of reading a whole store file page by page.
type storeScan struct {
	problems []string
	format   []byte // the "#format" entry, nil if missing
	tables   []*tableScan
	// unattributed counts the rows on intact pages the tree no longer
	// reaches whose table cannot be told.
	unattributed int64
	// salvaged is set when salvage ran, and freelistLost when it could
	// not read the freelist, so that old copies of pages may have been
	// taken for live ones.
	salvaged, freelistLost bool
}

// scanOptions say how deep scanStore looks.
type scanOptions struct {
	// decode checks that each row decodes under its table's families.
	decode bool
	// row, when set, is called with each good row; k and v are valid
	// during the call only.
	row func(ts *tableScan, k, v []byte)
	// salvage, when set, is called with each row of an intact leaf page
	// that a damaged tree no longer reaches (see salvage); it reports
	// whether it saved the row, which it does not when the row's key
	// was saved already.
	salvage func(ts *tableScan, k, v []byte) bool
	// tables is the copy of the tables' metadata kept beside the file,
	// which salvage prefers to meta pages it finds; nil when there is
	// none.
	tables map[string][]byte
	// guesses are the tables salvage gives rows to when no metadata of
	// theirs is found at all (Options.RepairTables).
	guesses []exec.TableSpec
}

// scanStore reads every bucket of the file, checks its pages, and
// counts each table's rows.
func scanStore(pf *pageFile, opts scanOptions) *storeScan {
	w := newWalk(pf)
	res := &storeScan{}
	byName := map[string]*tableScan{}
	table := func(name string) *tableScan {
		ts := byName[name]
		if ts == nil {
			ts = &tableScan{name: name}
			byName[name] = ts
			res.tables = append(res.tables, ts)
		}
		return ts
	}
	refs, lost := w.buckets()
	var metaRef *bucketRef
	for i := range refs {
		if refs[i].name == metaBucket {
			metaRef = &refs[i]
		}
	}
	switch {
	case metaRef == nil && len(refs) == 0:
		// A new store: Open creates the meta bucket.
	case metaRef == nil:
		w.problem("the meta bucket %s is missing", metaBucket)
	default:
		loss := w.tree(*metaRef, func(e *element) {
			readMetaEntry(w, res, e, table)
		})
		if loss.pages > 0 {
			w.problem("%s: %d pages of table metadata cannot be read", metaBucket, loss.pages)
		}
	}
	for _, ref := range refs {
		if ref.name == metaBucket {
			continue
		}
		ts := table(ref.name)
		ts.hasBkt = true
		ts.loss = w.tree(ref, func(e *element) { scanRow(w, ts, e, opts) })
		lost.pages += ts.loss.pages
	}
	if opts.salvage != nil && (lost.pages > 0 || metaRef == nil && len(refs) > 0) {
		roots := map[uint64]string{}
		for _, ref := range refs {
			if ref.root != 0 {
				addRoot(roots, ref.root, ref.name)
			}
		}
		salvage(w, res, table, roots, opts)
	}
	for _, ts := range res.tables {
		switch {
		case ts.guessed && ts.salvaged == 0:
			// A guess that holds no row is no table of the store.
		case !ts.hasBkt:
			w.problem("table %s: its bucket is missing", ts.name)
		case ts.t == nil:
			w.problem("table %s: %d rows have no readable metadata", ts.name, ts.rows)
		}
	}
	w.finish()
	res.problems = w.report()
	return res
}

// readMetaEntry reads one entry of the meta bucket.
func readMetaEntry(w *walk, res *storeScan, e *element, table func(string) *tableScan) {
	if e.flags&leafBucket != 0 {
		w.problem("%s: entry %q is a bucket", metaBucket, e.key)
		return
	}
	if string(e.key) == formatKey {
		res.format = bytes.Clone(e.value)
		if string(e.value) != formatVersion {
			w.problem("%s: format version %q, want %q", metaBucket, e.value, formatVersion)
		}
		return
	}
	ts := table(string(e.key))
	var m tableMeta
	if err := json.Unmarshal(e.value, &m); err != nil || m.Spec.Name != ts.name {
		if err == nil {
			err = fmt.Errorf("it names table %q", m.Spec.Name)
		}
		w.problem("table %s: metadata cannot be read: %v", ts.name, err)
		return
	}
	ts.meta = bytes.Clone(e.value)
	ts.t = newTable(m, ts.meta)
}

// scanRow checks and counts one row of a table.
func scanRow(w *walk, ts *tableScan, e *element, opts scanOptions) {
	if e.flags&leafBucket != 0 {
		w.problem("table %s: row %q is marked as a bucket", ts.name, e.key)
		ts.bad++
		return
	}
	if opts.decode && ts.t != nil {
		if _, ok := decodeRow(ts.t, e.value, nil); !ok {
			w.problem("table %s: row %q cannot be decoded", ts.name, e.key)
			ts.bad++
			return
		}
	}
	ts.rows++
	if opts.row != nil && ts.t != nil {
		opts.row(ts, e.key, e.value)
	}
}
