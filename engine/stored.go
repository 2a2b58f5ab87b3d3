package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Limits of what DESCRIBE shows of a table the catalog does not describe.
const (
	storedRegionsShown = 20
	// The first keys of the first region, then the first key of each
	// region after it, up to storedKeysShown in all.
	storedFirstKeys = 5
	storedKeysShown = 12
)

// samePhysical reports whether two HBase table names name one table:
// "default:t" is "t".
func samePhysical(a, b string) bool {
	return strings.TrimPrefix(a, "default:") == strings.TrimPrefix(b, "default:")
}

// describedAs names the catalog tables (and index tables) whose physical
// table is name.
func (e *Engine) describedAs(name string) []string {
	var out []string
	for _, t := range e.cfg.Catalog.Tables {
		if samePhysical(t.Physical, name) {
			out = append(out, t.Name)
		}
		for _, ix := range t.Indexes {
			if samePhysical(ix.Table.Physical, name) {
				out = append(out, ix.Table.Name+" (index of "+t.Name+")")
			}
		}
	}
	return out
}

// storedTables lists the tables st holds (every one, when st can list
// them all: HBase's own included), and of those the ones that no catalog
// table (or index table) is stored in, sorted.
func (e *Engine) storedTables(ctx context.Context, st exec.Store) (all, uncatalogued []string, err error) {
	sd, ok := st.(exec.StoredTables)
	if !ok {
		all, err = st.Tables(ctx)
		return all, nil, err
	}
	if all, err = sd.AllTables(ctx); err != nil {
		return nil, nil, err
	}
	for _, n := range all {
		if len(e.describedAs(n)) == 0 {
			uncatalogued = append(uncatalogued, n)
		}
	}
	return all, uncatalogued, nil
}

// describeStored shows what the store holds of a table the catalog does
// not describe by that name: its families and their settings, then as
// notes which catalog tables it stores, its regions and a few of its keys.
func (e *Engine) describeStored(ctx context.Context, p *planner.Describe) (*Result, error) {
	st, err := e.Store(ctx)
	if err != nil {
		return nil, err
	}
	sd, ok := st.(exec.StoredTables)
	if !ok {
		return nil, p.NotFound
	}
	desc, err := sd.DescribeStored(ctx, p.Stored)
	if errors.Is(err, exec.ErrTableNotFound) {
		return nil, notStoredEither(p)
	}
	if err != nil {
		return nil, err
	}
	var rows []catalog.Row
	for _, f := range desc.Families {
		rows = append(rows, catalog.Row{catalog.String(f.Name), catalog.String(settingsText(f.Settings))})
	}
	res := rowsResult(strCols("family", "settings"), rows)
	notes, err := e.storedNotes(ctx, st, desc)
	if err != nil {
		return nil, err
	}
	res.Notes, res.NoFooter = notes, true
	return res, nil
}

// notStoredEither is the error of DESCRIBE of a name neither the catalog
// nor the store knows.
func notStoredEither(p *planner.Describe) error {
	var pe *parser.Error
	if errors.As(p.NotFound, &pe) {
		c := *pe
		c.Msg += fmt.Sprintf("; nor does the store hold a table %s (SHOW TABLES lists what it holds)", p.Stored)
		return &c
	}
	return p.NotFound
}

// settingsText shows settings as HBase's describe does: NAME => 'value'.
func settingsText(ss []exec.Setting) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		v := "'" + s.Value + "'"
		if strings.HasPrefix(s.Value, "{") {
			v = s.Value
		}
		parts[i] = s.Name + " => " + v
	}
	return strings.Join(parts, ", ")
}

// storedNotes are the lines DESCRIBE of a stored table shows after its
// families.
func (e *Engine) storedNotes(ctx context.Context, st exec.Store, desc *exec.StoredTable) ([]string, error) {
	notes := []string{"HBase table " + desc.Name + ", not described by the catalog"}
	if as := e.describedAs(desc.Name); len(as) > 0 {
		notes[0] = "HBase table " + desc.Name + ", described by the catalog as " + strings.Join(as, ", ")
	}
	notes = append(notes, "Settings "+desc.Source+"; those left unset show HBase's defaults")
	if len(desc.Settings) > 0 {
		notes = append(notes, "Table settings: "+settingsText(desc.Settings))
	}
	regions, err := st.Regions(ctx, desc.Name)
	if err != nil {
		return nil, err
	}
	notes = append(notes, fmt.Sprintf("Regions: %d", len(regions)))
	for i, r := range regions {
		if i == storedRegionsShown {
			notes = append(notes, fmt.Sprintf("  … and %d more", len(regions)-i))
			break
		}
		line := fmt.Sprintf("  [%s, %s)", keyText(r.StartKey, "first"), keyText(r.EndKey, "last"))
		if r.Server != "" {
			line += " on " + r.Server
		}
		notes = append(notes, line)
	}
	keys, err := sampleKeys(ctx, st, desc.Name, regions)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		// A disabled table, say: its families and regions still show.
		return append(notes, "Sample keys: not read: "+err.Error()), nil
	}
	if len(keys) == 0 {
		return append(notes, "Sample keys: none, the table holds no rows"), nil
	}
	notes = append(notes, "Sample keys (Bytes.toStringBinary):")
	for _, k := range keys {
		notes = append(notes, "  "+catalog.ToStringBinary(k))
	}
	return notes, nil
}

// keyText is a region boundary in Bytes.toStringBinary form, or what an
// empty one means.
func keyText(k []byte, empty string) string {
	if len(k) == 0 {
		return empty
	}
	return "'" + catalog.ToStringBinary(k) + "'"
}

// sampleKeys reads a few keys of table: the first ones of its first
// region, then the first of each region after it.
func sampleKeys(ctx context.Context, st exec.Store, table string, regions []exec.Region) ([][]byte, error) {
	if len(regions) == 0 {
		regions = []exec.Region{{}}
	}
	// Keys alone need a layout; one with no columns reads nothing else.
	layout := &catalog.Table{Name: table, Physical: table}
	var keys [][]byte
	for i, r := range regions {
		want := 1
		if i == 0 {
			want = storedFirstKeys
		}
		want = min(want, storedKeysShown-len(keys))
		if want <= 0 {
			break
		}
		it, err := st.Scan(ctx, table, exec.Range{Start: r.StartKey, Stop: r.EndKey}, exec.ReadOptions{Limit: want, Table: layout, Columns: []int{}})
		if err != nil {
			return nil, err
		}
		for {
			row, err := it.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				it.Close()
				return nil, err
			}
			keys = append(keys, append([]byte(nil), row.Key...))
		}
		it.Close()
	}
	return keys, nil
}
