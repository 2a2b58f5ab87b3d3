package hbasestore

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/hbase/filter"
)

// serverFilter is a condition translated into an HBase filter that keeps
// exactly the rows for which the condition is TRUE.
type serverFilter struct {
	f   filter.Filter
	how string // the filter as EXPLAIN shows it
	// cols are the stored columns its SingleColumnValueFilters test: the
	// read must fetch them, or the filters would not see them.
	cols []int
	// forward, when set, replaces f on a forward read: a FuzzyRowFilter,
	// which seeks where f reads every row (HBase 2.6 may skip rows with
	// it on reversed scans, so those keep f). Only a top-level conjunct
	// keeps it: lists are built from f.
	forward filter.Filter
}

// latin1 decodes each byte as the one character of the same code, so a
// Java regular expression over it matches bytes.
const latin1 = "ISO-8859-1"

// compile translates e over t's logical rows into an exact HBase filter,
// or says why it stays in the client.
func compile(t *catalog.Table, e expr.Expr) (serverFilter, error) {
	if in, ok := e.(*expr.In); ok && len(in.Vals) > maxServerTests {
		return serverFilter{}, fmt.Errorf("%s IN (%d values): %w", in.Name, len(in.Vals), errTooManyTests)
	}
	switch x := e.(type) {
	case *expr.And:
		return compileList(t, x.Terms, filter.MustPassAll)
	case *expr.Or:
		if n := tests(x); n > maxServerTests {
			return serverFilter{}, fmt.Errorf("an OR of %d tests: %w", n, errTooManyTests)
		}
		return compileList(t, x.Terms, filter.MustPassOne)
	case *expr.Not:
		n, err := negate(x.X)
		if err != nil {
			return serverFilter{}, fmt.Errorf("NOT (%s): %w", x.X, err)
		}
		return compile(t, n)
	case expr.ColumnExpr:
		col := x.Column()
		if col < 0 || col >= len(t.Columns) {
			return serverFilter{}, fmt.Errorf("%s: _ts is the newest timestamp among a row's cells, which no HBase filter compares", e)
		}
		c := &t.Columns[col]
		switch {
		case c.KeyField && c.Family != "":
			return serverFilter{}, fmt.Errorf("%s: %s is both a key field and a stored column", e, c.Name)
		case c.KeyField:
			return compileKey(t, col, e)
		case c.MapFamily != "":
			return serverFilter{}, fmt.Errorf("%s: %s is a MAP of family %s, whose entries no one HBase filter tests", e, c.Name, c.MapFamily)
		case c.Family == "":
			return serverFilter{}, fmt.Errorf("%s: %s is read from each cell of a wide family, not from one column", e, c.Name)
		}
		return compileValue(c, col, e)
	case *expr.Const:
		return serverFilter{}, fmt.Errorf("%s: a constant condition costs nothing in the client", e)
	case *expr.Compare:
		return compileEntry(t, x)
	}
	return serverFilter{}, fmt.Errorf("%s: no HBase filter is built for this condition", e)
}

// compileList translates the terms of an AND or an OR into a FilterList.
func compileList(t *catalog.Table, terms []expr.Expr, op filter.Operator) (serverFilter, error) {
	var out serverFilter
	var fs []filter.Filter
	var hows []string
	for _, term := range terms {
		sf, err := compile(t, term)
		if err != nil {
			return serverFilter{}, err
		}
		fs = append(fs, sf.f)
		hows = append(hows, sf.how)
		out.cols = append(out.cols, sf.cols...)
	}
	out.f, out.how = list(op, fs, hows)
	return out, nil
}

// list builds a FilterList of fs, or fs[0] alone.
func list(op filter.Operator, fs []filter.Filter, hows []string) (filter.Filter, string) {
	if len(fs) == 1 {
		return fs[0], hows[0]
	}
	name := "MUST_PASS_ALL"
	if op == filter.MustPassOne {
		name = "MUST_PASS_ONE"
	}
	return filter.List{Operator: op, Filters: fs}, "FilterList(" + name + ": " + strings.Join(hows, ", ") + ")"
}

