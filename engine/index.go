package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// An index is built when its entries are exactly those its data table's
// rows give. CREATE INDEX over a table with no rows, into an HBase table
// that is new or empty, makes a built index, which writes keep in step
// from then on. Otherwise the catalog records it as unbuilt (state:
// unbuilt): writes still keep its entries in step, but the planner reads
// no unbuilt index, until BUILD INDEX has deleted every entry it held and
// written those of every row.

// newIndexState decides whether the index spec, about to be made on t,
// starts built, and marks spec unbuilt when it does not. It returns the
// notes that say what it found.
func (e *Engine) newIndexState(ctx context.Context, t *catalog.Table, spec *catalog.IndexSpec) ([]string, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	physical := spec.HBase
	if physical == "" {
		physical = spec.Name
	}
	_, dataRows, err := tableHasRows(ctx, x, t.Physical)
	if err != nil {
		return nil, err
	}
	ixExists, ixRows, err := tableHasRows(ctx, x, physical)
	if err != nil {
		return nil, err
	}
	build := fmt.Sprintf("BUILD INDEX %s ON %s", spec.Name, t.Name)
	var notes []string
	switch {
	case ixRows:
		notes = append(notes, fmt.Sprintf("HBase table %s exists already and holds rows, which an index cannot trust: index %s is not built, and no query reads it until %s replaces them with the entries of the rows of %s", physical, spec.Name, build, t.Name))
	case dataRows:
		notes = append(notes, fmt.Sprintf("index %s is not built: no query reads it until %s writes the entries of the rows %s holds", spec.Name, build, t.Name))
	case ixExists:
		notes = append(notes, fmt.Sprintf("HBase table %s exists already and is empty: index %s uses it", physical, spec.Name))
	}
	if ixRows || dataRows {
		spec.State = catalog.StateUnbuilt
	}
	return notes, nil
}

// tableHasRows reports whether a physical table exists, and whether it
// holds a row. It creates nothing.
func tableHasRows(ctx context.Context, x *exec.Executor, physical string) (exists, rows bool, err error) {
	it, err := x.Store.Scan(ctx, physical, exec.Range{}, exec.ReadOptions{Limit: 1})
	if errors.Is(err, exec.ErrTableNotFound) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	defer it.Close()
	_, err = it.Next(ctx)
	switch {
	case errors.Is(err, io.EOF):
		return true, false, nil
	case errors.Is(err, exec.ErrTableNotFound):
		return false, false, nil
	case err != nil:
		return false, false, err
	}
	return true, true, nil
}

// buildIndex runs BUILD INDEX. The index is marked unbuilt while it is
// built, so that no query reads it half-way, and built once every entry
// is written; a build that fails leaves it unbuilt.
func (e *Engine) buildIndex(ctx context.Context, b *planner.BuildIndex) (*Result, error) {
	// The catalog is marked before the store is opened for the build.
	if err := e.setIndexState(ctx, b.Table.Name, b.Index.Name, catalog.StateUnbuilt); err != nil {
		return nil, err
	}
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.ensure(ctx, x, b.Table); err != nil {
		return nil, err
	}
	n, _, err := x.BuildIndex(ctx, b.Table, b.Index, e.progress)
	if err != nil {
		return nil, fmt.Errorf("BUILD INDEX %s stopped after %d entries, and the index stays unbuilt: %w", b.Index.Name, n, err)
	}
	if err := e.setIndexState(ctx, b.Table.Name, b.Index.Name, ""); err != nil {
		return nil, err
	}
	return &Result{Tag: fmt.Sprintf("BUILD INDEX %d", n)}, nil
}

// setIndexState records the state of index of table in the catalog
// (catalog.StateUnbuilt, or "" for built): in the catalog file when the
// session has one, under the catalog lock, else in the engine's catalog
// alone.
func (e *Engine) setIndexState(ctx context.Context, table, index, state string) error {
	if len(e.cfg.CatalogSource) == 0 {
		// A catalog given as a value: its index is all there is to mark.
		if t, ok := e.cfg.Catalog.Table(table); ok {
			for _, ix := range t.Indexes {
				if ix.Name == index {
					ix.Unbuilt = state == catalog.StateUnbuilt
				}
			}
		}
		return nil
	}
	if e.cfg.CatalogFile != "" {
		release, err := e.lockCatalog(ctx)
		if err != nil {
			return err
		}
		defer release()
	}
	if err := e.reloadCatalog(); err != nil {
		return err
	}
	src, err := catalog.SetIndexState(e.cfg.CatalogSource, table, index, state)
	if err != nil {
		return fmt.Errorf("recording the state of index %s: %w", index, err)
	}
	if string(src) == string(e.cfg.CatalogSource) {
		return nil
	}
	if e.cfg.CatalogFile == "" {
		c, err := catalog.Parse(src)
		if err != nil {
			return err
		}
		e.setCatalog(c, src)
		return nil
	}
	return e.saveCatalog(src)
}

