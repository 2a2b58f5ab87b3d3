package exectest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/parser"
)

// This file writes rkql's statements in sqlite's dialect. Each place the
// two languages differ on purpose is either translated (so that sqlite
// computes what rkql means) or refused with a SkipError naming the
// difference; SQLiteDifferences lists them all, with why.

// SkipError says a statement falls outside the subset where rkql and
// sqlite mean the same; Diff is its entry in SQLiteDifferences.
type SkipError struct{ Diff string }

func (e *SkipError) Error() string { return "not comparable with sqlite: " + e.Diff }

func skip(name string) error {
	if _, ok := SQLiteDifferences[name]; !ok {
		panic("exectest: undocumented sqlite difference " + name)
	}
	return &SkipError{Diff: name}
}

// SQLiteDifferences are the deliberate differences between rkql's and
// sqlite's semantics, each with why rkql differs; "Semantics vs SQLite"
// in docs/reference.md says the same. The translated ones are bridged by the
// harness; the others make it skip (and count) the statement.
var SQLiteDifferences = map[string]string{
	// Bridged in translation or comparison.
	"like-case":      "translated: rkql's LIKE is case-sensitive, as HBase compares bytes; sqlite's folds ASCII case unless PRAGMA case_sensitive_like is on (the oracle turns it on)",
	"upper-unicode":  "translated: rkql's UPPER and LOWER map every Unicode letter; sqlite's only ASCII (without ICU), so the oracle adds replace() for each other letter the data holds",
	"substr-start":   "translated: rkql's SUBSTR counts a start below 1 as positions before the string (SQL's rule); sqlite counts a negative start from the end",
	"timestamps":     "translated: rkql has TIMESTAMP (ms) and DATE (days) types; sqlite has none, so they are integers there, DATE_TRUNC is floor arithmetic on them, and a DATE meets a TIMESTAMP as its midnight",
	"booleans":       "translated: rkql's BOOLEAN is a type; sqlite's booleans are the integers 0 and 1",
	"double-mod":     "translated: rkql's % over a DOUBLE is the IEEE remainder (fmod); sqlite's % casts to integers, so the oracle uses mod()",
	"integer-over":   "translated: rkql refuses an integer result that overflows BIGINT; sqlite turns it into a REAL, so the oracle turns that into an error (abs of the smallest integer); an error in both agrees",
	"text-literal":   "translated: rkql reads a text literal compared with a typed column as that type ('Infinity' as a DOUBLE); sqlite compares text with numbers as text, so the oracle converts the literal",
	"row-value-in":   "translated: rkql's (a, b) IN ((…), (…)) is written as an OR of ANDs, which is what the row-value IN means",
	"negative-zero":  "compared: -0.0 equals 0.0 in both, but sqlite stores a REAL zero without its sign, so results compare -0.0 as 0.0",
	"aggregate-sums": "compared: SUM and AVG of DOUBLEs and AVG of integers are compared to 10 significant digits, as their last bits depend on the order rows are summed in",
	"exact-sums":     "translated: rkql adds integers exactly, so SUM fails only when its total does not fit a BIGINT and AVG never; sqlite's SUM fails when a partial sum overflows and its AVG adds in doubles, so the oracle adds with decimal_sum()",
	"overflow-rows":  "skipped: a query with a LIMIT or an OFFSET overflowed an integer in one engine only: which rows a LIMIT stops before or an OFFSET passes over without computing them differ between the engines",
	"overflow-order": "compared as NULL: a condition overflowed an integer in sqlite only: rkql fails only when whether a row is kept depends on the overflowing value (a FALSE or UNKNOWN term of an AND, or a TRUE one of an OR, decides the row without it, whatever the order of the terms, as a store applies some first), while sqlite fails at the first overflow it meets in its own order; the oracle asks sqlite again with an overflowing value NULL within conditions, which must then agree",
	// Outside the compared subset.
	"nan":            "skipped: rkql has NaN, which equals itself and sorts above every number; sqlite has no NaN (it stores NULL), so queries with a NaN literal, or % or sums that make NaN from infinities, are not compared",
	"nul-text":       "not generated: rkql's STRING is bytes and may hold NUL; sqlite's text functions, LIKE and its shell stop at NUL",
	"text-form":      "skipped: || and CAST to STRING of a non-text value use rkql's text forms (a TIMESTAMP as '2024-05-01 12:00:00.000', a DOUBLE as Java prints it), which sqlite does not share",
	"functions":      "skipped: a function or CAST sqlite has no counterpart for",
	"ts-after-write": "not compared: after writes, _ts is the newest cell's timestamp, an HBase notion (an UPDATE of one column moves it) that sqlite's rows do not have",
}

