package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// The layout statements change the catalog file: the new text is made by
// catalog's edits (which load it before returning it), written to a
// temporary file beside the catalog and renamed over it, and then becomes
// the engine's catalog. Physical tables are created before the catalog
// names them, and dropped only after a confirmation.

// ErrNoCatalogFile is the cause of a layout statement in a session that
// has no catalog file to write.
var ErrNoCatalogFile = errors.New("engine: no catalog file")

// dropper is a store that can drop a physical table.
type dropper interface {
	DropTable(ctx context.Context, name string) error
}

// CatalogSource returns the catalog's YAML text.
func (e *Engine) CatalogSource() []byte { return e.cfg.CatalogSource }

// saveCatalog writes src to the catalog file and makes it the engine's
// catalog.
func (e *Engine) saveCatalog(src []byte) error {
	c, err := catalog.Parse(src)
	if err != nil {
		return fmt.Errorf("the catalog would not load: %w", err)
	}
	path := e.cfg.CatalogFile
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing the catalog: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".catalog-*.yaml")
	if err != nil {
		return fmt.Errorf("writing the catalog: %w", err)
	}
	_, werr := tmp.Write(src)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing the catalog %s: %w", path, werr)
	}
	e.setCatalog(c, src)
	return nil
}

// reloadCatalog reads the catalog file again when another process has
// changed it since, so that an edit starts from the file as it is.
func (e *Engine) reloadCatalog() error {
	if e.cfg.CatalogFile == "" {
		return nil
	}
	src, err := os.ReadFile(e.cfg.CatalogFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("reading the catalog: %w", err)
	case string(src) == string(e.cfg.CatalogSource):
		return nil
	}
	c, err := catalog.Parse(src)
	if err != nil {
		return fmt.Errorf("the catalog file %s changed and no longer loads: %w", e.cfg.CatalogFile, err)
	}
	e.setCatalog(c, src)
	return nil
}

// setCatalog makes c, read from src, the engine's catalog.
func (e *Engine) setCatalog(c *catalog.Catalog, src []byte) {
	e.cfg.Catalog, e.cfg.CatalogSource = c, src
	e.pl = newPlanner(c, e.cfg)
}

// catalogFile refuses a layout statement when there is no file to write.
func (e *Engine) catalogFile(what string) error {
	if e.cfg.CatalogFile == "" {
		return fmt.Errorf("%s changes the catalog, and this session has no catalog file: start rkql with --catalog FILE: %w", what, ErrNoCatalogFile)
	}
	return nil
}

func (e *Engine) defineTable(ctx context.Context, p *planner.DefineTable) (*Result, error) {
	if err := e.catalogFile("CREATE TABLE"); err != nil {
		return nil, err
	}
	if err := e.Writable("CREATE TABLE"); err != nil {
		return nil, err
	}
	src, err := catalog.AddTable(e.cfg.CatalogSource, p.Spec)
	if err != nil {
		return nil, parser.Errorf(p.Pos, "CREATE TABLE %s: %w", p.Spec.Name, err)
	}
	res, err := e.createPhysical(ctx, src, p.Spec.Name)
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return res, nil
}

// createPhysical creates the physical table of table name of the catalog
// src; one that exists already is kept, with a note.
func (e *Engine) createPhysical(ctx context.Context, src []byte, name string) (*Result, error) {
	c, err := catalog.Parse(src)
	if err != nil {
		return nil, err
	}
	t, _ := c.Table(name)
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	res := &Result{Tag: "CREATE TABLE"}
	if t.IndexOf != nil {
		res.Tag = "CREATE INDEX"
	}
	err = x.Store.CreateTable(ctx, exec.Spec(t))
	switch {
	case errors.Is(err, exec.ErrTableExists):
		res.Warnings = func() []string {
			return []string{fmt.Sprintf("HBase table %s exists already: the catalog now describes it, and its rows stay", t.Physical)}
		}
	case err != nil:
		return nil, err
	}
	e.ensured[t.Physical] = true
	return res, nil
}

