package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

// sysKey is a SYSTEM.CATALOG key: TENANT_ID, TABLE_SCHEM, TABLE_NAME,
// COLUMN_NAME, COLUMN_FAMILY joined by \x00, trailing NULLs left out.
func sysKey(parts ...string) []byte {
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return []byte(strings.Join(parts, "\x00"))
}

// pInt is a Phoenix signed integer of w bytes, sign bit flipped.
func pInt(n int64, w int) []byte {
	b := make([]byte, w)
	u := uint64(n)
	for i := w - 1; i >= 0; i-- {
		b[i] = byte(u)
		u >>= 8
	}
	b[0] ^= 0x80
	return b
}

// phoenixSalt is Phoenix's salt byte of the key bytes after it:
// Math.abs(Arrays.hashCode(rest) % buckets).
func phoenixSalt(rest []byte, buckets int32) byte {
	h := int32(1)
	for _, b := range rest {
		h = 31*h + int32(int8(b))
	}
	s := h % buckets
	if s < 0 {
		s = -s
	}
	return byte(s)
}

func sysMutation(key []byte, cells map[string][]byte) exec.Mutation {
	m := exec.Mutation{Key: key}
	for q, v := range cells {
		m.Cells = append(m.Cells, exec.Cell{Family: "0", Qualifier: q, Value: v})
	}
	return m
}

// phoenixColumn is a column's row of SYSTEM.CATALOG: DATA_TYPE,
// ORDINAL_POSITION, SORT_ORDER (2 ascending, 1 descending), KEY_SEQ and
// COLUMN_QUALIFIER when given.
func phoenixColumn(schema, table, name, family string, sqlType, ordinal, keySeq int64, desc bool, qual string) exec.Mutation {
	cells := map[string][]byte{"DATA_TYPE": pInt(sqlType, 4), "ORDINAL_POSITION": pInt(ordinal, 4), "SORT_ORDER": pInt(2, 4), "NULLABLE": pInt(1, 4)}
	if desc {
		cells["SORT_ORDER"] = pInt(1, 4)
	}
	if keySeq > 0 {
		cells["KEY_SEQ"] = pInt(keySeq, 2)
	}
	if qual != "" {
		cells["COLUMN_QUALIFIER"] = []byte(qual)
	}
	return sysMutation(sysKey("", schema, table, name, family), cells)
}

