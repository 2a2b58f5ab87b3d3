package exectest

import (
	"context"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// ScanAll reads every row of t by one plain scan of the whole physical
// table, decoded by the reference's own decoder (ref.Decoder) with the
// catalog's codec alone: each row holds t's columns and then _ts, the
// newest timestamp among the row's cells. A stored row of a table with a
// key group or wide rows gives its logical rows. A row whose key or
// cells do not decode is an error, not skipped, except a wide cell that
// does not fit: it is left out as the engine skips it.
func ScanAll(ctx context.Context, st exec.Store, t *catalog.Table) ([]catalog.Row, error) {
	it, err := st.Scan(ctx, t.Physical, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	d := ref.NewDecoder(t)
	var out []catalog.Row
	var cells []ref.Cell
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		cells = cells[:0]
		for _, c := range sr.Cells {
			cells = append(cells, ref.Cell(c))
		}
		rs, err := d.Rows(sr.Key, cells)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
}
