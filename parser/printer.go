package parser

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Printing: every node's String renders canonical rkql text. Keywords are
// upper case, names are double-quoted when they are not plain or are spelled
// like a keyword, strings are re-escaped, and parentheses appear only where a
// child binds less tightly than its parent needs. Parsing the text again
// gives an equal tree (ignoring positions) for every tree the parser builds.

// Binding strength of expressions, loosest first.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precAdd // + - ||
	precMul // * / %
	precNeg
	precPrimary
)

func precedence(e Expr) int {
	switch e := e.(type) {
	case *BinaryExpr:
		switch e.Op {
		case OpOr:
			return precOr
		case OpAnd:
			return precAnd
		case OpAdd, OpSub, OpConcat:
			return precAdd
		case OpMul, OpDiv, OpMod:
			return precMul
		}
		return precCmp
	case *UnaryExpr:
		if e.Op == OpNot {
			return precNot
		}
		return precNeg
	case *BetweenExpr, *InExpr, *LikeExpr, *IsNullExpr:
		return precCmp
	case *IntLit:
		if e.Val < 0 {
			return precNeg
		}
	case *FloatLit:
		if e.Val < 0 {
			return precNeg
		}
	}
	return precPrimary
}

var binaryOpText = [...]string{
	OpEq: "=", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: "AND", OpOr: "OR", OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/",
	OpMod: "%", OpConcat: "||",
}

// String returns the operator as written in rkql.
func (op BinaryOp) String() string {
	if op >= 0 && int(op) < len(binaryOpText) {
		return binaryOpText[op]
	}
	return "BinaryOp(" + strconv.Itoa(int(op)) + ")"
}

// String returns the operator as written in rkql.
func (op UnaryOp) String() string {
	switch op {
	case OpNot:
		return "NOT"
	case OpNeg:
		return "-"
	}
	return "UnaryOp(" + strconv.Itoa(int(op)) + ")"
}

// QuoteIdent returns name as it must be written in rkql: unchanged when it is
// plain (letters, digits and underscores, not starting with a digit) and not
// spelled like a keyword; otherwise double-quoted.
func QuoteIdent(name string) string {
	if name == "" || !isIdentStart(name[0]) || isKeyword(name) {
		return quote(name, '"')
	}
	for i := 1; i < len(name); i++ {
		if !isIdentChar(name[i]) {
			return quote(name, '"')
		}
	}
	return name
}

// QuoteString returns s as an rkql string literal.
func QuoteString(s string) string { return quote(s, '\'') }

// String returns the name as written in rkql.
func (id Ident) String() string { return QuoteIdent(id.Name) }

// ---- expressions ----

func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeOperand(b *strings.Builder, e Expr, min int) {
	if e != nil && precedence(e) < min {
		b.WriteByte('(')
		writeExpr(b, e)
		b.WriteByte(')')
		return
	}
	writeExpr(b, e)
}

func writeExprs(b *strings.Builder, es []Expr) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, e)
	}
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *BinaryExpr:
		writeBinary(b, e)
	case *UnaryExpr:
		writeUnary(b, e)
	case *BetweenExpr:
		writeOperand(b, e.X, precAdd)
		b.WriteString(not(e.Not, " NOT BETWEEN ", " BETWEEN "))
		writeOperand(b, e.Lo, precAdd)
		b.WriteString(" AND ")
		writeOperand(b, e.Hi, precAdd)
	case *InExpr:
		writeOperand(b, e.X, precAdd)
		b.WriteString(not(e.Not, " NOT IN (", " IN ("))
		if e.Sub != nil {
			b.WriteString(e.Sub.String())
		} else {
			writeExprs(b, e.List)
		}
		b.WriteByte(')')
	case *SubqueryExpr:
		b.WriteByte('(')
		b.WriteString(e.Select.String())
		b.WriteByte(')')
	case *ExistsExpr:
		b.WriteString("EXISTS (")
		b.WriteString(e.Select.String())
		b.WriteByte(')')
	case *LikeExpr:
		writeOperand(b, e.X, precAdd)
		b.WriteString(not(e.Not, " NOT LIKE ", " LIKE "))
		writeOperand(b, e.Pattern, precAdd)
		if e.Escape != nil {
			b.WriteString(" ESCAPE ")
			writeOperand(b, e.Escape, precAdd)
		}
	case *TupleExpr:
		b.WriteByte('(')
		writeExprs(b, e.Elems)
		b.WriteByte(')')
	case *IsNullExpr:
		writeOperand(b, e.X, precAdd)
		b.WriteString(not(e.Not, " IS NOT NULL", " IS NULL"))
	case *CallExpr:
		b.WriteString(e.Name)
		b.WriteByte('(')
		if e.Star {
			b.WriteByte('*')
		} else {
			if e.Distinct {
				b.WriteString("DISTINCT ")
			}
			writeExprs(b, e.Args)
		}
		b.WriteByte(')')
	case *CaseExpr:
		writeCase(b, e)
	case *CastExpr:
		b.WriteString("CAST(")
		writeExpr(b, e.X)
		b.WriteString(" AS " + e.Type + ")")
	default:
		b.WriteString(e.String())
	}
}

