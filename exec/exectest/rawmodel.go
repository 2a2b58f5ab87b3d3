package exectest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

// The model of raw reads (SELECT … FROM RAW): random cells of a table
// with families f and g, random conditions on the raw columns, each with
// its own evaluation, and the answer computed from the cells alone,
// sharing no code with the planner.

// RawCell is one cell of the differential test's model of a table.
type RawCell struct {
	Key, Qual []byte
	Fam       string
	Ts        int64
	Val       []byte
}

// RawTerm is one conjunct of a random raw read: its SQL, whether it
// bounds _ts (a time range, applied before VERSIONS counts versions, as
// HBase's TimeRange is), and the model's own evaluation of it.
type RawTerm struct {
	SQL  string
	Time bool
	Eval func(c RawCell) bool
}

// RandomRawCells writes a few keys of bytes from a small alphabet (0x00,
// 0xff, a backslash among them), each with cells of several versions.
func RandomRawCells(r *rand.Rand) []RawCell {
	alpha := []byte{0x00, 'a', 'b', '\\', 0xff}
	seen := map[string]bool{}
	var out []RawCell
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
		out = append(out, RawCell{Key: k, Qual: qual, Fam: fam, Ts: ts, Val: val})
	}
	return out
}

func sqlBytes(b []byte) string { return "x'" + fmt.Sprintf("%x", b) + "'" }

// RandomRawTerm is a random condition on one raw column.
func RandomRawTerm(r *rand.Rand, cells []RawCell) RawTerm {
	key := func() []byte {
		c := cells[r.Intn(len(cells))].Key
		return c[:1+r.Intn(len(c))]
	}
	ts := int64(r.Intn(22))
	switch r.Intn(15) {
	case 0:
		k := key()
		return RawTerm{SQL: "_key = " + sqlBytes(k), Eval: func(c RawCell) bool { return bytes.Equal(c.Key, k) }}
	case 1:
		a, b := key(), key()
		return RawTerm{SQL: fmt.Sprintf("_key IN (%s, '%s')", sqlBytes(a), catalog.ToStringBinary(b)), Eval: func(c RawCell) bool { return bytes.Equal(c.Key, a) || bytes.Equal(c.Key, b) }}
	case 2:
		p := key()
		return RawTerm{SQL: "_key LIKE '" + catalog.ToStringBinary(p) + "%'", Eval: func(c RawCell) bool { return bytes.HasPrefix(c.Key, p) }}
	case 3:
		k := key()
		ops := []struct {
			op string
			ok func(int) bool
		}{{"<", func(x int) bool { return x < 0 }}, {"<=", func(x int) bool { return x <= 0 }}, {">", func(x int) bool { return x > 0 }}, {">=", func(x int) bool { return x >= 0 }}}
		o := ops[r.Intn(len(ops))]
		if r.Intn(2) == 0 {
			return RawTerm{SQL: "_key " + o.op + " " + sqlBytes(k), Eval: func(c RawCell) bool { return o.ok(bytes.Compare(c.Key, k)) }}
		}
		flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}
		return RawTerm{SQL: sqlBytes(k) + " " + flip[o.op] + " _key", Eval: func(c RawCell) bool { return o.ok(bytes.Compare(c.Key, k)) }}
	case 4:
		a, b := key(), key()
		return RawTerm{SQL: fmt.Sprintf("_key BETWEEN %s AND %s", sqlBytes(a), sqlBytes(b)), Eval: func(c RawCell) bool { return bytes.Compare(c.Key, a) >= 0 && bytes.Compare(c.Key, b) <= 0 }}
	case 5:
		return RawTerm{SQL: fmt.Sprintf("_ts > %d", ts), Time: true, Eval: func(c RawCell) bool { return c.Ts > ts }}
	case 6:
		return RawTerm{SQL: fmt.Sprintf("_ts <= TIMESTAMP '%s'", catalog.TimestampMillis(ts).Text()), Time: true, Eval: func(c RawCell) bool { return c.Ts <= ts }}
	case 7:
		hi := ts + int64(r.Intn(8))
		return RawTerm{SQL: fmt.Sprintf("_ts BETWEEN %d AND %d", ts, hi), Time: true, Eval: func(c RawCell) bool { return c.Ts >= ts && c.Ts <= hi }}
	case 8:
		f := []string{"f", "g"}[r.Intn(2)]
		return RawTerm{SQL: "_family = '" + f + "'", Eval: func(c RawCell) bool { return c.Fam == f }}
	case 9:
		return RawTerm{SQL: "_family IN ('g', 'g')", Eval: func(c RawCell) bool { return c.Fam == "g" }}
	case 10:
		return RawTerm{SQL: `_qualifier IN ('a', '\x01')`, Eval: func(c RawCell) bool { return string(c.Qual) == "a" || string(c.Qual) == "\x01" }}
	case 11:
		n := int64(r.Intn(40) - 20)
		return RawTerm{SQL: fmt.Sprintf("_qualifier = 'n' AND CAST(_value AS BIGINT) >= %d", n), Eval: func(c RawCell) bool {
			return string(c.Qual) == "n" && int64(binary.BigEndian.Uint64(c.Val)) >= n
		}}
	case 13:
		a, b := key(), key()
		return RawTerm{SQL: fmt.Sprintf("(_key = %s OR %s = _key)", sqlBytes(a), sqlBytes(b)), Eval: func(c RawCell) bool { return bytes.Equal(c.Key, a) || bytes.Equal(c.Key, b) }}
	case 12:
		v := fmt.Sprintf("v%d", r.Intn(4))
		return RawTerm{SQL: "_value LIKE '" + v + "%'", Eval: func(c RawCell) bool { return bytes.HasPrefix(c.Val, []byte(v)) }}
	}
	// A condition no bound serves: the client's.
	return RawTerm{SQL: "_ts != 7", Eval: func(c RawCell) bool { return c.Ts != 7 }}
}

