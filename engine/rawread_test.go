package engine_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
)

// rawCell is one cell of the differential test's model of a table.
type rawCell struct {
	key, qual []byte
	fam       string
	ts        int64
	val       []byte
}

// rawTerm is one conjunct of a random raw read: its SQL, whether it
// bounds _ts (a time range, applied before VERSIONS counts versions, as
// HBase's TimeRange is), and the model's own evaluation of it.
type rawTerm struct {
	sql  string
	time bool
	eval func(c rawCell) bool
}

// rawEngine is an engine over an embedded store whose catalog is empty,
// holding the table raw_t with families f and g written by st.Mutate.
func rawEngine(t *testing.T, cells []rawCell) *engine.Engine {
	t.Helper()
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	ctx := context.Background()
	if err := st.CreateTable(ctx, exec.TableSpec{Name: "ns:raw_t", Families: []exec.FamilySpec{{Name: "f", Versions: 100}, {Name: "g", Versions: 100}},
		Splits: [][]byte{{'b'}}}); err != nil {
		t.Fatal(err)
	}
	var muts []exec.Mutation
	for _, c := range cells {
		muts = append(muts, exec.Mutation{Key: c.key, Cells: []exec.Cell{{Family: c.fam, Qualifier: string(c.qual), Timestamp: c.ts, Value: c.val}}})
	}
	if err := st.Mutate(ctx, "ns:raw_t", muts); err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
}

// randomCells writes a few keys of bytes from a small alphabet (0x00,
// 0xff, a backslash among them), each with cells of several versions.
func randomCells(r *rand.Rand) []rawCell {
	alpha := []byte{0x00, 'a', 'b', '\\', 0xff}
	seen := map[string]bool{}
	var out []rawCell
	for range 60 {
		k := make([]byte, 1+r.Intn(3))
		for i := range k {
			k[i] = alpha[r.Intn(len(alpha))]
		}
		fam := []string{"f", "g"}[r.Intn(2)]
		qual := [][]byte{[]byte("a"), []byte("n"), {0x01}}[r.Intn(3)]
		ts := int64(1 + r.Intn(20))
		id := fmt.Sprintf("%x/%s/%x/%d", k, fam, qual, ts)
		if seen[id] {
			continue
		}
		seen[id] = true
		val := []byte(fmt.Sprintf("v%d", r.Intn(30)))
		if string(qual) == "n" {
			val = binary.BigEndian.AppendUint64(nil, uint64(r.Intn(40)-20))
		}
		out = append(out, rawCell{key: k, qual: qual, fam: fam, ts: ts, val: val})
	}
	return out
}

func sqlBytes(b []byte) string { return "x'" + fmt.Sprintf("%x", b) + "'" }