// checkIndex runs CHECK INDEX [REPAIR] and shows what it found as one row.
func (e *Engine) checkIndex(ctx context.Context, c *planner.CheckIndex) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.ensure(ctx, x, c.Table); err != nil {
		return nil, err
	}
	rep, err := x.CheckIndex(ctx, c.Table, c.Index, c.Repair, e.progress)
	if err != nil {
		return nil, err
	}
	names := []string{"data_rows", "entries", "no_entry", "missing", "orphans", "unverified", "stale", "repaired"}
	vals := []int64{rep.DataRows, rep.Entries, rep.NoEntry, rep.Missing, rep.Orphans, rep.Unverified, rep.Stale, rep.Repaired}
	cols := make([]Column, len(names))
	row := make(catalog.Row, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: catalog.TypeBigint}
		row[i] = catalog.Bigint(vals[i])
	}
	res := rowsResult(cols, []catalog.Row{row})
	if rep.NoEntry > 0 {
		res.Notes = []string{noEntryNote(c.Table, c.Index, rep.NoEntry)}
	}
	if !c.Repair && !rep.Clean() {
		// The report is shown, and then the statement fails, as rkql
		// store check does on damage.
		res.Rows = &failAfter{sliceRows: sliceRows{rows: []catalog.Row{row}},
			err: &IndexMismatchError{Index: c.Index.Name, Table: c.Table.Name, Report: rep, Unbuilt: c.Index.Unbuilt}}
	}
	return res, nil
}

// noEntryNote says why n data rows have no entry: an index leaves out a
// row whose index key fields are not all set.
func noEntryNote(t *catalog.Table, ix *catalog.Index, n int64) string {
	var fields []string
	for _, k := range ix.Table.KeyColumns() {
		name := ix.Table.Columns[k].Name
		if d, ok := t.Column(name); ok && !t.Columns[d].KeyField {
			fields = append(fields, name)
		}
	}
	return fmt.Sprintf("no_entry: %d %s of %s %s no entry, since %s %s is NULL (an index holds no entry for a row with a NULL index key field); %s not missing",
		n, plural(n, "row", "rows"), t.Name, plural(n, "has", "have"), plural(n, "its", "their"), strings.Join(fields, " or "), plural(n, "it is", "they are"))
}

// IndexMismatchError is CHECK INDEX finding an index that does not match
// its data table. It follows the report's row.
type IndexMismatchError struct {
	Index, Table string
	Report       exec.IndexReport
	// Unbuilt is an index the catalog records as not built.
	Unbuilt bool
}

func (e *IndexMismatchError) Error() string {
	r := e.Report
	var parts []string
	for _, p := range []struct {
		n    int64
		what string
	}{{r.Missing, "missing"}, {r.Orphans, "orphan"}, {r.Unverified, "unverified"}, {r.Stale, "stale"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	n := plural(r.Missing+r.Orphans+r.Unverified+r.Stale, "entry", "entries")
	if e.Unbuilt {
		return fmt.Sprintf("index %s is not built, and does not match table %s: %s %s (BUILD INDEX %s ON %s fills it)",
			e.Index, e.Table, strings.Join(parts, ", "), n, e.Index, e.Table)
	}
	return fmt.Sprintf("index %s does not match table %s: %s %s (CHECK INDEX %s REPAIR rewrites them)",
		e.Index, e.Table, strings.Join(parts, ", "), n, e.Index)
}

// failAfter serves rows held in memory, then fails with err.
type failAfter struct {
	sliceRows
	err error
}

func (f *failAfter) Next(ctx context.Context) (catalog.Row, error) {
	r, err := f.sliceRows.Next(ctx)
	if errors.Is(err, io.EOF) {
		return nil, f.err
	}
	return r, err
}
