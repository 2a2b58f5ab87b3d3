package ref

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// testTable is a small table with a text key, a text and a number column
// that may be NULL, and a DOUBLE.
const testCatalog = `
tables:
  - name: t
    families: [{name: f}]
    columns:
      - {name: k, type: STRING}
      - {name: s, type: STRING, column: "f:s"}
      - {name: n, type: BIGINT, column: "f:n"}
      - {name: d, type: DOUBLE, column: "f:d"}
    rowkey:
      - {field: k}
`

func testRows(t *testing.T) (*catalog.Table, []catalog.Row) {
	t.Helper()
	cat, err := catalog.Parse([]byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	tb := cat.Tables[0]
	ts := catalog.TimestampMillis
	nullS, nullN, nullD := catalog.Null(catalog.TypeString), catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeDouble)
	rows := []catalog.Row{
		{catalog.String("a"), catalog.String("o1"), catalog.Bigint(5), catalog.Double(1.5), ts(1000)},
		{catalog.String("b"), catalog.String("o12"), catalog.Bigint(7), catalog.Double(math.NaN()), ts(2000)},
		{catalog.String("c"), nullS, nullN, nullD, ts(3000)},
		{catalog.String("d"), catalog.String("héllo"), catalog.Bigint(-2), catalog.Double(math.Copysign(0, -1)), ts(4000)},
	}
	return tb, rows
}

func parseSel(t *testing.T, q string) *parser.SelectStmt {
	t.Helper()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	s, ok := stmt.(*parser.SelectStmt)
	if !ok {
		t.Fatalf("%q is not a SELECT", q)
	}
	return s
}

// keysOf lists the k column of every row of r, in order, groups split by
// "|".
func keysOf(r *Result) string {
	var gs []string
	for _, g := range r.Groups {
		var ks []string
		for _, row := range g {
			ks = append(ks, row[0].S)
		}
		gs = append(gs, strings.Join(ks, ","))
	}
	return strings.Join(gs, "|")
}

