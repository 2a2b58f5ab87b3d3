package hbasestore

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase/filter"
)

// splitYAML has one stored column per encoding that SplitFilter tells
// apart, and a key with a delimited text field, a binary number and a
// text field running to the end of the key.
const splitYAML = `
tables:
  - name: t
    families:
      - {name: d}
    columns:
      - {name: k, type: STRING}
      - {name: id, type: BIGINT}
      - {name: tail, type: STRING}
      - {name: s, type: STRING, column: "d:s"}
      - {name: ts_text, type: STRING, column: "d:st", encoding: text}
      - {name: b, type: BIGINT, column: "d:b"}
      - {name: tb, type: BIGINT, column: "d:tb", encoding: text}
      - {name: f, type: DOUBLE, column: "d:f"}
      - {name: tf, type: DOUBLE, column: "d:tf", encoding: text}
      - {name: bo, type: BOOLEAN, column: "d:bo"}
      - {name: i, type: INT, column: "d:i"}
      - {name: dt, type: DATE, column: "d:dt", encoding: text}
      - {name: fk, type: STRING}
    rowkey:
      - {field: k}
      - {literal: "|"}
      - {field: id, encoding: binary}
      - {field: fk, width: 4, pad: "_"}
      - {field: tail}
`

func splitTable(t *testing.T) *catalog.Table {
	t.Helper()
	cat, err := catalog.Parse([]byte(splitYAML))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("t")
	return tb
}

