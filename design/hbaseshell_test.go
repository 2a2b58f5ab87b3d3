package design

import "testing"

// rubyString's quoting, as JRuby reads it back: single quotes only for
// printable text without ' or \, escapes otherwise, never a line break.
func TestRubyString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "''"},
		{"abc 123", "'abc 123'"},
		{"m#{x}", "'m#{x}'"},
		{"it's", `"it's"`},
		{`a\b`, `"a\\b"`},
		{`q"#{x}`, `'q"#{x}'`},
		{`\"#{x}`, `"\\\"\#{x}"`},
		{"\x00\n\x7F\xFFz", `"\x00\x0A\x7F\xFFz"`},
	} {
		if got := rubyString([]byte(tc.in)); got != tc.want {
			t.Errorf("rubyString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
