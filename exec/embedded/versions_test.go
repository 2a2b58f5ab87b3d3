package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
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

// session runs statements through the engine against one store and
// renders results as text.
type session struct {
	t   *testing.T
	eng *engine.Engine
}

func newSession(t *testing.T, yaml string, clock func() time.Time, sortBudget int) *session {
	cat, err := catalog.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// The engine stamps writes to indexed tables with its clock: the
	// store must see the same time.
	eng := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, SortBudget: sortBudget, Clock: clock,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	return &session{t: t, eng: eng}
}

// exec runs one statement and returns its rows as text, one line each,
// or its command tag.
func (s *session) exec(q string) (string, error) {
	rows, tag, err := s.eng.Exec(context.Background(), q)
	if err != nil || rows == nil {
		return tag, err
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, v := range r {
			cells[j] = v.Text()
		}
		lines[i] = strings.Join(cells, " ")
	}
	return strings.Join(lines, "\n"), nil
}

func (s *session) run(q string) string {
	s.t.Helper()
	out, err := s.exec(q)
	if err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	return out
}

func TestVersionsAndTimestamps(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, versionsCatalog, func() time.Time { return now }, 0)
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
	s := newSession(t, versionsCatalog, func() time.Time { return now }, 0)
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

// TestInsertNullAtTimestamp: INSERT … TIMESTAMP t with a NULL deletes the
// column's versions at or before t only, as HBase's
// Delete.addColumns(family, qualifier, t) does: a version written at a
// later time, before or after the INSERT, still reads back.
func TestInsertNullAtTimestamp(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, versionsCatalog, func() time.Time { return now }, 0)
	ts := now.Add(-time.Hour).UnixMilli()
	// A later version written first.
	s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d1', 'newer') TIMESTAMP %d", ts+1000))
	s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d1', NULL) TIMESTAMP %d", ts))
	if got, want := s.run("SELECT model FROM dev WHERE id = 'd1'"), "newer"; got != want {
		t.Errorf("newer version written before the NULL: got %q, want %q", got, want)
	}
	// A later version written after.
	s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d2', 'old') TIMESTAMP %d", ts-1000))
	s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d2', NULL) TIMESTAMP %d", ts))
	if got, want := s.run("SELECT model FROM dev WHERE id = 'd2'"), "NULL"; got != want {
		t.Errorf("older version: got %q, want %q", got, want)
	}
	s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d2', 'later') TIMESTAMP %d", ts+1000))
	if got, want := s.run("SELECT model FROM dev WHERE id = 'd2'"), "later"; got != want {
		t.Errorf("newer version written after the NULL: got %q, want %q", got, want)
	}
	// Without TIMESTAMP the NULL deletes every version up to now.
	s.run("INSERT INTO dev (id, model) VALUES ('d1', NULL)")
	if got, want := s.run("SELECT model FROM dev WHERE id = 'd1'"), "NULL"; got != want {
		t.Errorf("NULL now: got %q, want %q", got, want)
	}
}

const indexedVersionsCatalog = `
tables:
  - name: dev
    families:
      - {name: meta, versions: 3}
    columns:
      - {name: id, type: STRING}
      - {name: model, type: STRING, column: "meta:model"}
      - {name: site, type: STRING, column: "meta:site"}
    rowkey:
      - {field: id}
    indexes:
      - name: dev_by_site
        rowkey:
          - {field: site}
          - {literal: "|"}
          - {field: id}
        covers: [model]
`

// TestIndexedInsertAtOlderTimestamp: an index entry holds what the data
// row reads after a write at an older timestamp, where newer versions
// stay: a NULL there leaves the newer value, and an older key field does
// not move the entry.
func TestIndexedInsertAtOlderTimestamp(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, indexedVersionsCatalog, func() time.Time { return now }, 0)
	ts := now.Add(-time.Hour).UnixMilli()
	s.run(fmt.Sprintf("INSERT INTO dev (id, model, site) VALUES ('d1', 'm2', 's1') TIMESTAMP %d", ts+1000))
	s.run(fmt.Sprintf("INSERT INTO dev (id, model, site) VALUES ('d1', NULL, 's0') TIMESTAMP %d", ts))
	if got, want := s.run("SELECT id, model, site FROM dev WHERE id = 'd1'"), "d1 m2 s1"; got != want {
		t.Errorf("data row: got %q, want %q", got, want)
	}
	if got, want := s.run("SELECT id, model FROM dev WHERE site = 's1'"), "d1 m2"; got != want {
		t.Errorf("through the index at s1: got %q, want %q", got, want)
	}
	if got, want := s.run("SELECT id, model FROM dev WHERE site = 's0'"), ""; got != want {
		t.Errorf("through the index at s0: got %q, want %q", got, want)
	}
	if got, want := s.run("SELECT id, model, site FROM dev_by_site ALLOW FULL SCAN"), "d1 m2 s1"; got != want {
		t.Errorf("index entries: got %q, want %q", got, want)
	}
}