func TestSplitFilter(t *testing.T) {
	tb := splitTable(t)
	col := func(name string) int {
		i, ok := tb.Column(name)
		if !ok {
			t.Fatalf("no column %s", name)
		}
		return i
	}
	cmp := func(name string, op expr.CmpOp, v catalog.Value) expr.Expr {
		return &expr.Cmp{Col: col(name), Name: name, Op: op, Val: v}
	}
	str, big := catalog.String, catalog.Bigint
	regexp := func(c int, name, pat string) expr.Expr {
		re, err := expr.CompileJavaRegex(pat)
		if err != nil {
			t.Fatal(err)
		}
		return &expr.RegexpMatch{Col: c, Name: name, Re: re}
	}
	cases := []struct {
		e    expr.Expr
		want string // a substring of the How line, or of the Why line when kept
		kept bool
	}{
		// Stored columns whose bytes are canonical and sort like values.
		{cmp("s", expr.Eq, str("paid")), "SingleColumnValueFilter(d:s = 'paid', filterIfMissing)", false},
		{cmp("s", expr.Ne, str("paid")), "SingleColumnValueFilter(d:s != 'paid', filterIfMissing)", false},
		{cmp("ts_text", expr.Lt, str("m")), "SingleColumnValueFilter(d:st < 'm', filterIfMissing)", false},
		{&expr.Between{Col: col("s"), Name: "s", Lo: str("a"), Hi: str("c")}, "MUST_PASS_ALL", false},
		{&expr.Between{Col: col("s"), Name: "s", Lo: str("a"), Hi: str("c"), Not: true}, "MUST_PASS_ONE", false},
		{&expr.In{Col: col("s"), Name: "s", Vals: []catalog.Value{str("a"), str("b")}}, "FilterList(MUST_PASS_ONE: SingleColumnValueFilter(d:s = 'a'", false},
		{&expr.In{Col: col("s"), Name: "s", Vals: []catalog.Value{str("a"), catalog.Null(catalog.TypeString)}}, "SingleColumnValueFilter(d:s = 'a', filterIfMissing)", false},
		{&expr.In{Col: col("s"), Name: "s", Vals: []catalog.Value{str("a"), catalog.Null(catalog.TypeString)}, Not: true}, "NOT IN a list holding NULL", true},
		{&expr.IsNull{Col: col("f"), Name: "f"}, "SingleColumnValueFilter(d:f < '' (IS NULL))", false},
		{&expr.IsNull{Col: col("tf"), Name: "tf", Not: true}, "SingleColumnValueFilter(d:tf >= '' (IS NOT NULL), filterIfMissing)", false},
		{expr.NewLike(col("s"), "s", "pa%d", false), `=~ RegexStringComparator('\Apa`, false},
		{expr.NewLike(col("s"), "s", "pa_", true), `!~ RegexStringComparator(`, false},
		{regexp(col("s"), "s", "[2-4]{4}"), "SingleColumnValueFilter(d:s =~ RegexStringComparator('[2-4]{4}'), filterIfMissing)", false},
		{&expr.Not{X: regexp(col("s"), "s", "x")}, "SingleColumnValueFilter(d:s !~ RegexStringComparator('x'), filterIfMissing)", false},
		{regexp(col("ts_text"), "ts_text", "^a.b"), "SingleColumnValueFilter(d:st =~ RegexStringComparator('^a.b'), filterIfMissing)", false},
		// Binary integers: one byte form, but negative values sort high.
		{cmp("b", expr.Eq, big(-5)), "SingleColumnValueFilter(d:b = -5, filterIfMissing)", false},
		{cmp("i", expr.Eq, big(7)), "SingleColumnValueFilter(d:i = 7", false},
		{cmp("i", expr.Eq, big(1<<40)), "does not fit", true},
		// Ordered comparisons on them are split at zero into byte ranges.
		{cmp("b", expr.Gt, big(5)), "FilterList(MUST_PASS_ALL: SingleColumnValueFilter(d:b >= 6, filterIfMissing), SingleColumnValueFilter(d:b <= 9223372036854775807, filterIfMissing))", false},
		{cmp("b", expr.Lt, big(-5)), "SingleColumnValueFilter(d:b >= -9223372036854775808, filterIfMissing), SingleColumnValueFilter(d:b <= -6, filterIfMissing)", false},
		{&expr.Between{Col: col("b"), Name: "b", Lo: big(-5), Hi: big(9)},
			"FilterList(MUST_PASS_ONE: FilterList(MUST_PASS_ALL: SingleColumnValueFilter(d:b >= -5, filterIfMissing), SingleColumnValueFilter(d:b <= -1, filterIfMissing)), " +
				"FilterList(MUST_PASS_ALL: SingleColumnValueFilter(d:b >= 0, filterIfMissing), SingleColumnValueFilter(d:b <= 9, filterIfMissing)))", false},
		{&expr.Between{Col: col("b"), Name: "b", Lo: big(1), Hi: big(9), Not: true}, "d:b <= 0, filterIfMissing)), FilterList(MUST_PASS_ALL: SingleColumnValueFilter(d:b >= 10", false},
		{cmp("i", expr.Le, big(1<<40)), "d:i >= -2147483648, filterIfMissing), SingleColumnValueFilter(d:i <= -1,", false},
		{cmp("i", expr.Gt, big(1<<40)), "no value of the column satisfies it", true},
		{cmp("b", expr.Lt, big(math.MinInt64)), "no value of the column satisfies it", true},
		{&expr.Between{Col: col("b"), Name: "b", Lo: big(9), Hi: big(1)}, "no value of the column satisfies it", true},
		// Text numbers have several byte forms.
		{cmp("tb", expr.Eq, big(7)), "tb is a text-encoded BIGINT, which others may write as '7', '07' or '+7' alike: = stays in the client", true},
		{cmp("tf", expr.Lt, catalog.Double(5)), "tf is a text-encoded DOUBLE, written as '1', '1.0' or '1e0' alike, whose bytes do not sort like its values: < stays in the client", true},
		{cmp("f", expr.Eq, catalog.Double(5)), "0 and -0", true},
		{cmp("bo", expr.Eq, catalog.Bool(true)), "any non-zero byte", true},
		{cmp("dt", expr.Ge, catalog.DateDays(100)), "SingleColumnValueFilter(d:dt >= '1970-04-11'", false},
		{expr.NewLike(col("b"), "b", "1%", false), "LIKE reads text", true},
		{cmp("s", expr.Eq, catalog.Null(catalog.TypeString)), "never true", true},
		{cmp("s", expr.Eq, big(1)), "is BIGINT", true},
		// NOT: rewritten where exact, De Morgan through AND and OR.
		{&expr.Not{X: cmp("s", expr.Eq, str("x"))}, "SingleColumnValueFilter(d:s != 'x', filterIfMissing)", false},
		{&expr.Not{X: &expr.Or{Terms: []expr.Expr{cmp("s", expr.Eq, str("x")), &expr.IsNull{Col: col("f"), Name: "f"}}}},
			"FilterList(MUST_PASS_ALL: SingleColumnValueFilter(d:s != 'x', filterIfMissing), SingleColumnValueFilter(d:f >= '' (IS NOT NULL), filterIfMissing))", false},
		{&expr.Not{X: &expr.Const{V: expr.True}}, "NOT (TRUE)", true},
		{&expr.Or{Terms: []expr.Expr{cmp("s", expr.Eq, str("x")), cmp("tb", expr.Eq, big(1))}}, "text-encoded BIGINT", true},
		// Key fields: a row filter over the whole layout.
		{cmp("k", expr.Eq, str("s1")), `RowFilter(key =~ '\As1\x7c')`, false},
		{cmp("k", expr.Ne, str("s1")), `RowFilter(key !~ '\As1\x7c')`, false},
		{cmp("id", expr.Eq, big(1)), `RowFilter(key =~ '\A[^\x7c]*\x7c\x80\x00\x00\x00\x00\x00\x00\x01')`, false},
		{&expr.In{Col: col("id"), Name: "id", Vals: []catalog.Value{big(1), big(2)}}, `(?:\x80\x00\x00\x00\x00\x00\x00\x01|\x80`, false},
		{cmp("fk", expr.Eq, str("ab")), `[\x00-\xff]{8}ab\x5f\x5f')`, false},
		{cmp("tail", expr.Eq, str("z")), `[\x00-\xff]{4}z\z')`, false},
		{expr.NewLike(col("k"), "k", "s%", false), `RowFilter(key =~ '\As<char not \x7c>*\x7c')`, false},
		{expr.NewLike(col("tail"), "tail", "%z", true), `RowFilter(key !~ '\A[^\x7c]*\x7c[\x00-\xff]{8}[\x00-\xff]{4}<char>*z\z')`, false},
		{expr.NewLike(col("k"), "k", "a|%", false), "holds the delimiter", true},
		{expr.NewLike(col("fk"), "fk", "a%", false), "fixed-width padded text", true},
		{cmp("k", expr.Gt, str("s1")), "the scan ranges' to narrow", true},
		{cmp("k", expr.Eq, str("a|b")), "no key holds it", true},
		{&expr.IsNull{Col: col("k"), Name: "k"}, "no row filter", true},
		{cmp("k", expr.Eq, catalog.Bytes([]byte("s1"))), "is BYTES", true},
		// The _ts pseudo-column.
		{&expr.Cmp{Col: tb.TsIndex(), Name: "_ts", Op: expr.Gt, Val: catalog.TimestampMillis(1)}, "_ts is the newest timestamp", true},
	}
	for _, c := range cases {
		t.Run(c.e.String(), func(t *testing.T) {
			sp := Pushdown{}.SplitFilter(tb, c.e, 1)
			if c.kept {
				if sp.Server != nil || sp.Client != c.e || len(sp.Why) != 1 {
					t.Fatalf("split %+v, want it all kept in the client", sp)
				}
				if !strings.Contains(sp.Why[0], c.want) {
					t.Errorf("why %q, want it to say %q", sp.Why[0], c.want)
				}
				return
			}
			if sp.Client != nil || sp.Server != c.e || len(sp.How) != 1 {
				t.Fatalf("split %+v, want it all on the server", sp)
			}
			if !strings.Contains(sp.How[0], c.want) {
				t.Errorf("how %q, want it to contain %q", sp.How[0], c.want)
			}
		})
	}
}

