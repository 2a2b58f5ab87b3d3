package parser

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ignorePos makes cmp ignore every Pos field, so trees parsed from different
// texts compare equal when they have the same shape and values.
var ignorePos = cmp.FilterPath(func(p cmp.Path) bool {
	return p.Last().Type() == reflect.TypeFor[Pos]()
}, cmp.Ignore())

// checkRoundTrip parses each statement's String() again and compares the
// trees. It reports the first difference.
func checkRoundTrip(t testing.TB, stmts []Stmt) {
	t.Helper()
	var texts []string
	for _, s := range stmts {
		text := s.String()
		texts = append(texts, text)
		again, err := ParseOne(text)
		if err != nil {
			t.Fatalf("String() = %q does not parse: %v", text, err)
		}
		if diff := cmp.Diff(s, again, ignorePos); diff != "" {
			t.Fatalf("String() = %q parses to a different tree (-first +second):\n%s", text, diff)
		}
		if again.String() != text {
			t.Fatalf("String() is not stable: %q, then %q", text, again.String())
		}
	}
	// The statements printed as one script give the same list.
	script := strings.Join(texts, ";\n")
	again, err := Parse(script)
	if err != nil {
		t.Fatalf("script %q does not parse: %v", script, err)
	}
	if diff := cmp.Diff(stmts, again, ignorePos); diff != "" {
		t.Fatalf("script %q parses to different trees (-first +second):\n%s", script, diff)
	}
}

// TestRoundTrip checks, for every input of the datadriven files that parses,
// that String() parses back to an equal tree.
func TestRoundTrip(t *testing.T) {
	inputs := testInputs(t)
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	parsed := 0
	for _, name := range names {
		src := inputs[name]
		stmts, err := Parse(src)
		if err != nil {
			continue // an error case; TestParse checks its message
		}
		parsed++
		t.Run(name, func(t *testing.T) { checkRoundTrip(t, stmts) })
	}
	if parsed < 50 {
		t.Fatalf("only %d inputs parsed; the round trip covers too little", parsed)
	}
}

// TestRoundTripBuilt checks trees that the parser cannot produce directly
// but other packages may build: the printer must still add the parentheses
// that keep their shape.
func TestRoundTripBuilt(t *testing.T) {
	col := func(n string) Expr { return &ColumnRef{Name: n} }
	num := func(v int64) Expr { return &IntLit{Val: v} }
	bin := func(op BinaryOp, l, r Expr) Expr { return &BinaryExpr{Op: op, LHS: l, RHS: r} }
	tests := []struct {
		expr Expr
		want string
	}{
		{bin(OpOr, col("a"), bin(OpOr, col("b"), col("c"))), "a OR (b OR c)"},
		{bin(OpAnd, bin(OpOr, col("a"), col("b")), col("c")), "(a OR b) AND c"},
		{bin(OpEq, bin(OpEq, col("a"), col("b")), col("c")), "(a = b) = c"},
		{bin(OpLt, col("a"), &UnaryExpr{Op: OpNot, X: col("b")}), "a < (NOT b)"},
		{&UnaryExpr{Op: OpNeg, X: &UnaryExpr{Op: OpNeg, X: col("a")}}, "-(-a)"},
		{&UnaryExpr{Op: OpNot, X: bin(OpAnd, col("a"), col("b"))}, "NOT (a AND b)"},
		{&BetweenExpr{X: bin(OpEq, col("a"), num(1)), Lo: num(1), Hi: bin(OpAnd, col("b"), col("c"))}, "(a = 1) BETWEEN 1 AND (b AND c)"},
		{&InExpr{X: col("select"), List: []Expr{bin(OpOr, col("a"), col("b"))}, Not: true}, `"select" NOT IN (a OR b)`},
		{&IsNullExpr{X: &LikeExpr{X: col("a"), Pattern: &StringLit{Val: "it's"}}}, "(a LIKE 'it''s') IS NULL"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			s := &SelectStmt{Star: true, Table: Ident{Name: "t"}, Where: tt.expr, Limit: -1}
			want := "SELECT * FROM t WHERE " + tt.want
			if got := s.String(); got != want {
				t.Fatalf("String() = %q, want %q", got, want)
			}
			checkRoundTrip(t, []Stmt{s})
		})
	}
}
