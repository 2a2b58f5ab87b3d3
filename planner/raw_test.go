package planner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

func rawPlan(t *testing.T, q string) (*planner.RawRead, error) {
	t.Helper()
	st, err := parser.ParseOne(q)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(cat, planner.Options{}).Plan(context.Background(), st)
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *planner.RawRead:
		return p, nil
	case *planner.RawExplain:
		return p.Read, nil
	}
	t.Fatalf("%s: planned %T", q, p)
	return nil, nil
}

// TestRawPlan: the conditions a raw read's bounds serve, and the HBase
// shell command EXPLAIN gives for it.
func TestRawPlan(t *testing.T) {
	cases := []struct{ q, shell, client string }{
		{`SELECT * FROM RAW 'ns:t' WHERE _key LIKE 'u1%'`, `scan 'ns:t', {STARTROW => 'u1', STOPROW => 'u2'}`, ""},
		{`SELECT * FROM RAW 't' WHERE _key LIKE 'a\xFF%' ORDER BY _key DESC LIMIT 3`, `scan 't', {STARTROW => 'b', STOPROW => "a\xFF", REVERSED => true, LIMIT => 3}`, ""},
		{`SELECT * FROM RAW 't' WHERE _key LIKE 'u1%x' AND _family = 'f'`, `scan 't', {STARTROW => 'u1', STOPROW => 'u2', COLUMNS => ['f']}`, "_key LIKE 'u1%x'"},
		{`SELECT * FROM RAW 't' WHERE _key >= x'00' AND _key <= 'b' AND _family IN ('f', 'g') AND _qualifier = 'q' VERSIONS 3`,
			`scan 't', {STARTROW => "\x00", STOPROW => "b\x00", COLUMNS => ['f:q', 'g:q'], VERSIONS => 3}`, ""},
		{`SELECT * FROM RAW 't' WHERE _key IN ('b', 'a') AND _ts >= 10 AND _ts < TIMESTAMP '1970-01-01 00:00:01'`,
			`get 't', 'a', {TIMERANGE => [10, 1000]}`, ""},
		{`SELECT * FROM RAW 't' WHERE _key BETWEEN 'a' AND 'c' AND _qualifier IN ('x', 'y') AND _value = 'v' LIMIT 2`,
			`scan 't', {STARTROW => 'a', STOPROW => "c\x00", FILTER => "QualifierFilter(=, 'binary:x') OR QualifierFilter(=, 'binary:y')"}`, "_value = x'76'"},
		{`SELECT * FROM RAW 't' WHERE (_key = 'b' OR 'a' = _key) AND _family = 'f'`, `get 't', 'a', {COLUMNS => ['f']}`, ""},
		{`SELECT * FROM RAW 't' WHERE (_key = 'b' OR _value = 'a') AND _key < 'c'`, `scan 't', {STOPROW => 'c'}`, "_key = x'62' OR _value = x'61'"},
		{`SELECT * FROM RAW 't' WHERE _key = 'a' AND _key = 'b'`, "", ""},
		{`SELECT * FROM RAW 't' WHERE _key < 'a' AND _ts > 5 AND _ts < 3`, "", ""},
		{`SELECT * FROM RAW 't' WHERE _key LIKE 'a%' AND _family = 'f' AND _family = 'g'`, "", ""},
	}
	for _, c := range cases {
		r, err := rawPlan(t, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if c.shell == "" {
			if !r.Empty {
				t.Errorf("%s: want an empty read, got %+v", c.q, r)
			}
			if text := r.Explain("HBase", nil).Text(); !strings.HasPrefix(text, "EMPTY") {
				t.Errorf("%s: EXPLAIN\n%s", c.q, text)
			}
			continue
		}
		if got := r.Shell()[0]; got != c.shell {
			t.Errorf("%s:\n shell %s\n want  %s", c.q, got, c.shell)
		}
		got := ""
		if r.Filter != nil {
			got = r.Filter.String()
		}
		if got != c.client {
			t.Errorf("%s: client filter %q, want %q", c.q, got, c.client)
		}
		text := r.Explain("HBase", nil).Text()
		if c.client != "" && !strings.Contains(text, "CLIENT FILTER BY "+c.client) {
			t.Errorf("%s: EXPLAIN does not name the client's filter:\n%s", c.q, text)
		}
	}
}

// TestRawPlanErrors: bad raw reads give one error at the offending spot.
func TestRawPlanErrors(t *testing.T) {
	cases := []struct {
		q      string
		offset int
		msg    string
	}{
		{`SELECT * FROM RAW 't'`, 18, "would read the whole table"},
		{`SELECT * FROM RAW 't' WHERE _key = '\xZ1'`, 35, "bad escape"},
		{`SELECT * FROM RAW 't' WHERE _key = 5`, 35, "not bytes"},
		{`SELECT * FROM RAW 't' WHERE _key = 'a' ORDER BY _ts`, 48, "ordered by _key alone"},
		{`SELECT nope FROM RAW 't' WHERE _key = 'a'`, 7, `column "nope" does not exist in a raw read`},
		{`SELECT COUNT(*) FROM RAW 't' WHERE _key = 'a'`, 7, "aggregate function COUNT"},
		{`SELECT RAW * FROM RAW 't' WHERE _key = 'a'`, 0, "FROM RAW rows are cells already"},
		{`SELECT * FROM RAW 't' WHERE _key = 'a' AND _ts > 'soon'`, 49, "TIMESTAMP"},
		{`SELECT * FROM RAW 't' WHERE _key = 'a' AND _value LIKE '\x4'`, 55, "bad escape"},
		{`INSERT INTO "ns:t" (a) VALUES (1)`, 12, "describe its layout in the catalog YAML"},
		{`DELETE FROM "ns:t" WHERE a = 1`, 12, "CREATE TABLE"},
	}
	for _, c := range cases {
		st, err := parser.ParseOne(c.q)
		if err == nil {
			cat, _ := catalog.Parse([]byte("tables: []\n"))
			_, err = planner.New(cat, planner.Options{}).Plan(context.Background(), st)
		}
		var pe *parser.Error
		if !errors.As(err, &pe) {
			t.Fatalf("%s: want a positioned error, got %v", c.q, err)
		}
		if int(pe.Pos) != c.offset || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: error %q at %d, want %q at %d", c.q, pe.Msg, pe.Pos, c.msg, c.offset)
		}
	}
}