func (e *Engine) createIndex(ctx context.Context, p *planner.CreateIndex) (*Result, error) {
	if err := e.catalogFile("CREATE INDEX"); err != nil {
		return nil, err
	}
	if err := e.Writable("CREATE INDEX"); err != nil {
		return nil, err
	}
	notes, err := e.newIndexState(ctx, p.Table, p.Spec)
	if err != nil {
		return nil, err
	}
	src, err := catalog.AddIndex(e.cfg.CatalogSource, p.Table.Name, p.Spec)
	if err != nil {
		return nil, parser.Errorf(p.Pos, "CREATE INDEX %s: %w", p.Spec.Name, err)
	}
	res, err := e.createPhysical(ctx, src, p.Spec.Name)
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	res.Warnings = nil
	if len(notes) > 0 {
		res.Warnings = func() []string { return notes }
	}
	return res, nil
}

// dropPhysical drops physical tables after asking; what names them for the
// question, stmt for the error when the drop is not confirmed, which
// leaves everything as it was. It returns a note on what it did.
func (e *Engine) dropPhysical(ctx context.Context, stmt, what string, tables []*catalog.Table) (string, error) {
	if e.cfg.ReadOnly {
		return fmt.Sprintf("the HBase tables of %s are kept: dropping them needs --allow-writes, and then DROP TABLE drops each by its HBase name", what), nil
	}
	x, err := e.executor(ctx)
	if err != nil {
		return "", err
	}
	d, ok := x.Store.(dropper)
	if !ok {
		return fmt.Sprintf("the HBase tables of %s are kept: this store cannot drop tables", what), nil
	}
	existing, err := x.Store.Tables(ctx)
	if err != nil {
		return "", err
	}
	have := map[string]bool{}
	for _, n := range existing {
		have[n] = true
	}
	var names []string
	for _, t := range tables {
		if have[t.Physical] {
			names = append(names, t.Physical)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	yes, err := e.ask(ctx, fmt.Sprintf("drop HBase table %s of %s, with every row", strings.Join(names, ", "), what))
	if err != nil {
		return "", err
	}
	if !yes {
		return "", fmt.Errorf("%s not confirmed: nothing was dropped (in a script, --yes confirms)", stmt)
	}
	for _, n := range names {
		if err := d.DropTable(ctx, n); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
			return "", fmt.Errorf("dropping HBase table %s: %w", n, err)
		}
		delete(e.ensured, n)
	}
	return fmt.Sprintf("dropped HBase table %s", strings.Join(names, ", ")), nil
}

// ask asks the session's question. An engine given no Confirm has nobody
// to ask, and goes on: a program using it decides for itself.
func (e *Engine) ask(ctx context.Context, question string) (bool, error) {
	switch {
	case e.confirm != nil:
		return e.confirm(ctx, question)
	case e.cfg.Confirm != nil:
		return e.cfg.Confirm(ctx, question)
	}
	return true, nil
}

func (e *Engine) dropTable(ctx context.Context, p *planner.DropTable) (*Result, error) {
	if err := e.catalogFile("DROP TABLE"); err != nil {
		return nil, err
	}
	t := p.Table
	if t == nil {
		return e.dropStored(ctx, p)
	}
	src, err := catalog.DropTable(e.cfg.CatalogSource, t.Name)
	if err != nil {
		return nil, err
	}
	tables := []*catalog.Table{t}
	for _, ix := range t.Indexes {
		tables = append(tables, ix.Table)
	}
	// The HBase tables go first: a drop cut short leaves the catalog
	// naming tables that are gone, which DROP TABLE again removes, and
	// never a stored table that no statement can reach.
	note, err := e.dropPhysical(ctx, p.Stmt, t.Name, tables)
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return tagWithNote("DROP TABLE", note), nil
}

func tagWithNote(tag, note string) *Result {
	res := &Result{Tag: tag}
	if note != "" {
		res.Warnings = func() []string { return []string{note} }
	}
	return res
}

func (e *Engine) dropIndex(ctx context.Context, p *planner.DropIndex) (*Result, error) {
	if err := e.catalogFile("DROP INDEX"); err != nil {
		return nil, err
	}
	src, err := catalog.DropIndex(e.cfg.CatalogSource, p.Table.Name, p.Index.Name)
	if err != nil {
		return nil, err
	}
	note, err := e.dropPhysical(ctx, p.Stmt, p.Index.Name, []*catalog.Table{p.Index.Table})
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return tagWithNote("DROP INDEX", note), nil
}

// truncate empties a table and its index tables: each is dropped and made
// again with the region boundaries it had.
func (e *Engine) truncate(ctx context.Context, p *planner.Truncate) (*Result, error) {
	if err := e.Writable("TRUNCATE TABLE"); err != nil {
		return nil, err
	}
	t := p.Table
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	d, ok := x.Store.(dropper)
	if !ok {
		return nil, errors.New("this store cannot truncate tables")
	}
	yes, err := e.ask(ctx, fmt.Sprintf("remove every row of %s and of its indexes", t.Name))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, fmt.Errorf("TRUNCATE TABLE %s not confirmed: nothing was removed (in a script, --yes confirms)", t.Name)
	}
	tables := []*catalog.Table{t}
	for _, ix := range t.Indexes {
		tables = append(tables, ix.Table)
	}
	for _, tt := range tables {
		if err := truncateOne(ctx, x, d, tt); err != nil {
			return nil, err
		}
		e.ensured[tt.Physical] = true
	}
	return &Result{Tag: "TRUNCATE TABLE"}, nil
}