// TestSplitFilterConjuncts splits a conjunction part by part, and keeps
// everything in the client for a read of several versions.
func TestSplitFilterConjuncts(t *testing.T) {
	tb := splitTable(t)
	s, _ := tb.Column("s")
	tbc, _ := tb.Column("tb")
	pushed := &expr.Cmp{Col: s, Name: "s", Op: expr.Eq, Val: catalog.String("x")}
	kept := &expr.Cmp{Col: tbc, Name: "tb", Op: expr.Eq, Val: catalog.Bigint(1)}
	f := &expr.And{Terms: []expr.Expr{pushed, kept}}
	sp := Pushdown{}.SplitFilter(tb, f, 1)
	if sp.Server != pushed || sp.Client != kept || len(sp.How) != 1 || len(sp.Why) != 1 {
		t.Fatalf("split %+v, want s on the server and tb in the client", sp)
	}
	sp = Pushdown{}.SplitFilter(tb, f, 3)
	if sp.Server != nil || sp.Client != f || !strings.Contains(sp.Why[0], "VERSIONS") {
		t.Fatalf("split over 3 versions %+v, want all in the client", sp)
	}
	// The store refuses a read carrying what it would not take.
	for _, o := range []exec.ReadOptions{
		{Table: tb, Filter: kept},
		{Table: tb, Filter: pushed, Versions: 2},
		{Filter: pushed},
		{Columns: []int{s}},
	} {
		if err := checkPushable(o); !errors.Is(err, exec.ErrNotPushable) {
			t.Errorf("checkPushable(%+v) = %v, want exec.ErrNotPushable", o, err)
		}
	}
	for _, o := range []exec.ReadOptions{{}, {Table: tb, Filter: f.Terms[0], Columns: []int{}}, {Limit: 3}} {
		if err := checkPushable(o); err != nil {
			t.Errorf("checkPushable(%+v) = %v, want nil", o, err)
		}
	}
}

