package parser

import "testing"

// TestFromRaw: FROM RAW 'ns:t' names an HBase table; RAW is a keyword
// only between FROM and a string.
func TestFromRaw(t *testing.T) {
	cases := []struct{ q, table, str string }{
		{"select * from raw 'ns:t' where _key like 'u1%'", "ns:t", "SELECT * FROM RAW 'ns:t' WHERE _key LIKE 'u1%'"},
		{"SELECT _key, CAST(_value AS BIGINT) FROM RAW 'it''s' LIMIT 3", "it's", "SELECT _key, CAST(_value AS BIGINT) FROM RAW 'it''s' LIMIT 3"},
		{"SELECT * FROM RAW 't' WHERE _key = x'00ff' ORDER BY _key DESC VERSIONS 3", "t", "SELECT * FROM RAW 't' WHERE _key = x'00ff' ORDER BY _key DESC VERSIONS 3"},
	}
	for _, c := range cases {
		st, err := ParseOne(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		s := st.(*SelectStmt)
		if !s.FromRaw || s.Table.Name != c.table {
			t.Fatalf("%s: FromRaw %v table %q", c.q, s.FromRaw, s.Table.Name)
		}
		if got := s.String(); got != c.str {
			t.Fatalf("String() = %q, want %q", got, c.str)
		}
		again, err := ParseOne(s.String())
		if err != nil || !again.(*SelectStmt).FromRaw || again.(*SelectStmt).Table.Name != c.table {
			t.Fatalf("round trip of %q: %v", s.String(), err)
		}
	}
	// raw stays a name elsewhere: a table called raw.
	st, err := ParseOne("SELECT * FROM raw WHERE a = 1")
	if err != nil || st.(*SelectStmt).FromRaw || st.(*SelectStmt).Table.Name != "raw" {
		t.Fatalf("FROM raw: %v %+v", err, st)
	}
}

// TestFromRawErrors: bad input gives one positioned error.
func TestFromRawErrors(t *testing.T) {
	cases := []struct {
		q      string
		offset int
	}{
		{"SELECT * FROM RAW '' LIMIT 1", 14},
		{"SELECT * FROM RAW 'ns:t' WHERE _key = x'0'", 38},
		{"SELECT * FROM RAW 'ns:t' WHERE", 30},
	}
	for _, c := range cases {
		_, err := ParseOne(c.q)
		pe, ok := err.(*Error)
		if !ok {
			t.Fatalf("%s: want *Error, got %v", c.q, err)
		}
		if int(pe.Pos) != c.offset {
			t.Fatalf("%s: error %q at %d, want %d", c.q, pe.Msg, pe.Pos, c.offset)
		}
	}
}