// SQLiteKnownBugs are the differences the oracle found that are rkql's
// faults, each with a reproduction TestSQLiteKnownBugs (exec/embedded)
// runs: it fails once the reproduction agrees with sqlite, so that the
// entry goes when the bug is fixed. The oracle counts each instead of
// failing, so that it checks everything else.
var SQLiteKnownBugs = map[string]SQLiteBug{}

// SQLiteBug is a known rkql bug the oracle found: after Statements, on
// an empty store of Catalog (relative to the module root), Query returns
// other than the Want rows sqlite returns (-1: sqlite, as SQL, fails).
type SQLiteBug struct {
	Why        string
	Catalog    string
	Statements []string
	Query      string
	Want       int
	// OrError, when set, is a part of an error that would fix the bug
	// too (a refusal that says what to do).
	OrError string
}

// sqlTr translates statements over one table.
type sqlTr struct {
	t *catalog.Table
	// upper and lower are the replace() pairs UPPER and LOWER add for the
	// non-ASCII letters the data holds.
	upper, lower [][2]string
	// condNull makes an integer overflow NULL rather than an error in
	// WHERE and HAVING (overflow-order).
	condNull bool
	inCond   bool
}

// newSQLTr returns a translator for t whose rows are rows.
func newSQLTr(t *catalog.Table, rows []catalog.Row) *sqlTr {
	tr := &sqlTr{t: t}
	seen := map[rune]bool{}
	for _, r := range rows {
		for _, v := range r {
			if v.Null || v.Type != catalog.TypeString {
				continue
			}
			for _, c := range v.S {
				if c < 0x80 || seen[c] {
					continue
				}
				seen[c] = true
				if u := unicode.ToUpper(c); u != c {
					tr.upper = append(tr.upper, [2]string{string(c), string(u)})
				}
				if l := unicode.ToLower(c); l != c {
					tr.lower = append(tr.lower, [2]string{string(c), string(l)})
				}
			}
		}
	}
	return tr
}

// quoteIdent quotes a name for sqlite.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// sqlType is the SQL type of x as rkql types it.
func (tr *sqlTr) sqlType(x parser.Expr) catalog.Type {
	switch x := x.(type) {
	case *parser.ColumnRef:
		if x.Name == ref.TSColumn {
			return catalog.TypeTimestamp
		}
		if i, ok := tr.t.Column(x.Name); ok {
			return tr.t.Columns[i].Type
		}
	case *parser.BinaryExpr:
		switch x.Op {
		case parser.OpAdd, parser.OpSub:
			if _, iv := x.RHS.(*parser.IntervalLit); iv {
				return catalog.TypeTimestamp
			}
		}
	case *parser.CallExpr:
		if x.Name == "MIN" || x.Name == "MAX" {
			return tr.sqlType(x.Args[0])
		}
	}
	return ref.Type(tr.t, x)
}

// literal renders v as a sqlite literal: a TIMESTAMP as ms, a DATE as
// days, a BOOLEAN as 0 or 1.
func sqlLiteral(v catalog.Value) (string, error) {
	if v.Null {
		return "NULL", nil
	}
	switch v.Type {
	case catalog.TypeString:
		if strings.IndexByte(v.S, 0) >= 0 {
			return "", skip("nul-text")
		}
		return sqlText(v.S), nil
	case catalog.TypeDouble:
		return sqlFloat(v.F)
	case catalog.TypeBytes:
		return fmt.Sprintf("X'%x'", v.B), nil
	}
	return strconv.FormatInt(v.I, 10), nil
}

// sqlText quotes s, its control characters as char(n): the shell reads
// its input by lines, and would drop a carriage return before a newline.
func sqlText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 }) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	var parts []string
	var b strings.Builder
	for _, r := range s {
		if r >= 0x20 {
			b.WriteRune(r)
			continue
		}
		if b.Len() > 0 {
			parts = append(parts, "'"+strings.ReplaceAll(b.String(), "'", "''")+"'")
			b.Reset()
		}
		parts = append(parts, fmt.Sprintf("char(%d)", r))
	}
	if b.Len() > 0 {
		parts = append(parts, "'"+strings.ReplaceAll(b.String(), "'", "''")+"'")
	}
	return "(" + strings.Join(parts, " || ") + ")"
}

