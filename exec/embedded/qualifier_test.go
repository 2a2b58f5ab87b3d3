package embedded_test

import (
	"testing"
	"time"
)

// A data table may map a column to the qualifier an index entry uses for
// its status cell: only index tables have status cells.
const statusQualifierCatalog = `
tables:
  - name: flags
    families:
      - {name: f}
    columns:
      - {name: id, type: STRING}
      - {name: v, type: STRING, column: "f:_v"}
      - {name: w, type: STRING, column: "f:w"}
    rowkey:
      - {field: id}
    indexes:
      - name: flags_by_w
        rowkey:
          - {field: w}
          - {literal: "|"}
          - {field: id}
        covers: [v]
`

func TestColumnWithStatusQualifier(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, statusQualifierCatalog, func() time.Time { return now }, 0)
	s.run("INSERT INTO flags (id, v, w) VALUES ('a', 'on', 'x'), ('b', 'off', 'y')")
	if got, want := s.run("SELECT id, v FROM flags WHERE id = 'a'"), "a on"; got != want {
		t.Errorf("point lookup: got %q, want %q", got, want)
	}
	if got, want := s.run("SELECT id, v, w FROM flags ALLOW FULL SCAN"), "a on x\nb off y"; got != want {
		t.Errorf("full scan: got %q, want %q", got, want)
	}
	// Through the index, which covers v: the entry's own status cell
	// still marks it verified, and v reads from the entry.
	if got, want := s.run("SELECT id, v FROM flags WHERE w = 'y'"), "b off"; got != want {
		t.Errorf("index lookup: got %q, want %q", got, want)
	}
}
