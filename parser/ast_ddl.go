package parser

// The statements that define layouts (CREATE TABLE … ROWKEY, CREATE INDEX,
// DROP, TRUNCATE, ALTER, SHOW CATALOG) and the writes UPDATE. Their parts
// mirror the catalog's YAML form: a KeyComponent is one rowkey entry, a
// ColumnDef one column, a FamilyDef one family.

// TableDef is the definition after CREATE TABLE name: columns, rowkey,
// families, splits and the HBase table's name.
type TableDef struct {
	Columns  []ColumnDef
	Rowkey   []KeyComponent
	Families []FamilyDef
	// Splits are explicit split keys (*StringLit or *BytesLit); SplitBy
	// names an algorithm or BUCKETS instead. At most one of them is set.
	Splits []Expr
	// SplitBy is HexStringSplit, UniformSplit, DecimalStringSplit (with
	// SplitRegions) or BUCKETS (one region per value of the first
	// component); "" for none.
	SplitBy      string
	SplitRegions int
	// HBase is the physical table, "ns:name" or "name"; "" means the
	// table's own name.
	HBase string
}

// ColumnDef is name TYPE [AS 'family:qualifier'] [TEXT].
type ColumnDef struct {
	Name Ident
	// Type is the type name as written, upper case.
	Type string
	// Column is the family:qualifier; "" leaves it to the table's one
	// family (for a column that is not a key field).
	Column string
	// Text stores the value as text instead of Java's binary form.
	Text bool
}

// KeyKind is the kind of a rowkey component.
type KeyKind int

// Rowkey component kinds, as in the catalog.
const (
	KeyField   KeyKind = iota // a column's value
	KeyLiteral                // fixed bytes
	KeyHash                   // MD5(…), JAVAHASH(…), MURMUR3(…)
	KeyBucket                 // BUCKET(col) MOD n
	KeySalt                   // SALT n
	KeyRandom                 // RANDOM n
)

// KeyComponent is one component of a ROWKEY list. Which fields are set
// depends on Kind; the converter refuses options that do not fit.
type KeyComponent struct {
	CompPos Pos
	Kind    KeyKind
	// Name is the field of a KeyField component.
	Name Ident
	// Func is MD5, JAVAHASH or MURMUR3 for a hash; Args its inputs, or
	// the one column of a BUCKET.
	Func string
	Args []Ident
	// Literal is the bytes of a KeyLiteral: *StringLit (\xNN escapes
	// allowed) or *BytesLit.
	Literal Expr
	// N is the count of SALT n and RANDOM n, and MOD n of a hash or bucket.
	N int64
	// Encoding is TEXT, DECIMAL, SORTABLE or JAVA for a field (BINARY, the
	// old name of SORTABLE, is read as SORTABLE); "" for its type's
	// default.
	Encoding string
	// Width is the fixed width: DECIMAL n, WIDTH n or PAD … n; 0 for none.
	Width int
	// PadSide is "RIGHT" (pad after the value) or "LEFT"; "" when no PAD is
	// given. PadWith is the pad character; "" means a space.
	PadSide string
	PadWith string
	Desc    bool
	Reverse bool
	// Binary writes a hash, bucket or random value as raw bytes.
	Binary bool
}

// FamilyDef is a family and its settings: name [VERSIONS n] [TTL t]
// [COMPRESSION c] [BLOOMFILTER b] [BLOCKSIZE n] [BLOCKCACHE TRUE|FALSE]
// [IN_MEMORY]. An unset number is 0 and an unset text "".
type FamilyDef struct {
	Name     Ident
	Versions int
	// TTL is in seconds; -1 when not given (0 is forever).
	TTL         int64
	Compression string
	BloomFilter string
	BlockSize   int
	// BlockCache is nil when not given.
	BlockCache *bool
	InMemory   bool
}

