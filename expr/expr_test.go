package expr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rkql/rkql/catalog"
)

func TestThreeValuedLogic(t *testing.T) {
	null := catalog.Null(catalog.TypeBigint)
	one, two := catalog.Bigint(1), catalog.Bigint(2)
	x := func(op CmpOp, v catalog.Value) Expr { return &Cmp{Col: 0, Name: "x", Op: op, Val: v} }
	in := func(not bool, vs ...catalog.Value) Expr { return &In{Col: 0, Name: "x", Vals: vs, Not: not} }
	cases := []struct {
		e    Expr
		row  catalog.Value
		want Tri
	}{
		{x(Eq, one), one, True},
		{x(Eq, one), two, False},
		{x(Eq, one), null, Unknown},
		{x(Ne, one), null, Unknown},
		{&Not{X: x(Eq, one)}, null, Unknown},
		{&And{Terms: []Expr{x(Eq, one), x(Eq, two)}}, null, Unknown},
		{&And{Terms: []Expr{&Const{V: Unknown}, x(Eq, two)}}, one, False},
		{&Or{Terms: []Expr{&Const{V: Unknown}, x(Eq, one)}}, one, True},
		{&Or{Terms: []Expr{&Const{V: Unknown}, x(Eq, two)}}, one, Unknown},
		{in(false, one, two), two, True},
		{in(false, one, null), two, Unknown},
		{in(false, one, null), one, True},
		{in(true, one, null), two, Unknown},
		{in(true, one, null), one, False},
		{in(true, one), two, True},
		{in(true, one), null, Unknown},
		{&IsNull{Col: 0, Name: "x"}, null, True},
		{&IsNull{Col: 0, Name: "x", Not: true}, null, False},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.e, c.row), func(t *testing.T) {
			if got := eval(t, c.e, catalog.Row{c.row}); got != c.want {
				t.Errorf("%s on x=%s: got %d, want %d", c.e, c.row, got, c.want)
			}
			if m, err := Match(c.e, catalog.Row{c.row}); err != nil || m != (c.want == True) {
				t.Errorf("Match disagrees with Eval")
			}
		})
	}
}

func TestLike(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"a%", "abc", true},
		{"a%", "ba", false},
		{"%c", "abc", true},
		{"a_c", "abc", true},
		{"a_c", "ac", false},
		{"%", "", true},
		{"a.c", "abc", false},
		{"a%", "a\nb", true},
	}
	for _, c := range cases {
		l := NewLike(0, "s", c.pattern, false)
		if got := eval(t, l, catalog.Row{catalog.String(c.s)}) == True; got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pattern, got, c.want)
		}
	}
}

// Over BYTES, _ is one byte: x'c3a9' (é in UTF-8) is two units.
func TestBytesLike(t *testing.T) {
	v := catalog.Row{catalog.Bytes([]byte{0xc3, 0xa9})}
	// The pattern's bytes are matched as they are: \xc3 in a pattern is
	// four bytes, not one.
	for pattern, want := range map[string]bool{"__": true, "_": false, "%": true, "\xc3%": true, `\xc3%`: false} {
		if got := eval(t, NewBytesLike(0, "b", pattern, false), v) == True; got != want {
			t.Errorf("x'c3a9' LIKE %q = %v, want %v", pattern, got, want)
		}
	}
	if eval(t, NewBytesLike(0, "b", `\xc3_`, false), catalog.Row{catalog.Bytes([]byte(`\xc3z`))}) != True {
		t.Error("pattern bytes must be matched as they are")
	}
}

func TestColumnsAndWalk(t *testing.T) {
	e := &And{Terms: []Expr{
		&Cmp{Col: 2, Name: "b", Op: Eq, Val: catalog.Bigint(1)},
		&Or{Terms: []Expr{&IsNull{Col: 0, Name: "a"}, &Not{X: &Cmp{Col: 2, Name: "b", Op: Lt, Val: catalog.Bigint(0)}}}},
	}}
	got := fmt.Sprint(Columns(e))
	if got != "[2 0]" {
		t.Errorf("Columns = %s, want [2 0]", got)
	}
	if s := e.String(); s != "b = 1 AND (a IS NULL OR NOT (b < 0))" {
		t.Errorf("String = %q", s)
	}
}

func TestLikeEscapeAndPrefix(t *testing.T) {
	cases := []struct {
		pattern, escape, s string
		want               bool
		prefix             string
		exact              bool
	}{
		{`web1\_%`, `\`, "web1_x", true, "web1_", true},
		{`web1\_%`, `\`, "web1x", false, "web1_", true},
		{`web1_`, "", "web12", true, "web1", false},
		{`web1_`, "", "web1", false, "web1", false},
		{`a!%b`, "!", "a%b", true, "a%b", false},
		{`a!%b`, "!", "axb", false, "a%b", false},
		{`a!!%`, "!", "a!zz", true, "a!", true},
		{`%x`, "", "yx", true, "", false},
		{`ab`, "", "ab", true, "ab", false},
		{`é_%`, "", "éxy", true, "é", false},
	}
	for _, c := range cases {
		l, err := NewLikeEscape(0, "s", c.pattern, c.escape, false, false)
		if err != nil {
			t.Fatalf("%q ESCAPE %q: %v", c.pattern, c.escape, err)
		}
		if got := eval(t, l, catalog.Row{catalog.String(c.s)}) == True; got != c.want {
			t.Errorf("%q LIKE %q ESCAPE %q = %v, want %v", c.s, c.pattern, c.escape, got, c.want)
		}
		if p, exact := l.Prefix(); p != c.prefix || exact != c.exact {
			t.Errorf("%q ESCAPE %q: Prefix = %q, %v; want %q, %v", c.pattern, c.escape, p, exact, c.prefix, c.exact)
		}
	}
	if _, err := NewLikeEscape(0, "s", `ab\`, `\`, false, false); !errors.Is(err, ErrLikeEscape) {
		t.Errorf("a pattern ending with its escape: err = %v", err)
	}
	l, _ := NewLikeEscape(0, "s", `a\%`, `\`, false, true)
	if s := l.String(); s != `s NOT LIKE 'a\%' ESCAPE '\'` {
		t.Errorf("String = %s", s)
	}
}

// eval is e's truth on r; it fails the test on an error.
func eval(t testing.TB, e Expr, r catalog.Row) Tri {
	t.Helper()
	v, err := e.Eval(r)
	if err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	return v
}