func not(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

func writeCase(b *strings.Builder, e *CaseExpr) {
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteByte(' ')
		writeExpr(b, e.Operand)
	}
	for _, w := range e.Whens {
		b.WriteString(" WHEN ")
		writeExpr(b, w.Cond)
		b.WriteString(" THEN ")
		writeExpr(b, w.Result)
	}
	if e.Else != nil {
		b.WriteString(" ELSE ")
		writeExpr(b, e.Else)
	}
	b.WriteString(" END")
}

func writeBinary(b *strings.Builder, e *BinaryExpr) {
	// AND, OR and arithmetic associate to the left; comparisons do not
	// associate.
	lmin, rmin := precAdd, precAdd
	switch e.Op {
	case OpOr:
		lmin, rmin = precOr, precAnd
	case OpAnd:
		lmin, rmin = precAnd, precNot
	case OpAdd, OpSub, OpConcat:
		lmin, rmin = precAdd, precMul
	case OpMul, OpDiv, OpMod:
		lmin, rmin = precMul, precNeg
	}
	writeOperand(b, e.LHS, lmin)
	b.WriteByte(' ')
	b.WriteString(e.Op.String())
	b.WriteByte(' ')
	writeOperand(b, e.RHS, rmin)
}

func writeUnary(b *strings.Builder, e *UnaryExpr) {
	if e.Op == OpNot {
		b.WriteString("NOT ")
		writeOperand(b, e.X, precNot)
		return
	}
	b.WriteString(e.Op.String())
	// "--" would start a comment, so a negative operand gets parentheses.
	if x := exprString(e.X); strings.HasPrefix(x, "-") || precedence(e.X) < precNeg {
		b.WriteByte('(')
		b.WriteString(x)
		b.WriteByte(')')
	} else {
		b.WriteString(x)
	}
}

func (e *BinaryExpr) String() string   { return exprString(e) }
func (e *UnaryExpr) String() string    { return exprString(e) }
func (e *BetweenExpr) String() string  { return exprString(e) }
func (e *InExpr) String() string       { return exprString(e) }
func (e *LikeExpr) String() string     { return exprString(e) }
func (e *TupleExpr) String() string    { return exprString(e) }
func (e *SubqueryExpr) String() string { return exprString(e) }
func (e *ExistsExpr) String() string   { return exprString(e) }
func (e *IsNullExpr) String() string   { return exprString(e) }
func (e *CallExpr) String() string     { return exprString(e) }
func (e *CaseExpr) String() string     { return exprString(e) }
func (e *CastExpr) String() string     { return exprString(e) }

func (e *IntervalLit) String() string {
	return "INTERVAL '" + strconv.FormatInt(e.N, 10) + "' " + e.Unit
}

func (e *ColumnRef) String() string {
	if e.Table != "" {
		return QuoteIdent(e.Table) + "." + QuoteIdent(e.Name)
	}
	return QuoteIdent(e.Name)
}
func (e *SubscriptExpr) String() string {
	return QuoteIdent(e.X.Name) + "[" + exprString(e.Key) + "]"
}
func (e *StringLit) String() string { return QuoteString(e.Val) }
func (e *IntLit) String() string    { return strconv.FormatInt(e.Val, 10) }
func (e *NullLit) String() string   { return "NULL" }

