package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// Catalog is a set of tables. It is immutable once loaded.
type Catalog struct {
	Tables []*Table
	// Warnings are what loading found deprecated but still read, each as
	// "line N: message" ("file:N: message" from LoadFile).
	Warnings []string
	byName   map[string]*Table
}

// Table returns the table with the given logical name, or an index table by
// its name.
func (c *Catalog) Table(name string) (*Table, bool) {
	t, ok := c.byName[name]
	return t, ok
}

// Names returns the logical table names, sorted.
func (c *Catalog) Names() []string {
	out := make([]string, 0, len(c.Tables))
	for _, t := range c.Tables {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// Table is a logical table: a physical HBase table, its families, its
// logical columns and its rowkey layout.
type Table struct {
	Name string
	// Physical is the HBase table name, with its namespace if any.
	Physical string
	Families []Family
	// Columns are in declaration order; a Row holds values in this order.
	Columns []Column
	Key     *Layout
	Splits  SplitPolicy
	// Indexes are the index tables that serve this table.
	Indexes []*Index
	// PhoenixIndexes are the Phoenix global indexes of a Phoenix table
	// that the catalog also describes (an entry whose phoenix: block says
	// index_of this table). Queries read them as they read Indexes;
	// Phoenix writes them, rkql does not (nor the table).
	PhoenixIndexes []*Index
	// IndexOf is the data table this table is an index of, and nil for a
	// data table. Only an index table's rows hold a status cell.
	IndexOf *Table
	// Doc is a free-text description shown by DESCRIBE.
	Doc string
	// Wide, when set, makes each cell of a family a row of its own.
	Wide *Wide
	// Phoenix, when set, says that Apache Phoenix owns the table: its name
	// there, its empty column and its storage scheme.
	Phoenix *PhoenixTable

	colByName map[string]int
}

// Family is a column family and its HBase properties.
type Family struct {
	Name        string
	Versions    int   // 0 means 1
	TTL         int64 // seconds; 0 means forever
	Compression string
	BloomFilter string
	BlockSize   int
	BlockCache  *bool
	InMemory    bool
}

// Encoding is how a cell value is written.
type Encoding int

// Cell value encodings.
const (
	// EncBinary writes values as Java's Bytes.toBytes does: the catalog's
	// encoding java (binary is its deprecated name).
	EncBinary Encoding = iota
	// EncText writes values as decimal or ISO text.
	EncText
	// EncPhoenix writes values as Apache Phoenix writes the column's
	// Phoenix type (Column.Phoenix).
	EncPhoenix
)

// Column is a logical column. A column is a key field when the rowkey layout
// names it, and a stored column when Family is set; it may be both.
type Column struct {
	Name string
	Type Type
	// Map is the key and value types of a MAP column (Type TypeMap),
	// declared as type: "MAP<K, V>".
	Map       MapType
	Family    string // "" for key-only columns
	Qualifier string
	Encoding  Encoding
	// KeyField is true when the rowkey layout holds this column.
	KeyField bool
	// Width is the byte width of a java integer cell (1 to 8); 0 is the
	// type's own (8 for BIGINT, 4 for INT). Unsigned reads it unsigned.
	Width    int
	Unsigned bool
	// Phoenix is the Phoenix type of an EncPhoenix column.
	Phoenix PType
	// FromCell is true for the columns a wide row's cell gives (its
	// offset, time and value, or its qualifier field and value).
	FromCell bool
	// MapFamily is the family a MAP column holds whole: each cell an
	// entry, its qualifier the key (read by MapKeys) and its value the
	// entry's value (read as MapCell says). Family is then "".
	MapFamily string
	MapKeys   *Qualifiers
	// Hidden is true for the columns of an OpenTSDB table's tag pairs
	// when its tags are read by name (TSDBNames): SELECT * leaves them
	// out and a statement cannot name them.
	Hidden bool
}

// Column returns the index of the named column.
func (t *Table) Column(name string) (int, bool) {
	i, ok := t.colByName[name]
	return i, ok
}

// ColumnNames lists the columns in declaration order.
func (t *Table) ColumnNames() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// Family returns the named family.
func (t *Table) Family(name string) (*Family, bool) {
	for i := range t.Families {
		if t.Families[i].Name == name {
			return &t.Families[i], true
		}
	}
	return nil, false
}

// Index is an index table over a data table.
type Index struct {
	Name     string
	Physical string
	// Table is the index's own shape: its columns are the data table's
	// columns it holds, its key is its layout.
	Table *Table
	// Carries are the data-table key fields the index holds so it can point
	// back to the data row.
	Carries []string
	// Covers are the data-table stored columns copied into the index.
	Covers []string
	// Unbuilt is an index whose entries do not yet match its data table
	// (catalog state: unbuilt): CREATE INDEX over a table that has rows
	// writes it so, and BUILD INDEX clears it once every entry is
	// written. Writes keep its entries in step, but no read uses it.
	Unbuilt bool
	// Phoenix is set for a Phoenix global index (Table.PhoenixIndexes):
	// its Table is the index's catalog entry with the data table's column
	// types, and its rows' status is Phoenix's empty column (\x01
	// verified).
	Phoenix bool
}

// ReadIndexes lists the indexes a query of t may read: its own, then its
// Phoenix global indexes.
func (t *Table) ReadIndexes() []*Index {
	if len(t.PhoenixIndexes) == 0 {
		return t.Indexes
	}
	return append(append([]*Index(nil), t.Indexes...), t.PhoenixIndexes...)
}

// StateUnbuilt is the catalog state of an index that is not yet built.
const StateUnbuilt = "unbuilt"

// Row is a logical row: one value per table column, in column order. A
// column that a row does not have is Null.
type Row []Value

// TsIndex is the index of the _ts pseudo-column in a logical row: the
// row's newest cell timestamp follows the table's columns.
func (t *Table) TsIndex() int { return len(t.Columns) }

// NewRow returns a row of Nulls for t.
func (t *Table) NewRow() Row {
	r := make(Row, len(t.Columns))
	for i, c := range t.Columns {
		r[i] = Null(c.Type)
	}
	return r
}

// Describe renders the table the way DESCRIBE shows it.
func (t *Table) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "TABLE %s (HBase %s)\n", t.Name, t.Physical)
	fmt.Fprintf(&b, "KEY   %s\n", t.Key)
	for _, f := range t.Families {
		fmt.Fprintf(&b, "FAMILY %s %s\n", f.Name, f.props())
	}
	return b.String()
}

func (f Family) props() string {
	var parts []string
	v := f.Versions
	if v == 0 {
		v = 1
	}
	parts = append(parts, fmt.Sprintf("VERSIONS => %d", v))
	if f.TTL > 0 {
		parts = append(parts, fmt.Sprintf("TTL => %d", f.TTL))
	}
	if f.Compression != "" {
		parts = append(parts, "COMPRESSION => '"+f.Compression+"'")
	}
	if f.BloomFilter != "" {
		parts = append(parts, "BLOOMFILTER => '"+f.BloomFilter+"'")
	}
	if f.BlockSize > 0 {
		parts = append(parts, fmt.Sprintf("BLOCKSIZE => %d", f.BlockSize))
	}
	if f.BlockCache != nil {
		parts = append(parts, fmt.Sprintf("BLOCKCACHE => %t", *f.BlockCache))
	}
	if f.InMemory {
		parts = append(parts, "IN_MEMORY => true")
	}
	return strings.Join(parts, ", ")
}

// Props renders the family's properties in HBase shell style.
func (f Family) Props() string { return f.props() }