// TestCreateTableFromPhoenix: SYSTEM.CATALOG's rows of a salted table with
// a descending TIMESTAMP and a nullable trailing VARCHAR key, encoded
// qualifiers and a global index, and rows of the table, all in Phoenix's
// bytes, are put in the store; CREATE TABLE FROM PHOENIX imports the
// table, and SELECTs read the rows.
func TestCreateTableFromPhoenix(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := ddlEngine(t, dir, []byte("tables: []\n"))
	st, err := e.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if out := runText(t, e, "CREATE TABLE FROM PHOENIX 'S.METRICS';"); !strings.Contains(out, "no HBase table SYSTEM.CATALOG") {
		t.Errorf("without SYSTEM.CATALOG: %s", out)
	}
	for _, name := range []string{"SYSTEM.CATALOG", "S.METRICS"} {
		if err := st.CreateTable(ctx, exec.TableSpec{Name: name, Families: []exec.FamilySpec{{Name: "0"}}}); err != nil {
			t.Fatal(err)
		}
	}
	sys := []exec.Mutation{
		sysMutation(sysKey("", "S", "METRICS"), map[string][]byte{
			"TABLE_TYPE": []byte("u"), "SALT_BUCKETS": pInt(4, 4), "IMMUTABLE_STORAGE_SCHEME": pInt(1, 1), "ENCODING_SCHEME": pInt(2, 1),
		}),
		phoenixColumn("S", "METRICS", "HOST", "", 12, 1, 1, false, ""),
		phoenixColumn("S", "METRICS", "TS", "", 93, 2, 2, true, ""),
		phoenixColumn("S", "METRICS", "DOMAIN", "", 12, 3, 3, false, ""),
		phoenixColumn("S", "METRICS", "CPU", "0", 8, 4, 0, false, "\x80\x0B"),
		phoenixColumn("S", "METRICS", "N", "0", 4, 5, 0, false, "\x80\x0C"),
		sysMutation(sysKey("", "S", "METRICS", "", "METRICS_BY_CPU"), map[string][]byte{"LINK_TYPE": {1}, "TABLE_TYPE": []byte("i")}),
		sysMutation(sysKey("", "S", "METRICS_BY_CPU"), map[string][]byte{"TABLE_TYPE": []byte("i"), "INDEX_TYPE": {1}, "SALT_BUCKETS": pInt(4, 4), "DATA_TABLE_NAME": []byte("METRICS")}),
	}
	if err := st.Mutate(ctx, "SYSTEM.CATALOG", sys); err != nil {
		t.Fatal(err)
	}
	// Rows as Phoenix writes them: salt, HOST \x00, TS inverted (8 bytes
	// of sign-flipped milliseconds, 4 of nanoseconds), DOMAIN last with no
	// separator, or left out when NULL.
	ts := func(ms int64) []byte {
		b := append(pInt(ms, 8), 0, 0, 0, 0)
		for i := range b {
			b[i] ^= 0xFF
		}
		return b
	}
	row := func(host string, ms int64, domain string, cells ...exec.Cell) exec.Mutation {
		rest := append(append([]byte(host+"\x00"), ts(ms)...), domain...)
		key := append([]byte{phoenixSalt(rest, 4)}, rest...)
		return exec.Mutation{Key: key, Cells: append(cells, exec.Cell{Family: "0", Qualifier: "\x00\x00\x00\x00", Value: []byte("x")})}
	}
	cpu := func(b ...byte) exec.Cell { return exec.Cell{Family: "0", Qualifier: "\x80\x0B", Value: b} }
	n := func(v int64) exec.Cell { return exec.Cell{Family: "0", Qualifier: "\x80\x0C", Value: pInt(v, 4)} }
	data := []exec.Mutation{
		row("a", 1000, "", cpu(0xBF, 0xF8, 0, 0, 0, 0, 0, 1), n(-3)), // 1.5
		row("a", 2000, "x.com", n(7)),
		row("b", 1000, "y.org", cpu(0xC0, 0x04, 0, 0, 0, 0, 0, 1)), // 2.5
	}
	if err := st.Mutate(ctx, "S.METRICS", data); err != nil {
		t.Fatal(err)
	}
	out := runText(t, e, "CREATE TABLE FROM PHOENIX 's.metrics';")
	for _, w := range []string{"- name: metrics", "{salt: 4}", "{field: ts, encoding: phoenix, phoenix: TIMESTAMP, order: desc}",
		`{name: 'n', type: INT, column: '0:\x80\x0C', encoding: phoenix, phoenix: INTEGER}`, "global_indexes: [S.METRICS_BY_CPU]", "# S.METRICS has the Phoenix global index S.METRICS_BY_CPU: rkql's queries", "# saved to"} {
		if !strings.Contains(out, w) {
			t.Errorf("CREATE TABLE FROM PHOENIX does not say %q:\n%s", w, out)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "catalog.yaml"))
	if err != nil || !strings.Contains(string(src), "- name: metrics") {
		t.Fatalf("catalog file: %v\n%s", err, src)
	}
	checkRows(t, e, "SELECT host, domain, cpu, n FROM metrics ORDER BY host, n ALLOW FULL SCAN", "a NULL 1.5 -3; a x.com NULL 7; b y.org 2.5 NULL")
	checkRows(t, e, "SELECT n FROM metrics WHERE host = 'a' AND ts = 1000", "-3")
	checkRows(t, e, "SELECT cpu FROM metrics WHERE host = 'b' AND ts = 1000 AND domain = 'y.org'", "2.5")
	plan := runText(t, e, "EXPLAIN SELECT * FROM metrics WHERE host = 'b' AND ts = 1000 AND domain = 'y.org';")
	if !strings.Contains(plan, "POINT LOOKUP") || !strings.Contains(plan, catalog.ToStringBinary(data[2].Key)) {
		t.Errorf("EXPLAIN of a point lookup:\n%s", plan)
	}
	plan = runText(t, e, "EXPLAIN SELECT * FROM metrics WHERE host = 'a';")
	if !strings.Contains(plan, "PARALLEL 4-WAY RANGE SCAN") || !strings.Contains(plan, "all 4 salt buckets are read") {
		t.Errorf("EXPLAIN of a scan over the salt's buckets:\n%s", plan)
	}
	if out := runText(t, e, "INSERT INTO metrics (host, ts, domain, n) VALUES ('c', 1, 'd', 1);"); !strings.Contains(out, "global index S.METRICS_BY_CPU") {
		t.Errorf("a write to a table with a global index: %s", out)
	}
	for q, want := range map[string]string{
		"CREATE TABLE FROM PHOENIX 'S.METRICS';":           "already has a table metrics",
		"CREATE TABLE m2 FROM PHOENIX 'S.METRICS';":        "already describes HBase table S.METRICS as metrics",
		"CREATE TABLE metrics FROM PHOENIX 'S.X';":         "table metrics is already in the catalog",
		"CREATE TABLE x FROM PHOENIX 'S.NOPE';":            "SYSTEM.CATALOG has no Phoenix table S.NOPE",
		"CREATE TABLE ix FROM PHOENIX 'S.METRICS_BY_CPU';": "no primary key columns",
	} {
		if out := runText(t, e, q); !strings.Contains(out, want) {
			t.Errorf("%s: %s, want %q", q, out, want)
		}
	}
}

