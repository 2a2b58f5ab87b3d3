package catalog

import (
	"strings"
	"testing"
)

// sysCatKey is a SYSTEM.CATALOG key as Phoenix writes it: TENANT_ID,
// TABLE_SCHEM, TABLE_NAME, COLUMN_NAME and COLUMN_FAMILY, VARCHARs joined
// by \x00, trailing NULLs (empty) left out with their separators.
func sysCatKey(parts ...string) []byte {
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return []byte(strings.Join(parts, "\x00"))
}

// pint is a signed Phoenix integer of w bytes: big-endian, sign bit
// flipped (INTEGER 4, SMALLINT 2, TINYINT 1).
func pint(n int64, w int) []byte {
	b := make([]byte, w)
	u := uint64(n)
	for i := w - 1; i >= 0; i-- {
		b[i] = byte(u)
		u >>= 8
	}
	b[0] ^= 0x80
	return b
}

type sysCol struct {
	name, family string
	sqlType      int64
	size         int64 // COLUMN_SIZE, 0 for none
	keySeq       int64 // 0: not a key column
	desc         bool
	qualifier    string // COLUMN_QUALIFIER; "" for none
	ordinal      int64
}

// sysCatRows are the rows Phoenix 5.2's CREATE TABLE writes to
// SYSTEM.CATALOG for a table of no tenant, as MetaDataClient and
// ColumnMetaDataOps upsert them.
func sysCatRows(schema, table string, header map[string][]byte, cols []sysCol, links ...string) []PhoenixCatalogRow {
	rows := []PhoenixCatalogRow{{Key: sysCatKey("", schema, table), Cells: header}}
	for _, c := range cols {
		cells := map[string][]byte{
			"DATA_TYPE":        pint(c.sqlType, 4),
			"NULLABLE":         pint(1, 4),
			"ORDINAL_POSITION": pint(c.ordinal, 4),
			"SORT_ORDER":       pint(2, 4),
		}
		if c.desc {
			cells["SORT_ORDER"] = pint(1, 4)
		}
		if c.size > 0 {
			cells["COLUMN_SIZE"] = pint(c.size, 4)
		}
		if c.keySeq > 0 {
			cells["KEY_SEQ"] = pint(c.keySeq, 2)
		}
		if c.qualifier != "" {
			cells["COLUMN_QUALIFIER"] = []byte(c.qualifier)
		}
		rows = append(rows, PhoenixCatalogRow{Key: sysCatKey("", schema, table, c.name, c.family), Cells: cells})
	}
	for _, l := range links {
		rows = append(rows, PhoenixCatalogRow{Key: sysCatKey("", schema, table, "", l), Cells: map[string][]byte{
			"LINK_TYPE": {1}, "TABLE_TYPE": []byte("i"), "TABLE_SEQ_NUM": pint(0, 8),
		}})
	}
	// The qualifier counter of family 0, a row with no column name.
	rows = append(rows, PhoenixCatalogRow{Key: sysCatKey("", schema, table, "", "0"), Cells: map[string][]byte{"COLUMN_QUALIFIER_COUNTER": pint(13, 4)}})
	return rows
}

