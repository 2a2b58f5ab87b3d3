package parser

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestParse runs the datadriven files in testdata/. Commands:
//
//	parse      Parse the input as a script; print each statement's canonical
//	           text and AST, or the error with its source context.
//	parse-one  The same through ParseOne.
//
// Regenerate the expected output with: go test ./parser -run TestParse -rewrite
func TestParse(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(path, string(filepath.Separator)+"fuzz") {
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "parse":
				stmts, err := Parse(d.Input)
				if err != nil {
					return errorText(t, d.Input, err)
				}
				return dumpStmts(d.Input, stmts)
			case "parse-one":
				stmt, err := ParseOne(d.Input)
				if err != nil {
					return errorText(t, d.Input, err)
				}
				return dumpStmts(d.Input, []Stmt{stmt})
			}
			t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
			return ""
		})
	})
}

// errorText prints an error and its context, checking that it is an *Error
// whose line and column agree with its offset.
func errorText(t *testing.T, src string, err error) string {
	t.Helper()
	var perr *Error
	if !errors.As(err, &perr) {
		t.Fatalf("error %v is %T, not *Error", err, err)
	}
	if line, col := Position(src, perr.Pos); line != perr.Line || col != perr.Col {
		t.Fatalf("error %v: Line:Col %d:%d, but offset %d is at %d:%d", err, perr.Line, perr.Col, perr.Pos, line, col)
	}
	return fmt.Sprintf("error: %s\n%s\n", err, perr.Context(src))
}

// testInputs returns the input of every parse command in the datadriven
// files, keyed by "file:line".
func testInputs(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i := 0; i < len(lines); i++ {
			cmd := strings.Fields(lines[i])
			if len(cmd) == 0 || (cmd[0] != "parse" && cmd[0] != "parse-one") {
				continue
			}
			start := i + 1
			for i++; i < len(lines) && lines[i] != "----"; i++ {
			}
			inputs[fmt.Sprintf("%s:%d", filepath.Base(f), start)] = strings.Join(lines[start:i], "\n")
		}
	}
	if len(inputs) == 0 {
		t.Fatal("no test inputs found in testdata")
	}
	return inputs
}

// TestBinaryPos: a chain's position is its first operand's, however
// long the chain, and each link's is the same.
func TestBinaryPos(t *testing.T) {
	src := "SELECT * FROM t WHERE a + 2 * b - 3 = 1 OR NOT c AND d"
	s, err := ParseOne(src)
	if err != nil {
		t.Fatal(err)
	}
	where := s.(*SelectStmt).Where
	want := Pos(strings.Index(src, "a +"))
	for e := where; ; {
		b, ok := e.(*BinaryExpr)
		if !ok {
			break
		}
		if b.Pos() != want {
			t.Errorf("%s is at %d, want %d", b, b.Pos(), want)
		}
		e = b.LHS
	}
	built := &BinaryExpr{OpPos: 5, Op: OpAdd, LHS: &BinaryExpr{OpPos: 3, Op: OpAdd, RHS: &IntLit{Val: 1}}, RHS: &IntLit{Val: 2}}
	if built.Pos() != 3 {
		t.Errorf("a chain built outside the parser, with no first operand, is at %d, want 3", built.Pos())
	}
}

// TestChainTooLong: a chain of more than maxChain operators is refused
// before it is parsed, at the operator past the cap; as many values in an
// IN list, or in parenthesized chains of their own, are not one chain.
func TestChainTooLong(t *testing.T) {
	long := "SELECT * FROM t WHERE a = 1" + strings.Repeat(" + 1", maxChain)
	_, err := ParseOne(long)
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "expression too long") {
		t.Fatalf("a chain of %d operators: %v, want expression too long", maxChain+1, err)
	}
	if want := Pos(len(long) - len("+ 1")); pe.Pos != want {
		t.Errorf("the error is at %d, want %d (the last operator)", pe.Pos, want)
	}
	for _, ok := range []string{
		"SELECT * FROM t WHERE a = 1" + strings.Repeat(" + 1", maxChain-1),
		"SELECT * FROM t WHERE a IN (0" + strings.Repeat(", -1", maxChain+1) + ")",
		"SELECT * FROM t WHERE (a = 1" + strings.Repeat(" + 1", maxChain/2) + ") OR (b = 1" + strings.Repeat(" + 1", maxChain/2) + ")",
	} {
		toks, err := tokenize(ok)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkChains(ok, toks); err != nil {
			t.Errorf("%.60s…: %v", ok, err)
		}
	}
}
