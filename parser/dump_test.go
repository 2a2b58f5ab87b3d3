package parser

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// dumper prints an AST as an indented tree, one node or field per line, with
// positions as line:column. It is deterministic and never prints blank lines.
type dumper struct {
	src string
	b   strings.Builder
}

func dumpStmts(src string, stmts []Stmt) string {
	d := &dumper{src: src}
	for _, s := range stmts {
		d.line(0, "%s", s.String())
		d.stmt(1, "", s)
	}
	return d.b.String()
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func (d *dumper) at(p Pos) string {
	if p == NoPos {
		return "@-"
	}
	line, col := Position(d.src, p)
	return fmt.Sprintf("@%d:%d", line, col)
}

func (d *dumper) ident(depth int, label string, id Ident) {
	d.line(depth, "%s%q %s", label, id.Name, d.at(id.NamePos))
}

func (d *dumper) stmt(depth int, label string, s Stmt) {
	switch s := s.(type) {
	case *SelectStmt:
		d.selectStmt(depth, label, s)
	case *ExplainStmt:
		d.line(depth, "%sExplainStmt %s", label, d.at(s.Explain))
		if s.Analyze {
			d.line(depth+1, "analyze")
		}
		if s.Format != "" {
			d.line(depth+1, "format: %s", s.Format)
		}
		if s.Verbose {
			d.line(depth+1, "verbose")
		}
		d.stmt(depth+1, "stmt: ", s.Stmt)
	case *InsertStmt:
		d.line(depth, "%sInsertStmt %s", label, d.at(s.Insert))
		d.ident(depth+1, "table: ", s.Table)
		for _, c := range s.Columns {
			d.ident(depth+1, "column: ", c)
		}
		for i, row := range s.Rows {
			d.line(depth+1, "row %d:", i+1)
			for _, v := range row {
				d.expr(depth+2, "", v)
			}
		}
		if s.Query != nil {
			d.selectStmt(depth+1, "query: ", s.Query)
		}
		if s.Timestamp != nil {
			d.expr(depth+1, "timestamp: ", s.Timestamp)
		}
		d.flags(depth+1, map[string]bool{"upsert": s.Upsert, "allow index write": s.AllowIndexWrite})
	case *DeleteStmt:
		d.line(depth, "%sDeleteStmt %s", label, d.at(s.Delete))
		d.ident(depth+1, "table: ", s.Table)
		d.expr(depth+1, "where: ", s.Where)
		d.flags(depth+1, map[string]bool{"allow full scan": s.AllowFullScan, "allow index write": s.AllowIndexWrite})
	default:
		d.simpleStmt(depth, label, s)
	}
}

func (d *dumper) simpleStmt(depth int, label string, s Stmt) {
	switch s := s.(type) {
	case *ShowTablesStmt:
		d.line(depth, "%sShowTablesStmt %s", label, d.at(s.Show))
	case *ShowRegionsStmt:
		d.line(depth, "%sShowRegionsStmt %s", label, d.at(s.Show))
		d.ident(depth+1, "table: ", s.Table)
	case *DescribeStmt:
		d.line(depth, "%sDescribeStmt %s", label, d.at(s.Describe))
		d.ident(depth+1, "table: ", s.Table)
	case *EncodeKeyStmt:
		d.line(depth, "%sEncodeKeyStmt %s", label, d.at(s.Encode))
		d.ident(depth+1, "table: ", s.Table)
		for _, f := range s.Fields {
			d.ident(depth+1, "field: ", f.Column)
			d.expr(depth+2, "value: ", f.Value)
		}
	case *DecodeKeyStmt:
		d.line(depth, "%sDecodeKeyStmt %s", label, d.at(s.Decode))
		d.ident(depth+1, "table: ", s.Table)
		d.expr(depth+1, "key: ", s.Key)
	case *BuildIndexStmt:
		d.line(depth, "%sBuildIndexStmt %s", label, d.at(s.Build))
		d.ident(depth+1, "index: ", s.Index)
		d.ident(depth+1, "table: ", s.Table)
	case *CheckIndexStmt:
		d.line(depth, "%sCheckIndexStmt %s", label, d.at(s.Check))
		d.ident(depth+1, "index: ", s.Index)
		if s.Repair {
			d.line(depth+1, "repair")
		}
	case *LintStmt:
		d.line(depth, "%sLintStmt %s", label, d.at(s.Lint))
		if s.Table != nil {
			d.ident(depth+1, "table: ", *s.Table)
		}
	case *InferStmt:
		d.line(depth, "%sInferStmt %s table=%q @%s sample=%d save=%t", label, d.at(s.Infer), s.Table, d.at(s.TablePos)[1:], s.Sample, s.Save)
		if s.As != nil {
			d.ident(depth+1, "as: ", *s.As)
		}
	case *ShowCreateStmt:
		d.line(depth, "%sShowCreateStmt %s", label, d.at(s.Show))
		d.ident(depth+1, "table: ", s.Table)
	case *SimulateStmt:
		d.line(depth, "%sSimulateStmt %s rows=%d", label, d.at(s.Simulate), s.Rows)
		d.ident(depth+1, "table: ", s.Table)
		for _, g := range s.With {
			d.ident(depth+1, "with: ", g.Column)
			d.line(depth+2, "%s %v", g.Kind, g.Args)
		}
		if s.Compare != nil {
			d.ident(depth+1, "compare: ", *s.Compare)
		}
	default:
		d.ddlStmt(depth, label, s)
	}
}

func (d *dumper) selectStmt(depth int, label string, s *SelectStmt) {
	d.line(depth, "%sSelectStmt %s", label, d.at(s.Select))
	depth++
	if s.Distinct {
		d.line(depth, "distinct")
	}
	if s.Star {
		d.line(depth, "star")
	}
	for _, it := range s.Items {
		d.expr(depth, "item: ", it.Expr)
		if it.Alias != "" {
			d.line(depth+1, "alias: %q", it.Alias)
		}
	}
	if s.Derived != nil {
		d.selectStmt(depth, "derived: ", s.Derived)
		d.line(depth, "alias: %q", s.Alias)
	} else {
		d.ident(depth, "table: ", s.Table)
	}
	for _, j := range s.Joins {
		if j.Derived != nil {
			d.selectStmt(depth, "join derived: ", j.Derived)
			d.line(depth, "alias: %q", j.Alias)
		}
	}
	if h := s.Hint; h != nil {
		if h.NoIndex {
			d.line(depth, "hint: NO INDEX %s", d.at(h.HintPos))
		} else {
			d.line(depth, "hint: USE INDEX %s", d.at(h.HintPos))
			d.ident(depth+1, "index: ", h.Index)
		}
	}
	if s.Where != nil {
		d.expr(depth, "where: ", s.Where)
	}
	for _, g := range s.GroupBy {
		d.expr(depth, "group by: ", g)
	}
	if s.Having != nil {
		d.expr(depth, "having: ", s.Having)
	}
	for _, o := range s.Order {
		dir := "ASC"
		if o.Desc {
			dir = "DESC"
		}
		d.expr(depth, "order "+dir+": ", o.Expr)
	}
	if s.AsOf != nil {
		d.expr(depth, "as of: ", s.AsOf)
	}
	if s.Limit >= 0 {
		d.line(depth, "limit: %d", s.Limit)
	}
	if s.Offset > 0 {
		d.line(depth, "offset: %d", s.Offset)
	}
	if s.Versions > 0 {
		d.line(depth, "versions: %d", s.Versions)
	}
	if s.AllowFullScan {
		d.line(depth, "allow full scan")
	}
}

func notPrefix(not bool) string {
	if not {
		return "NOT "
	}
	return ""
}

func (d *dumper) expr(depth int, label string, e Expr) {
	switch e := e.(type) {
	case *BinaryExpr:
		d.line(depth, "%sBinaryExpr %s %s", label, e.Op, d.at(e.OpPos))
		d.expr(depth+1, "", e.LHS)
		d.expr(depth+1, "", e.RHS)
	case *UnaryExpr:
		d.line(depth, "%sUnaryExpr %s %s", label, e.Op, d.at(e.OpPos))
		d.expr(depth+1, "", e.X)
	case *BetweenExpr:
		d.line(depth, "%sBetweenExpr %sBETWEEN", label, notPrefix(e.Not))
		d.expr(depth+1, "", e.X)
		d.expr(depth+1, "lo: ", e.Lo)
		d.expr(depth+1, "hi: ", e.Hi)
	case *InExpr:
		d.line(depth, "%sInExpr %sIN", label, notPrefix(e.Not))
		d.expr(depth+1, "", e.X)
		for _, x := range e.List {
			d.expr(depth+1, "in: ", x)
		}
		if e.Sub != nil {
			d.selectStmt(depth+1, "subquery: ", e.Sub)
		}
	case *SubqueryExpr:
		d.line(depth, "%sSubqueryExpr %s", label, d.at(e.Lparen))
		d.selectStmt(depth+1, "", e.Select)
	case *ExistsExpr:
		d.line(depth, "%sExistsExpr %s", label, d.at(e.ExistsPos))
		d.selectStmt(depth+1, "", e.Select)
	case *LikeExpr:
		d.line(depth, "%sLikeExpr %sLIKE", label, notPrefix(e.Not))
		d.expr(depth+1, "", e.X)
		d.expr(depth+1, "pattern: ", e.Pattern)
		if e.Escape != nil {
			d.expr(depth+1, "escape: ", e.Escape)
		}
	case *TupleExpr:
		d.line(depth, "%sTupleExpr %s", label, d.at(e.Lparen))
		for _, x := range e.Elems {
			d.expr(depth+1, "", x)
		}
	case *IsNullExpr:
		d.line(depth, "%sIsNullExpr IS %sNULL", label, notPrefix(e.Not))
		d.expr(depth+1, "", e.X)
	case *CallExpr:
		if e.Star {
			d.line(depth, "%sCallExpr %s(*) %s", label, e.Name, d.at(e.NamePos))
			break
		}
		d.line(depth, "%sCallExpr %s %s%s", label, e.Name, not(e.Distinct, "DISTINCT ", ""), d.at(e.NamePos))
		for _, a := range e.Args {
			d.expr(depth+1, "", a)
		}
	case *CaseExpr:
		d.line(depth, "%sCaseExpr %s", label, d.at(e.Case))
		if e.Operand != nil {
			d.expr(depth+1, "operand: ", e.Operand)
		}
		for _, w := range e.Whens {
			d.expr(depth+1, "when: ", w.Cond)
			d.expr(depth+1, "then: ", w.Result)
		}
		if e.Else != nil {
			d.expr(depth+1, "else: ", e.Else)
		}
	case *CastExpr:
		d.line(depth, "%sCastExpr AS %s %s", label, e.Type, d.at(e.Cast))
		d.expr(depth+1, "", e.X)
	case *SubscriptExpr:
		d.line(depth, "%sSubscriptExpr", label)
		d.expr(depth+1, "", e.X)
		d.expr(depth+1, "key: ", e.Key)
	default:
		d.line(depth, "%s%s", label, d.leaf(e))
	}
}

// leaf prints a column or literal on one line.
func (d *dumper) leaf(e Expr) string {
	switch e := e.(type) {
	case *ColumnRef:
		return fmt.Sprintf("ColumnRef %q %s", e.Name, d.at(e.NamePos))
	case *StringLit:
		return fmt.Sprintf("StringLit %q %s", e.Val, d.at(e.ValuePos))
	case *IntLit:
		return fmt.Sprintf("IntLit %d %s", e.Val, d.at(e.ValuePos))
	case *FloatLit:
		return fmt.Sprintf("FloatLit %s %s", strconv.FormatFloat(e.Val, 'g', -1, 64), d.at(e.ValuePos))
	case *BoolLit:
		return fmt.Sprintf("BoolLit %t %s", e.Val, d.at(e.ValuePos))
	case *NullLit:
		return fmt.Sprintf("NullLit %s", d.at(e.ValuePos))
	case *BytesLit:
		return fmt.Sprintf("BytesLit x'%s' (%d bytes) %s", hex.EncodeToString(e.Val), len(e.Val), d.at(e.ValuePos))
	case *TimestampLit:
		return fmt.Sprintf("TimestampLit %s %s", e.Val.Format("2006-01-02T15:04:05.000Z07:00"), d.at(e.ValuePos))
	case *DateLit:
		return fmt.Sprintf("DateLit %s %s", e.Val.Format(time.DateOnly), d.at(e.ValuePos))
	case *IntervalLit:
		return fmt.Sprintf("IntervalLit %d %s %s", e.N, e.Unit, d.at(e.ValuePos))
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("%T", e)
}
