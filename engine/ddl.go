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

// isDDL reports whether st changes or shows the catalog.
func isDDL(st parser.Stmt) bool {
	switch s := st.(type) {
	case *parser.CreateTableStmt:
		return s.Def != nil
	case *parser.CreateIndexStmt, *parser.DropTableStmt, *parser.DropIndexStmt, *parser.TruncateStmt,
		*parser.AlterTableStmt, *parser.ShowCatalogStmt, *parser.InferStmt:
		return true
	}
	return false
}

func (e *Engine) runDDL(ctx context.Context, st parser.Stmt) (*Result, error) {
	release, err := e.lockFor(ctx, st)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := e.reloadCatalog(); err != nil {
		return nil, err
	}
	switch s := st.(type) {
	case *parser.CreateTableStmt:
		return e.createTableDef(ctx, s)
	case *parser.CreateIndexStmt:
		return e.createIndex(ctx, s)
	case *parser.DropTableStmt:
		return e.dropTable(ctx, s)
	case *parser.DropIndexStmt:
		return e.dropIndex(ctx, s)
	case *parser.TruncateStmt:
		return e.truncate(ctx, s)
	case *parser.AlterTableStmt:
		return e.alterTable(ctx, s)
	case *parser.ShowCatalogStmt:
		return e.showCatalog(s)
	case *parser.InferStmt:
		return e.inferTable(ctx, s)
	}
	return nil, fmt.Errorf("%s is not a layout statement", Statement(st))
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

func (e *Engine) createTableDef(ctx context.Context, s *parser.CreateTableStmt) (*Result, error) {
	if err := e.catalogFile("CREATE TABLE"); err != nil {
		return nil, err
	}
	if err := e.Writable("CREATE TABLE"); err != nil {
		return nil, err
	}
	if _, ok := e.cfg.Catalog.Table(s.Table.Name); ok {
		return nil, parser.Errorf(s.Table.NamePos, "table %s is already in the catalog", s.Table.Name)
	}
	spec, err := tableSpec(s)
	if err != nil {
		return nil, err
	}
	src, err := catalog.AddTable(e.cfg.CatalogSource, spec)
	if err != nil {
		return nil, parser.Errorf(s.Table.NamePos, "CREATE TABLE %s: %w", s.Table.Name, err)
	}
	res, err := e.createPhysical(ctx, src, s.Table.Name)
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

func (e *Engine) createIndex(ctx context.Context, s *parser.CreateIndexStmt) (*Result, error) {
	if err := e.catalogFile("CREATE INDEX"); err != nil {
		return nil, err
	}
	if err := e.Writable("CREATE INDEX"); err != nil {
		return nil, err
	}
	t, ok := e.cfg.Catalog.Table(s.Table.Name)
	if !ok {
		return nil, parser.Errorf(s.Table.NamePos, "table %q does not exist (tables: %s)", s.Table.Name, strings.Join(e.cfg.Catalog.Names(), ", "))
	}
	if t.IndexOf != nil {
		return nil, parser.Errorf(s.Table.NamePos, "%s is an index of %s: an index is made on a data table", t.Name, t.IndexOf.Name)
	}
	if _, ok := e.cfg.Catalog.Table(s.Index.Name); ok {
		return nil, parser.Errorf(s.Index.NamePos, "%s is already a table or index of the catalog", s.Index.Name)
	}
	spec, err := indexSpec(s, t)
	if err != nil {
		return nil, err
	}
	notes, err := e.newIndexState(ctx, t, spec)
	if err != nil {
		return nil, err
	}
	src, err := catalog.AddIndex(e.cfg.CatalogSource, t.Name, spec)
	if err != nil {
		return nil, parser.Errorf(s.Index.NamePos, "CREATE INDEX %s: %w", s.Index.Name, err)
	}
	res, err := e.createPhysical(ctx, src, s.Index.Name)
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

func (e *Engine) dropTable(ctx context.Context, s *parser.DropTableStmt) (*Result, error) {
	if err := e.catalogFile("DROP TABLE"); err != nil {
		return nil, err
	}
	t, ok := e.cfg.Catalog.Table(s.Table.Name)
	if !ok {
		return e.dropStored(ctx, s)
	}
	if t.IndexOf != nil {
		return nil, parser.Errorf(s.Table.NamePos, "%s is an index of %s: DROP INDEX %s", t.Name, t.IndexOf.Name, t.Name)
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
	note, err := e.dropPhysical(ctx, s.String(), t.Name, tables)
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

func (e *Engine) dropIndex(ctx context.Context, s *parser.DropIndexStmt) (*Result, error) {
	if err := e.catalogFile("DROP INDEX"); err != nil {
		return nil, err
	}
	t, ix := e.findIndex(s.Index.Name)
	if ix == nil {
		return nil, parser.Errorf(s.Index.NamePos, "no table has an index %q", s.Index.Name)
	}
	src, err := catalog.DropIndex(e.cfg.CatalogSource, t.Name, ix.Name)
	if err != nil {
		return nil, err
	}
	note, err := e.dropPhysical(ctx, s.String(), ix.Name, []*catalog.Table{ix.Table})
	if err != nil {
		return nil, err
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return tagWithNote("DROP INDEX", note), nil
}

func (e *Engine) findIndex(name string) (*catalog.Table, *catalog.Index) {
	for _, t := range e.cfg.Catalog.Tables {
		for _, ix := range t.Indexes {
			if ix.Name == name {
				return t, ix
			}
		}
	}
	return nil, nil
}

// truncate empties a table and its index tables: each is dropped and made
// again with the region boundaries it had.
func (e *Engine) truncate(ctx context.Context, s *parser.TruncateStmt) (*Result, error) {
	if err := e.Writable("TRUNCATE TABLE"); err != nil {
		return nil, err
	}
	t, ok := e.cfg.Catalog.Table(s.Table.Name)
	if !ok {
		return nil, parser.Errorf(s.Table.NamePos, "table %q does not exist (tables: %s)", s.Table.Name, strings.Join(e.cfg.Catalog.Names(), ", "))
	}
	if t.IndexOf != nil {
		return nil, parser.Errorf(s.Table.NamePos, "%s is an index of %s: TRUNCATE TABLE %s empties both", t.Name, t.IndexOf.Name, t.IndexOf.Name)
	}
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

func (e *Engine) alterTable(ctx context.Context, s *parser.AlterTableStmt) (*Result, error) {
	if err := e.catalogFile("ALTER TABLE"); err != nil {
		return nil, err
	}
	t, ok := e.cfg.Catalog.Table(s.Table.Name)
	if !ok || t.IndexOf != nil {
		return nil, parser.Errorf(s.Table.NamePos, "table %q does not exist (tables: %s)", s.Table.Name, strings.Join(e.cfg.Catalog.Names(), ", "))
	}
	var (
		src  []byte
		err  error
		note string
	)
	if c := s.AddColumn; c != nil {
		col := catalog.ColumnSpec{Name: c.Name.Name, Type: c.Type, Column: c.Column}
		if c.Text {
			col.Encoding = "text"
		}
		if col.Column == "" {
			if len(t.Families) != 1 {
				return nil, parser.Errorf(c.Name.NamePos, "table %s has %d families: say which with AS 'family:%s'", t.Name, len(t.Families), c.Name.Name)
			}
			col.Column = t.Families[0].Name + ":" + c.Name.Name
		}
		src, err = catalog.AddColumn(e.cfg.CatalogSource, t.Name, &col)
	} else {
		f := s.SetFamily
		src, err = catalog.SetFamily(e.cfg.CatalogSource, t.Name, f.Name.Name, func(fs *catalog.FamilySpec) {
			applyFamily(fs, f)
		})
		if err == nil {
			note, err = e.alterPhysicalFamily(ctx, src, t.Name, f.Name.Name)
		}
	}
	if err != nil {
		return nil, parser.Errorf(s.Table.NamePos, "ALTER TABLE %s: %w", t.Name, err)
	}
	if err := e.saveCatalog(src); err != nil {
		return nil, err
	}
	return tagWithNote("ALTER TABLE", note), nil
}

// applyFamily sets the settings a SET FAMILY gives.
func applyFamily(fs *catalog.FamilySpec, f *parser.FamilyDef) {
	if f.Versions > 0 {
		fs.Versions = f.Versions
	}
	if f.TTL >= 0 {
		fs.TTL = f.TTL
	}
	if f.Compression != "" {
		fs.Compression = f.Compression
	}
	if f.BloomFilter != "" {
		fs.BloomFilter = f.BloomFilter
	}
	if f.BlockSize > 0 {
		fs.BlockSize = f.BlockSize
	}
	if f.BlockCache != nil {
		fs.BlockCache = f.BlockCache
	}
	if f.InMemory {
		fs.InMemory = true
	}
}

func (e *Engine) showCatalog(s *parser.ShowCatalogStmt) (*Result, error) {
	src := e.cfg.CatalogSource
	if s.Table == nil {
		return &Result{Text: string(src)}, nil
	}
	t, ok := e.cfg.Catalog.Table(s.Table.Name)
	if !ok {
		return nil, parser.Errorf(s.Table.NamePos, "table %q does not exist (tables: %s)", s.Table.Name, strings.Join(e.cfg.Catalog.Names(), ", "))
	}
	if t.IndexOf != nil {
		t = t.IndexOf
	}
	text, err := catalog.TableSource(src, t.Name)
	if err != nil {
		return nil, err
	}
	return &Result{Text: text}, nil
}