func truncateOne(ctx context.Context, x *exec.Executor, d dropper, t *catalog.Table) error {
	spec := exec.Spec(t)
	regions, err := x.Store.Regions(ctx, t.Physical)
	switch {
	case errors.Is(err, exec.ErrTableNotFound):
		return x.Store.CreateTable(ctx, spec)
	case err != nil:
		return err
	}
	spec.Splits = nil
	for _, r := range regions {
		if len(r.StartKey) > 0 {
			spec.Splits = append(spec.Splits, r.StartKey)
		}
	}
	if err := d.DropTable(ctx, t.Physical); err != nil {
		return fmt.Errorf("truncating %s: %w", t.Name, err)
	}
	if err := x.Store.CreateTable(ctx, spec); err != nil {
		return fmt.Errorf("truncating %s: the table was dropped but not made again: %w", t.Name, err)
	}
	return nil
}

// familyAlterer is a store that can change a family's settings.
type familyAlterer interface {
	AlterFamily(ctx context.Context, table string, f exec.FamilySpec) error
}

// alterPhysicalFamily gives the physical table the family settings of
// the catalog src, where the store can and writes are allowed; otherwise
// it returns a note saying the HBase table keeps its settings.
func (e *Engine) alterPhysicalFamily(ctx context.Context, src []byte, table, family string) (string, error) {
	c, err := catalog.Parse(src)
	if err != nil {
		return "", err
	}
	t, _ := c.Table(table)
	keeps := fmt.Sprintf("the catalog changed; HBase table %s keeps its family settings until altered there (hbase shell: alter '%s', {NAME => '%s', …})", t.Physical, t.Physical, family)
	if e.cfg.ReadOnly {
		return keeps, nil
	}
	x, err := e.executor(ctx)
	if err != nil {
		return "", err
	}
	a, ok := x.Store.(familyAlterer)
	if !ok {
		return keeps, nil
	}
	for _, fs := range exec.Spec(t).Families {
		if fs.Name == family {
			err := a.AlterFamily(ctx, t.Physical, fs)
			if errors.Is(err, exec.ErrTableNotFound) {
				return "", nil
			}
			return "", err
		}
	}
	return "", nil
}

func (e *Engine) alterTable(ctx context.Context, p *planner.AlterTable) (*Result, error) {
	if err := e.catalogFile("ALTER TABLE"); err != nil {
		return nil, err
	}
	t := p.Table
	var (
		src  []byte
		err  error
		note string
	)
	if p.AddColumn != nil {
		src, err = catalog.AddColumn(e.cfg.CatalogSource, t.Name, p.AddColumn)
	} else {
		family := p.SetFamily.Name.Name
		src, err = catalog.SetFamily(e.cfg.CatalogSource, t.Name, family, p.ApplyFamily)
		if err == nil {
			note, err = e.alterPhysicalFamily(ctx, src, t.Name, family)
		}
	}
	if err != nil {
		return nil, parser.Errorf(p.Pos, "ALTER TABLE %s: %w", t.Name, err)
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return tagWithNote("ALTER TABLE", note), nil
}

func (e *Engine) showCatalog(p *planner.ShowCatalog) (*Result, error) {
	src := e.cfg.CatalogSource
	if p.Table == nil {
		return &Result{Text: string(src)}, nil
	}
	text, err := catalog.TableSource(src, p.Table.Name)
	if err != nil {
		return nil, err
	}
	return &Result{Text: text}, nil
}