// String prints the value so that it lexes as a float again: with a point or
// an exponent.
func (e *FloatLit) String() string {
	s := strconv.FormatFloat(e.Val, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

func (e *BoolLit) String() string {
	if e.Val {
		return "TRUE"
	}
	return "FALSE"
}

func (e *BytesLit) String() string { return "x'" + hex.EncodeToString(e.Val) + "'" }

func (e *TimestampLit) String() string {
	return "TIMESTAMP '" + formatTimestamp(e.Val) + "'"
}

func (e *DateLit) String() string {
	return "DATE '" + e.Val.UTC().Format(datePrintLayout) + "'"
}

// ---- statements ----

// String returns the item as written in a select list.
func (it SelectItem) String() string {
	if it.AllOf != "" {
		return QuoteIdent(it.AllOf) + ".*"
	}
	s := exprString(it.Expr)
	if it.Alias != "" {
		s += " AS " + QuoteIdent(it.Alias)
	}
	return s
}

// String returns the hint as written after a table name.
func (h *IndexHint) String() string {
	if h.NoIndex {
		return "NO INDEX"
	}
	return "USE INDEX (" + h.Index.String() + ")"
}

// String returns the term as written in ORDER BY.
func (o OrderItem) String() string {
	if o.Desc {
		return exprString(o.Expr) + " DESC"
	}
	return exprString(o.Expr)
}

// String returns the assignment as written in ENCODE KEY or UPDATE.
func (a Assignment) String() string {
	if a.Key != nil {
		return a.Column.String() + "[" + exprString(a.Key) + "] = " + exprString(a.Value)
	}
	return a.Column.String() + " = " + exprString(a.Value)
}

func (s *SelectStmt) String() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	if s.Raw {
		b.WriteString("RAW ")
	}
	if s.Star {
		b.WriteByte('*')
	}
	for i, it := range s.Items {
		if i > 0 || s.Star {
			b.WriteString(", ")
		}
		b.WriteString(it.String())
	}
	b.WriteString(" FROM ")
	if s.FromRaw {
		b.WriteString("RAW " + quote(s.Table.Name, '\''))
	} else if s.Derived != nil {
		b.WriteString("(" + s.Derived.String() + ")")
	} else {
		b.WriteString(s.Table.String())
	}
	if s.Alias != "" {
		b.WriteString(" AS " + QuoteIdent(s.Alias))
	}
	for _, j := range s.Joins {
		b.WriteString(not(j.Left, " LEFT JOIN ", " JOIN "))
		if j.Derived != nil {
			b.WriteString("(" + j.Derived.String() + ")")
		} else {
			b.WriteString(j.Table.String())
		}
		if j.Alias != "" {
			b.WriteString(" AS " + QuoteIdent(j.Alias))
		}
		b.WriteString(" ON ")
		writeExpr(&b, j.On)
	}
	if s.Hint != nil {
		b.WriteByte(' ')
		b.WriteString(s.Hint.String())
	}
	if s.AsOf != nil {
		b.WriteString(" AS OF ")
		writeExpr(&b, s.AsOf)
	}
	if s.Where != nil {
		b.WriteString(" WHERE ")
		writeExpr(&b, s.Where)
	}
	for i, g := range s.GroupBy {
		b.WriteString(not(i == 0, " GROUP BY ", ", "))
		writeExpr(&b, g)
	}
	if s.Having != nil {
		b.WriteString(" HAVING ")
		writeExpr(&b, s.Having)
	}
	for i, o := range s.Order {
		b.WriteString(not(i == 0, " ORDER BY ", ", "))
		b.WriteString(o.String())
	}
	if s.Limit >= 0 {
		b.WriteString(" LIMIT ")
		b.WriteString(strconv.FormatInt(s.Limit, 10))
	}
	if s.Offset > 0 {
		b.WriteString(" OFFSET ")
		b.WriteString(strconv.FormatInt(s.Offset, 10))
	}
	if s.Versions > 0 {
		b.WriteString(" VERSIONS ")
		b.WriteString(strconv.Itoa(s.Versions))
	}
	if s.AllowFullScan {
		b.WriteString(" ALLOW FULL SCAN")
	}
	return b.String()
}

func (s *ExplainStmt) String() string {
	var b strings.Builder
	b.WriteString("EXPLAIN ")
	if s.Analyze {
		b.WriteString("ANALYZE ")
	}
	switch {
	case s.Format != "" && s.Verbose:
		b.WriteString("(VERBOSE, FORMAT " + s.Format + ") ")
	case s.Verbose:
		b.WriteString("(VERBOSE) ")
	case s.Format != "":
		b.WriteString("(FORMAT " + s.Format + ") ")
	}
	if s.Stmt != nil {
		b.WriteString(s.Stmt.String())
	}
	return b.String()
}

func (s *InsertStmt) String() string {
	var b strings.Builder
	b.WriteString(not(s.Upsert, "UPSERT INTO ", "INSERT INTO "))
	b.WriteString(s.Table.String())
	if len(s.Columns) > 0 {
		b.WriteString(" (")
		for i, c := range s.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.String())
		}
		b.WriteString(")")
	}
	if s.Query != nil {
		b.WriteString(" ")
		b.WriteString(s.Query.String())
	} else {
		b.WriteString(" VALUES ")
	}
	for i, row := range s.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		writeExprs(&b, row)
		b.WriteByte(')')
	}
	if s.Timestamp != nil {
		b.WriteString(" TIMESTAMP ")
		writeExpr(&b, s.Timestamp)
	}
	b.WriteString(allowsString(false, s.AllowIndexWrite))
	return b.String()
}

func (s *DeleteStmt) String() string {
	return "DELETE FROM " + s.Table.String() + " WHERE " + exprString(s.Where) + allowsString(s.AllowFullScan, s.AllowIndexWrite)
}

func (s *ShowTablesStmt) String() string  { return "SHOW TABLES" }
func (s *ShowRegionsStmt) String() string { return "SHOW REGIONS " + s.Table.String() }
func (s *DescribeStmt) String() string    { return "DESCRIBE " + s.Table.String() }

func (s *EncodeKeyStmt) String() string {
	var b strings.Builder
	b.WriteString("ENCODE KEY ")
	b.WriteString(s.Table.String())
	b.WriteString(" (")
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	b.WriteByte(')')
	return b.String()
}

func (s *DecodeKeyStmt) String() string {
	return "DECODE KEY " + s.Table.String() + " " + exprString(s.Key)
}

func (s *BuildIndexStmt) String() string {
	return "BUILD INDEX " + s.Index.String() + " ON " + s.Table.String()
}

func (s *CheckIndexStmt) String() string {
	if s.Repair {
		return "CHECK INDEX " + s.Index.String() + " REPAIR"
	}
	return "CHECK INDEX " + s.Index.String()
}
