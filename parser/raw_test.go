package parser

import "testing"

// TestSelectRaw: RAW is a keyword only between SELECT and "*"; elsewhere
// raw is a name.
func TestSelectRaw(t *testing.T) {
	cases := []struct {
		q         string
		raw, star bool
		items     int
		str       string
	}{
		{"select raw * from t where a = 1 limit 2", true, true, 0, "SELECT RAW * FROM t WHERE a = 1 LIMIT 2"},
		{"SELECT raw FROM t", false, false, 1, `SELECT "raw" FROM t`},
		{"SELECT raw, b FROM t", false, false, 2, `SELECT "raw", b FROM t`},
		{"SELECT * FROM t", false, true, 0, "SELECT * FROM t"},
	}
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			st, err := ParseOne(c.q)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*SelectStmt)
			if s.Raw != c.raw || s.Star != c.star || len(s.Items) != c.items {
				t.Fatalf("raw %v star %v items %d", s.Raw, s.Star, len(s.Items))
			}
			if got := s.String(); got != c.str {
				t.Fatalf("String() = %q, want %q", got, c.str)
			}
			again, err := ParseOne(s.String())
			if err != nil || again.(*SelectStmt).Raw != s.Raw {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
}
