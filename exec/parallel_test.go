package exec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// seqCatalog is a table of 16 regions whose key is its one number, so
// that ORDER BY n is the key's order and reads no sort.
func seqCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	var splits []string
	for i := 1; i < 16; i++ {
		splits = append(splits, fmt.Sprintf("%q", fmt.Sprintf("%06d", i*100)))
	}
	src := `tables:
  - name: seq
    families:
      - {name: f, versions: 1}
    columns:
      - {name: n, type: BIGINT}
      - {name: g, type: STRING, column: "f:g"}
      - {name: v, type: BIGINT, column: "f:v"}
    rowkey:
      - {field: n, encoding: decimal, width: 6}
    splits: [` + strings.Join(splits, ", ") + `]
`
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// seqStore loads rows 0 … 1599 of seq, 100 a region.
func seqStore(t testing.TB) (*catalog.Catalog, exec.Store) {
	t.Helper()
	cat := seqCatalog(t)
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tb, _ := cat.Table("seq")
	x := &exec.Executor{Store: st}
	ctx := context.Background()
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	var rows []catalog.Row
	for i := range 1600 {
		rows = append(rows, catalog.Row{catalog.Bigint(int64(i)), catalog.String(fmt.Sprintf("g%d", i%7)), catalog.Bigint(int64(i * 3))})
	}
	if err := x.Insert(ctx, tb, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	return cat, st
}

// runQuery plans, places with the options and drains q, and returns its
// rows as text, the plan's EXPLAIN and the stats.
func runQuery(t *testing.T, st exec.Store, cat *catalog.Catalog, q string, opts exec.PlaceOptions) ([]string, string, *exec.Stats) {
	t.Helper()
	ctx := context.Background()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(cat, planner.Options{}).Plan(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := exec.Place(ctx, st, p.(*planner.Select), opts)
	if err != nil {
		t.Fatal(err)
	}
	var stats exec.Stats
	rows, err := (&exec.Executor{Store: st}).Run(ctx, pl, &stats)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, fmt.Sprint(r))
	}
	return out, pl.Explain(planner.ExplainEnv{}, nil).Text(), &stats
}

// TestParallelLimitReadsNoMore: a read that a LIMIT bounds, over 16
// regions, reads no more rows than the serial read, and returns the same
// rows in the same order; a read nothing bounds runs in parallel and
// returns what the serial read does.
func TestParallelLimitReadsNoMore(t *testing.T) {
	cat, st := seqStore(t)
	for _, q := range []string{
		"SELECT * FROM seq ORDER BY n LIMIT 250 ALLOW FULL SCAN",
		"SELECT * FROM seq ORDER BY n DESC LIMIT 250 ALLOW FULL SCAN",
		"SELECT n, v FROM seq WHERE n >= 120 ORDER BY n LIMIT 330",
		"SELECT n FROM seq WHERE v % 2 = 0 ORDER BY n LIMIT 40 ALLOW FULL SCAN",
		"SELECT * FROM seq LIMIT 150 OFFSET 20 ALLOW FULL SCAN",
	} {
		for _, off := range []bool{false, true} {
			serial, _, s1 := runQuery(t, st, cat, q, exec.PlaceOptions{NoPushdown: off, Parallel: 1})
			par, text, s4 := runQuery(t, st, cat, q, exec.PlaceOptions{NoPushdown: off, Parallel: 4})
			if strings.Join(par, "\n") != strings.Join(serial, "\n") {
				t.Errorf("%s (pushdown off %v): parallel rows differ from serial", q, off)
			}
			if r4, r1 := s4.RowsRead.Load(), s1.RowsRead.Load(); r4 > r1 {
				t.Errorf("%s (pushdown off %v): parallel read %d rows, serial %d\n%s", q, off, r4, r1, text)
			}
			if r4, r1 := s4.RowsReceived.Load(), s1.RowsReceived.Load(); r4 > r1 {
				t.Errorf("%s (pushdown off %v): parallel received %d rows, serial %d", q, off, r4, r1)
			}
			if s1.RowsRead.Load() >= 1600 {
				t.Errorf("%s: the serial read did not stop early: %d rows read", q, s1.RowsRead.Load())
			}
		}
	}
	for _, q := range []string{
		"SELECT * FROM seq ORDER BY n ALLOW FULL SCAN",
		"SELECT * FROM seq ORDER BY n DESC ALLOW FULL SCAN",
		"SELECT COUNT(*) FROM seq ALLOW FULL SCAN",
		"SELECT g, COUNT(*), SUM(v), MIN(n), MAX(n), AVG(v), COUNT(DISTINCT v % 5) FROM seq GROUP BY g ORDER BY g ALLOW FULL SCAN",
		"SELECT COUNT(*), SUM(v), AVG(v), COUNT(DISTINCT g) FROM seq WHERE v % 3 = 0 ALLOW FULL SCAN",
		"SELECT DISTINCT g FROM seq ORDER BY g ALLOW FULL SCAN",
		"SELECT n FROM seq ORDER BY v DESC LIMIT 5 ALLOW FULL SCAN",
	} {
		serial, _, _ := runQuery(t, st, cat, q, exec.PlaceOptions{Parallel: 1})
		par, text, s4 := runQuery(t, st, cat, q, exec.PlaceOptions{Parallel: 4})
		if strings.Join(par, "\n") != strings.Join(serial, "\n") {
			t.Errorf("%s: parallel rows differ from serial:\n%v\n%v", q, par, serial)
		}
		if !strings.Contains(text, "CLIENT PARALLEL 16-WAY OVER REGIONS, 4 WORKERS") {
			t.Errorf("%s: EXPLAIN does not say the read is parallel:\n%s", q, text)
		}
		if got := s4.Parts.Load(); got != 16 {
			t.Errorf("%s: %d parts read, want 16", q, got)
		}
	}
}

