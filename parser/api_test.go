package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"", false},
		{"SELECT * FROM t", false},
		{"SELECT * FROM t;", true},
		{"SELECT * FROM t;  \n\t", true},
		{"SELECT * FROM t; -- done", true},
		{"SELECT * FROM t; /* done */", true},
		{"SELECT * FROM t; /* not closed", false},
		{"SELECT * FROM t -- ;", false},
		{"SELECT * FROM t WHERE a = ';'", false},
		{"SELECT * FROM t WHERE a = 'it''s;", false},
		{"SELECT * FROM t WHERE a = 'it''s';", true},
		{`SELECT * FROM "t;`, false},
		{`SELECT * FROM "t;";`, true},
		{"SELECT 1; SELECT 2", false},
		{";", true},
		{"SELECT * FROM t; x'00';", true},
		{"/* ; */", false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := Complete(tt.src); got != tt.want {
				t.Fatalf("Complete(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

func TestPosition(t *testing.T) {
	src := "ab\ncdé\n\tx"
	tests := []struct {
		pos       Pos
		line, col int
	}{
		{0, 1, 1},
		{2, 1, 3},
		{3, 2, 1},
		{5, 2, 3},
		{7, 2, 4}, // after the two-byte é
		{8, 3, 1},
		{9, 3, 2},
		{10, 3, 3},
		{99, 3, 3}, // clamped to the end
		{NoPos, 1, 1},
	}
	for _, tt := range tests {
		line, col := Position(src, tt.pos)
		if line != tt.line || col != tt.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.pos, line, col, tt.line, tt.col)
		}
	}
}

func TestErrorContext(t *testing.T) {
	src := "SELECT *\n\tFROM t\r\n\tWHERE a = = 1"
	_, err := Parse(src)
	var perr *Error
	if !errors.As(err, &perr) {
		t.Fatalf("Parse(%q) error = %v, want *Error", src, err)
	}
	if got, want := err.Error(), `3:12: unexpected "=", expected expression`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if got, want := perr.Context(src), "\tWHERE a = = 1\n\t          ^"; got != want {
		t.Fatalf("Context() = %q, want %q", got, want)
	}
	// The \r of a CRLF line end is not part of the printed line.
	_, err = Parse("SELECT * FORM t\r\n")
	if !errors.As(err, &perr) {
		t.Fatal(err)
	}
	if got, want := perr.Context("SELECT * FORM t\r\n"), "SELECT * FORM t\n         ^"; got != want {
		t.Fatalf("Context() = %q, want %q", got, want)
	}
}

func TestParseOne(t *testing.T) {
	s, err := ParseOne("show tables;")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*ShowTablesStmt); !ok {
		t.Fatalf("ParseOne gave %T, want *ShowTablesStmt", s)
	}
	for _, src := range []string{"", "  ", "-- c", "SHOW TABLES; SHOW TABLES"} {
		if _, err := ParseOne(src); err == nil {
			t.Errorf("ParseOne(%q) succeeded, want an error", src)
		}
	}
}

// TestNesting checks that deep nesting is an error, not a stack overflow,
// and that reasonable nesting parses.
func TestNesting(t *testing.T) {
	tests := []struct {
		src     string
		wantErr string
	}{
		{"SELECT * FROM t WHERE " + strings.Repeat("(", 50) + "a" + strings.Repeat(")", 50), ""},
		{"SELECT * FROM t WHERE " + strings.Repeat("(", 100000) + "a", "1:223: expression nested too deeply"},
		{"SELECT * FROM t WHERE " + strings.Repeat("NOT ", 100000) + "a", "1:823: expression nested too deeply"},
		{"SELECT * FROM t WHERE a = " + strings.Repeat("- ", 100000) + "1", "1:427: expression nested too deeply"},
		{"SELECT * FROM t WHERE " + strings.Repeat("NOT (", 100000) + "a", "1:1023: expression nested too deeply"},
	}
	for i, tt := range tests {
		_, err := Parse(tt.src)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%d: unexpected error %v", i, err)
		case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
			t.Errorf("%d: error = %v, want %s", i, err, tt.wantErr)
		}
	}
}

// TestBadBytes checks input that datadriven files cannot hold.
func TestBadBytes(t *testing.T) {
	tests := []struct{ src, want string }{
		{"SELECT * FROM t\x00", `1:16: unexpected character '\x00'`},
		{"SELECT * FROM t WHERE a = \xff", "1:27: unexpected character (invalid UTF-8)"},
		{"SELECT * FROM t WHERE a = 'é\xff'", ""},
		{"SELECT * FROM \"\xff\"", ""},
	}
	for _, tt := range tests {
		stmts, err := Parse(tt.src)
		if tt.want == "" {
			if err != nil {
				t.Errorf("Parse(%q): %v", tt.src, err)
				continue
			}
			checkRoundTrip(t, stmts)
			continue
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error = %v, want %s", tt.src, err, tt.want)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	tests := []struct{ name, want string }{
		{"a", "a"},
		{"_ts", "_ts"},
		{"A1_b", "A1_b"},
		{"1a", `"1a"`},
		{"my col", `"my col"`},
		{`a"b`, `"a""b"`},
		{"select", `"select"`},
		{"Timestamp", `"Timestamp"`},
		{"count", "count"}, // a function name, not a keyword
		{"été", `"été"`},
		{"", `""`},
	}
	for _, tt := range tests {
		if got := QuoteIdent(tt.name); got != tt.want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Errorf makes the error of a later stage: its message alone, a position
// to be placed in the source, and a cause that errors.Is finds.
func TestErrorf(t *testing.T) {
	cause := errors.New("bad key")
	e := Errorf(7, "column %s: %w", "k", cause)
	if e.Error() != "column k: bad key" || e.Pos != 7 || e.Line != 0 || e.Col != 0 {
		t.Errorf("Errorf = %+v, %q", e, e.Error())
	}
	if !errors.Is(e, cause) || e.Unwrap() != cause {
		t.Errorf("Errorf does not wrap its cause: %v", e.Unwrap())
	}
	var err error = Errorf(3, "no cause %d", 1)
	if errors.Unwrap(err) != nil {
		t.Errorf("Errorf without %%w has cause %v", errors.Unwrap(err))
	}
	var pe *Error
	if !errors.As(fmtWrap(err), &pe) || pe.Pos != 3 {
		t.Errorf("errors.As does not find the *Error in %v", fmtWrap(err))
	}
	line, col := Position("ab\ncdef", pe.Pos)
	if line != 2 || col != 1 {
		t.Errorf("Position = %d:%d, want 2:1", line, col)
	}
}

func fmtWrap(err error) error { return fmt.Errorf("planning: %w", err) }
