package expr

import (
	"errors"
	"math"
	"testing"

	"github.com/rkql/rkql/catalog"
)

// TestConditionErrors: a value a condition cannot compute fails it,
// unless another term decides the answer without that value.
func TestConditionErrors(t *testing.T) {
	x := &Col{Index: 0, Name: "x", T: catalog.TypeBigint}
	over := &Compare{L: &Arith{Op: Add, L: x, R: lit(catalog.Bigint(1))}, R: lit(catalog.Bigint(0)), Op: Gt}
	yes, no, unk := &Const{V: True}, &Const{V: False}, &Const{V: Unknown}
	row := catalog.Row{catalog.Bigint(math.MaxInt64)}
	tests := []struct {
		name string
		e    Expr
		// fails says Match fails; else match is its answer.
		fails, match bool
		// evalFails says Eval fails, as a value (Truth) sees it.
		evalFails bool
		want      Tri
	}{
		{"compare", over, true, false, true, Unknown},
		{"is null", &IsNullOf{X: over.L}, true, false, true, Unknown},
		{"like", &LikeOf{X: &Cast{X: over.L, T: catalog.TypeString}, Like: NewLike(0, "", "%", false)}, true, false, true, Unknown},
		{"not", &Not{X: over}, true, false, true, Unknown},
		{"and true", &And{Terms: []Expr{yes, over}}, true, false, true, Unknown},
		{"and false", &And{Terms: []Expr{over, no}}, false, false, false, False},
		{"and unknown", &And{Terms: []Expr{over, unk}}, false, false, true, Unknown},
		{"or true", &Or{Terms: []Expr{over, yes}}, false, true, false, True},
		{"or false", &Or{Terms: []Expr{no, over}}, true, false, true, Unknown},
		{"or unknown", &Or{Terms: []Expr{unk, over}}, true, false, true, Unknown},
		{"or of and unknown", &Or{Terms: []Expr{&And{Terms: []Expr{unk, over}}, no}}, false, false, true, Unknown},
		{"not and unknown", &Not{X: &And{Terms: []Expr{unk, over}}}, true, false, true, Unknown},
		{"not or unknown", &Not{X: &Or{Terms: []Expr{unk, over}}}, false, false, true, Unknown},
		{"not and false", &Not{X: &And{Terms: []Expr{no, over}}}, false, true, false, True},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Match(tc.e, row)
			if tc.fails != (err != nil) || err == nil && m != tc.match {
				t.Errorf("Match(%s) = %v, %v; want fails=%v, match=%v", tc.e, m, err, tc.fails, tc.match)
			}
			if err != nil && !errors.Is(err, ErrOverflow) {
				t.Errorf("Match(%s): %v, want an overflow", tc.e, err)
			}
			v, err := tc.e.Eval(row)
			if tc.evalFails != (err != nil) || err == nil && v != tc.want {
				t.Errorf("Eval(%s) = %v, %v; want fails=%v, %v", tc.e, v, err, tc.evalFails, tc.want)
			}
			_, err = (&Truth{C: tc.e}).Value(row)
			if tc.evalFails != (err != nil) {
				t.Errorf("Truth(%s): %v, want fails=%v", tc.e, err, tc.evalFails)
			}
		})
	}
}

// TestCaseWhenError: a WHEN that cannot be decided fails the CASE; one
// that a term decides does not.
func TestCaseWhenError(t *testing.T) {
	x := &Col{Index: 0, Name: "x", T: catalog.TypeBigint}
	over := &Compare{L: &Arith{Op: Add, L: x, R: lit(catalog.Bigint(1))}, R: lit(catalog.Bigint(0)), Op: Gt}
	row := catalog.Row{catalog.Bigint(math.MaxInt64)}
	c := &Case{Whens: []When{{Cond: over, Result: lit(catalog.Bigint(1))}}, T: catalog.TypeBigint}
	if _, err := c.Value(row); !errors.Is(err, ErrOverflow) {
		t.Errorf("CASE WHEN %s: got %v, want an overflow", over, err)
	}
	c.Whens[0].Cond = &And{Terms: []Expr{&Const{V: Unknown}, over}}
	if v, err := c.Value(row); err != nil || !v.Null {
		t.Errorf("CASE WHEN %s: got %v, %v, want NULL", c.Whens[0].Cond, v, err)
	}
}