// TestReadOptions checks that a projection fetches the columns the
// filter tests, and that a keys-only read without a filter moves keys.
func TestReadOptions(t *testing.T) {
	tb := splitTable(t)
	s, _ := tb.Column("s")
	b, _ := tb.Column("b")
	eq := &expr.Cmp{Col: s, Name: "s", Op: expr.Eq, Val: catalog.String("x")}
	got := projection(exec.ReadOptions{Table: tb, Columns: []int{b}, Filter: eq}, []int{s})
	txt := fmtFilter(got)
	for _, want := range []string{"FirstKeyOnly", "Qualifier!=b", "Qualifier!=s", "KeyOnly", "Qualifier=b", "Qualifier=s"} {
		if !strings.Contains(txt, want) {
			t.Errorf("projection %s lacks %s", txt, want)
		}
	}
	if txt := fmtFilter(projection(exec.ReadOptions{Table: tb, Columns: []int{}}, nil)); txt != "And(FirstKeyOnly, KeyOnly)" {
		t.Errorf("keys-only projection %s", txt)
	}
}

// fmtFilter renders the filters projection builds.
func fmtFilter(f filter.Filter) string {
	switch x := f.(type) {
	case filter.List:
		parts := make([]string, len(x.Filters))
		for i, s := range x.Filters {
			parts[i] = fmtFilter(s)
		}
		name := "And"
		if x.Operator == filter.MustPassOne {
			name = "Or"
		}
		return name + "(" + strings.Join(parts, ", ") + ")"
	case filter.FirstKeyOnly:
		return "FirstKeyOnly"
	case filter.KeyOnly:
		return "KeyOnly"
	case filter.Qualifier:
		op := "="
		if x.Op == filter.NotEqual {
			op = "!="
		}
		return "Qualifier" + op + string(x.Comparator.(filter.Binary).Value)
	}
	return "?"
}

// TestExpandChars checks that the regex sent to the server spells out
// each character placeholder, with the delimiter left out of one-byte
// characters.
func TestExpandChars(t *testing.T) {
	re, err := likeRegex("a_%", 0x7c)
	if err != nil {
		t.Fatal(err)
	}
	got := expandChars(re)
	one := `(?:` + utf8Seq + `|(?!` + utf8Seq + `)[^\x7c])`
	if want := "a" + one + one + "*"; got != want {
		t.Errorf("expandChars(%q) = %q, want %q", re, got, want)
	}
	re, _ = likeRegex("<char>%", -1)
	if got := expandChars(re); got != `\x3cchar\x3e(?:`+utf8Seq+`|(?!`+utf8Seq+`)[\x00-\xff])*` {
		t.Errorf("a pattern spelling a placeholder became %q", got)
	}
}