// TestSortBudget: a client sort without LIMIT stops with a clear error
// past the budget instead of holding every row; with a LIMIT it keeps
// only the top rows and succeeds.
func TestSortBudget(t *testing.T) {
	s := newSession(t, versionsCatalog, nil, 5)
	for i := range 20 {
		s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d%02d', 'm%d')", i, 20-i))
	}
	_, err := s.exec("SELECT id FROM dev ORDER BY model ALLOW FULL SCAN")
	if !errors.Is(err, exec.ErrSortBudget) || !strings.Contains(err.Error(), "more than 5 rows") {
		t.Fatalf("got %v, want the sort budget error", err)
	}
	// A LIMIT larger than the budget does not lift it.
	_, err = s.exec("SELECT id FROM dev ORDER BY model LIMIT 1000 ALLOW FULL SCAN")
	if !errors.Is(err, exec.ErrSortBudget) || !strings.Contains(err.Error(), "LIMIT 1000") {
		t.Fatalf("LIMIT 1000: got %v, want the sort budget error", err)
	}
	if got, want := s.run("SELECT model FROM dev ORDER BY model DESC LIMIT 2 ALLOW FULL SCAN"), "m9\nm8"; got != want {
		t.Errorf("top 2: got %q, want %q", got, want)
	}
}