// The SYSTEM.CATALOG rows of
//
//	CREATE TABLE S.METRICS (HOST VARCHAR NOT NULL, TS TIMESTAMP NOT NULL,
//	  DOMAIN VARCHAR, CPU DOUBLE, CODE CHAR(3), B.BYTES_IN UNSIGNED_LONG,
//	  CONSTRAINT PK PRIMARY KEY (HOST, TS DESC, DOMAIN)) SALT_BUCKETS = 8
//	CREATE INDEX METRICS_BY_CPU ON S.METRICS (CPU) INCLUDE (CODE)
//
// with the default two-byte encoded qualifiers.
func metricsCatalog() (data, index []PhoenixCatalogRow) {
	data = sysCatRows("S", "METRICS", map[string][]byte{
		"TABLE_TYPE": []byte("u"), "SALT_BUCKETS": pint(8, 4), "COLUMN_COUNT": pint(7, 4),
		"IMMUTABLE_STORAGE_SCHEME": pint(1, 1), "ENCODING_SCHEME": pint(2, 1), "IS_NAMESPACE_MAPPED": {0},
	}, []sysCol{
		{name: "HOST", sqlType: 12, keySeq: 1, ordinal: 1},
		{name: "TS", sqlType: 93, keySeq: 2, desc: true, ordinal: 2},
		{name: "DOMAIN", sqlType: 12, keySeq: 3, ordinal: 3},
		{name: "CPU", family: "0", sqlType: 8, qualifier: "\x80\x0B", ordinal: 4},
		{name: "CODE", family: "0", sqlType: 1, size: 3, qualifier: "\x80\x0C", ordinal: 5},
		{name: "BYTES_IN", family: "B", sqlType: 10, qualifier: "\x80\x0D", ordinal: 6},
	}, "METRICS_BY_CPU")
	index = sysCatRows("S", "METRICS_BY_CPU", map[string][]byte{
		"TABLE_TYPE": []byte("i"), "INDEX_TYPE": {1}, "INDEX_STATE": []byte("a"), "SALT_BUCKETS": pint(8, 4),
		"DATA_TABLE_NAME": []byte("METRICS"), "IMMUTABLE_STORAGE_SCHEME": pint(1, 1), "ENCODING_SCHEME": pint(2, 1),
	}, []sysCol{
		// A nullable DOUBLE is indexed as a DECIMAL (IndexUtil.getIndexColumnDataType).
		{name: "0:CPU", sqlType: 3, keySeq: 1, ordinal: 1},
		{name: ":HOST", sqlType: 12, keySeq: 2, ordinal: 2},
		{name: ":TS", sqlType: 93, keySeq: 3, desc: true, ordinal: 3},
		{name: ":DOMAIN", sqlType: 12, keySeq: 4, ordinal: 4},
		{name: "0:CODE", family: "0", sqlType: 1, size: 3, qualifier: "\x80\x0B", ordinal: 5},
	})
	return data, index
}

