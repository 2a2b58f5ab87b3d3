package planner

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The layout statements (CREATE TABLE … ROWKEY, CREATE INDEX, DROP TABLE,
// DROP INDEX, TRUNCATE TABLE, ALTER TABLE, SHOW CATALOG) plan to the
// catalog edits they make: the tables and indexes they name, found in
// the catalog, and the new entries in the loader's YAML shape
// (ddlspec.go). What needs more than the catalog — the catalog file's
// text, the store, a confirmation — is the engine's.

// Layout reports whether st is a layout statement. Its plan must be made
// from the catalog file as it is when the statement runs: the engine
// takes the catalog's lock and reads the file again before it plans one.
func Layout(st parser.Stmt) bool {
	switch s := st.(type) {
	case *parser.CreateTableStmt:
		return s.Def != nil || s.Phoenix != ""
	case *parser.CreateIndexStmt, *parser.DropTableStmt, *parser.DropIndexStmt, *parser.TruncateStmt,
		*parser.AlterTableStmt, *parser.ShowCatalogStmt, *parser.InferStmt:
		return true
	}
	return false
}

// A LayoutPlan is the plan of a layout statement.
type LayoutPlan interface {
	Plan
	layout()
}

// DefineTable is CREATE TABLE … ROWKEY: a new table of the catalog, and
// its physical table.
type DefineTable struct {
	Spec *catalog.TableSpec
	// Pos is where the table's name is, for the errors of the catalog's
	// checks.
	Pos parser.Pos
}

// CreateIndex is CREATE INDEX: a new index of the data table Table.
type CreateIndex struct {
	Table *catalog.Table
	Spec  *catalog.IndexSpec
	// Pos is where the index's name is.
	Pos parser.Pos
}

// DropTable is DROP TABLE: of a data table of the catalog, with its
// indexes, or, when Table is nil, of the HBase table Name, which no table
// or index of the catalog describes.
type DropTable struct {
	Table *catalog.Table
	Name  string
	// Pos is where the name is; Stmt is the statement's text, for the
	// error of a drop not confirmed.
	Pos  parser.Pos
	Stmt string
}

// DropIndex is DROP INDEX: index Index of the data table Table.
type DropIndex struct {
	Table *catalog.Table
	Index *catalog.Index
	Stmt  string
}

// Truncate is TRUNCATE TABLE: it empties a data table and its indexes.
type Truncate struct{ Table *catalog.Table }

// AlterTable is ALTER TABLE of the data table Table: a column to add, or
// a family whose settings change. Exactly one of AddColumn and SetFamily
// is set.
type AlterTable struct {
	Table     *catalog.Table
	AddColumn *catalog.ColumnSpec
	SetFamily *parser.FamilyDef
	Pos       parser.Pos
}

// ShowCatalog shows the catalog's YAML text: the entry of the data table
// Table (with its indexes), or the whole file when Table is nil.
type ShowCatalog struct{ Table *catalog.Table }

// Infer is INFER TABLE: sample the physical table Table and propose its
// catalog entry, which SAVE adds to the catalog. It is a layout
// statement because SAVE edits the catalog file.
type Infer struct {
	Table    string
	TablePos parser.Pos
	// Sample is how many rows to read at most; 0 means the default.
	Sample int
	// As names the entry; "" derives a name from Table.
	As   string
	Save bool
}

// ImportPhoenix is CREATE TABLE … FROM PHOENIX: a new table of the
// catalog, read from Phoenix's SYSTEM.CATALOG in the store.
type ImportPhoenix struct {
	// Name is the catalog's name for the table; "" derives it from the
	// Phoenix table's. NamePos is where it is written.
	Name    string
	NamePos parser.Pos
	// Phoenix is the Phoenix table, SCHEMA.TABLE or TABLE; PhoenixPos
	// where it is written.
	Phoenix    string
	PhoenixPos parser.Pos
}

func (*ImportPhoenix) plan()   {}
func (*ImportPhoenix) layout() {}
func (*DefineTable) plan()     {}
func (*CreateIndex) plan()     {}
func (*DropTable) plan()       {}
func (*DropIndex) plan()       {}
func (*Truncate) plan()        {}
func (*AlterTable) plan()      {}
func (*ShowCatalog) plan()     {}
func (*Infer) plan()           {}
func (*DefineTable) layout()   {}
func (*CreateIndex) layout()   {}
func (*DropTable) layout()     {}
func (*DropIndex) layout()     {}
func (*Truncate) layout()      {}
func (*AlterTable) layout()    {}
func (*ShowCatalog) layout()   {}
func (*Infer) layout()         {}

// layoutPlan plans a layout statement; ok is false for any other
// statement.
func (pl *Planner) layoutPlan(stmt parser.Stmt) (p Plan, ok bool, err error) {
	switch s := stmt.(type) {
	case *parser.CreateTableStmt:
		if s.Phoenix != "" {
			p, err := pl.importPhoenix(s)
			return p, true, err
		}
		if s.Def == nil {
			return nil, false, nil
		}
		p, err := pl.defineTable(s)
		return p, true, err
	case *parser.CreateIndexStmt:
		p, err := pl.createIndex(s)
		return p, true, err
	case *parser.DropTableStmt:
		p, err := pl.dropTable(s)
		return p, true, err
	case *parser.DropIndexStmt:
		t, ix, err := pl.indexOwner(s.Index)
		return &DropIndex{Table: t, Index: ix, Stmt: s.String()}, true, err
	case *parser.TruncateStmt:
		t, err := pl.dataTable(s.Table, "%s is an index of %s: TRUNCATE TABLE %s empties both")
		return &Truncate{Table: t}, true, err
	case *parser.AlterTableStmt:
		p, err := pl.alterTable(s)
		return p, true, err
	case *parser.ShowCatalogStmt:
		if s.Table == nil {
			return &ShowCatalog{}, true, nil
		}
		t, err := pl.table(*s.Table)
		if t != nil && t.IndexOf != nil {
			t = t.IndexOf
		}
		return &ShowCatalog{Table: t}, true, err
	case *parser.InferStmt:
		p := &Infer{Table: s.Table, TablePos: s.TablePos, Sample: int(s.Sample), Save: s.Save}
		if s.As != nil {
			p.As = s.As.Name
		}
		return p, true, nil
	}
	return nil, false, nil
}

// dataTable finds the data table id; an index table is the error
// indexOf, given the index's name, its table's name and that again.
func (pl *Planner) dataTable(id parser.Ident, indexOf string) (*catalog.Table, error) {
	t, err := pl.table(id)
	if err != nil {
		return nil, err
	}
	if t.IndexOf != nil {
		return nil, errAt(id.NamePos, indexOf, t.Name, t.IndexOf.Name, t.IndexOf.Name)
	}
	return t, nil
}

func (pl *Planner) defineTable(s *parser.CreateTableStmt) (*DefineTable, error) {
	if _, ok := pl.cat.Table(s.Table.Name); ok {
		return nil, errAt(s.Table.NamePos, "table %s is already in the catalog", s.Table.Name)
	}
	spec, err := tableSpec(s)
	if err != nil {
		return nil, err
	}
	return &DefineTable{Spec: spec, Pos: s.Table.NamePos}, nil
}

func (pl *Planner) importPhoenix(s *parser.CreateTableStmt) (*ImportPhoenix, error) {
	if s.Table.Name != "" {
		if _, ok := pl.cat.Table(s.Table.Name); ok {
			return nil, errAt(s.Table.NamePos, "table %s is already in the catalog", s.Table.Name)
		}
	}
	return &ImportPhoenix{Name: s.Table.Name, NamePos: s.Table.NamePos, Phoenix: s.Phoenix, PhoenixPos: s.PhoenixPos}, nil
}

func (pl *Planner) createIndex(s *parser.CreateIndexStmt) (*CreateIndex, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	if t.IndexOf != nil {
		return nil, errAt(s.Table.NamePos, "%s is an index of %s: an index is made on a data table", t.Name, t.IndexOf.Name)
	}
	if _, ok := pl.cat.Table(s.Index.Name); ok {
		return nil, errAt(s.Index.NamePos, "%s is already a table or index of the catalog", s.Index.Name)
	}
	spec, err := indexSpec(s, t)
	if err != nil {
		return nil, err
	}
	return &CreateIndex{Table: t, Spec: spec, Pos: s.Index.NamePos}, nil
}

// dropTable plans DROP TABLE. A name the catalog does not hold may be an
// HBase table that no table of the catalog describes, which only the
// store can tell; the HBase table of a catalog table or index is dropped
// by that table's DROP TABLE or DROP INDEX.
func (pl *Planner) dropTable(s *parser.DropTableStmt) (*DropTable, error) {
	d := &DropTable{Name: s.Table.Name, Pos: s.Table.NamePos, Stmt: s.String()}
	t, ok := pl.cat.Table(s.Table.Name)
	if ok {
		if t.IndexOf != nil {
			return nil, errAt(s.Table.NamePos, "%s is an index of %s: DROP INDEX %s", t.Name, t.IndexOf.Name, t.Name)
		}
		d.Table = t
		return d, nil
	}
	name := s.Table.Name
	for _, t := range pl.cat.Tables {
		if t.Physical == name {
			return nil, errAt(s.Table.NamePos, "HBase table %s is the table of %s: DROP TABLE %s drops it", name, t.Name, t.Name)
		}
		for _, ix := range t.Indexes {
			if ix.Table.Physical == name {
				return nil, errAt(s.Table.NamePos, "HBase table %s is the table of index %s of %s: DROP INDEX %s drops it", name, ix.Name, t.Name, ix.Name)
			}
		}
	}
	return d, nil
}

func (pl *Planner) alterTable(s *parser.AlterTableStmt) (*AlterTable, error) {
	t, ok := pl.cat.Table(s.Table.Name)
	if !ok || t.IndexOf != nil {
		return nil, pl.noTable(s.Table)
	}
	a := &AlterTable{Table: t, SetFamily: s.SetFamily, Pos: s.Table.NamePos}
	if c := s.AddColumn; c != nil {
		col := catalog.ColumnSpec{Name: c.Name.Name, Type: c.Type, Column: c.Column}
		if c.Text {
			col.Encoding = "text"
		}
		if col.Column == "" {
			if len(t.Families) != 1 {
				return nil, errAt(c.Name.NamePos, "table %s has %d families: say which with AS 'family:%s'", t.Name, len(t.Families), c.Name.Name)
			}
			col.Column = t.Families[0].Name + ":" + c.Name.Name
		}
		a.AddColumn = &col
	}
	return a, nil
}

// ApplyFamily sets in fs the settings SET FAMILY gives.
func (a *AlterTable) ApplyFamily(fs *catalog.FamilySpec) {
	f := a.SetFamily
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
