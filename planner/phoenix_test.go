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

const phoenixCatalog = `tables:
  - name: p
    families: [{name: "0"}]
    columns:
      - {name: a, type: STRING}
      - {name: b, type: STRING}
      - {name: v, type: DOUBLE, column: "0:V", encoding: phoenix}
    rowkey:
      - {field: a, encoding: phoenix}
      - {field: b, encoding: phoenix}
`

// Phoenix writes (x, NULL) as the key x, without the separator after x,
// so the scan for a = 'x' starts at x itself, not at x\x00; a point lookup
// of both fields has no separator at its end.
func TestPhoenixTrailingNullScan(t *testing.T) {
	cat, err := catalog.Parse([]byte(phoenixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	for _, tc := range []struct{ q, want string }{
		{"SELECT * FROM p WHERE a = 'x'", "BYTES  x - x\\x01\n"},
		{"SELECT * FROM p WHERE a = 'x' AND b = 'y'", "BYTES  x\\x00y\n"},
	} {
		stmt, err := parser.ParseOne("EXPLAIN " + tc.q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatal(err)
		}
		text := p.(*planner.Explain).Select.String()
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s:\n%s\nwant %s", tc.q, text, tc.want)
		}
	}
}

const phoenixIndexCatalog = `tables:
  - name: m
    hbase: S.M
    families: [{name: "0"}]
    columns:
      - {name: host, type: STRING}
      - {name: cpu, type: DOUBLE, column: "0:\x80\x0B", encoding: phoenix}
      - {name: name, type: STRING, column: "0:\x80\x0C", encoding: phoenix}
      - {name: x, type: BIGINT, column: "0:\x80\x0D", encoding: phoenix}
    rowkey:
      - {salt: 4}
      - {field: host, encoding: phoenix}
    phoenix: {table: S.M, empty_column: "0:\x00\x00\x00\x00", global_indexes: [S.M_CPU]}
  - name: m_cpu
    hbase: S.M_CPU
    families: [{name: "0"}]
    columns:
      - {name: cpu, type: STRING}
      - {name: host, type: STRING}
      - {name: name, type: STRING, column: "0:\x80\x0B", encoding: phoenix, phoenix: VARCHAR}
    rowkey:
      - {salt: 4}
      - {field: cpu, encoding: phoenix, phoenix: DECIMAL}
      - {field: host, encoding: phoenix, phoenix: VARCHAR}
    phoenix: {table: S.M_CPU, empty_column: "0:\x00\x00\x00\x00", index_of: S.M}
`

// A query of a Phoenix table that binds its global index's column reads
// the index: covered when the index holds every column it reads, else by
// looking the data rows up; EXPLAIN names Phoenix's index and the check
// of unverified rows. NO INDEX reads the table.
func TestPhoenixIndexPlan(t *testing.T) {
	cat, err := catalog.Parse([]byte(phoenixIndexCatalog))
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	for _, tc := range []struct {
		q         string
		want, not []string
	}{
		{"SELECT host, cpu, name FROM m WHERE cpu = 1.5",
			[]string{"OVER m_cpu", "CLIENT INDEX LOOKUP, COVERED", "PHOENIX INDEX S.M_CPU, Phoenix's global index of S.M", "CLIENT CHECK", "all 4 salt buckets"}, nil},
		{"SELECT host, cpu, x FROM m WHERE cpu IN (1, 2)",
			[]string{"OVER m_cpu", "POINT LOOKUP ON n KEYS OVER m", "PHOENIX INDEX", "CLIENT CHECK"}, []string{"COVERED"}},
		{"SELECT host, cpu FROM m NO INDEX WHERE cpu = 1.5 ALLOW FULL SCAN", []string{"FULL SCAN"}, []string{"m_cpu"}},
		{"SELECT host, cpu FROM m WHERE host = 'h1' AND cpu > 1.5", []string{"POINT LOOKUP"}, []string{"OVER m_cpu"}},
		{"SELECT host, cpu, name FROM m WHERE cpu > 1.5 AND cpu <= 3", []string{"OVER m_cpu", "CLIENT INDEX LOOKUP, COVERED", "CLIENT FILTER"}, nil},
	} {
		stmt, err := parser.ParseOne("EXPLAIN " + tc.q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		text := p.(*planner.Explain).Select.String()
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: want %q in\n%s", tc.q, w, text)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: want no %q in\n%s", tc.q, w, text)
			}
		}
	}
}

// An uncovered Phoenix index may hold stale rows, which Phoenix checks
// against the data table on each read: rkql never reads it as covering.
func TestPhoenixUncoveredIndexPlan(t *testing.T) {
	src := strings.Replace(phoenixIndexCatalog, "index_of: S.M}", "index_of: S.M, uncovered: true}", 1)
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := parser.ParseOne("EXPLAIN SELECT host, cpu FROM m WHERE cpu = 1.5")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(cat, planner.Options{}).Plan(context.Background(), stmt)
	if err != nil {
		t.Fatal(err)
	}
	text := p.(*planner.Explain).Select.String()
	if !strings.Contains(text, "OVER m_cpu") || !strings.Contains(text, "POINT LOOKUP ON n KEYS OVER m") || strings.Contains(text, "COVERED") {
		t.Errorf("plan over an uncovered index:\n%s", text)
	}
	if _, err := catalog.Parse([]byte(strings.Replace(phoenixIndexCatalog, "global_indexes: [S.M_CPU]}", "global_indexes: [S.M_CPU], uncovered: true}", 1))); err == nil ||
		!strings.Contains(err.Error(), "uncovered is for a Phoenix index") {
		t.Errorf("uncovered on a data table: %v", err)
	}
}

// BUILD, CHECK and DROP INDEX refuse a Phoenix global index, saying
// whose it is, at the index's name.
func TestPhoenixIndexStatementsRefused(t *testing.T) {
	cat, err := catalog.Parse([]byte(phoenixIndexCatalog))
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	for _, q := range []string{"BUILD INDEX m_cpu ON m", "CHECK INDEX m_cpu", "DROP INDEX m_cpu"} {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = pl.Plan(context.Background(), stmt)
		var perr *parser.Error
		if !errors.As(err, &perr) || !strings.Contains(perr.Msg, "index m_cpu of m is a Phoenix global index") || int(perr.Pos) != strings.Index(q, "m_cpu") {
			t.Errorf("%s: %v, want the Phoenix index refused at its name", q, err)
		}
	}
}