// TestPhoenixCellArrayReads: a table stored as
// SINGLE_CELL_ARRAY_WITH_OFFSETS is imported with its storage, and read:
// each family's one cell holds the columns by their encoded qualifier
// numbers; a newer cell array hides an older one. rkql's UPSERT, UPDATE
// and DELETE write the cells Phoenix writes, merged over the row's.
func TestPhoenixCellArrayReads(t *testing.T) {
	ctx := context.Background()
	e := ddlEngine(t, t.TempDir(), []byte("tables: []\n"))
	st, err := e.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"SYSTEM.CATALOG", "CELLS"} {
		if err := st.CreateTable(ctx, exec.TableSpec{Name: name, Families: []exec.FamilySpec{{Name: "0"}}}); err != nil {
			t.Fatal(err)
		}
	}
	sys := []exec.Mutation{
		sysMutation(sysKey("", "", "CELLS"), map[string][]byte{
			"TABLE_TYPE": []byte("u"), "IMMUTABLE_STORAGE_SCHEME": pInt(2, 1), "ENCODING_SCHEME": pInt(2, 1), "IMMUTABLE_ROWS": {1},
		}),
		phoenixColumn("", "CELLS", "K", "", 12, 1, 1, false, ""),
		phoenixColumn("", "CELLS", "A", "0", 4, 2, 0, false, "\x80\x0B"),
		phoenixColumn("", "CELLS", "B", "0", 12, 3, 0, false, "\x80\x0C"),
		phoenixColumn("", "CELLS", "C", "0", 8, 4, 0, false, "\x80\x0D"),
	}
	if err := st.Mutate(ctx, "SYSTEM.CATALOG", sys); err != nil {
		t.Fatal(err)
	}
	arr := func(elems ...[]byte) []byte {
		b, err := catalog.EncodePhoenixCellArray(elems)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	row := func(k string, ts int64, v []byte) exec.Mutation {
		return exec.Mutation{Key: []byte(k), Cells: []exec.Cell{{Family: "0", Qualifier: "1", Value: v, Timestamp: ts}}}
	}
	data := []exec.Mutation{
		row("k1", 10, arr(pInt(5, 4), []byte("x"), []byte{0xBF, 0xF8, 0, 0, 0, 0, 0, 1})), // 5, 'x', 1.5
		row("k2", 10, arr(nil, []byte("y"))),                                              // NULL, 'y', NULL
		row("k3", 10, arr(pInt(1, 4), []byte("old"))),
	}
	if err := st.Mutate(ctx, "CELLS", data); err != nil {
		t.Fatal(err)
	}
	if err := st.Mutate(ctx, "CELLS", []exec.Mutation{row("k3", 20, arr(pInt(-2, 4), nil))}); err != nil {
		t.Fatal(err)
	}
	out := runText(t, e, "CREATE TABLE FROM PHOENIX 'CELLS';")
	if !strings.Contains(out, "storage: single_cell_array_with_offsets") {
		t.Fatalf("import:\n%s", out)
	}
	checkRows(t, e, "SELECT k, a, b, c FROM cells ALLOW FULL SCAN", "k1 5 x 1.5; k2 NULL y NULL; k3 -2 NULL NULL")
	checkRows(t, e, "SELECT k FROM cells WHERE b = 'y' ALLOW FULL SCAN", "k2")
	checkRows(t, e, "SELECT count(*), sum(a) FROM cells ALLOW FULL SCAN", "3 3")
	checkRows(t, e, "SELECT b FROM cells WHERE k = 'k1'", "x")
	// The store sees one cell per family: value filters and projections
	// are the client's.
	plan := runText(t, e, "EXPLAIN SELECT k FROM cells WHERE b = 'y' ALLOW FULL SCAN;")
	if strings.Contains(plan, "SERVER") || !strings.Contains(plan, "CLIENT") {
		t.Errorf("EXPLAIN of a filter on a cell array's column:\n%s", plan)
	}
	t.Logf("%s", plan)

	// Writes: each reads the row's cell array, merges the columns it
	// sets, and writes the whole cell and the empty column.
	for _, q := range []string{
		"UPSERT INTO cells (k, b) VALUES ('k1', 'z');",
		"UPSERT INTO cells (k, a) VALUES ('k2', NULL), ('k2', 7);",
		"UPDATE cells SET c = NULL WHERE k = 'k1';",
		"UPDATE cells SET b = 'q' WHERE k = 'k2' AND a = 7;", // no cell to compare: read and written
		"INSERT INTO cells (k, a, b, c) VALUES ('k9', 1, NULL, NULL);",
		"DELETE FROM cells WHERE k = 'k3';",
	} {
		if out := runText(t, e, q); strings.Contains(out, "error") || strings.HasSuffix(strings.TrimSpace(out), " 0") {
			t.Errorf("%s: %s", q, out)
		}
	}
	checkRows(t, e, "SELECT k, a, b, c FROM cells ALLOW FULL SCAN", "k1 5 z NULL; k2 7 q NULL; k9 1 NULL NULL")
	srs, err := st.Get(ctx, "CELLS", [][]byte{[]byte("k1"), []byte("k2"), []byte("k9")}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"k1": catalog.ToStringBinary(arr(pInt(5, 4), []byte("z"), nil)),
		"k2": catalog.ToStringBinary(arr(pInt(7, 4), []byte("q"), nil)),
		"k9": catalog.ToStringBinary(arr(pInt(1, 4), nil, nil)), // trailing NULLs are elements
	}
	for _, sr := range srs {
		cells := map[string]string{}
		for _, c := range sr.Cells {
			if _, ok := cells[c.Qualifier]; !ok { // the newest
				cells[c.Qualifier] = catalog.ToStringBinary(c.Value)
			}
		}
		k := string(sr.Key)
		if cells["1"] != want[k] || cells["\x00\x00\x00\x00"] != "x" {
			t.Errorf("row %s: cells %v, want 0:1 = %s and the empty column x", k, cells, want[k])
		}
		delete(want, k)
	}
	if len(want) > 0 {
		t.Errorf("rows not read: %v", want)
	}
}
