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

// importPhoenix is CREATE TABLE … FROM PHOENIX: it reads the Phoenix
// table's rows of SYSTEM.CATALOG through the store and adds the entry
// they describe to the catalog. It writes nothing to the store, so a
// read-only session may import too.
func (e *Engine) importPhoenix(ctx context.Context, p *planner.ImportPhoenix) (*Result, error) {
	if err := e.catalogFile("CREATE TABLE … FROM PHOENIX"); err != nil {
		return nil, err
	}
	e.reading = true
	st, err := e.Store(ctx)
	e.reading = false
	if err != nil {
		return nil, err
	}
	sysCat, err := phoenixCatalogTable(ctx, st)
	if err != nil {
		return nil, err
	}
	read := func(schema, table string) ([]catalog.PhoenixCatalogRow, error) {
		return readPhoenixCatalog(ctx, st, sysCat, schema, table)
	}
	importAs := func(schema, table string) (*catalog.PhoenixImport, error) {
		rows, err := read(schema, table)
		if err != nil {
			return nil, err
		}
		return catalog.ImportPhoenix(p.Name, schema, table, rows, func(ix string) ([]catalog.PhoenixCatalogRow, error) {
			return read(schema, ix)
		})
	}
	schema, table := catalog.SplitPhoenixName(p.Phoenix)
	imp, err := importAs(schema, table)
	if errors.Is(err, catalog.ErrNoPhoenixTable) && strings.ToUpper(p.Phoenix) != p.Phoenix {
		// Phoenix names are upper case unless quoted in its DDL.
		imp, err = importAs(strings.ToUpper(schema), strings.ToUpper(table))
	}
	if err != nil {
		return nil, parser.Errorf(p.PhoenixPos, "%v", err)
	}
	spec := &imp.Spec
	if p.Name == "" {
		if _, dup := e.cfg.Catalog.Table(spec.Name); dup {
			return nil, parser.Errorf(p.PhoenixPos, "the catalog already has a table %s: name the new one, CREATE TABLE name FROM PHOENIX '%s'", spec.Name, p.Phoenix)
		}
	}
	for _, t := range e.cfg.Catalog.Tables {
		if t.Physical == spec.HBase {
			return nil, parser.Errorf(p.PhoenixPos, "the catalog already describes HBase table %s as %s: one table per HBase table", spec.HBase, t.Name)
		}
	}
	if _, err := st.Regions(ctx, spec.HBase); errors.Is(err, exec.ErrTableNotFound) {
		return nil, parser.Errorf(p.PhoenixPos, "SYSTEM.CATALOG describes %s, but the store has no HBase table %s", spec.Phoenix.Table, spec.HBase)
	} else if err != nil {
		return nil, err
	}
	src, err := catalog.AddTable(e.cfg.CatalogSource, spec)
	if err != nil {
		return nil, parser.Errorf(p.PhoenixPos, "CREATE TABLE %s FROM PHOENIX: %w", spec.Name, err)
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(catalog.RenderTable(spec))
	for _, n := range imp.Notes {
		b.WriteString("# " + n + "\n")
	}
	fmt.Fprintf(&b, "# saved to %s as table %s\n", e.cfg.CatalogFile, spec.Name)
	return &Result{Text: b.String()}, nil
}

// phoenixCatalogTable finds SYSTEM.CATALOG's HBase table in the store.
func phoenixCatalogTable(ctx context.Context, st exec.Store) (string, error) {
	for _, name := range []string{catalog.PhoenixCatalogTable, catalog.PhoenixCatalogTableMapped} {
		_, err := st.Regions(ctx, name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, exec.ErrTableNotFound) {
			return "", err
		}
	}
	return "", fmt.Errorf("the store has no HBase table %s (or %s), where Phoenix keeps its tables' schemas: is Phoenix installed on this HBase?", catalog.PhoenixCatalogTable, catalog.PhoenixCatalogTableMapped)
}

// readPhoenixCatalog reads the rows of SYSTEM.CATALOG that describe
// schema.table, with their cells of family 0.
func readPhoenixCatalog(ctx context.Context, st exec.Store, sysCat, schema, table string) ([]catalog.PhoenixCatalogRow, error) {
	start, stop := catalog.PhoenixCatalogRange(schema, table)
	it, err := st.Scan(ctx, sysCat, exec.Range{Start: start, Stop: stop}, exec.ReadOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var rows []catalog.PhoenixCatalogRow
	for {
		r, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		row := catalog.PhoenixCatalogRow{Key: append([]byte(nil), r.Key...), Cells: map[string][]byte{}}
		for _, c := range r.Cells {
			if c.Family == "0" {
				if _, seen := row.Cells[c.Qualifier]; !seen {
					row.Cells[c.Qualifier] = append([]byte(nil), c.Value...)
				}
			}
		}
		rows = append(rows, row)
	}
}
