package embedded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
)

// testClock is a settable clock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.UnixMilli(1_700_000_000_000)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testSpec is the table most tests use: "cf" keeps 3 versions, "one" keeps
// 1, "ttl" keeps cells for a minute. Regions split at "g" and "p".
func testSpec(name string) exec.TableSpec {
	return exec.TableSpec{
		Name: name,
		Families: []exec.FamilySpec{
			{Name: "cf", Versions: 3},
			{Name: "one"},
			{Name: "ttl", TTL: 60},
		},
		Splits: [][]byte{[]byte("g"), []byte("p")},
	}
}

// openTest opens a store in dir that is closed when the test ends.
func openTest(t testing.TB, dir string, opts Options) *Store {
	t.Helper()
	opts.NoSync = true
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// newTestStore opens a fresh store holding testSpec("t1").
func newTestStore(t testing.TB, opts Options) *Store {
	t.Helper()
	s := openTest(t, t.TempDir(), opts)
	if err := s.CreateTable(context.Background(), testSpec("t1")); err != nil {
		t.Fatalf("create table: %v", err)
	}
	return s
}

// cell builds a cell from "fam:qual".
func cell(col string, ts int64, val string) exec.Cell {
	fam, qual, _ := strings.Cut(col, ":")
	return exec.Cell{Family: fam, Qualifier: qual, Timestamp: ts, Value: []byte(val)}
}

func mustMutate(t testing.TB, s *Store, table string, muts ...exec.Mutation) {
	t.Helper()
	if err := s.Mutate(context.Background(), table, muts); err != nil {
		t.Fatalf("mutate: %v", err)
	}
}

// putKeys writes one cell cf:q=key at timestamp 1 in each of keys.
func putKeys(t testing.TB, s *Store, table string, keys ...string) {
	t.Helper()
	muts := make([]exec.Mutation, len(keys))
	for i, k := range keys {
		muts[i] = exec.Mutation{Key: []byte(k), Cells: []exec.Cell{cell("cf:q", 1, k)}}
	}
	mustMutate(t, s, table, muts...)
}

// fmtRow prints a row as "key fam:qual@ts=value …".
func fmtRow(r *exec.StoreRow) string {
	var sb strings.Builder
	sb.WriteString(string(r.Key))
	for _, c := range r.Cells {
		fmt.Fprintf(&sb, " %s:%s@%d=%s", c.Family, c.Qualifier, c.Timestamp, c.Value)
	}
	return sb.String()
}

// drain reads an iterator to its end and closes it.
func drain(ctx context.Context, it exec.RowIter) ([]*exec.StoreRow, error) {
	defer it.Close()
	var rows []*exec.StoreRow
	for {
		r, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, r)
	}
}

// scanRows scans and returns the rows printed by fmtRow.
func scanRows(t testing.TB, s *Store, table string, r exec.Range, opts exec.ReadOptions) []string {
	t.Helper()
	ctx := context.Background()
	it, err := s.Scan(ctx, table, r, opts)
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	rows, err := drain(ctx, it)
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = fmtRow(row)
	}
	return out
}

// scanKeys scans and returns the keys only.
func scanKeys(t testing.TB, s *Store, table string, r exec.Range, opts exec.ReadOptions) string {
	t.Helper()
	rows := scanRows(t, s, table, r, opts)
	keys := make([]string, len(rows))
	for i, row := range rows {
		keys[i], _, _ = strings.Cut(row, " ")
	}
	return strings.Join(keys, ",")
}

func rng(start, stop string) exec.Range {
	var r exec.Range
	if start != "-" {
		r.Start = []byte(start)
	}
	if stop != "-" {
		r.Stop = []byte(stop)
	}
	return r
}

func familySpec(name string, versions int, ttl int64) exec.FamilySpec {
	return exec.FamilySpec{Name: name, Versions: versions, TTL: ttl}
}

// keyTable is a catalog table over the rows putKeys writes to physical
// table t1: the whole key is field k, and cf:q is column q.
func keyTable(t testing.TB) *catalog.Table {
	t.Helper()
	cat, err := catalog.Parse([]byte(`tables:
  - name: t1
    families: [{name: cf}]
    columns:
      - {name: k, type: STRING}
      - {name: q, type: STRING, column: "cf:q"}
    rowkey:
      - {field: k}
`))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("t1")
	return tb
}

// vowelKeys is the condition "k has a vowel", as a store filter over
// keyTable's rows.
func vowelKeys(t testing.TB) exec.ReadOptions {
	tb := keyTable(t)
	var terms []expr.Expr
	for _, v := range "aeiou" {
		terms = append(terms, expr.NewLike(0, "k", "%"+string(v)+"%", false))
	}
	return exec.ReadOptions{Table: tb, Filter: &expr.Or{Terms: terms}}
}