// TestEvaluateWhere checks three-valued logic, comparisons, IN, BETWEEN,
// LIKE and NULL tests over rows with NULLs, NaN and -0.
func TestEvaluateWhere(t *testing.T) {
	tb, rows := testRows(t)
	for _, tc := range []struct{ where, want string }{
		{"n = 5", "a"},
		{"n != 5", "b,d"},
		{"n <> 5", "b,d"},
		{"NOT (n = 5)", "b,d"},
		{"n = NULL", ""},
		{"NOT (n = NULL)", ""},
		{"NULL = n", ""},
		{"n != NULL", ""},
		{"n IS NULL", "c"},
		{"n IS NOT NULL", "a,b,d"},
		{"NOT (n IS NULL)", "a,b,d"},
		{"n > 0 OR n IS NULL", "a,b,c"},
		{"n = 5 OR n = NULL", "a"},
		{"NOT (n = 5 OR n = NULL)", ""},
		{"n = 5 AND n = NULL", ""},
		{"NOT (n = 7 AND n = NULL)", "a,d"},
		{"n < 6", "a,d"},
		{"n <= 5", "a,d"},
		{"n > 5", "b"},
		{"n >= -2", "a,b,d"},
		{"n > -3", "a,b,d"},
		{"n = '5'", "a"},
		{"n < 5.5", "a,d"},
		{"5 < n", "b"},
		{"n IN (5, 7)", "a,b"},
		{"n IN (5, NULL)", "a"},
		{"n NOT IN (5)", "b,d"},
		{"n NOT IN (5, NULL)", ""},
		{"NOT (n IN (7, NULL))", ""},
		{"NOT (n NOT IN (7, NULL))", "b"},
		{"n IN (NULL)", ""},
		{"n BETWEEN 5 AND 7", "a,b"},
		{"n BETWEEN 7 AND 5", ""},
		{"n NOT BETWEEN 5 AND 7", "d"},
		{"n BETWEEN NULL AND 10", ""},
		{"n NOT BETWEEN 6 AND NULL", "a,d"},
		{"n NOT BETWEEN NULL AND 6", "b"},
		{"s LIKE 'o1%'", "a,b"},
		{"s LIKE 'o1'", "a"},
		{"s LIKE 'o_'", "a"},
		{"s LIKE 'o__'", "b"},
		{"s LIKE '%2'", "b"},
		{"s LIKE '%'", "a,b,d"},
		{"s NOT LIKE 'o%'", "d"},
		{"NOT (s LIKE 'o%')", "d"},
		{"s LIKE 'h_llo'", "d"},
		{"s LIKE '_é%'", "d"},
		{"k LIKE '_'", "a,b,c,d"},
		{"s = 'o1'", "a"},
		{"s < 'o12'", "a,d"},
		{"s > 'o12'", ""},
		{"s >= 'h'", "a,b,d"},
		{"d > 1", "a,b"},
		{"d = 0", "d"},
		{"d < 0", ""},
		{"d > 1e308", "b"},
		{"d = NULL", ""},
		{"_ts > TIMESTAMP '1970-01-01 00:00:02'", "c,d"},
		{"_ts = 1000", ""},
		{"TRUE", "a,b,c,d"},
		{"FALSE OR n = 5", "a"},
		{"NOT (FALSE) AND n = 7", "b"},
	} {
		t.Run(tc.where, func(t *testing.T) {
			s := parseSel(t, "SELECT k FROM t WHERE "+tc.where)
			r, err := Evaluate(tb, s, rows)
			if tc.where == "_ts = 1000" {
				// A TIMESTAMP against a bare number is a type error.
				if err == nil {
					t.Fatalf("want an error, got %s", keysOf(r))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := keysOf(r); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEvaluateShape checks ORDER BY (NULL first ascending, last
// descending, ties grouped), LIMIT, COUNT(*), projection and _ts.
func TestEvaluateShape(t *testing.T) {
	tb, rows := testRows(t)
	for _, tc := range []struct{ q, want string }{
		{"SELECT k FROM t ORDER BY n", "c|d|a|b"},
		{"SELECT k FROM t ORDER BY n DESC", "b|a|d|c"},
		{"SELECT k FROM t ORDER BY d", "c|d|a|b"},
		{"SELECT k FROM t ORDER BY d DESC", "b|a|d|c"},
		{"SELECT k FROM t ORDER BY s DESC, k", "b|a|d|c"},
		{"SELECT k FROM t WHERE n > 0 ORDER BY _ts DESC", "b|a"},
		{"SELECT k FROM t", "a,b,c,d"},
		{"SELECT k FROM t WHERE n IS NULL OR n = 7 ORDER BY k DESC LIMIT 1", "c|b"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			r, err := Evaluate(tb, parseSel(t, tc.q), rows)
			if err != nil {
				t.Fatal(err)
			}
			if got := keysOf(r); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	r, err := Evaluate(tb, parseSel(t, "SELECT COUNT(*) FROM t WHERE n IS NOT NULL LIMIT 1"), rows)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 1 || r.Groups[0][0][0].I != 3 {
		t.Errorf("COUNT(*) LIMIT 1: got %v, want one row of 3", r.Groups)
	}
	r, err = Evaluate(tb, parseSel(t, "SELECT COUNT(*) FROM t LIMIT 0"), rows)
	if err != nil || r.Len() != 0 {
		t.Errorf("COUNT(*) LIMIT 0: got %v rows (%v), want none", r.Len(), err)
	}
	r, err = Evaluate(tb, parseSel(t, "SELECT _ts, n FROM t WHERE k = 'b'"), rows)
	if err != nil {
		t.Fatal(err)
	}
	if got := RowText(r.Groups[0][0]); got != "(TIMESTAMP:'1970-01-01 00:00:02.000', BIGINT:7)" {
		t.Errorf("SELECT _ts, n: got %s", got)
	}
	if _, err := Evaluate(tb, parseSel(t, "SELECT * FROM t VERSIONS 3"), rows); err == nil {
		t.Error("VERSIONS 3: want an error, the reference does not model it")
	}
}

func TestTruthTables(t *testing.T) {
	F, T, U := triFalse, triTrue, triUnknown
	for _, tc := range []struct{ a, b, and, or tri }{
		{F, F, F, F}, {F, T, F, T}, {F, U, F, U},
		{T, F, F, T}, {T, T, T, T}, {T, U, U, T},
		{U, F, F, U}, {U, T, U, T}, {U, U, U, U},
	} {
		t.Run(tc.a.String()+","+tc.b.String(), func(t *testing.T) {
			if got := and3(tc.a, tc.b); got != tc.and {
				t.Errorf("AND: got %s, want %s", got, tc.and)
			}
			if got := or3(tc.a, tc.b); got != tc.or {
				t.Errorf("OR: got %s, want %s", got, tc.or)
			}
		})
	}
	for a, want := range map[tri]tri{F: T, T: F, U: U} {
		if got := not3(a); got != want {
			t.Errorf("NOT %s: got %s, want %s", a, got, want)
		}
	}
}

func TestLike(t *testing.T) {
	for _, tc := range []struct {
		s, p string
		want bool
	}{
		{"abc", "abc", true},
		{"abc", "ab", false},
		{"abc", "a%", true},
		{"abc", "%c", true},
		{"abc", "%b%", true},
		{"abc", "a_c", true},
		{"abc", "_", false},
		{"abc", "___", true},
		{"abc", "____", false},
		{"", "%", true},
		{"", "", true},
		{"", "_", false},
		{"abcabd", "%abd", true},
		{"abcabd", "%ab_", true},
		{"mississippi", "%iss%ppi", true},
		{"mississippi", "m%iss%iss%", true},
		{"mississippi", "m%iss%iss%iss%", false},
		{"ab", "%%%b", true},
		{"host12", "host1%", true},
		{"host12", "host1", false},
		{"host12", "host1_", true},
		{"a\nb", "a_b", true},
		{"a\nb", "a%b", true},
		{".*", ".*", true},
		{"abc", ".*", false},
		{"a+b", "a+b", true},
		{"aab", "a+b", false},
		{`a\b`, `a\b`, true},
		{"héllo", "h_llo", true},
		{"héllo", "h__llo", false},
		{"日本", "__", true},
	} {
		t.Run(fmt.Sprintf("%q LIKE %q", tc.s, tc.p), func(t *testing.T) {
			if got, err := likeText(tc.s, tc.p, ""); err != nil || got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// Over BYTES, _ is one byte.
	for _, tc := range []struct {
		b    []byte
		p    string
		want bool
	}{
		{[]byte("héllo"), "h__llo", true},
		{[]byte("héllo"), "h_llo", false},
		{[]byte{0, 0xff}, "__", true},
		{[]byte{0, 0xff}, "%", true},
		{[]byte{0, 0xff}, "_", false},
	} {
		if got, err := likeBytes(tc.b, tc.p, ""); err != nil || got != tc.want {
			t.Errorf("%x LIKE %q: got %v, want %v", tc.b, tc.p, got, tc.want)
		}
	}
	// ESCAPE makes the next character stand for itself.
	for _, tc := range []struct {
		s, p, esc string
		want      bool
	}{
		{"web1_", `web1\_`, `\`, true},
		{"web12", `web1\_`, `\`, false},
		{"a%", "a!%", "!", true},
		{"ab", "a!%", "!", false},
		{"a!b", "a!!_", "!", true},
		{"a\x00_", "a__", "", true},
		{"a_b", "a__b", "_", true},
	} {
		if got, err := likeText(tc.s, tc.p, tc.esc); err != nil || got != tc.want {
			t.Errorf("%q LIKE %q ESCAPE %q: got %v (%v), want %v", tc.s, tc.p, tc.esc, got, err, tc.want)
		}
	}
	if _, err := likeText("a", "a!", "!"); err == nil {
		t.Error("a pattern ending with its escape must be an error")
	}
	if got, err := likeBytes([]byte("a%"), "a#%", "#"); err != nil || !got {
		t.Errorf("bytes with ESCAPE: got %v, %v", got, err)
	}
}

func TestCompareValues(t *testing.T) {
	i := func(n int64) val { return val{k: kNum, isInt: true, i: n} }
	f := func(x float64) val { return val{k: kNum, f: x} }
	s := func(x string) val { return val{k: kStr, s: x} }
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		a, b val
		want int
	}{
		{"1 = 1.0", i(1), f(1), 0},
		{"3 > 2.5", i(3), f(2.5), 1},
		{"-3 < -2.5", i(-3), f(-2.5), -1},
		{"2^53+1 > 2^53 as a double", i(1<<53 + 1), f(1 << 53), 1},
		{"maxint < 2^63", i(math.MaxInt64), f(0x1p63), -1},
		{"minint = -2^63", i(math.MinInt64), f(-0x1p63), 0},
		{"-inf < minint", f(math.Inf(-1)), i(math.MinInt64), -1},
		{"-0 = 0", f(math.Copysign(0, -1)), f(0), 0},
		{"NaN = NaN", f(nan), f(nan), 0},
		{"NaN > +inf", f(nan), f(inf), 1},
		{"NaN > maxint", f(nan), i(math.MaxInt64), 1},
		{"1 < NaN", f(1), f(nan), -1},
		{"text by bytes: Z < a", s("Z"), s("a"), -1},
		{"text by bytes: a < é", s("a"), s("é"), -1},
		{"prefix first", s("host1"), s("host12"), -1},
		{"text against bytes", s("ab"), val{k: kBytes, b: []byte("ab")}, 0},
		{"bytes unsigned", val{k: kBytes, b: []byte{0x7f}}, val{k: kBytes, b: []byte{0x80}}, -1},
		{"false < true", val{k: kBool}, val{k: kBool, i: 1}, -1},
		{"date promoted to timestamp", val{k: kTime, i: 86_400_000}, val{k: kTime, i: 86_400_001}, -1},
		{"a number text cast", i(10), s("9"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := compareVals(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
	if _, err := compareVals(i(1), val{k: kTime, i: 1}); err == nil {
		t.Error("a number against a time: want an error")
	}
	if _, err := compareVals(i(1), s("x")); err == nil {
		t.Error("a number against 'x': want an error")
	}
}

// TestCompareCatchesWrongResults proves that the comparison can fail:
// each deliberately wrong result must be reported, and each right one
// (ties in any order, any tied row at a LIMIT's cut) accepted.
func TestCompareCatchesWrongResults(t *testing.T) {
	tb, rows := testRows(t)
	want, err := Evaluate(tb, parseSel(t, "SELECT k, n FROM t WHERE n IS NOT NULL ORDER BY n"), rows)
	if err != nil {
		t.Fatal(err)
	}
	right := slices.Concat(want.Groups...)
	if err := Compare(right, want); err != nil {
		t.Fatalf("the reference's own rows: %v", err)
	}
	row := func(k string, n int64) catalog.Row { return catalog.Row{catalog.String(k), catalog.Bigint(n)} }
	for _, tc := range []struct {
		name string
		got  []catalog.Row
	}{
		{"a row missing", right[:2]},
		{"a row too many", append(slices.Clone(right), row("a", 5))},
		{"a row twice, one missing", []catalog.Row{right[0], right[1], right[1]}},
		{"a wrong value", []catalog.Row{right[0], row("a", 6), right[2]}},
		{"a wrong type", []catalog.Row{right[0], {catalog.String("a"), catalog.Int(5)}, right[2]}},
		{"out of order", []catalog.Row{right[1], right[0], right[2]}},
		{"a NULL for a value", []catalog.Row{right[0], right[1], {catalog.String("b"), catalog.Null(catalog.TypeBigint)}}},
		{"none", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Compare(tc.got, want); err == nil {
				t.Errorf("%v passed as %v", tc.got, right)
			}
		})
	}

	// Ties: with ORDER BY s, rows a and b are apart but with ORDER BY a
	// constant they tie, and LIMIT 1 may return either.
	tied, err := Evaluate(tb, parseSel(t, "SELECT k FROM t WHERE n > 0 ORDER BY k LIMIT 1"), rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := Compare([]catalog.Row{{catalog.String("b")}}, tied); err == nil {
		t.Error("ORDER BY k LIMIT 1 accepted b, want a")
	}
	anyOf, err := Evaluate(tb, parseSel(t, "SELECT k FROM t WHERE n > 0 LIMIT 1"), rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} {
		if err := Compare([]catalog.Row{{catalog.String(k)}}, anyOf); err != nil {
			t.Errorf("LIMIT 1 without ORDER BY refused %s: %v", k, err)
		}
	}
	if err := Compare([]catalog.Row{{catalog.String("d")}}, anyOf); err == nil {
		t.Error("LIMIT 1 accepted d, which does not match")
	}
}

// TestEvaluateBigintSums: an integer SUM fails only when its total does
// not fit a BIGINT, though partial sums in row order overflow; AVG never
// fails.
func TestEvaluateBigintSums(t *testing.T) {
	tb, _ := testRows(t)
	row := func(k string, n int64) catalog.Row {
		return catalog.Row{catalog.String(k), catalog.Null(catalog.TypeString), catalog.Bigint(n), catalog.Null(catalog.TypeDouble), catalog.TimestampMillis(0)}
	}
	rows := []catalog.Row{row("a", math.MaxInt64), row("b", math.MaxInt64), row("c", math.MinInt64), row("d", math.MinInt64)}
	r, err := Evaluate(tb, parseSel(t, "SELECT SUM(n), AVG(n) FROM t"), rows)
	if err != nil {
		t.Fatal(err)
	}
	if got := RowText(r.Groups[0][0]); got != "(BIGINT:-2, DOUBLE:-0.5)" {
		t.Errorf("SUM, AVG past both ends: got %s", got)
	}
	r, err = Evaluate(tb, parseSel(t, "SELECT AVG(n) FROM t WHERE k < 'c'"), rows)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Groups[0][0][0]; got.F != math.MaxInt64 {
		t.Errorf("AVG of two MaxInt64: got %v", got)
	}
	if _, err := Evaluate(tb, parseSel(t, "SELECT SUM(n) FROM t WHERE k < 'c'"), rows); err == nil {
		t.Error("SUM of two MaxInt64: want an overflow")
	}
}

// TestEvaluateConditionOverflow: a condition over a value that cannot be
// computed fails the query, unless the row is kept or dropped whatever
// that value's truth: a FALSE or UNKNOWN term of an AND, a TRUE one of an
// OR.
func TestEvaluateConditionOverflow(t *testing.T) {
	tb, _ := testRows(t)
	rows := []catalog.Row{
		{catalog.String("a"), catalog.String("o1"), catalog.Bigint(math.MaxInt64), catalog.Null(catalog.TypeDouble), catalog.TimestampMillis(0)},
		{catalog.String("b"), catalog.Null(catalog.TypeString), catalog.Bigint(5), catalog.Null(catalog.TypeDouble), catalog.TimestampMillis(0)},
	}
	for _, tc := range []struct {
		where string
		want  int // rows; -1 for an error
	}{
		{"n + 1 > 0", -1},
		{"NOT (n + 1 > 0)", -1},
		{"n + 1 > 0 AND s = 'o1'", -1},
		{"n + 1 > 0 AND k = 'b'", 1},
		{"n + 1 > 0 AND s IS NULL", 1},
		{"s = 'o1' OR n + 1 > 0", 2},
		{"s = 'o2' OR n + 1 > 0", -1},
		{"(d > 0 AND n + 1 > 0) OR k = 'b'", 1},
		{"NOT (d > 0 AND n + 1 > 0)", -1},
		{"NOT (d > 0 OR n + 1 > 0)", 0},
		{"(CASE WHEN n + 1 > 0 THEN 1 ELSE 0 END) = 1", -1},
		{"(CASE WHEN k = 'a' AND n + 1 > 0 THEN 1 ELSE 0 END) = 1", -1},
		{"(CASE WHEN k = 'c' AND n + 1 > 0 THEN 1 ELSE 0 END) = 0", 2},
	} {
		q := "SELECT k FROM t WHERE " + tc.where
		r, err := Evaluate(tb, parseSel(t, q), rows)
		switch {
		case tc.want < 0 && !errors.Is(err, errRefOverflow):
			t.Errorf("%s: got %v, want an overflow", q, err)
		case tc.want >= 0 && err != nil:
			t.Errorf("%s: %v", q, err)
		case tc.want >= 0 && r.Len() != tc.want:
			t.Errorf("%s: got %d rows, want %d", q, r.Len(), tc.want)
		}
	}
}
