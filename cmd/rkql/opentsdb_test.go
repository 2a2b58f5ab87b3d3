package main

import (
	"testing"
)

// TestOpenTSDBCellNotAPoint: in a wide OpenTSDB table, a cell that holds
// no point (an annotation) is skipped with the not-fitting warning while
// the row's points are read, and --strict makes it an error.
func TestOpenTSDBCellNotAPoint(t *testing.T) {
	cat := writeFile(t, "pts.yaml", `
tables:
  - name: pts
    hbase: pts
    families: [{name: t}]
    columns:
      - {name: id, type: BIGINT}
      - {name: base, type: TIMESTAMP}
      - {name: off, type: INT}
      - {name: ts, type: TIMESTAMP}
      - {name: v, type: DOUBLE}
    rowkey:
      - {field: id, encoding: java, width: 4}
      - {field: base, encoding: java, width: 4, unit: s}
    wide: {family: t, qualifier: {format: opentsdb}, offset: off, value: v, time: ts, base: base}
`)
	// The annotation is written through a second catalog that maps a
	// column onto its qualifier.
	cat2 := writeFile(t, "raw.yaml", `
tables:
  - name: raw
    hbase: pts
    families: [{name: t}]
    columns:
      - {name: k, type: BYTES}
      - {name: note, type: STRING, column: "t:\x01\x00\x05", encoding: text}
    rowkey:
      - {field: k}
`)
	store := t.TempDir()
	r := rkql(t, "", "--catalog", cat, "--store", store, "-e",
		"INSERT INTO pts (id, base, ts, v) VALUES (1, '2024-05-01 10:00:00', '2024-05-01 10:00:01.500', 2.5), (1, '2024-05-01 10:00:00', '2024-05-01 10:00:02', 3)")
	if r.code != 0 {
		t.Fatalf("insert: %d %s", r.code, r.stderr)
	}
	r = rkql(t, "", "--catalog", cat2, "--store", store, "-e", `INSERT INTO raw (k, note) VALUES ('\x00\x00\x00\x01f2\x12\xA0', '{"description":"deploy"}')`)
	if r.code != 0 {
		t.Fatalf("annotation insert: %d %s", r.code, r.stderr)
	}
	q := "SELECT ts, off, v FROM pts WHERE id = 1"
	r = rkql(t, "", "--catalog", cat, "--store", store, "--format", "csv", "-e", q)
	if r.code != 0 || r.stdout != "ts,off,v\n2024-05-01 10:00:01.500,1,2.5\n2024-05-01 10:00:02.000,2,3\n" {
		t.Fatalf("select: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	checkOneLine(t, r.stderr, `^warning: skipped 1 row of pts that do not fit its layout \(first: table pts: key '.*': qualifier '\\x01\\x00\\x05' is not a data point .*\)$`)
	r = rkql(t, "", "--catalog", cat, "--store", store, "--strict", "--format", "csv", "-e", q)
	if r.code != 1 {
		t.Fatalf("strict select: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	checkOneLine(t, r.stderr, `^a row does not fit its table's layout \(--strict\): table pts: key '.*': qualifier '\\x01\\x00\\x05' is not a data point .*$`)
}