// CreateTableStmt is CREATE TABLE t [definition], or CREATE TABLE [t]
// FROM PHOENIX 'SCHEMA.TABLE'. Without a definition it creates the
// physical table of a catalog table; with one it adds the table to the
// catalog; FROM PHOENIX adds the table that Phoenix's SYSTEM.CATALOG
// describes, named t or, with no t (Table.Name ""), after the Phoenix
// table.
type CreateTableStmt struct {
	Create Pos
	Table  Ident
	Def    *TableDef // nil for CREATE TABLE t
	// Phoenix is the Phoenix table of FROM PHOENIX; PhoenixPos is where
	// its name is written.
	Phoenix    string
	PhoenixPos Pos
}

// CreateIndexStmt is CREATE INDEX name ON t ROWKEY (…) [COVERING (…)]
// [UNIQUE] [HBASE 'table']. UNIQUE says the index key may leave out key fields of t, so
// that two rows may not share an entry.
type CreateIndexStmt struct {
	Create   Pos
	Index    Ident
	Table    Ident
	Rowkey   []KeyComponent
	Covering []Ident
	Unique   bool
	// HBase is the physical index table; "" means the index's name.
	HBase string
}

// DropTableStmt is DROP TABLE t.
type DropTableStmt struct {
	Drop  Pos
	Table Ident
}

// DropIndexStmt is DROP INDEX name.
type DropIndexStmt struct {
	Drop  Pos
	Index Ident
}

// TruncateStmt is TRUNCATE TABLE t.
type TruncateStmt struct {
	Truncate Pos
	Table    Ident
}

// AlterTableStmt is ALTER TABLE t ADD COLUMN def, or ALTER TABLE t SET
// FAMILY def. Exactly one of AddColumn and SetFamily is set.
type AlterTableStmt struct {
	Alter     Pos
	Table     Ident
	AddColumn *ColumnDef
	SetFamily *FamilyDef
}

// ShowCatalogStmt is SHOW CATALOG [t].
type ShowCatalogStmt struct {
	Show  Pos
	Table *Ident // nil for the whole catalog
}

// UpdateStmt is UPDATE t SET col = value, … WHERE expr [ALLOW FULL SCAN]
// [ALLOW INDEX WRITE].
type UpdateStmt struct {
	Update        Pos
	Table         Ident
	Set           []Assignment
	Where         Expr
	AllowFullScan bool
	// AllowIndexWrite lets the statement write an index table directly.
	AllowIndexWrite bool
}

var (
	_ Stmt = (*CreateIndexStmt)(nil)
	_ Stmt = (*DropTableStmt)(nil)
	_ Stmt = (*DropIndexStmt)(nil)
	_ Stmt = (*TruncateStmt)(nil)
	_ Stmt = (*AlterTableStmt)(nil)
	_ Stmt = (*ShowCatalogStmt)(nil)
	_ Stmt = (*UpdateStmt)(nil)
)

func (s *CreateIndexStmt) Pos() Pos { return s.Create }
func (s *DropTableStmt) Pos() Pos   { return s.Drop }
func (s *DropIndexStmt) Pos() Pos   { return s.Drop }
func (s *TruncateStmt) Pos() Pos    { return s.Truncate }
func (s *AlterTableStmt) Pos() Pos  { return s.Alter }
func (s *ShowCatalogStmt) Pos() Pos { return s.Show }
func (s *UpdateStmt) Pos() Pos      { return s.Update }

func (*CreateIndexStmt) node() {}
func (*DropTableStmt) node()   {}
func (*DropIndexStmt) node()   {}
func (*TruncateStmt) node()    {}
func (*AlterTableStmt) node()  {}
func (*ShowCatalogStmt) node() {}
func (*UpdateStmt) node()      {}

func (*CreateIndexStmt) stmt() {}
func (*DropTableStmt) stmt()   {}
func (*DropIndexStmt) stmt()   {}
func (*TruncateStmt) stmt()    {}
func (*AlterTableStmt) stmt()  {}
func (*ShowCatalogStmt) stmt() {}
func (*UpdateStmt) stmt()      {}