func sqlFloat(f float64) (string, error) {
	switch {
	case math.IsNaN(f):
		return "", skip("nan")
	case math.IsInf(f, 1):
		return "9e999", nil
	case math.IsInf(f, -1):
		return "-9e999", nil
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s, nil
}

// exprAs renders x for a context of type want: a DATE where a TIMESTAMP
// is wanted becomes its midnight's ms, and a text literal becomes a
// value of the wanted type.
func (tr *sqlTr) exprAs(x parser.Expr, want catalog.Type) (string, error) {
	if s, ok := x.(*parser.StringLit); ok && want != catalog.TypeString && want != catalog.TypeInvalid {
		v, err := catalog.ParseText(want, s.Val)
		if err != nil {
			return "", fmt.Errorf("translate: %w", err)
		}
		return sqlLiteral(v)
	}
	out, err := tr.expr(x)
	if err != nil {
		return "", err
	}
	if want == catalog.TypeTimestamp && tr.sqlType(x) == catalog.TypeDate {
		return "(" + out + " * 86400000)", nil
	}
	return out, nil
}

// common is the type two compared expressions meet in.
func (tr *sqlTr) common(xs ...parser.Expr) catalog.Type {
	out := catalog.TypeInvalid
	for _, x := range xs {
		if _, lit := x.(*parser.StringLit); lit {
			continue
		}
		switch t := tr.sqlType(x); {
		case t == catalog.TypeInvalid:
		case out == catalog.TypeInvalid, t == catalog.TypeTimestamp && out == catalog.TypeDate:
			out = t
		}
	}
	if out == catalog.TypeInvalid {
		return catalog.TypeString
	}
	return out
}

// list renders xs in the type they meet in, joined by sep.
func (tr *sqlTr) list(want catalog.Type, sep string, xs ...parser.Expr) (string, error) {
	parts := make([]string, len(xs))
	for i, x := range xs {
		s, err := tr.exprAs(x, want)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return strings.Join(parts, sep), nil
}

var sqlOps = map[parser.BinaryOp]string{
	parser.OpEq: "=", parser.OpNe: "<>", parser.OpLt: "<", parser.OpLe: "<=", parser.OpGt: ">", parser.OpGe: ">=",
	parser.OpAnd: "AND", parser.OpOr: "OR", parser.OpAdd: "+", parser.OpSub: "-", parser.OpMul: "*",
	parser.OpDiv: "/", parser.OpMod: "%", parser.OpConcat: "||",
}

// checked makes an integer result that sqlite turned into a REAL (an
// overflow) an error, as rkql's is; or NULL within a condition, with
// condNull.
func (tr *sqlTr) checked(e string) string {
	if tr.condNull && tr.inCond {
		return "(CASE WHEN typeof(" + e + ") = 'real' THEN NULL ELSE " + e + " END)"
	}
	return "(CASE WHEN typeof(" + e + ") = 'real' THEN abs(-9223372036854775808) ELSE " + e + " END)"
}

// cond renders a WHERE or HAVING condition.
func (tr *sqlTr) cond(x parser.Expr) (string, error) {
	tr.inCond = true
	defer func() { tr.inCond = false }()
	return tr.expr(x)
}

// expr renders one expression.
func (tr *sqlTr) expr(x parser.Expr) (string, error) {
	switch x := x.(type) {
	case *parser.ColumnRef:
		return quoteIdent(x.Name), nil
	case *parser.IntLit:
		return strconv.FormatInt(x.Val, 10), nil
	case *parser.FloatLit:
		return sqlFloat(x.Val)
	case *parser.StringLit:
		return sqlLiteral(catalog.String(x.Val))
	case *parser.BoolLit:
		return sqlLiteral(catalog.Bool(x.Val))
	case *parser.NullLit:
		return "NULL", nil
	case *parser.BytesLit:
		return sqlLiteral(catalog.Bytes(x.Val))
	case *parser.TimestampLit:
		return strconv.FormatInt(x.Val.UnixMilli(), 10), nil
	case *parser.DateLit:
		return strconv.FormatInt(catalog.Date(x.Val).I, 10), nil
	case *parser.BinaryExpr:
		return tr.binary(x)
	case *parser.UnaryExpr:
		s, err := tr.expr(x.X)
		if err != nil {
			return "", err
		}
		if x.Op == parser.OpNot {
			return "(NOT " + s + ")", nil
		}
		if tr.sqlType(x.X) == catalog.TypeDouble {
			return "(- " + s + ")", nil
		}
		return tr.checked("(- " + s + ")"), nil
	case *parser.BetweenExpr:
		s, err := tr.list(tr.common(x.X, x.Lo, x.Hi), " AND ", x.X, x.Lo, x.Hi)
		if err != nil {
			return "", err
		}
		x0, rest, _ := strings.Cut(s, " AND ")
		not := ""
		if x.Not {
			not = "NOT "
		}
		return "(" + x0 + " " + not + "BETWEEN " + rest + ")", nil
	case *parser.InExpr:
		return tr.in(x)
	case *parser.LikeExpr:
		return tr.like(x)
	case *parser.IsNullExpr:
		s, err := tr.expr(x.X)
		if err != nil {
			return "", err
		}
		if x.Not {
			return "(" + s + " IS NOT NULL)", nil
		}
		return "(" + s + " IS NULL)", nil
	case *parser.CallExpr:
		return tr.call(x)
	case *parser.CaseExpr:
		return tr.caseExpr(x)
	case *parser.CastExpr:
		return tr.cast(x)
	}
	return "", skip("functions")
}

// binary renders comparisons, AND, OR, arithmetic, intervals and ||.
func (tr *sqlTr) binary(x *parser.BinaryExpr) (string, error) {
	if iv, ok := x.RHS.(*parser.IntervalLit); ok {
		ms, ok := iv.Millis()
		if !ok || x.Op != parser.OpAdd && x.Op != parser.OpSub {
			return "", skip("functions")
		}
		l, err := tr.exprAs(x.LHS, catalog.TypeTimestamp)
		if err != nil {
			return "", err
		}
		return tr.checked("(" + l + " " + sqlOps[x.Op] + " " + strconv.FormatInt(ms, 10) + ")"), nil
	}
	switch x.Op {
	case parser.OpAnd, parser.OpOr:
		l, err := tr.expr(x.LHS)
		if err != nil {
			return "", err
		}
		r, err := tr.expr(x.RHS)
		if err != nil {
			return "", err
		}
		return "(" + l + " " + sqlOps[x.Op] + " " + r + ")", nil
	case parser.OpConcat:
		if tr.sqlType(x.LHS) != catalog.TypeString || tr.sqlType(x.RHS) != catalog.TypeString {
			return "", skip("text-form")
		}
	}
	want := tr.common(x.LHS, x.RHS)
	l, err := tr.exprAs(x.LHS, want)
	if err != nil {
		return "", err
	}
	r, err := tr.exprAs(x.RHS, want)
	if err != nil {
		return "", err
	}
	e := "(" + l + " " + sqlOps[x.Op] + " " + r + ")"
	switch x.Op {
	case parser.OpAdd, parser.OpSub, parser.OpMul:
		if tr.sqlType(x) != catalog.TypeDouble {
			return tr.checked(e), nil
		}
	case parser.OpMod:
		if tr.sqlType(x) == catalog.TypeDouble {
			return "mod(" + l + ", " + r + ")", nil
		}
	}
	return e, nil
}

// in renders IN and NOT IN; a row-value IN becomes an OR of ANDs.
func (tr *sqlTr) in(x *parser.InExpr) (string, error) {
	not := ""
	if x.Not {
		not = "NOT "
	}
	tup, ok := x.X.(*parser.TupleExpr)
	if !ok {
		xs := append([]parser.Expr{x.X}, x.List...)
		s, err := tr.list(tr.common(xs...), ", ", xs...)
		if err != nil {
			return "", err
		}
		x0, rest, _ := strings.Cut(s, ", ")
		return "(" + x0 + " " + not + "IN (" + rest + "))", nil
	}
	var ors []string
	for _, row := range x.List {
		rt, ok := row.(*parser.TupleExpr)
		if !ok || len(rt.Elems) != len(tup.Elems) {
			return "", fmt.Errorf("translate: a row of %d values in a row-value IN", len(tup.Elems))
		}
		var ands []string
		for i, e := range tup.Elems {
			eq, err := tr.binary(&parser.BinaryExpr{Op: parser.OpEq, LHS: e, RHS: rt.Elems[i]})
			if err != nil {
				return "", err
			}
			ands = append(ands, eq)
		}
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	return "(" + not + "(" + strings.Join(ors, " OR ") + "))", nil
}

func (tr *sqlTr) like(x *parser.LikeExpr) (string, error) {
	s, err := tr.expr(x.X)
	if err != nil {
		return "", err
	}
	p, err := tr.expr(x.Pattern)
	if err != nil {
		return "", err
	}
	not := ""
	if x.Not {
		not = "NOT "
	}
	out := "(" + s + " " + not + "LIKE " + p
	if x.Escape != nil {
		e, err := tr.expr(x.Escape)
		if err != nil {
			return "", err
		}
		out += " ESCAPE " + e
	}
	return out + ")", nil
}
