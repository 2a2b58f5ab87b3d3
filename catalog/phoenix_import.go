package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Phoenix keeps each table's schema in its table SYSTEM.CATALOG, which is
// a Phoenix table itself, with plain (not encoded) qualifiers in family
// 0. Its key is TENANT_ID, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME and
// COLUMN_FAMILY, each a VARCHAR ended by \x00 but the last, trailing NULLs
// left out with their separators. A table of no tenant has these rows:
//
//	\x00S\x00T                  the table's header: TABLE_TYPE, SALT_BUCKETS, …
//	\x00S\x00T\x00COL           a primary key column (no family)
//	\x00S\x00T\x00COL\x00FAM    a column of family FAM
//	\x00S\x00T\x00\x00FAM       family FAM's qualifier counter, or, with a
//	                            LINK_TYPE cell, a link: 1 names the index
//	                            table FAM of the same schema
//
// Its numbers are in Phoenix's own bytes: INTEGER 4 bytes and SMALLINT 2
// big-endian with the sign bit flipped, TINYINT 1 byte so, UNSIGNED_TINYINT
// and BOOLEAN one plain byte. ImportPhoenix reads those rows.

// The cells of SYSTEM.CATALOG that ImportPhoenix reads.
const (
	pcTableType       = "TABLE_TYPE"               // CHAR(1): u, s, v, i
	pcSaltBuckets     = "SALT_BUCKETS"             // INTEGER
	pcDefaultFamily   = "DEFAULT_COLUMN_FAMILY"    // VARCHAR
	pcStorage         = "IMMUTABLE_STORAGE_SCHEME" // TINYINT: 1 one cell per column, 2 single cell array
	pcEncoding        = "ENCODING_SCHEME"          // TINYINT: 0 plain names, 1–4 bytes of encoded numbers
	pcNamespaceMapped = "IS_NAMESPACE_MAPPED"      // BOOLEAN
	pcIndexType       = "INDEX_TYPE"               // UNSIGNED_TINYINT: 1 global, 2 local, 3 uncovered global
	pcDataTable       = "DATA_TABLE_NAME"          // VARCHAR: an index's data table, without its schema
	pcDataType        = "DATA_TYPE"                // INTEGER, java.sql.Types
	pcColumnSize      = "COLUMN_SIZE"              // INTEGER
	pcOrdinal         = "ORDINAL_POSITION"         // INTEGER
	pcSortOrder       = "SORT_ORDER"               // INTEGER: 2 ascending, 1 descending
	pcKeySeq          = "KEY_SEQ"                  // SMALLINT, from 1
	pcQualifier       = "COLUMN_QUALIFIER"         // VARBINARY
	pcLinkType        = "LINK_TYPE"                // UNSIGNED_TINYINT
)

// PhoenixCatalogTable is SYSTEM.CATALOG's HBase table, without Phoenix's
// namespace mapping; PhoenixCatalogTableMapped is it with the mapping.
const (
	PhoenixCatalogTable       = "SYSTEM.CATALOG"
	PhoenixCatalogTableMapped = "SYSTEM:CATALOG"
)

// PhoenixCatalogRow is a row of SYSTEM.CATALOG: its key and the newest
// cells of family 0, by qualifier.
type PhoenixCatalogRow struct {
	Key   []byte
	Cells map[string][]byte
}

// SplitPhoenixName splits a Phoenix table's name SCHEMA.TABLE (or TABLE)
// at its first dot.
func SplitPhoenixName(name string) (schema, table string) {
	if s, t, ok := strings.Cut(name, "."); ok {
		return s, t
	}
	return "", name
}

// PhoenixCatalogRange is the key range [start, stop) of SYSTEM.CATALOG
// that holds every row of table schema.table of no tenant.
func PhoenixCatalogRange(schema, table string) (start, stop []byte) {
	start = []byte("\x00" + schema + "\x00" + table)
	return start, append(bytes.Clone(start), 0x01)
}

// ErrNoPhoenixTable is the cause of ImportPhoenix's error for a table that
// SYSTEM.CATALOG does not describe.
var ErrNoPhoenixTable = errors.New("no such Phoenix table")

