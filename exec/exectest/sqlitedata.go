package exectest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// Adversarial values, for the sqlite oracle's tables: the edges of each
// type and the bytes a layout gives meaning to. A value that a row's key
// cannot hold (a delimiter inside a delimited field, a pad byte at the
// padded edge, a number out of a field's range) is refused by the write,
// and that row keeps its ordinary values.

var hostileStrings = []string{
	"", " ", "  x ", "|", "||", "~", ",", ".", "_", "%", "!", "'", "''", `\`, `\N`, "\t", "a\tb", "line\nnext", "cr\r\nlf",
	"0", "00", "x", "xxxx", "ÿ", "é", "É", "naïve", "Ωmega", "дом", "日本語", "😀", "e\u0301", "ü-Ü",
	"a%b_c!d", `say "hi"`, "zzzz", "~~~", strings.Repeat("long", 40),
}

var hostileInts = []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, -1, 0, 1,
	-(1 << 53) - 1, 1<<53 + 1, math.MinInt32, math.MaxInt32, -1000}

var hostileDoubles = []float64{math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e-300, -1.5, 0.1, 1 << 53, -(1 << 53) - 2, 123456789.125}

// hostileTimes are ms since the epoch: before 1970, at it, odd
// milliseconds, year 1 and year 9999.
var hostileTimes = []int64{-1, -999, -1000, -86_400_001, 0, 1, 999, -62_135_596_800_000, 253_402_300_799_999,
	-2_208_988_800_001, 951_782_400_123}

var hostileDays = []int64{-1, 0, 1, -719_162, 2_932_896, -25_567, 11_016}

// hostile draws an adversarial value of c's type; layout bytes are the
// literal and pad bytes of t's key, to put inside text.
func hostile(r *rand.Rand, c *catalog.Column, layout []string) catalog.Value {
	switch c.Type {
	case catalog.TypeString:
		if len(layout) > 0 && r.IntN(3) == 0 {
			b := layout[r.IntN(len(layout))]
			return catalog.String([]string{b, "a" + b, b + "z", "a" + b + "b"}[r.IntN(4)])
		}
		return catalog.String(pick(r, hostileStrings))
	case catalog.TypeBigint:
		return catalog.Bigint(pick(r, hostileInts))
	case catalog.TypeInt:
		v := pick(r, hostileInts)
		return catalog.Int(int32(max(min(v, math.MaxInt32), math.MinInt32)))
	case catalog.TypeDouble:
		return catalog.Double(pick(r, hostileDoubles))
	case catalog.TypeBoolean:
		return catalog.Bool(r.IntN(2) == 0)
	case catalog.TypeTimestamp:
		return catalog.TimestampMillis(pick(r, hostileTimes))
	case catalog.TypeDate:
		return catalog.DateDays(pick(r, hostileDays))
	case catalog.TypeBytes:
		bs := [][]byte{{}, {0}, {0xff}, {0, 0xff}, []byte("|"), {0xff, 0xff, 0}}
		if len(layout) > 0 && r.IntN(2) == 0 {
			return catalog.Bytes([]byte("a" + layout[r.IntN(len(layout))]))
		}
		return catalog.Bytes(pick(r, bs))
	}
	return catalog.Null(c.Type)
}

// layoutBytes are the literal and pad bytes of t's key.
func layoutBytes(t *catalog.Table) []string {
	var out []string
	for _, k := range t.Key.Components {
		if k.Kind == catalog.KindLiteral && len(k.Literal) > 0 {
			if l := strings.ReplaceAll(string(k.Literal), "\x00", ""); l != "" {
				out = append(out, l)
			}
		}
		if k.Pad != 0 {
			out = append(out, string(k.Pad))
		}
	}
	return out
}

// hostileRows returns n rows for t, each with its _ts: the example
// domains' values, about one value in eight (and NULLs) replaced by an
// adversarial one, one row per key. A row the write refuses keeps its
// ordinary values; refused counts them. The rows' _ts are spread over
// the write times.
func hostileRows(t *catalog.Table, n int, seed uint64, times []int64) (rows []catalog.Row, refused int) {
	r := rand.New(rand.NewPCG(seed, 23))
	base := examples.Rows(t, n, seed)
	addSpecials(t, base, r, false)
	layout := layoutBytes(t)
	seen := map[string]bool{}
	for _, row := range base {
		try := make(catalog.Row, len(row))
		copy(try, row)
		for i := range t.Columns {
			if r.IntN(8) == 0 {
				try[i] = hostile(r, &t.Columns[i], layout)
			}
		}
		keys, ok := rowKeys(t, try)
		if !ok {
			refused++
			try = row
			keys, ok = rowKeys(t, try)
		}
		if !ok || slices.ContainsFunc(keys, func(k string) bool { return seen[k] }) {
			continue
		}
		for _, k := range keys {
			seen[k] = true
		}
		rows = append(rows, append(try, catalog.TimestampMillis(times[r.IntN(len(times))])))
	}
	return rows, refused
}

// rowKeys returns the keys a row claims: its own, and its entry in each
// index whose key leaves out key fields of t (a second row with that
// entry is refused). ok is false when the write refuses the row.
func rowKeys(t *catalog.Table, row catalog.Row) (keys []string, ok bool) {
	m, err := exec.RowMutation(t, row, 1, zeroRand, nil)
	if err != nil || len(m.Key) == 0 {
		// HBase has no row with an empty key.
		return nil, false
	}
	keys = append(keys, string(m.Key))
	for _, ix := range t.Indexes {
		e, has := entryRow(t, ix, row)
		if !has {
			continue
		}
		if _, err := exec.RowMutation(ix.Table, e[:len(ix.Table.Columns)], 1, zeroRand, nil); err != nil {
			return nil, false
		}
		if !indexHoldsKey(t, ix) {
			k, _ := ix.Table.EncodeKey(e, zeroRand)
			keys = append(keys, ix.Name+"\x00"+string(k))
		}
	}
	return keys, true
}

// zeroRand fixes a key's random component, so that two rows with the
// same key fields are seen as one key.
func zeroRand(int64) int64 { return 0 }

// writeTimes are the cell timestamps the oracle's rows are written at.
var writeTimes = []int64{1_700_000_000_000, 1_700_000_000_001, 1_700_000_360_000, 1_700_086_400_000}

// SQLiteClock is the time the oracle's store must read as now, so that
// no family's TTL expires the rows written at writeTimes.
var SQLiteClock = time.UnixMilli(1_700_100_000_000)

// sqliteType is the column type of t's columns in sqlite.
func sqliteType(t catalog.Type) string {
	switch t {
	case catalog.TypeString:
		return "TEXT"
	case catalog.TypeDouble:
		return "REAL"
	case catalog.TypeBytes:
		return "BLOB"
	}
	return "INTEGER"
}

// createSQL is the CREATE TABLE of t in sqlite, with _ts last.
func createSQL(t *catalog.Table) string {
	var cols []string
	for _, c := range t.Columns {
		cols = append(cols, quoteIdent(c.Name)+" "+sqliteType(c.Type))
	}
	cols = append(cols, quoteIdent(ref.TSColumn)+" INTEGER")
	return fmt.Sprintf("DROP TABLE IF EXISTS %s;\nCREATE TABLE %s (%s);", quoteIdent(t.Name), quoteIdent(t.Name), strings.Join(cols, ", "))
}

// insertSQL writes rows (with _ts) into t's sqlite table, in one
// transaction.
func insertSQL(t *catalog.Table, rows []catalog.Row) (string, error) {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for start := 0; start < len(rows); start += 200 {
		fmt.Fprintf(&b, "INSERT INTO %s VALUES ", quoteIdent(t.Name))
		for i, row := range rows[start:min(start+200, len(rows))] {
			if i > 0 {
				b.WriteString(", ")
			}
			vals := make([]string, len(row))
			for j, v := range row {
				s, err := sqlLiteral(v)
				if err != nil {
					return "", err
				}
				vals[j] = s
			}
			b.WriteString("(" + strings.Join(vals, ", ") + ")")
		}
		b.WriteString(";\n")
	}
	b.WriteString("COMMIT;")
	return b.String(), nil
}
