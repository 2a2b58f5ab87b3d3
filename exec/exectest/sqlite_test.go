package exectest

import (
	"math"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// TestSQLiteValues writes values of every kind into sqlite3 and reads them
// back through the shell's quote mode: text with quotes, newlines and
// Unicode, blobs with NUL, the integer extremes, the double extremes and
// infinities. An error in the middle of a result must not be read as rows.
func TestSQLiteValues(t *testing.T) {
	db := OpenSQLiteT(t)
	vals := []catalog.Value{
		catalog.String(""), catalog.String("it's"), catalog.String("line\nnext\r\n"), catalog.String("日本語 😀 e\u0301"),
		catalog.String("a,b'c"), catalog.String("NULL"), catalog.Bytes(nil), catalog.Bytes([]byte{0, 0xff, '\''}),
		catalog.Bigint(math.MinInt64), catalog.Bigint(math.MaxInt64), catalog.Bigint(0),
		catalog.Double(math.SmallestNonzeroFloat64), catalog.Double(math.MaxFloat64), catalog.Double(-math.MaxFloat64),
		catalog.Double(math.Inf(1)), catalog.Double(math.Inf(-1)), catalog.Double(0.1), catalog.Double(123456789012.5),
		catalog.Double(1e21), catalog.Null(catalog.TypeString),
	}
	var lits []string
	for _, v := range vals {
		s, err := sqlLiteral(v)
		if err != nil {
			t.Fatal(err)
		}
		lits = append(lits, s)
	}
	rows, err := db.Query("SELECT " + strings.Join(lits, ", "))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || len(rows[0]) != len(vals) {
		t.Fatalf("got %v", rows)
	}
	for i, v := range vals {
		got, err := fromSQL(rows[0][i], v.Type)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if got.String() != v.String() || got.Null != v.Null {
			t.Errorf("%s came back as %s (%s)", v, got, rows[0][i])
		}
	}
	// A runtime error after some rows: an error, not rows.
	if err := db.Exec("CREATE TABLE e (x INTEGER); INSERT INTO e VALUES (1), (2), (9223372036854775807)"); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 5000)
	q := "SELECT '" + big + "', (CASE WHEN typeof(x + 1) = 'real' THEN abs(-9223372036854775808) ELSE x + 1 END) FROM e"
	if rows, err := db.Query(q); err == nil || !strings.Contains(err.Error(), "integer overflow") {
		t.Fatalf("got %d rows and %v, want an integer overflow", len(rows), err)
	}
	// An open quote is refused before it reaches the shell.
	if _, err := db.Query("SELECT 'open"); err == nil {
		t.Fatal("an open quote was sent")
	}
	if rows, err := db.Query(`SELECT 'a"b''c', "x" FROM (SELECT 1 AS "x")`); err != nil || len(rows) != 1 || rows[0][0].S != `a"b'c` {
		t.Fatalf("quotes inside quotes: %v, %v", rows, err)
	}
	// The shell is still in step.
	if rows, err := db.Query("SELECT count(*) FROM e"); err != nil || len(rows) != 1 || rows[0][0].I != 3 {
		t.Fatalf("after the error: %v, %v", rows, err)
	}
}

// TestSQLiteTranslate checks the translation of each construct whose
// meaning differs between the dialects.
func TestSQLiteTranslate(t *testing.T) {
	cat, err := catalog.LoadFile("../../exec/embedded/testdata/layouts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typed, _ := cat.Table("typed")
	javaSigned, _ := cat.Table("java_signed")
	murmured, _ := cat.Table("murmured")
	for _, c := range []struct {
		t      *catalog.Table
		q      string
		want   string // a part of the SQL
		skipTo string // or the difference it is left out by
	}{
		{typed, "SELECT * FROM typed WHERE \"day\" < TIMESTAMP '1970-01-02 00:00:00'", `(("day" * 86400000) < 86400000)`, ""},
		{typed, "SELECT * FROM typed WHERE flag = TRUE", `("flag" = 1)`, ""},
		{typed, "SELECT * FROM typed WHERE \"raw\" = x'00ff'", `("raw" = X'00ff')`, ""},
		{murmured, "SELECT * FROM murmured WHERE score = 'Infinity'", `("score" = 9e999)`, ""},
		{murmured, "SELECT * FROM murmured WHERE score = 'NaN'", "", "nan"},
		{murmured, "SELECT score % 3 FROM murmured", `mod("score", 3)`, ""},
		{murmured, "SELECT SUBSTR(name, -1, 3), SUBSTR(name, 0) FROM murmured", `substr("name", 1, 1), substr("name", 1)`, ""},
		{murmured, "SELECT CAST(score AS STRING) FROM murmured", "", "text-form"},
		{javaSigned, "SELECT id + 1 FROM java_signed", `(CASE WHEN typeof(("id" + 1)) = 'real' THEN abs(-9223372036854775808) ELSE ("id" + 1) END)`, ""},
		{javaSigned, "SELECT * FROM java_signed WHERE (acct, id) IN (('a', 1), ('b', NULL))", `((("acct" = 'a') AND ("id" = 1)) OR (("acct" = 'b') AND ("id" = NULL)))`, ""},
		{javaSigned, "SELECT acct, COUNT(*) FROM java_signed GROUP BY acct ORDER BY COUNT(*) DESC, 1 LIMIT 3", `SELECT "acct", count(*) FROM "java_signed" GROUP BY "acct" ORDER BY 2 DESC, 1`, ""},
		{javaSigned, "SELECT acct FROM java_signed ORDER BY LENGTH(acct)", `SELECT "acct", length("acct") FROM "java_signed" ORDER BY 2`, ""},
		{murmured, "SELECT UPPER(name) FROM murmured", `replace(upper("name"), 'é', 'É')`, ""},
		{javaSigned, "SELECT * FROM java_signed WHERE acct LIKE 'a!_%' ESCAPE '!'", `("acct" LIKE 'a!_%' ESCAPE '!')`, ""},
		{javaSigned, "SELECT DATE_TRUNC('hour', _ts) FROM java_signed", `("_ts" - (("_ts" % 3600000) + 3600000) % 3600000)`, ""},
	} {
		t.Run(c.q, func(t *testing.T) {
			s, err := parseSelect(c.q)
			if err != nil {
				t.Fatal(err)
			}
			tr := newSQLTr(c.t, []catalog.Row{{catalog.String("é")}})
			ss, err := tr.selectSQL(s)
			if c.skipTo != "" {
				if se, ok := err.(*SkipError); !ok || se.Diff != c.skipTo {
					t.Fatalf("got %v, want it left out as %s", err, c.skipTo)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ss.SQL, c.want) {
				t.Fatalf("got\n  %s\nwant it to hold\n  %s", ss.SQL, c.want)
			}
		})
	}
}