// TestSplitFilterFuzzy checks that equality on key parts at a fixed
// offset is a FuzzyRowFilter on forward reads, and that a reversed read
// and != keep the row filter.
func TestSplitFilterFuzzy(t *testing.T) {
	cat, err := catalog.Parse([]byte(`
tables:
  - name: fx
    families: [{name: d}]
    columns:
      - {name: g, type: INT}
      - {name: n, type: BIGINT}
    rowkey:
      - {field: g, encoding: decimal, width: 2}
      - {field: n, encoding: binary}
`))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("fx")
	eq := &expr.Cmp{Col: 1, Name: "n", Op: expr.Eq, Val: catalog.Bigint(5)}
	sf, err := compile(tb, eq)
	if err != nil {
		t.Fatal(err)
	}
	want := `FuzzyRowFilter(key bytes 2..9 = '\x80\x00\x00\x00\x00\x00\x00\x05') forward, RowFilter(key =~ '\A[\x00-\xff]{2}\x80\x00\x00\x00\x00\x00\x00\x05') reversed`
	if sf.how != want {
		t.Errorf("how %q, want %q", sf.how, want)
	}
	fz, ok := sf.forward.(filter.FuzzyRow)
	if !ok || len(fz.Keys) != 1 || string(fz.Keys[0].Mask) != "\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00" ||
		string(fz.Keys[0].Key[2:]) != "\x80\x00\x00\x00\x00\x00\x00\x05" {
		t.Errorf("forward filter %+v", sf.forward)
	}
	ne := &expr.Cmp{Col: 1, Name: "n", Op: expr.Ne, Val: catalog.Bigint(5)}
	if sf, err := compile(tb, ne); err != nil || sf.forward != nil {
		t.Errorf("!= compiled to %+v, %v; want a row filter alone", sf, err)
	}
	or := &expr.Or{Terms: []expr.Expr{eq, eq}}
	if sf, err := compile(tb, or); err != nil || sf.forward != nil {
		t.Errorf("an OR compiled to %+v, %v; want a row filter list alone", sf, err)
	}
}

// TestSplitFilterLongLists: an IN list or an OR of equalities is pushed
// with up to maxServerTests values, which HBase tests one by one on
// every row; a longer one stays in the client, which looks each row up
// in a hash set.
func TestSplitFilterLongLists(t *testing.T) {
	tb := splitTable(t)
	s, _ := tb.Column("s")
	id, _ := tb.Column("id")
	vals := func(n int, v func(i int) catalog.Value) []catalog.Value {
		out := make([]catalog.Value, n)
		for i := range out {
			out[i] = v(i)
		}
		return out
	}
	str := func(i int) catalog.Value { return catalog.String(fmt.Sprint("v", i)) }
	ors := func(n int) expr.Expr {
		var terms []expr.Expr
		for i := range n {
			terms = append(terms, &expr.Cmp{Col: s, Name: "s", Op: expr.Eq, Val: str(i)})
		}
		return expr.NewOr(terms)
	}
	for _, c := range []struct {
		name string
		e    expr.Expr
		kept bool
	}{
		{"IN of 256 on a stored column", expr.NewIn(s, "s", vals(maxServerTests, str), false), false},
		{"IN of 257 on a stored column", expr.NewIn(s, "s", vals(maxServerTests+1, str), false), true},
		{"NOT IN of 257 on a stored column", expr.NewIn(s, "s", vals(maxServerTests+1, str), true), true},
		{"IN of 257 on a key field", expr.NewIn(id, "id", vals(maxServerTests+1, func(i int) catalog.Value { return catalog.Bigint(int64(i)) }), false), true},
		{"OR of 256", ors(maxServerTests), false},
		{"OR of 257", ors(maxServerTests + 1), true},
	} {
		sp := Pushdown{}.SplitFilter(tb, c.e, 1)
		switch {
		case c.kept && (sp.Server != nil || len(sp.Why) != 1 || !strings.Contains(sp.Why[0], "HBase's filters would test every row against them one by one")):
			t.Errorf("%s: split %v, why %q; want it kept in the client, saying why", c.name, sp.How, sp.Why)
		case !c.kept && (sp.Client != nil || sp.Server != c.e):
			t.Errorf("%s: split %v, why %q; want it all on the server", c.name, sp.How, sp.Why)
		}
	}
}