// randomTerm is a random condition on one raw column.
func randomTerm(r *rand.Rand, cells []rawCell) rawTerm {
	key := func() []byte {
		c := cells[r.Intn(len(cells))].key
		return c[:1+r.Intn(len(c))]
	}
	ts := int64(r.Intn(22))
	switch r.Intn(15) {
	case 0:
		k := key()
		return rawTerm{sql: "_key = " + sqlBytes(k), eval: func(c rawCell) bool { return bytes.Equal(c.key, k) }}
	case 1:
		a, b := key(), key()
		return rawTerm{sql: fmt.Sprintf("_key IN (%s, '%s')", sqlBytes(a), catalog.ToStringBinary(b)), eval: func(c rawCell) bool { return bytes.Equal(c.key, a) || bytes.Equal(c.key, b) }}
	case 2:
		p := key()
		return rawTerm{sql: "_key LIKE '" + catalog.ToStringBinary(p) + "%'", eval: func(c rawCell) bool { return bytes.HasPrefix(c.key, p) }}
	case 3:
		k := key()
		ops := []struct {
			op string
			ok func(int) bool
		}{{"<", func(x int) bool { return x < 0 }}, {"<=", func(x int) bool { return x <= 0 }}, {">", func(x int) bool { return x > 0 }}, {">=", func(x int) bool { return x >= 0 }}}
		o := ops[r.Intn(len(ops))]
		if r.Intn(2) == 0 {
			return rawTerm{sql: "_key " + o.op + " " + sqlBytes(k), eval: func(c rawCell) bool { return o.ok(bytes.Compare(c.key, k)) }}
		}
		flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}
		return rawTerm{sql: sqlBytes(k) + " " + flip[o.op] + " _key", eval: func(c rawCell) bool { return o.ok(bytes.Compare(c.key, k)) }}
	case 4:
		a, b := key(), key()
		return rawTerm{sql: fmt.Sprintf("_key BETWEEN %s AND %s", sqlBytes(a), sqlBytes(b)), eval: func(c rawCell) bool { return bytes.Compare(c.key, a) >= 0 && bytes.Compare(c.key, b) <= 0 }}
	case 5:
		return rawTerm{sql: fmt.Sprintf("_ts > %d", ts), time: true, eval: func(c rawCell) bool { return c.ts > ts }}
	case 6:
		return rawTerm{sql: fmt.Sprintf("_ts <= TIMESTAMP '%s'", catalog.TimestampMillis(ts).Text()), time: true, eval: func(c rawCell) bool { return c.ts <= ts }}
	case 7:
		hi := ts + int64(r.Intn(8))
		return rawTerm{sql: fmt.Sprintf("_ts BETWEEN %d AND %d", ts, hi), time: true, eval: func(c rawCell) bool { return c.ts >= ts && c.ts <= hi }}
	case 8:
		f := []string{"f", "g"}[r.Intn(2)]
		return rawTerm{sql: "_family = '" + f + "'", eval: func(c rawCell) bool { return c.fam == f }}
	case 9:
		return rawTerm{sql: "_family IN ('g', 'h')", eval: func(c rawCell) bool { return c.fam == "g" }}
	case 10:
		return rawTerm{sql: `_qualifier IN ('a', '\x01')`, eval: func(c rawCell) bool { return string(c.qual) == "a" || string(c.qual) == "\x01" }}
	case 11:
		n := int64(r.Intn(40) - 20)
		return rawTerm{sql: fmt.Sprintf("_qualifier = 'n' AND CAST(_value AS BIGINT) >= %d", n), eval: func(c rawCell) bool {
			return string(c.qual) == "n" && int64(binary.BigEndian.Uint64(c.val)) >= n
		}}
	case 13:
		a, b := key(), key()
		return rawTerm{sql: fmt.Sprintf("(_key = %s OR %s = _key)", sqlBytes(a), sqlBytes(b)), eval: func(c rawCell) bool { return bytes.Equal(c.key, a) || bytes.Equal(c.key, b) }}
	case 12:
		v := fmt.Sprintf("v%d", r.Intn(4))
		return rawTerm{sql: "_value LIKE '" + v + "%'", eval: func(c rawCell) bool { return bytes.HasPrefix(c.val, []byte(v)) }}
	}
	// A condition no bound serves: the client's.
	return rawTerm{sql: "_ts != 7", eval: func(c rawCell) bool { return c.ts != 7 }}
}

// rawModel answers a raw read from the model: each column's versions,
// newest first, those within the time terms, the first versions of them;
// then the other terms; in key order (reversed for DESC), family,
// qualifier, newest first; up to limit.
func rawModel(cells []rawCell, terms []rawTerm, versions int, desc bool, limit int) []string {
	sorted := slices.Clone(cells)
	slices.SortFunc(sorted, func(a, b rawCell) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			if desc {
				return -c
			}
			return c
		}
		if c := cmp.Compare(a.fam, b.fam); c != 0 {
			return c
		}
		if c := bytes.Compare(a.qual, b.qual); c != 0 {
			return c
		}
		return cmp.Compare(b.ts, a.ts)
	})
	var out []string
	kept := map[string]int{}
	for _, c := range sorted {
		timed := true
		for _, t := range terms {
			if t.time && !t.eval(c) {
				timed = false
			}
		}
		col := fmt.Sprintf("%x/%s/%x", c.key, c.fam, c.qual)
		if !timed || kept[col] >= versions {
			continue
		}
		kept[col]++
		ok := true
		for _, t := range terms {
			if !t.time && !t.eval(c) {
				ok = false
				break
			}
		}
		if ok && (limit < 0 || len(out) < limit) {
			out = append(out, fmt.Sprintf("%s|%s|%s|%d|%s", catalog.ToStringBinary(c.key), c.fam, catalog.ToStringBinary(c.qual), c.ts, catalog.ToStringBinary(c.val)))
		}
	}
	return out
}