// PhoenixImport is a catalog entry read from SYSTEM.CATALOG.
type PhoenixImport struct {
	Spec TableSpec
	// Notes say what the entry leaves out or could not say.
	Notes []string
}

// phoenixSQLTypes maps java.sql.Types numbers (and Phoenix's own for the
// UNSIGNED_ types), as SYSTEM.CATALOG's DATA_TYPE holds them, to Phoenix
// types.
var phoenixSQLTypes = map[int64]PType{
	-6: PTinyint, 5: PSmallint, 4: PInteger, -5: PBigint,
	11: PUnsignedTinyint, 13: PUnsignedSmallint, 9: PUnsignedInt, 10: PUnsignedLong,
	6: PFloat, 8: PDouble, 14: PUnsignedFloat, 15: PUnsignedDouble,
	3: PDecimal, 16: PBoolean,
	91: PDate, 92: PTime, 93: PTimestamp, 19: PUnsignedDate, 18: PUnsignedTime, 20: PUnsignedTimestamp,
	12: PVarchar, 1: PChar, -2: PBinary, -3: PVarbinary,
}

// PhoenixSQLType is the Phoenix type of a DATA_TYPE number.
func PhoenixSQLType(n int64) (PType, bool) {
	p, ok := phoenixSQLTypes[n]
	return p, ok
}

// phoenixArrayBase is where Phoenix's ARRAY types' DATA_TYPE numbers
// start (PDataType.ARRAY_TYPE_BASE): an array of t is 3000 + t.
const phoenixArrayBase = 3000

// pcColumn is a column's row of SYSTEM.CATALOG.
type pcColumn struct {
	name, family string
	cells        map[string][]byte
}

func (c *pcColumn) int(q string) (int64, bool) { return pcInt(c.cells[q]) }

// pcInt reads a number cell of SYSTEM.CATALOG: a signed Phoenix integer of
// 1, 2, 4 or 8 bytes (sign bit flipped); ok is false for an empty or
// missing cell.
func pcInt(b []byte) (int64, bool) {
	switch len(b) {
	case 1, 2, 4, 8:
	default:
		return 0, false
	}
	var u uint64
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	u ^= 1 << (uint(len(b))*8 - 1)
	shift := 64 - uint(len(b))*8
	return int64(u<<shift) >> shift, true
}

// pcByte reads an UNSIGNED_TINYINT or BOOLEAN cell.
func pcByte(b []byte) (int64, bool) {
	if len(b) != 1 {
		return 0, false
	}
	return int64(b[0]), true
}

// phoenixRows sorts a table's rows of SYSTEM.CATALOG into its header, its
// columns and its links to index tables; ok is false when there is no
// header.
func phoenixRows(schema, table string, rows []PhoenixCatalogRow) (header map[string][]byte, cols []*pcColumn, indexes []string, ok bool) {
	prefix, _ := PhoenixCatalogRange(schema, table)
	for _, r := range rows {
		if !bytes.HasPrefix(r.Key, prefix) {
			continue
		}
		rest := r.Key[len(prefix):]
		if len(rest) == 0 {
			header, ok = r.Cells, true
			continue
		}
		if rest[0] != 0 {
			continue // another table whose name starts with this one's
		}
		name, family, _ := strings.Cut(string(rest[1:]), "\x00")
		switch {
		case name != "":
			cols = append(cols, &pcColumn{name: name, family: family, cells: r.Cells})
		case family != "":
			if lt, ok := pcByte(r.Cells[pcLinkType]); ok && lt == 1 {
				indexes = append(indexes, family)
			}
		}
	}
	return header, cols, indexes, ok
}