// maxServerTests is the most values an IN list or OR is pushed to HBase
// with: its filters test them one by one on every row, where the client
// looks each row's value up in a hash set.
const maxServerTests = 256

var errTooManyTests = fmt.Errorf("HBase's filters would test every row against them one by one; past %d the client tests each row through a hash set", maxServerTests)

// tests counts the values an OR's terms compare a row with.
func tests(e expr.Expr) int {
	switch x := e.(type) {
	case *expr.In:
		return len(x.Vals)
	case *expr.Or:
		n := 0
		for _, t := range x.Terms {
			n += tests(t)
		}
		return n
	case *expr.And:
		n := 0
		for _, t := range x.Terms {
			n += tests(t)
		}
		return n
	}
	return 1
}

var (
	errNullCompare = errors.New("a comparison with NULL is never true")
	errNotNegated  = errors.New("its negation is not a single predicate that is TRUE exactly when it is FALSE")
)

// negate returns the predicate that is TRUE exactly where e is FALSE
// (and so NULL where e is NULL), under SQL's three-valued logic.
func negate(e expr.Expr) (expr.Expr, error) {
	switch x := e.(type) {
	case *expr.Not:
		return x.X, nil
	case *expr.And, *expr.Or:
		var terms []expr.Expr
		var isAnd bool
		if a, ok := x.(*expr.And); ok {
			terms, isAnd = a.Terms, true
		} else {
			terms = x.(*expr.Or).Terms
		}
		out := make([]expr.Expr, len(terms))
		for i, term := range terms {
			n, err := negate(term)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		if isAnd {
			return &expr.Or{Terms: out}, nil
		}
		return &expr.And{Terms: out}, nil
	case *expr.Cmp:
		if x.Val.Null {
			return nil, errNullCompare
		}
		q := *x
		q.Op = [...]expr.CmpOp{expr.Eq: expr.Ne, expr.Ne: expr.Eq, expr.Lt: expr.Ge, expr.Le: expr.Gt, expr.Gt: expr.Le, expr.Ge: expr.Lt}[x.Op]
		return &q, nil
	case *expr.Between:
		if x.Lo.Null || x.Hi.Null {
			return nil, errNullCompare
		}
		q := *x
		q.Not = !x.Not
		return &q, nil
	case *expr.In:
		for _, v := range x.Vals {
			if v.Null {
				return nil, errors.New("a list holding NULL makes IN and NOT IN never true where no value matches")
			}
		}
		q := *x
		q.Not = !x.Not
		return &q, nil
	case *expr.Like:
		q := *x
		q.Not = !x.Not
		return &q, nil
	case *expr.IsNull:
		q := *x
		q.Not = !x.Not
		return &q, nil
	case *expr.RegexpMatch:
		q := *x
		q.Not = !x.Not
		return &q, nil
	}
	return nil, errNotNegated
}

// compileValue translates a predicate over stored column c (index col)
// into SingleColumnValueFilters.
func compileValue(c *catalog.Column, col int, e expr.Expr) (serverFilter, error) {
	scv := func(op filter.CompareOp, cmp filter.Comparator, ifMissing bool) filter.Filter {
		return filter.SingleColumnValue{Family: []byte(c.Family), Qualifier: []byte(c.Qualifier), Op: op,
			Comparator: cmp, FilterIfMissing: ifMissing, LatestVersionOnly: true}
	}
	how := func(op, val string, ifMissing bool) string {
		m := ""
		if ifMissing {
			m = ", filterIfMissing"
		}
		return fmt.Sprintf("SingleColumnValueFilter(%s:%s %s %s%s)", c.Family, c.Qualifier, op, val, m)
	}
	one := func(op expr.CmpOp, v catalog.Value) (filter.Filter, string, error) {
		b, err := cellBytes(c, v)
		if err != nil {
			return nil, "", err
		}
		return scv(compareOps[op], filter.Binary{Value: b}, true), how(cmpText[op], v.String(), true), nil
	}
	out := serverFilter{cols: []int{col}}
	switch p := e.(type) {
	case *expr.IsNull:
		// Every value is >= the empty value, and none is below it.
		if p.Not {
			out.f, out.how = scv(filter.GreaterOrEqual, filter.Binary{}, true), how(">=", "'' (IS NOT NULL)", true)
		} else {
			out.f, out.how = scv(filter.Less, filter.Binary{}, false), how("<", "'' (IS NULL)", false)
		}
		return out, nil
	case *expr.Cmp:
		if p.Val.Null {
			return out, fmt.Errorf("%s: %w", e, errNullCompare)
		}
		if p.Op != expr.Eq && p.Op != expr.Ne && signedOrder(c) {
			return compileSigned(c, col, e, scv, how)
		}
		if err := canPush(c, p.Op == expr.Eq || p.Op == expr.Ne, cmpText[p.Op]); err != nil {
			return out, err
		}
		f, h, err := one(p.Op, p.Val)
		if err != nil {
			return out, fmt.Errorf("%s: %w", e, err)
		}
		out.f, out.how = f, h
		return out, nil
	case *expr.Between:
		if p.Lo.Null || p.Hi.Null {
			return out, fmt.Errorf("%s: %w", e, errNullCompare)
		}
		if signedOrder(c) {
			return compileSigned(c, col, e, scv, how)
		}
		if err := canPush(c, false, "BETWEEN"); err != nil {
			return out, err
		}
		ops, op := [2]expr.CmpOp{expr.Ge, expr.Le}, filter.MustPassAll
		if p.Not {
			ops, op = [2]expr.CmpOp{expr.Lt, expr.Gt}, filter.MustPassOne
		}
		lo, hlo, err := one(ops[0], p.Lo)
		if err != nil {
			return out, fmt.Errorf("%s: %w", e, err)
		}
		hi, hhi, err := one(ops[1], p.Hi)
		if err != nil {
			return out, fmt.Errorf("%s: %w", e, err)
		}
		out.f, out.how = list(op, []filter.Filter{lo, hi}, []string{hlo, hhi})
		return out, nil
	case *expr.In:
		return compileIn(c, p, out, one)
	case *expr.Like:
		if c.Type != catalog.TypeString && c.Type != catalog.TypeBytes {
			return out, fmt.Errorf("%s: %s is %s, and LIKE reads text", e, c.Name, c.Type)
		}
		if p.Escape != "" {
			return out, fmt.Errorf("%s: LIKE with ESCAPE is matched in the client", e)
		}
		re, err := likeRegex(p.Pattern, -1)
		if err != nil {
			return out, fmt.Errorf("%s: %w", e, err)
		}
		re = `\A` + re + `\z`
		op, sym := filter.Equal, "=~"
		if p.Not {
			op, sym = filter.NotEqual, "!~"
		}
		out.f = scv(op, filter.RegexString{Pattern: expandChars(re), Charset: latin1}, true)
		out.how = how(sym, "RegexStringComparator('"+re+"')", true)
		return out, nil
	case *expr.RegexpMatch:
		// RegexStringComparator decodes the cell as UTF-8 and finds the
		// pattern anywhere in it, as REGEXP_LIKE does; a row without the
		// cell is NULL, which REGEXP_LIKE does not match.
		if c.Type != catalog.TypeString || c.Encoding == catalog.EncPhoenix && c.Phoenix != catalog.PVarchar {
			return out, fmt.Errorf("%s: %s is not stored as UTF-8 text, which RegexStringComparator reads", e, c.Name)
		}
		if p.Re.Java == "" {
			return out, fmt.Errorf("%s: an empty pattern matches every value, which needs no regular expression", e)
		}
		op, sym := filter.Equal, "=~"
		if p.Not {
			op, sym = filter.NotEqual, "!~"
		}
		out.f = scv(op, filter.RegexString{Pattern: p.Re.Java, Charset: "UTF-8"}, true)
		out.how = how(sym, "RegexStringComparator("+catalog.String(p.Re.Java).String()+")", true)
		return out, nil
	}
	return out, fmt.Errorf("%s: no HBase filter is built for this condition", e)
}

// compileIn translates IN as an OR of equalities and NOT IN as an AND of
// inequalities.
func compileIn(c *catalog.Column, p *expr.In, out serverFilter, one func(expr.CmpOp, catalog.Value) (filter.Filter, string, error)) (serverFilter, error) {
	if err := canPush(c, true, "IN"); err != nil {
		return out, err
	}
	op, lop := expr.Eq, filter.MustPassOne
	if p.Not {
		op, lop = expr.Ne, filter.MustPassAll
	}
	var fs []filter.Filter
	var hows []string
	for _, v := range p.Vals {
		if v.Null {
			if p.Not {
				return out, fmt.Errorf("%s: NOT IN a list holding NULL is never true", p)
			}
			continue // x IN (…, NULL) is TRUE only where x equals a listed value
		}
		f, h, err := one(op, v)
		if err != nil {
			return out, fmt.Errorf("%s: %w", p, err)
		}
		fs, hows = append(fs, f), append(hows, h)
	}
	if len(fs) == 0 {
		return out, fmt.Errorf("%s: %w", p, errNullCompare)
	}
	out.f, out.how = list(lop, fs, hows)
	return out, nil
}

var (
	compareOps = [...]filter.CompareOp{expr.Eq: filter.Equal, expr.Ne: filter.NotEqual, expr.Lt: filter.Less,
		expr.Le: filter.LessOrEqual, expr.Gt: filter.Greater, expr.Ge: filter.GreaterOrEqual}
	cmpText = [...]string{expr.Eq: "=", expr.Ne: "!=", expr.Lt: "<", expr.Le: "<=", expr.Gt: ">", expr.Ge: ">="}
)

// canPush says whether a stored column's cells can be compared as bytes:
// for equality, each value must have one byte form; for order, the bytes
// must also sort like the values.
func canPush(c *catalog.Column, equality bool, op string) error {
	kind := "a binary " + c.Type.String()
	if c.Encoding == catalog.EncText {
		kind = "a text-encoded " + c.Type.String()
	}
	why := func(reason string) error {
		return fmt.Errorf("%s is %s, %s: %s stays in the client", c.Name, kind, reason, op)
	}
	if c.Encoding == catalog.EncPhoenix {
		switch c.Phoenix {
		case catalog.PVarchar, catalog.PVarbinary, catalog.PBinary:
			return nil // the bytes themselves, in value order
		}
		kind = "Phoenix's " + c.Phoenix.String()
		return why("whose cells are compared in the client")
	}
	switch c.Type {
	case catalog.TypeString, catalog.TypeBytes:
		return nil
	case catalog.TypeDouble:
		if c.Encoding == catalog.EncText {
			return why("written as '1', '1.0' or '1e0' alike, whose bytes do not sort like its values")
		}
		return why("whose bytes differ for 0 and -0 and sort negative values above positive ones")
	case catalog.TypeBoolean:
		if c.Encoding == catalog.EncText {
			return why("read as true from 'true', 'TRUE', 't' or '1' alike")
		}
		return why("read as true from any non-zero byte")
	case catalog.TypeDate:
		if c.Encoding == catalog.EncText {
			return nil // yyyy-MM-dd: one form per day, sorting like the days
		}
	}
	if c.Encoding == catalog.EncText {
		return why("which others may write as '7', '07' or '+7' alike")
	}
	if !equality {
		// Two's complement bytes: compileSigned splits the values at zero.
		return why("whose ordered comparisons are split at zero elsewhere")
	}
	return nil
}

// cellBytes is the one byte form of v in column c, for a column canPush
// accepted.
func cellBytes(c *catalog.Column, v catalog.Value) ([]byte, error) {
	switch c.Type {
	case catalog.TypeString, catalog.TypeBytes:
		if v.Type != c.Type {
			return nil, fmt.Errorf("%s is %s and %s is %s", c.Name, c.Type, v, v.Type)
		}
		return c.EncodeCell(v), nil
	}
	if !integral(v.Type) || v.Type == catalog.TypeBoolean {
		return nil, fmt.Errorf("%s is %s and %s is %s", c.Name, c.Type, v, v.Type)
	}
	if (c.Type == catalog.TypeInt || c.Type == catalog.TypeDate) && int64(int32(v.I)) != v.I {
		return nil, fmt.Errorf("%s does not fit the 4 bytes of %s", v, c.Name)
	}
	w := catalog.Value{Type: c.Type, I: v.I}
	if c.Type == catalog.TypeDate && c.Encoding == catalog.EncText {
		if y := w.Time().Year(); y < 0 || y > 9999 {
			return nil, fmt.Errorf("%s is outside the years that yyyy-MM-dd sorts", v)
		}
	}
	return c.EncodeCell(w), nil
}

func integral(t catalog.Type) bool {
	switch t {
	case catalog.TypeBigint, catalog.TypeInt, catalog.TypeTimestamp, catalog.TypeDate, catalog.TypeBoolean:
		return true
	}
	return false
}

// utf8Seq matches one valid multi-byte UTF-8 sequence as Go decodes it
// (no overlong forms, no surrogates, nothing above U+10FFFF), over text
// decoded as ISO-8859-1.
const utf8Seq = `[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|` +
	`\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}`

// Placeholders of likeRegex for one character, expanded by expandChars
// so that EXPLAIN shows the regex short.
const (
	charAny = "<char>"
	charNot = "<char not "
)

var charNotRe = regexp.MustCompile(`<char not \\x([0-9a-f]{2})>`)

// expandChars replaces likeRegex's placeholders with what matches one
// character: a valid UTF-8 sequence, or else one byte (not the
// delimiter).
func expandChars(re string) string {
	one := func(single string) string {
		return `(?:` + utf8Seq + `|(?!` + utf8Seq + `)` + single + `)`
	}
	re = strings.ReplaceAll(re, charAny, one(`[\x00-\xff]`))
	return charNotRe.ReplaceAllStringFunc(re, func(m string) string {
		return one(`[^\x` + charNotRe.FindStringSubmatch(m)[1] + `]`)
	})
}

// likeRegex translates a LIKE pattern into a Java regular expression
// over bytes decoded as ISO-8859-1, with placeholders for one character
// (see expandChars). A character of the pattern's '_' and '%' is what Go
// reads as one: a valid UTF-8 sequence, or else one byte, so that the
// server walks character boundaries exactly as the client does. With
// delim >= 0 (an ASCII byte), no character may be it.
func likeRegex(pattern string, delim int) (string, error) {
	if !utf8.ValidString(pattern) || strings.ContainsRune(pattern, utf8.RuneError) {
		return "", errors.New("the pattern is not valid UTF-8 text")
	}
	char := charAny // literal bytes are quoted, so '<' never starts one
	if delim >= 0 {
		char = charNot + fmt.Sprintf(`\x%02x`, delim) + ">"
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch ch := pattern[i]; {
		case ch == '%':
			b.WriteString(char + `*`)
		case ch == '_':
			b.WriteString(char)
		case delim >= 0 && int(ch) == delim:
			return "", fmt.Errorf("the pattern holds the delimiter '%s', which the field never does", catalog.ToStringBinary([]byte{ch}))
		default:
			b.WriteString(quoteByte(ch))
		}
	}
	return b.String(), nil
}

// quote writes bytes as a Java regular expression that matches them.
func quote(bs []byte) string {
	var b strings.Builder
	for _, c := range bs {
		b.WriteString(quoteByte(c))
	}
	return b.String()
}

func quoteByte(c byte) string {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return string(rune(c))
	}
	return fmt.Sprintf(`\x%02x`, c)
}