// A LIMIT the store applies counts rows it sends; rows that then turn out
// not to fit the layout must not use it up. Three rows written by
// something else sort before the two good ones: LIMIT 3 must still return
// both good rows.
func TestLimitSkipsMalformedRows(t *testing.T) {
	const yaml = `
tables:
  - name: fx
    families: [{name: f}]
    columns:
      - {name: n, type: BIGINT}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {field: n, encoding: binary}
`
	s := newSession(t, yaml, nil, 0)
	s.run("INSERT INTO fx (n, v) VALUES (1, 'one'), (2, 'two')")
	st, err := s.eng.Store(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var junk []exec.Mutation
	for _, k := range []string{"ab", "ac", "ad"} { // 2 bytes: not a binary BIGINT
		junk = append(junk, exec.Mutation{Key: []byte(k), Cells: []exec.Cell{{Family: "f", Qualifier: "v", Value: []byte("x")}}})
	}
	if err := st.Mutate(context.Background(), "fx", junk); err != nil {
		t.Fatal(err)
	}
	for _, pushdown := range []bool{true, false} {
		s.eng.SetPushdown(pushdown)
		if got, want := s.run("SELECT n, v FROM fx LIMIT 3 ALLOW FULL SCAN"), "1 one\n2 two"; got != want {
			t.Errorf("pushdown %v: got %q, want %q", pushdown, got, want)
		}
		if got, want := s.run("SELECT n FROM fx LIMIT 1 ALLOW FULL SCAN"), "1"; got != want {
			t.Errorf("pushdown %v, LIMIT 1: got %q, want %q", pushdown, got, want)
		}
		// A count checks each key too, on its keys-only path.
		if got, want := s.run("SELECT COUNT(*) FROM fx ALLOW FULL SCAN"), "2"; got != want {
			t.Errorf("pushdown %v, COUNT: got %q, want %q", pushdown, got, want)
		}
	}
}

// LIMIT applies to the result of COUNT(*), one row, not to the rows
// counted.
func TestCountThenLimit(t *testing.T) {
	s := newSession(t, versionsCatalog, nil, 0)
	for i := range 7 {
		s.run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('d%d', 'm')", i))
	}
	for _, q := range []string{"SELECT COUNT(*) FROM dev LIMIT 1 ALLOW FULL SCAN", "SELECT COUNT(*) FROM dev LIMIT 3 ALLOW FULL SCAN"} {
		if got := s.run(q); got != "7" {
			t.Errorf("%s: got %q, want 7", q, got)
		}
	}
	if got := s.run("SELECT COUNT(*) FROM dev LIMIT 0 ALLOW FULL SCAN"); got != "" {
		t.Errorf("LIMIT 0: got %q, want no row", got)
	}
}

// A TIMESTAMP literal finer than a millisecond is compared exactly, not
// rounded: the row at .000 is below .0005, not equal to it; writing such
// a literal is refused instead of rounded.
func TestTimestampFinerThanMillisecond(t *testing.T) {
	const yaml = `
tables:
  - name: ev
    families: [{name: f}]
    columns:
      - {name: id, type: STRING}
      - {name: ts, type: TIMESTAMP}
      - {name: day, type: DATE, column: "f:day"}
    rowkey:
      - {field: id}
      - {literal: "|"}
      - {field: ts, encoding: binary}
`
	s := newSession(t, yaml, nil, 0)
	s.run("INSERT INTO ev (id, ts, day) VALUES ('a', TIMESTAMP '2024-05-01 00:00:00', DATE '2024-05-01')")
	cases := []struct{ where, want string }{
		{"ts < TIMESTAMP '2024-05-01 00:00:00.0005'", "1"},
		{"ts <= TIMESTAMP '2024-05-01 00:00:00.0005'", "1"},
		{"ts = TIMESTAMP '2024-05-01 00:00:00.0005'", "0"},
		{"ts != TIMESTAMP '2024-05-01 00:00:00.0005'", "1"},
		{"ts >= TIMESTAMP '2024-05-01 00:00:00.0005'", "0"},
		{"ts > TIMESTAMP '2024-04-30 23:59:59.9995'", "1"},
		{"ts BETWEEN TIMESTAMP '2024-05-01 00:00:00.0005' AND TIMESTAMP '2024-05-02 00:00:00'", "0"},
		{"ts BETWEEN TIMESTAMP '2024-04-30 23:59:59.9995' AND TIMESTAMP '2024-05-01 00:00:00.0005'", "1"},
		{"ts IN (TIMESTAMP '2024-05-01 00:00:00.0005')", "0"},
		{"ts NOT IN (TIMESTAMP '2024-05-01 00:00:00.0005')", "1"},
		{"NOT (ts = TIMESTAMP '2024-05-01 00:00:00.0005')", "1"},
		// A DATE compared with a time of day is its midnight.
		{"day < TIMESTAMP '2024-05-01 12:00:00'", "1"},
		{"day = TIMESTAMP '2024-05-01 12:00:00'", "0"},
		{"day >= TIMESTAMP '2024-05-01 12:00:00'", "0"},
	}
	for _, c := range cases {
		if got := s.run("SELECT COUNT(*) FROM ev WHERE id = 'a' AND " + c.where); got != c.want {
			t.Errorf("%s: got %s rows, want %s", c.where, got, c.want)
		}
	}
	_, err := s.exec("INSERT INTO ev (id, ts) VALUES ('b', TIMESTAMP '2024-05-01 00:00:00.0005')")
	if err == nil || !strings.Contains(err.Error(), "holds whole milliseconds") {
		t.Errorf("INSERT of a finer timestamp: got %v, want a refusal", err)
	}
}

// sessCatalog is a table whose index sess_by_user is keyed by user, kept
// in family userFamily, and covers tag, in family s with a 60 s TTL.
func sessCatalog(userFamily string) string {
	return fmt.Sprintf(`
tables:
  - name: sess
    families:
      - {name: k}
      - {name: s, ttl: 60}
    columns:
      - {name: id, type: STRING}
      - {name: user, type: STRING, column: "%s:user"}
      - {name: tag, type: STRING, column: "s:tag"}
      - {name: note, type: STRING, column: "k:note"}
    rowkey:
      - {field: id}
    indexes:
      - name: sess_by_user
        rowkey:
          - {field: user}
          - {literal: "|"}
          - {field: id}
        covers: [tag]
`, userFamily)
}

// A covering index does not follow the TTL of the data family it copies
// from: once the data cells expire, a query through the index must not
// return them, as a point lookup and COUNT(*) do not.
func TestCoveredIndexFollowsTTL(t *testing.T) {
	yaml := sessCatalog("s") // user expires
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, yaml, func() time.Time { return now }, 0)
	old := now.Add(-2 * time.Minute).UnixMilli()
	s.run(fmt.Sprintf("INSERT INTO sess (id, user, note) VALUES ('a', 'u1', 'x') TIMESTAMP %d", old))
	s.run("INSERT INTO sess (id, user, note) VALUES ('b', 'u1', 'y')")
	if got, want := s.run("SELECT id FROM sess WHERE user = 'u1'"), "b"; got != want {
		t.Errorf("through the index: got %q, want %q (a's user expired)", got, want)
	}
	if got, want := s.run("SELECT id, user FROM sess WHERE id = 'a'"), "a NULL"; got != want {
		t.Errorf("point lookup: got %q, want %q", got, want)
	}
}

// A condition on a covered column of a TTL family is tested on the data
// row, not on the index's copy, which outlives the expired cell.
func TestIndexConditionOnExpiredCopy(t *testing.T) {
	yaml := sessCatalog("k") // user never expires, tag does
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := newSession(t, yaml, func() time.Time { return now }, 0)
	s.run("INSERT INTO sess (id, user, tag) VALUES ('a', 'u1', 'x')")
	now = now.Add(2 * time.Minute) // a's tag expires
	if got, want := s.run("SELECT id FROM sess WHERE user = 'u1' AND tag IS NULL"), "a"; got != want {
		t.Errorf("condition on an expired covered column: got %q, want %q", got, want)
	}
	if got, want := s.run("SELECT id, tag FROM sess WHERE user = 'u1'"), "a NULL"; got != want {
		t.Errorf("expired covered column: got %q, want %q", got, want)
	}
}
