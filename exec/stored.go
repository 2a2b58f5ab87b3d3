package exec

import "context"

// StoredTables is an optional Store contract: the tables the store holds
// and what it keeps of each, whether or not a catalog describes them. It
// is how rkql meets a cluster it did not fill.
type StoredTables interface {
	// AllTables lists every table the store holds, of every namespace,
	// the store's own included (hbase:meta), sorted.
	AllTables(ctx context.Context) ([]string, error)
	// DescribeStored returns what the store keeps of table: its families
	// and their settings. A table the store does not hold is
	// ErrTableNotFound.
	DescribeStored(ctx context.Context, table string) (*StoredTable, error)
}

// StoredTable is a physical table as its store describes it.
type StoredTable struct {
	// Name is "namespace:table", or the table alone in the default
	// namespace.
	Name string
	// Settings are the table's own settings (HBase's table attributes,
	// coprocessors among them), in the store's order.
	Settings []Setting
	Families []StoredFamily
	// Source says where the settings come from, for the reader: "from
	// the table descriptor", "as the table was created".
	Source string
}

// StoredFamily is one column family of a StoredTable: every setting
// HBase's describe shows, those the store left at their default included.
type StoredFamily struct {
	Name     string
	Settings []Setting
}

// Setting is one named setting and its value as text, as HBase names and
// shows them (VERSIONS '3', TTL '86400', COMPRESSION 'GZ').
type Setting struct {
	Name, Value string
	// Default: the store holds no value, and this is HBase's default.
	Default bool
}
