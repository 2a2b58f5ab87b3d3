package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

const versionsCatalog = `
tables:
  - name: dev
    families:
      - {name: meta, versions: 3}
      - {name: m, versions: 1, ttl: 60}
    columns:
      - {name: id, type: STRING}
      - {name: model, type: STRING, column: "meta:model"}
      - {name: temp, type: DOUBLE, column: "m:temp"}
    rowkey:
      - {field: id}
`

// session runs statements against one store and renders results as text.
type session struct {
	t  *testing.T
	pl *planner.Planner
	x  *exec.Executor
}

func newSession(t *testing.T, yaml string, clock func() time.Time) *session {
	cat, err := catalog.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &session{t: t, pl: planner.New(cat, planner.Options{}), x: &exec.Executor{Store: st}}
}

func (s *session) run(q string) string {
	s.t.Helper()
	ctx := context.Background()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	p, err := s.pl.Plan(stmt)
	if err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	switch p := p.(type) {
	case *planner.Insert:
		if err := s.x.EnsureTable(ctx, p.Table); err != nil {
			s.t.Fatal(err)
		}
		if err := s.x.Insert(ctx, p.Table, p.Rows, p.Timestamp, nil); err != nil {
			s.t.Fatal(err)
		}
		return fmt.Sprintf("INSERT %d", len(p.Rows))
	case *planner.Select:
		rows, err := s.x.Query(ctx, p, nil)
		if err != nil {
			s.t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for {
			r, err := rows.Next(ctx)
			if err == io.EOF {
				return strings.Join(lines, "\n")
			}
			if err != nil {
				s.t.Fatal(err)
			}
			var cells []string
			for _, v := range r {
				cells = append(cells, v.Text())
			}
			lines = append(lines, strings.Join(cells, " "))
		}
	}
	s.t.Fatalf("unexpected plan %T", p)
	return ""
}

func TestVersionsAndTimestamps(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, versionsCatalog, func() time.Time { return now })
	for i, model := range []string{"a", "b", "c", "d"} {
		ts := now.Add(time.Duration(i-4) * time.Second).UnixMilli()
		s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d1', '%s') TIMESTAMP %d", model, ts))
	}
	if got, want := s.run("SELECT model, _ts FROM dev WHERE id = 'd1'"), "d 2024-05-01 11:59:59.000"; got != want {
		t.Errorf("newest version:\n got %q\nwant %q", got, want)
	}
	got := s.run("SELECT model, _ts FROM dev WHERE id = 'd1' VERSIONS 5")
	want := "d 2024-05-01 11:59:59.000\nc 2024-05-01 11:59:58.000\nb 2024-05-01 11:59:57.000"
	if got != want {
		t.Errorf("VERSIONS 5 on a family keeping 3:\n got %q\nwant %q", got, want)
	}
	if got, want := s.run("SELECT model FROM dev WHERE id = 'd1' VERSIONS 2"), "d\nc"; got != want {
		t.Errorf("VERSIONS 2: got %q, want %q", got, want)
	}
}

func TestTTLHidesExpiredCells(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, versionsCatalog, func() time.Time { return now })
	old := now.Add(-2 * time.Minute).UnixMilli()
	fresh := now.Add(-10 * time.Second).UnixMilli()
	s.run(fmt.Sprintf("INSERT INTO dev (id, temp) VALUES ('old', 1.5) TIMESTAMP %d", old))
	s.run(fmt.Sprintf("INSERT INTO dev (id, temp) VALUES ('new', 2.5) TIMESTAMP %d", fresh))
	s.run(fmt.Sprintf("INSERT INTO dev (id, model, temp) VALUES ('mix', 'x', 3.5) TIMESTAMP %d", old))
	got := s.run("SELECT id, model, temp FROM dev ALLOW FULL SCAN")
	want := "mix x NULL\nnew NULL 2.5"
	if got != want {
		t.Errorf("cells past the 60 s TTL of family m must be invisible:\n got %q\nwant %q", got, want)
	}
}

// TestSortBudget: a client sort without LIMIT stops with a clear error
// past the budget instead of holding every row; with a LIMIT it keeps
// only the top rows and succeeds.
func TestSortBudget(t *testing.T) {
	s := newSession(t, versionsCatalog, nil)
	for i := range 20 {
		s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d%02d', 'm%d')", i, 20-i))
	}
	s.x.SortBudget = 5
	ctx := context.Background()
	stmt, _ := parser.ParseOne("SELECT id FROM dev ORDER BY model ALLOW FULL SCAN")
	p, err := s.pl.Plan(stmt)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.x.Query(ctx, p.(*planner.Select), nil)
	if !errors.Is(err, exec.ErrSortBudget) || !strings.Contains(err.Error(), "more than 5 rows") {
		t.Fatalf("got %v, want the sort budget error", err)
	}
	if got, want := s.run("SELECT model FROM dev ORDER BY model DESC LIMIT 2 ALLOW FULL SCAN"), "m9\nm8"; got != want {
		t.Errorf("top 2: got %q, want %q", got, want)
	}
}