// RawModel answers a raw read from the model: each column's versions,
// newest first, those within the time terms, the first versions of them;
// then the other terms; in key order (reversed for DESC), family,
// qualifier, newest first; up to limit.
func RawModel(cells []RawCell, terms []RawTerm, versions int, desc bool, limit int) []string {
	sorted := slices.Clone(cells)
	slices.SortFunc(sorted, func(a, b RawCell) int {
		if c := bytes.Compare(a.Key, b.Key); c != 0 {
			if desc {
				return -c
			}
			return c
		}
		if c := cmp.Compare(a.Fam, b.Fam); c != 0 {
			return c
		}
		if c := bytes.Compare(a.Qual, b.Qual); c != 0 {
			return c
		}
		return cmp.Compare(b.Ts, a.Ts)
	})
	var out []string
	kept := map[string]int{}
	for _, c := range sorted {
		timed := true
		for _, t := range terms {
			if t.Time && !t.Eval(c) {
				timed = false
			}
		}
		col := fmt.Sprintf("%x/%s/%x", c.Key, c.Fam, c.Qual)
		if !timed || kept[col] >= versions {
			continue
		}
		kept[col]++
		ok := true
		for _, t := range terms {
			if !t.Time && !t.Eval(c) {
				ok = false
				break
			}
		}
		if ok && (limit < 0 || len(out) < limit) {
			out = append(out, fmt.Sprintf("%s|%s|%s|%d|%s", catalog.ToStringBinary(c.Key), c.Fam, catalog.ToStringBinary(c.Qual), c.Ts, catalog.ToStringBinary(c.Val)))
		}
	}
	return out
}

// RawDifferential runs n random raw reads of table, which holds cells,
// through run, and fails t where one differs from RawModel's answer.
func RawDifferential(t testing.TB, r *rand.Rand, cells []RawCell, table string, n int, run func(q string) ([]catalog.Row, error)) {
	t.Helper()
	// A family the table does not have is an error, as HBase's is.
	q := "SELECT * FROM RAW '" + table + "' WHERE _key = 'a' AND _family IN ('f', 'h')"
	if _, err := run(q); err == nil || !strings.Contains(err.Error(), "no such column family: h") {
		t.Fatalf("%s: %v, want no such column family", q, err)
	}
	nonEmpty := 0
	for i := range n {
		var terms []RawTerm
		var sqls []string
		for range 1 + r.Intn(3) {
			tm := RandomRawTerm(r, cells)
			terms = append(terms, tm)
			sqls = append(sqls, tm.SQL)
		}
		versions := 1 + r.Intn(3)
		desc := r.Intn(3) == 0
		limit := -1
		q := "SELECT * FROM RAW '" + table + "' WHERE " + strings.Join(sqls, " AND ")
		if desc {
			q += " ORDER BY _key DESC"
		}
		if r.Intn(4) == 0 {
			limit = 1 + r.Intn(4)
			q += fmt.Sprintf(" LIMIT %d", limit)
		}
		q += fmt.Sprintf(" VERSIONS %d ALLOW FULL SCAN", versions)
		rows, err := run(q)
		if err != nil {
			t.Fatalf("%d: %s: %v", i, q, err)
		}
		var got []string
		for _, row := range rows {
			got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", row[0].Text(), row[1].S, row[2].Text(), row[3].I, row[4].Text()))
		}
		want := RawModel(cells, terms, versions, desc, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("%d: %s:\n got %q\nwant %q", i, q, got, want)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < n/4 {
		t.Fatalf("only %d of %d reads returned cells: the test tests little", nonEmpty, n)
	}
}

// RawTableSpec is the table RawDifferential reads: families f and g,
// keeping every version written, in two regions.
func RawTableSpec(name string) exec.TableSpec {
	return exec.TableSpec{Name: name, Families: []exec.FamilySpec{{Name: "f", Versions: 100}, {Name: "g", Versions: 100}}, Splits: [][]byte{{'b'}}}
}

// RawMutations write cells, one mutation each.
func RawMutations(cells []RawCell) []exec.Mutation {
	muts := make([]exec.Mutation, len(cells))
	for i, c := range cells {
		muts[i] = exec.Mutation{Key: c.Key, Cells: []exec.Cell{{Family: c.Fam, Qualifier: string(c.Qual), Timestamp: c.Ts, Value: c.Val}}}
	}
	return muts
}
