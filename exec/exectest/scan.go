package exectest

import (
	"context"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

// ScanAll reads every row of t by one plain scan of the whole physical
// table, decoded with the catalog's codec alone: each row holds t's
// columns and then _ts, the newest timestamp among the row's cells. A
// stored row of a table with a key group or wide rows gives its logical
// rows, read by the reference's own decoder (refexpand.go). A row whose
// key or cells do not decode is an error, not skipped, except a wide
// cell that does not fit: it is left out as the engine skips it.
func ScanAll(ctx context.Context, st exec.Store, t *catalog.Table) ([]catalog.Row, error) {
	it, err := st.Scan(ctx, t.Physical, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	cols := storedColumns(t)
	var out []catalog.Row
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		rs, err := logicalRows(t, cols, sr)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
}

// storedColumns maps family and qualifier to the column they hold.
func storedColumns(t *catalog.Table) map[[2]string]int {
	cols := map[[2]string]int{}
	for i, c := range t.Columns {
		if c.Family != "" {
			cols[[2]string{c.Family, c.Qualifier}] = i
		}
	}
	return cols
}

// logicalRows reads the logical rows of one stored row: one, or those of
// its group's repetitions and wide cells.
func logicalRows(t *catalog.Table, cols map[[2]string]int, sr *exec.StoreRow) ([]catalog.Row, error) {
	r, err := decodeRow(t, cols, sr)
	if err != nil {
		return nil, err
	}
	if !expands(t) {
		return []catalog.Row{r}, nil
	}
	return expandRow(t, sr, r)
}

// decodeRow builds one logical row. Cells come newest first within a
// column, so the first cell of a column is its value.
func decodeRow(t *catalog.Table, cols map[[2]string]int, sr *exec.StoreRow) (catalog.Row, error) {
	n := len(t.Columns)
	r := make(catalog.Row, n+1)
	for i, c := range t.Columns {
		r[i] = catalog.Null(c.Type)
	}
	if err := t.DecodeKey(sr.Key, r, nil); err != nil {
		return nil, fmt.Errorf("key '%s' of %s: %w", catalog.ToStringBinary(sr.Key), t.Name, err)
	}
	seen := make([]bool, n)
	newest := int64(-1)
	for _, c := range sr.Cells {
		newest = max(newest, c.Timestamp)
		i, ok := cols[[2]string{c.Family, c.Qualifier}]
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		v, err := t.Columns[i].DecodeCell(c.Value)
		if err != nil {
			return nil, fmt.Errorf("row '%s' of %s: %w", catalog.ToStringBinary(sr.Key), t.Name, err)
		}
		r[i] = v
	}
	if err := refMaps(t, sr, r); err != nil {
		return nil, err
	}
	r[n] = catalog.Null(catalog.TypeTimestamp)
	if newest >= 0 {
		r[n] = catalog.TimestampMillis(newest)
	}
	return r, nil
}