func TestImportPhoenix(t *testing.T) {
	data, index := metricsCatalog()
	// A table whose name starts with this one's, and a column row of it,
	// are not this table's.
	rows := append(append([]PhoenixCatalogRow{}, data...),
		PhoenixCatalogRow{Key: sysCatKey("", "S", "METRICS2"), Cells: map[string][]byte{"TABLE_TYPE": []byte("u")}},
		PhoenixCatalogRow{Key: sysCatKey("", "S", "METRICS2", "X", "0"), Cells: map[string][]byte{"DATA_TYPE": pint(4, 4)}})
	lookups := 0
	imp, err := ImportPhoenix("", "S", "METRICS", rows, func(ix string) ([]PhoenixCatalogRow, error) {
		lookups++
		if ix != "METRICS_BY_CPU" {
			t.Errorf("index lookup of %q", ix)
		}
		return index, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `- name: metrics
  hbase: S.METRICS
  families:
    - {name: '0'}
    - {name: B}
  columns:
    - {name: host, type: STRING}
    - {name: ts, type: TIMESTAMP}
    - {name: domain, type: STRING}
    - {name: cpu, type: DOUBLE, column: '0:\x80\x0B', encoding: phoenix, phoenix: DOUBLE}
    - {name: code, type: STRING, column: '0:\x80\x0C', encoding: phoenix, phoenix: CHAR, width: 3}
    - {name: bytes_in, type: BIGINT, column: 'B:\x80\x0D', encoding: phoenix, phoenix: UNSIGNED_LONG}
  rowkey:
    - {salt: 8}
    - {field: host, encoding: phoenix, phoenix: VARCHAR}
    - {field: ts, encoding: phoenix, phoenix: TIMESTAMP, order: desc}
    - {field: domain, encoding: phoenix, phoenix: VARCHAR}
  phoenix: {table: S.METRICS, empty_column: '0:\x00\x00\x00\x00', global_indexes: [S.METRICS_BY_CPU]}
`
	if got := RenderTable(&imp.Spec); got != want {
		t.Fatalf("entry:\n%s\nwant:\n%s", got, want)
	}
	if lookups != 1 {
		t.Errorf("%d index lookups, want 1", lookups)
	}
	if len(imp.Notes) != 1 || !strings.Contains(imp.Notes[0], "S.METRICS has the Phoenix global index S.METRICS_BY_CPU: rkql's queries of S.METRICS use it once the catalog describes it too") {
		t.Errorf("notes %q", imp.Notes)
	}
	c, err := Parse([]byte("tables:\n" + indent(want, "  ")))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := c.Table("metrics")
	if tb.Phoenix.EmptyQualifier != "\x00\x00\x00\x00" || tb.Columns[3].Qualifier != "\x80\x0B" {
		t.Errorf("loaded: %+v, cpu %q", tb.Phoenix, tb.Columns[3].Qualifier)
	}

	// The index is a table of its own: its key is the salt, the indexed
	// column in the index's type, and the data table's key; its covered
	// column has the index's own qualifier.
	ix, err := ImportPhoenix("by_cpu", "S", "METRICS_BY_CPU", index, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantIx := `- name: by_cpu
  hbase: S.METRICS_BY_CPU
  families:
    - {name: '0'}
  columns:
    - {name: cpu, type: STRING}
    - {name: host, type: STRING}
    - {name: ts, type: TIMESTAMP}
    - {name: domain, type: STRING}
    - {name: code, type: STRING, column: '0:\x80\x0B', encoding: phoenix, phoenix: CHAR, width: 3}
  rowkey:
    - {salt: 8}
    - {field: cpu, encoding: phoenix, phoenix: DECIMAL}
    - {field: host, encoding: phoenix, phoenix: VARCHAR}
    - {field: ts, encoding: phoenix, phoenix: TIMESTAMP, order: desc}
    - {field: domain, encoding: phoenix, phoenix: VARCHAR}
  phoenix: {table: S.METRICS_BY_CPU, empty_column: '0:\x00\x00\x00\x00', index_of: S.METRICS}
`
	if got := RenderTable(&ix.Spec); got != wantIx {
		t.Fatalf("index entry:\n%s\nwant:\n%s", got, wantIx)
	}
	if _, err := Parse([]byte("tables:\n" + indent(wantIx, "  "))); err != nil {
		t.Fatal(err)
	}

	// The two entries in one catalog: the index is linked to its table.
	both, err := Parse([]byte("tables:\n" + indent(want, "  ") + indent(wantIx, "  ")))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := both.Table("metrics")
	if len(m.PhoenixIndexes) != 1 || m.PhoenixIndexes[0].Name != "by_cpu" || len(both.Warnings) != 0 {
		t.Fatalf("linked indexes %v, warnings %v", m.PhoenixIndexes, both.Warnings)
	}
	if i, _ := m.PhoenixIndexes[0].Table.Column("cpu"); m.PhoenixIndexes[0].Table.Columns[i].Type != TypeDouble {
		t.Errorf("the linked index reads cpu as %s", m.PhoenixIndexes[0].Table.Columns[i].Type)
	}

	// An uncovered index (INDEX_TYPE 3) says so.
	for i := range index {
		if string(index[i].Cells["TABLE_TYPE"]) == "i" {
			index[i].Cells["INDEX_TYPE"] = []byte{3}
		}
	}
	ix, err = ImportPhoenix("by_cpu", "S", "METRICS_BY_CPU", index, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := RenderTable(&ix.Spec); !strings.Contains(got, "index_of: S.METRICS, uncovered: true}") {
		t.Errorf("uncovered index entry:\n%s", got)
	}
}

// Plain qualifiers, no salt, a default family, the single-cell storage
// and the refusals.
func TestImportPhoenixPlain(t *testing.T) {
	rows := sysCatRows("", "EVENTS", map[string][]byte{
		"TABLE_TYPE": []byte("u"), "DEFAULT_COLUMN_FAMILY": []byte("F"),
		"IMMUTABLE_STORAGE_SCHEME": pint(2, 1), "ENCODING_SCHEME": pint(0, 1),
	}, []sysCol{
		{name: "ID", sqlType: -5, keySeq: 1, ordinal: 1},
		{name: "K2", sqlType: 4, keySeq: 2, desc: true, ordinal: 2},
		{name: "V", family: "F", sqlType: 12, qualifier: "V", ordinal: 3},
		{name: "ARR", family: "F", sqlType: 3004, ordinal: 4},
		{name: "W", family: "F", sqlType: 16, ordinal: 5},
	})
	imp, err := ImportPhoenix("ev", "", "EVENTS", rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := RenderTable(&imp.Spec)
	for _, w := range []string{"hbase: EVENTS\n", "{name: F}", "{field: id, encoding: phoenix, phoenix: BIGINT}", "{field: k2, encoding: phoenix, phoenix: INTEGER, order: desc}",
		"{name: v, type: STRING, column: 'F:V', encoding: phoenix, phoenix: VARCHAR}", "{name: w, type: BOOLEAN, column: 'F:W', encoding: phoenix, phoenix: BOOLEAN}",
		"phoenix: {table: EVENTS, empty_column: 'F:_0', storage: single_cell_array_with_offsets}"} {
		if !strings.Contains(got, w) {
			t.Errorf("entry lacks %s:\n%s", w, got)
		}
	}
	if strings.Contains(got, "name: arr") || len(imp.Notes) != 2 || !strings.Contains(imp.Notes[0], "ARRAY") {
		t.Errorf("the ARRAY column: notes %q\n%s", imp.Notes, got)
	}
	if _, err := Parse([]byte("tables:\n" + indent(got, "  "))); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		rows []PhoenixCatalogRow
		want string
	}{
		{nil, "SYSTEM.CATALOG has no Phoenix table S.METRICS"},
		{sysCatRows("S", "METRICS", map[string][]byte{"TABLE_TYPE": []byte("v")}, []sysCol{{name: "A", sqlType: 12, keySeq: 1}}), "is a Phoenix view"},
		{sysCatRows("S", "METRICS", map[string][]byte{"TABLE_TYPE": []byte("i"), "INDEX_TYPE": {2}}, []sysCol{{name: "A", sqlType: 12, keySeq: 1}}), "local index"},
		{sysCatRows("S", "METRICS", map[string][]byte{"TABLE_TYPE": []byte("u")}, []sysCol{{name: "A", sqlType: 3004, keySeq: 1}}), "key column A: rkql does not read Phoenix's ARRAY types"},
		{sysCatRows("S", "METRICS", map[string][]byte{"TABLE_TYPE": []byte("u")}, []sysCol{{name: "A", sqlType: 1, keySeq: 1}}), "CHAR without a COLUMN_SIZE"},
		{sysCatRows("S", "METRICS", map[string][]byte{"TABLE_TYPE": []byte("u")}, []sysCol{{name: "V", family: "0", sqlType: 12}}), "no primary key columns"},
	} {
		_, err := ImportPhoenix("", "S", "METRICS", c.rows, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
	// With Phoenix's namespace mapping the HBase table is SCHEMA:TABLE.
	mapped := sysCatRows("S", "T", map[string][]byte{"TABLE_TYPE": []byte("u"), "IS_NAMESPACE_MAPPED": {1}},
		[]sysCol{{name: "A", sqlType: 1, size: 2, keySeq: 1}, {name: "V", family: "0", sqlType: -3, ordinal: 2}})
	imp, err = ImportPhoenix("", "S", "T", mapped, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = RenderTable(&imp.Spec)
	for _, w := range []string{"hbase: 'S:T'", "{field: a, encoding: phoenix, phoenix: CHAR, width: 2}", "{name: v, type: BYTES, column: '0:V', encoding: phoenix, phoenix: VARBINARY}", "empty_column: '0:_0'"} {
		if !strings.Contains(got, w) {
			t.Errorf("mapped entry lacks %s:\n%s", w, got)
		}
	}
	if _, err := Parse([]byte("tables:\n" + indent(got, "  "))); err != nil {
		t.Fatal(err)
	}
	// A local index of the table refuses the import: its rows are in the
	// table's own HBase table.
	data, _ := metricsCatalog()
	_, err = ImportPhoenix("", "S", "METRICS", data, func(string) ([]PhoenixCatalogRow, error) {
		return sysCatRows("S", "METRICS_BY_CPU", map[string][]byte{"TABLE_TYPE": []byte("i"), "INDEX_TYPE": {2}}, nil), nil
	})
	if err == nil || !strings.Contains(err.Error(), "has the Phoenix local index S.METRICS_BY_CPU") {
		t.Errorf("local index: %v", err)
	}
}

func TestPhoenixCatalogInts(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want int64
	}{
		{[]byte{0x80, 0, 0, 8}, 8}, {[]byte{0x7F, 0xFF, 0xFF, 0xFF}, -1}, {[]byte{0x80, 1}, 1},
		{[]byte{0x81}, 1}, {[]byte{0x7E}, -2}, {[]byte{0x80, 0, 0, 0, 0, 0, 0, 0}, 0},
	} {
		if got, ok := pcInt(c.b); !ok || got != c.want {
			t.Errorf("% x: %d %v, want %d", c.b, got, ok, c.want)
		}
	}
	if _, ok := pcInt([]byte{1, 2, 3}); ok {
		t.Error("3 bytes read as a number")
	}
}