// TestRawReadDifferential: random raw reads of a table the catalog does
// not describe, on the embedded store, return what the model of the
// written cells says: the conditions the read's bounds take (key points
// and ranges, time range, families and qualifiers) and those the client
// evaluates together give the cells a full scan filtered by every
// condition gives.
func TestRawReadDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	cells := randomCells(r)
	e := rawEngine(t, cells)
	nonEmpty := 0
	for i := range 400 {
		var terms []rawTerm
		var sqls []string
		for range 1 + r.Intn(3) {
			tm := randomTerm(r, cells)
			terms = append(terms, tm)
			sqls = append(sqls, tm.sql)
		}
		versions := 1 + r.Intn(3)
		desc := r.Intn(3) == 0
		limit := -1
		q := "SELECT * FROM RAW 'ns:raw_t' WHERE " + strings.Join(sqls, " AND ")
		if desc {
			q += " ORDER BY _key DESC"
		}
		if r.Intn(4) == 0 {
			limit = 1 + r.Intn(4)
			q += fmt.Sprintf(" LIMIT %d", limit)
		}
		q += fmt.Sprintf(" VERSIONS %d ALLOW FULL SCAN", versions)
		rows, _, err := e.Exec(context.Background(), q)
		if err != nil {
			t.Fatalf("%d: %s: %v", i, q, err)
		}
		var got []string
		for _, row := range rows {
			got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", row[0].Text(), row[1].S, row[2].Text(), row[3].I, row[4].Text()))
		}
		want := rawModel(cells, terms, versions, desc, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("%d: %s:\n got %q\nwant %q", i, q, got, want)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 100 {
		t.Fatalf("only %d of 400 reads returned cells: the test tests little", nonEmpty)
	}
}

// TestRawCast: CAST(_value AS …) reads a cell's bytes as Java's
// Bytes.toBytes wrote them, and bytes of another width are an error
// naming them.
func TestRawCast(t *testing.T) {
	be := binary.BigEndian
	cells := []rawCell{
		{key: []byte("k"), fam: "f", qual: []byte("long"), ts: 1, val: be.AppendUint64(nil, uint64(0xffffffffffffff85))},
		{key: []byte("k"), fam: "f", qual: []byte("int"), ts: 1, val: be.AppendUint32(nil, 0x80000000)},
		{key: []byte("k"), fam: "f", qual: []byte("short"), ts: 1, val: be.AppendUint16(nil, 0xfffe)},
		{key: []byte("k"), fam: "f", qual: []byte("double"), ts: 1, val: be.AppendUint64(nil, 0x400c000000000000)},
		{key: []byte("k"), fam: "f", qual: []byte("float"), ts: 1, val: be.AppendUint32(nil, 0xc0200000)},
		{key: []byte("k"), fam: "f", qual: []byte("bool"), ts: 1, val: []byte{1}},
		{key: []byte("k"), fam: "f", qual: []byte("text"), ts: 1, val: []byte("h\xc3\xa9llo")},
	}
	e := rawEngine(t, cells)
	for _, c := range []struct{ typ, qual, want string }{
		{"BIGINT", "long", "-123"}, {"INT", "int", "-2147483648"}, {"SMALLINT", "short", "-2"},
		{"DOUBLE", "double", "3.5"}, {"FLOAT", "float", "-2.5"}, {"BOOLEAN", "bool", "TRUE"}, {"VARCHAR", "text", "héllo"},
	} {
		q := fmt.Sprintf("SELECT CAST(_value AS %s) AS v FROM RAW 'ns:raw_t' WHERE _key = 'k' AND _qualifier = '%s'", c.typ, c.qual)
		rows, _, err := e.Exec(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(rows) != 1 || rows[0][0].Text() != c.want {
			t.Errorf("%s: %v, want %s", q, rows, c.want)
		}
	}
	_, _, err := e.Exec(context.Background(), "SELECT CAST(_value AS BIGINT) FROM RAW 'ns:raw_t' WHERE _key = 'k' AND _qualifier = 'int'")
	if err == nil || !strings.Contains(err.Error(), `'\x80\x00\x00\x00' is 4 bytes, and Bytes.toBytes(long) writes 8`) {
		t.Errorf("BIGINT of 4 bytes: %v", err)
	}
	// A raw read writes nothing: an INSERT into the table is refused.
	_, _, err = e.Exec(context.Background(), `INSERT INTO "ns:raw_t" (a) VALUES (1)`)
	if err == nil || !strings.Contains(err.Error(), "raw reads are read-only") {
		t.Errorf("INSERT into a raw table: %v", err)
	}
}