// ImportPhoenix makes the catalog entry name of the Phoenix table
// schema.table from its rows of SYSTEM.CATALOG (those of
// PhoenixCatalogRange; others are ignored). index returns the rows of an
// index table of the same schema, so that the table's indexes are
// named in its phoenix: block. An empty name derives one from the
// table's.
func ImportPhoenix(name, schema, table string, rows []PhoenixCatalogRow, index func(table string) ([]PhoenixCatalogRow, error)) (*PhoenixImport, error) {
	full := table
	if schema != "" {
		full = schema + "." + table
	}
	header, cols, links, ok := phoenixRows(schema, table, rows)
	if !ok {
		return nil, fmt.Errorf("SYSTEM.CATALOG has no Phoenix table %s: %w", full, ErrNoPhoenixTable)
	}
	imp := &PhoenixImport{}
	spec := &imp.Spec
	if name == "" {
		name = phoenixColumnName(table)
	}
	spec.Name = name
	tt := string(header[pcTableType])
	switch tt {
	case "u", "s", "i":
	case "v":
		return nil, fmt.Errorf("%s is a Phoenix view: import the table it is a view of", full)
	default:
		return nil, fmt.Errorf("%s has the Phoenix table type %q, which rkql does not read", full, tt)
	}
	if it, _ := pcByte(header[pcIndexType]); tt == "i" && it == 2 {
		return nil, fmt.Errorf("%s is a Phoenix local index, whose rows share its table's HBase table: rkql does not read it", full)
	}
	spec.HBase = full
	if m, _ := pcByte(header[pcNamespaceMapped]); m == 1 && schema != "" {
		spec.HBase = schema + ":" + table
	}
	encoded := false
	if e, ok := pcInt(header[pcEncoding]); ok && e != 0 {
		encoded = true
	}
	ph := &PhoenixSpec{Table: full}
	if s, ok := pcInt(header[pcStorage]); ok && s == 2 {
		ph.Storage = PhoenixSingleCellArray.String()
	}

	var keys, cells []*pcColumn
	for _, c := range cols {
		if _, isKey := c.int(pcKeySeq); isKey && c.family == "" {
			keys = append(keys, c)
		} else if c.family != "" {
			cells = append(cells, c)
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, _ := keys[i].int(pcKeySeq)
		b, _ := keys[j].int(pcKeySeq)
		return a < b
	})
	sort.SliceStable(cells, func(i, j int) bool {
		a, _ := cells[i].int(pcOrdinal)
		b, _ := cells[j].int(pcOrdinal)
		return a < b
	})
	if len(keys) == 0 {
		return nil, fmt.Errorf("SYSTEM.CATALOG gives %s no primary key columns", full)
	}
	if n, ok := pcInt(header[pcSaltBuckets]); ok && n > 0 {
		spec.Rowkey = append(spec.Rowkey, ComponentSpec{Salt: n})
	}
	used := map[string]bool{}
	colName := func(c *pcColumn) string {
		n := c.name
		if tt == "i" {
			// An index's columns are named DATA_FAMILY:NAME, ":NAME" for
			// the data table's key columns.
			if _, after, ok := strings.Cut(n, ":"); ok {
				n = after
			}
		}
		n = phoenixColumnName(n)
		if used[n] && c.family != "" {
			n = phoenixColumnName(c.family) + "_" + n
		}
		for base, i := n, 2; used[n]; i++ {
			n = fmt.Sprintf("%s_%d", base, i)
		}
		used[n] = true
		return n
	}
	for i, c := range keys {
		p, width, err := phoenixColumnType(c)
		if err != nil {
			return nil, fmt.Errorf("%s: key column %s: %v", full, c.name, err)
		}
		if p == PVarbinary && i != len(keys)-1 {
			return nil, fmt.Errorf("%s: key column %s is a VARBINARY before the key's end, which rkql does not read", full, c.name)
		}
		n := colName(c)
		spec.Columns = append(spec.Columns, ColumnSpec{Name: n, Type: p.ColumnTypes()[0].String()})
		comp := ComponentSpec{Field: n, Encoding: "phoenix", Phoenix: p.String(), Width: width}
		if so, _ := c.int(pcSortOrder); so == 1 {
			comp.Order = "desc"
		}
		spec.Rowkey = append(spec.Rowkey, comp)
	}
	var families []string
	for _, c := range cells {
		p, width, err := phoenixColumnType(c)
		if err != nil {
			imp.Notes = append(imp.Notes, fmt.Sprintf("column %s.%s is left out: %v", c.family, c.name, err))
			continue
		}
		if !containsString(families, c.family) {
			families = append(families, c.family)
		}
		q := []byte(c.name)
		if b := c.cells[pcQualifier]; len(b) > 0 {
			q = b
		}
		spec.Columns = append(spec.Columns, ColumnSpec{
			Name: colName(c), Type: p.ColumnTypes()[0].String(), Column: ToStringBinary([]byte(c.family)) + ":" + ToStringBinary(q),
			Encoding: "phoenix", Phoenix: p.String(), Width: width,
		})
	}
	// The empty column is in the first family of the table's columns, or
	// its default family when it has none (SchemaUtil.getEmptyColumnFamily).
	emptyFamily := string(header[pcDefaultFamily])
	if emptyFamily == "" {
		emptyFamily = "0"
	}
	if len(families) == 0 {
		families = []string{emptyFamily}
	}
	emptyFamily = families[0]
	for _, f := range families {
		spec.Families = append(spec.Families, FamilySpec{Name: f})
	}
	emptyQual := "_0"
	if encoded {
		emptyQual = `\x00\x00\x00\x00`
	}
	ph.EmptyColumn = ToStringBinary([]byte(emptyFamily)) + ":" + emptyQual
	for _, ix := range links {
		ixFull := ix
		if schema != "" {
			ixFull = schema + "." + ix
		}
		if index != nil {
			rows, err := index(ix)
			if err != nil {
				return nil, fmt.Errorf("reading Phoenix's index %s: %w", ixFull, err)
			}
			h, _, _, ok := phoenixRows(schema, ix, rows)
			if it, _ := pcByte(h[pcIndexType]); ok && it == 2 {
				return nil, fmt.Errorf("%s has the Phoenix local index %s, whose rows share its HBase table: rkql does not read it", full, ixFull)
			}
		}
		ph.GlobalIndexes = append(ph.GlobalIndexes, ixFull)
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s has the Phoenix global index %s: rkql's queries of %s use it once the catalog describes it too (CREATE TABLE name FROM PHOENIX '%s'), and rkql does not write %s", full, ixFull, full, ixFull, full))
	}
	if tt == "i" {
		of := string(header[pcDataTable])
		if schema != "" && of != "" {
			of = schema + "." + of
		}
		if of == "" {
			of = "its data table"
		}
		ph.IndexOf = of
		if it, _ := pcByte(header[pcIndexType]); it == 3 {
			ph.Uncovered = true
		}
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s is a Phoenix index of %s, which Phoenix keeps in step: rkql reads it and does not write it, and queries of %s use it when the catalog describes %s too", full, of, of, of))
	}
	if ph.Storage != "" {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s keeps each family's columns in one cell (SINGLE_CELL_ARRAY_WITH_OFFSETS): each rkql write of a row reads its cells and writes them whole", full))
	}
	spec.Phoenix = ph
	return imp, nil
}

// phoenixColumnType is a column's Phoenix type and the width a CHAR or
// BINARY column declares.
func phoenixColumnType(c *pcColumn) (PType, int, error) {
	dt, ok := c.int(pcDataType)
	if !ok {
		return PNone, 0, errors.New("SYSTEM.CATALOG gives it no DATA_TYPE")
	}
	p, ok := PhoenixSQLType(dt)
	if !ok {
		if dt >= phoenixArrayBase {
			return PNone, 0, errors.New("rkql does not read Phoenix's ARRAY types")
		}
		return PNone, 0, fmt.Errorf("rkql does not read Phoenix's type number %d", dt)
	}
	width := 0
	if p.NeedsWidth() {
		n, ok := c.int(pcColumnSize)
		if !ok || n <= 0 {
			return PNone, 0, fmt.Errorf("%s without a COLUMN_SIZE", p)
		}
		width = int(n)
	}
	return p, width, nil
}

// phoenixColumnName is the catalog's name for a Phoenix name: lower case,
// with each character a name cannot hold as "_".
func phoenixColumnName(s string) string {
	var b strings.Builder
	for i, r := range strings.ToLower(s) {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			r = '_'
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