// gateStore holds every scan's rows until its gate opens, and counts the
// scans open, so that a test can stop a read while its workers wait.
type gateStore struct {
	exec.Store
	gate chan struct{}
	open atomic.Int64
	fail error // when set, the scan of the third region fails with it
	// first lets the scan of the first region through the gate.
	first bool
}

func (g *gateStore) Scan(ctx context.Context, table string, r exec.Range, opts exec.ReadOptions) (exec.RowIter, error) {
	if g.fail != nil && string(r.Start) == "000200" {
		return nil, g.fail
	}
	it, err := g.Store.Scan(ctx, table, r, opts)
	if err != nil {
		return nil, err
	}
	g.open.Add(1)
	return &gateIter{RowIter: it, g: g, open: g.first && len(r.Start) == 0}, nil
}

type gateIter struct {
	exec.RowIter
	g            *gateStore
	closed, open bool
}

func (it *gateIter) Next(ctx context.Context) (*exec.StoreRow, error) {
	if !it.open {
		select {
		case <-it.g.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return it.RowIter.Next(ctx)
}

func (it *gateIter) Close() error {
	if !it.closed {
		it.closed = true
		it.g.open.Add(-1)
	}
	return it.RowIter.Close()
}

// waitGoroutines waits until no more goroutines run than before, with a
// generous deadline.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// TestParallelStops: closing a parallel read early, cancelling its
// context, or a failing region stops every worker and closes every
// scanner; no goroutine is left.
func TestParallelStops(t *testing.T) {
	cat, base := seqStore(t)
	ctx := context.Background()
	plan := func(t *testing.T, st exec.Store, q string) (*exec.Executor, func(context.Context, *exec.Stats) (exec.Rows, error)) {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.New(cat, planner.Options{}).Plan(ctx, stmt)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := exec.Place(ctx, st, p.(*planner.Select), exec.PlaceOptions{Parallel: 4})
		if err != nil {
			t.Fatal(err)
		}
		if len(pl.Scan(p.(*planner.Select).Access).Parts) != 16 {
			t.Fatalf("%s: not a parallel read", q)
		}
		x := &exec.Executor{Store: st}
		return x, func(ctx context.Context, s *exec.Stats) (exec.Rows, error) { return x.Run(ctx, pl, s) }
	}
	queries := []string{
		"SELECT * FROM seq ALLOW FULL SCAN",                              // in key order
		"SELECT * FROM seq ORDER BY v DESC ALLOW FULL SCAN",              // as they come
		"SELECT g, COUNT(*) FROM seq GROUP BY g ALLOW FULL SCAN",         // partial aggregates
		"SELECT COUNT(*) FROM seq WHERE v % 2 = 0 ALLOW FULL SCAN",       // partial counts
		"SELECT COUNT(DISTINCT v) FROM seq WHERE v > 10 ALLOW FULL SCAN", // one group
	}
	for _, q := range queries {
		t.Run("close/"+q, func(t *testing.T) {
			// Only the first region's rows come; the other workers
			// wait at the gate until the read is closed.
			if strings.Contains(q, "COUNT") || strings.Contains(q, "ORDER BY") {
				t.Skip("reads every row before its first")
			}
			before := runtime.NumGoroutine()
			g := &gateStore{Store: base, gate: make(chan struct{}), first: true}
			_, run := plan(t, g, q)
			rows, err := run(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rows.Next(ctx); err != nil {
				t.Fatal(err)
			}
			rows.Close()
			waitGoroutines(t, before)
			if n := g.open.Load(); n != 0 {
				t.Errorf("%d scanners left open", n)
			}
		})
		t.Run("cancel/"+q, func(t *testing.T) {
			before := runtime.NumGoroutine()
			g := &gateStore{Store: base, gate: make(chan struct{})}
			_, run := plan(t, g, q)
			cctx, cancel := context.WithCancel(ctx)
			// A sort reads its input while the plan starts: start and
			// read in the background.
			errc := make(chan error, 1)
			go func() {
				rows, err := run(cctx, nil)
				if err == nil {
					_, err = rows.Next(cctx)
					rows.Close()
				}
				errc <- err
			}()
			// The workers wait at the gate: cancelling must end the read.
			deadline := time.Now().Add(10 * time.Second)
			for g.open.Load() == 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("Next after cancel: %v, want context.Canceled", err)
			}
			waitGoroutines(t, before)
			if n := g.open.Load(); n != 0 {
				t.Errorf("%d scanners left open", n)
			}
		})
		t.Run("fail/"+q, func(t *testing.T) {
			before := runtime.NumGoroutine()
			boom := errors.New("region down")
			g := &gateStore{Store: base, gate: make(chan struct{}), fail: boom}
			close(g.gate)
			_, run := plan(t, g, q)
			rows, err := run(ctx, nil)
			for err == nil {
				_, err = rows.Next(ctx)
			}
			if !errors.Is(err, boom) {
				t.Errorf("read ended with %v, want the region's error", err)
			}
			if rows != nil {
				rows.Close()
			}
			waitGoroutines(t, before)
			if n := g.open.Load(); n != 0 {
				t.Errorf("%d scanners left open", n)
			}
		})
	}
}

// TestParallelGroupBudget: the groups of a parallel aggregate are held
// to the budget as a serial one's are: the budget that a serial read
// fits fits, one less fails.
func TestParallelGroupBudget(t *testing.T) {
	cat, st := seqStore(t)
	ctx := context.Background()
	q := "SELECT v % 100, COUNT(*) FROM seq GROUP BY v % 100 ALLOW FULL SCAN"
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(cat, planner.Options{}).Plan(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		budget int
		fails  bool
	}{{100, false}, {99, true}} {
		for _, par := range []int{1, 4} {
			pl, err := exec.Place(ctx, st, p.(*planner.Select), exec.PlaceOptions{Parallel: par})
			if err != nil {
				t.Fatal(err)
			}
			rows, err := (&exec.Executor{Store: st, GroupBudget: tt.budget}).Run(ctx, pl, nil)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for err == nil {
				if _, err = rows.Next(ctx); err == nil {
					n++
				}
			}
			rows.Close()
			if failed := errors.Is(err, exec.ErrGroupBudget); failed != tt.fails {
				t.Errorf("budget %d, parallel %d: %v after %d groups, want failure %v", tt.budget, par, err, n, tt.fails)
			}
			if !tt.fails && n != 100 {
				t.Errorf("budget %d, parallel %d: %d groups, want 100", tt.budget, par, n)
			}
		}
	}
}
