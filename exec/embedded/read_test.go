package embedded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
)

func TestScanBounds(t *testing.T) {
	tests := []struct {
		name     string
		keys     []string
		r        exec.Range
		limit    int
		fwd, rev string
	}{
		{"all", []string{"a", "b", "c", "d", "e"}, rng("-", "-"), 0, "a,b,c,d,e", "e,d,c,b,a"},
		{"empty bounds are open", []string{"a", "b", "c"}, rng("", ""), 0, "a,b,c", "c,b,a"},
		{"start and stop on keys", []string{"a", "b", "c", "d", "e"}, rng("b", "d"), 0, "b,c", "c,b"},
		{"bounds between keys", []string{"a", "b", "c", "d", "e"}, rng("bb", "dd"), 0, "c,d", "d,c"},
		{"start only", []string{"a", "b", "c", "d", "e"}, rng("c", "-"), 0, "c,d,e", "e,d,c"},
		{"stop only", []string{"a", "b", "c", "d", "e"}, rng("-", "c"), 0, "a,b", "b,a"},
		{"stop before start", []string{"a", "b", "c", "d", "e"}, rng("d", "b"), 0, "", ""},
		{"start equals stop", []string{"a", "b", "c"}, rng("b", "b"), 0, "", ""},
		{"past the end", []string{"a", "b", "c"}, rng("x", "-"), 0, "", ""},
		{"before the start", []string{"b", "c"}, rng("-", "a"), 0, "", ""},
		{"prefix keys", []string{"a", "a\x00", "aa", "ab", "b"}, rng("a", "ab"), 0, "a,a\x00,aa", "aa,a\x00,a"},
		{"empty table", nil, rng("-", "-"), 0, "", ""},
		{"single row", []string{"m"}, rng("-", "-"), 0, "m", "m"},
		{"single row outside", []string{"m"}, rng("n", "-"), 0, "", ""},
		{"limit", []string{"a", "b", "c", "d", "e"}, rng("-", "-"), 2, "a,b", "e,d"},
		{"limit in range", []string{"a", "b", "c", "d", "e"}, rng("b", "e"), 2, "b,c", "d,c"},
		{"limit above rows", []string{"a", "b"}, rng("-", "-"), 5, "a,b", "b,a"},
	}
	for _, batch := range []int{1, 2, 0} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("batch=%d/%s", batch, tc.name), func(t *testing.T) {
				s := newTestStore(t, Options{ScanBatch: batch})
				if len(tc.keys) > 0 {
					putKeys(t, s, "t1", tc.keys...)
				}
				got := scanKeys(t, s, "t1", tc.r, exec.ReadOptions{Limit: tc.limit})
				if got != tc.fwd {
					t.Errorf("forward: got %q, want %q", got, tc.fwd)
				}
				got = scanKeys(t, s, "t1", tc.r, exec.ReadOptions{Limit: tc.limit, Reverse: true})
				if got != tc.rev {
					t.Errorf("reverse: got %q, want %q", got, tc.rev)
				}
			})
		}
	}
}

func TestScanManyRowsAcrossBatches(t *testing.T) {
	s := newTestStore(t, Options{})
	var keys []string
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf("k%05d", i))
	}
	putKeys(t, s, "t1", keys...)
	for _, reverse := range []bool{false, true} {
		got := strings.Split(scanKeys(t, s, "t1", rng("k00100", "k04900"), exec.ReadOptions{Reverse: reverse}), ",")
		want := slices.Clone(keys[100:4900])
		if reverse {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("reverse=%v: got %d rows (%s … %s), want %d", reverse, len(got), got[0], got[len(got)-1], len(want))
		}
	}
}

func TestGet(t *testing.T) {
	s := newTestStore(t, Options{})
	putKeys(t, s, "t1", "a", "b", "c")
	tests := []struct {
		name string
		keys []string
		opts exec.ReadOptions
		want string
	}{
		{"in order of keys", []string{"c", "a"}, exec.ReadOptions{}, "c,a"},
		{"missing skipped", []string{"x", "b", "y"}, exec.ReadOptions{}, "b"},
		{"none", nil, exec.ReadOptions{}, ""},
		{"duplicates", []string{"a", "a"}, exec.ReadOptions{}, "a,a"},
		{"limit", []string{"a", "b", "c"}, exec.ReadOptions{Limit: 2}, "a,b"},
		{"filter", []string{"a", "b", "c"}, exec.ReadOptions{Table: keyTable(t), Filter: &expr.Cmp{Col: 0, Name: "k", Op: expr.Ne, Val: catalog.String("b")}}, "a,c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys := make([][]byte, len(tc.keys))
			for i, k := range tc.keys {
				keys[i] = []byte(k)
			}
			rows, err := s.Get(context.Background(), "t1", keys, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				if len(r.Cells) != 1 || string(r.Cells[0].Value) != string(r.Key) {
					t.Errorf("row %s", fmtRow(r))
				}
				got = append(got, string(r.Key))
			}
			if g := strings.Join(got, ","); g != tc.want {
				t.Errorf("got %q, want %q", g, tc.want)
			}
		})
	}
}

func TestVersions(t *testing.T) {
	s := newTestStore(t, Options{})
	for i := 1; i <= 5; i++ {
		v := fmt.Sprintf("v%d", i)
		mustMutate(t, s, "t1", exec.Mutation{Key: []byte("r"), Cells: []exec.Cell{
			cell("cf:q", 0, v), cell("one:q", 0, v),
		}})
	}
	tests := []struct {
		versions int
		want     string // values of cf:q then one:q
	}{
		{0, "cf:v5 one:v5"},
		{1, "cf:v5 one:v5"},
		{3, "cf:v5 cf:v4 cf:v3 one:v5"},
		{10, "cf:v5 cf:v4 cf:v3 one:v5"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("versions=%d", tc.versions), func(t *testing.T) {
			rows, err := s.Get(context.Background(), "t1", [][]byte{[]byte("r")}, exec.ReadOptions{Versions: tc.versions})
			if err != nil || len(rows) != 1 {
				t.Fatalf("get: %d rows, %v", len(rows), err)
			}
			var got []string
			for i, c := range rows[0].Cells {
				got = append(got, c.Family+":"+string(c.Value))
				if i > 0 && c.Family == rows[0].Cells[i-1].Family && c.Timestamp >= rows[0].Cells[i-1].Timestamp {
					t.Errorf("timestamps not newest first: %s", fmtRow(rows[0]))
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("got %q, want %q", g, tc.want)
			}
			scanned := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{Versions: tc.versions})
			if len(scanned) != 1 || scanned[0] != fmtRow(rows[0]) {
				t.Errorf("scan %q differs from get %q", scanned, fmtRow(rows[0]))
			}
		})
	}
}

func TestTTL(t *testing.T) {
	clock := newTestClock()
	s := newTestStore(t, Options{Clock: clock.Now})
	t0 := clock.Now().UnixMilli()
	mustMutate(t, s, "t1",
		exec.Mutation{Key: []byte("both"), Cells: []exec.Cell{cell("cf:q", 0, "x"), cell("ttl:q", 0, "y")}},
		exec.Mutation{Key: []byte("only"), Cells: []exec.Cell{cell("ttl:q", 0, "z")}},
	)
	steps := []struct {
		advance time.Duration
		want    []string
		read    int64
	}{
		{0, []string{fmt.Sprintf("both cf:q@%d=x ttl:q@%d=y", t0, t0), fmt.Sprintf("only ttl:q@%d=z", t0)}, 2},
		{59 * time.Second, []string{fmt.Sprintf("both cf:q@%d=x ttl:q@%d=y", t0, t0), fmt.Sprintf("only ttl:q@%d=z", t0)}, 2},
		{2 * time.Second, []string{fmt.Sprintf("both cf:q@%d=x", t0)}, 2},
	}
	for _, st := range steps {
		clock.Advance(st.advance)
		var stats exec.Stats
		got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{Stats: &stats})
		if !slices.Equal(got, st.want) {
			t.Errorf("after +%v: scan got %q, want %q", st.advance, got, st.want)
		}
		if n := stats.RowsRead.Load(); n != st.read {
			t.Errorf("after +%v: rows read %d, want %d", st.advance, n, st.read)
		}
		rows, err := s.Get(context.Background(), "t1", [][]byte{[]byte("both"), []byte("only")}, exec.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(st.want) {
			t.Errorf("after +%v: get returned %d rows, want %d", st.advance, len(rows), len(st.want))
		}
	}
	// A cell written already expired is not stored at all.
	old := clock.Now().UnixMilli() - 120_000
	mustMutate(t, s, "t1", exec.Mutation{Key: []byte("stale"), Cells: []exec.Cell{cell("ttl:q", old, "w")}})
	if n, err := s.Count(context.Background(), "t1"); err != nil || n != 2 {
		t.Errorf("count = %d, %v; want 2 (both, only)", n, err)
	}
}

func TestFilterAndStats(t *testing.T) {
	s := newTestStore(t, Options{})
	var keys []string
	for c := 'a'; c <= 'z'; c++ {
		keys = append(keys, string(c))
	}
	putKeys(t, s, "t1", keys...)
	vowels := vowelKeys(t)
	with := func(o exec.ReadOptions) exec.ReadOptions { o.Table, o.Filter = vowels.Table, vowels.Filter; return o }
	tests := []struct {
		name    string
		r       exec.Range
		opts    exec.ReadOptions
		want    string
		read    int64
		regions int64
	}{
		{"full", rng("-", "-"), with(exec.ReadOptions{}), "a,e,i,o,u", 26, 3},
		{"first two regions", rng("b", "h"), with(exec.ReadOptions{}), "e", 6, 2},
		{"one region", rng("h", "p"), exec.ReadOptions{}, "h,i,j,k,l,m,n,o", 8, 1},
		{"stop on split", rng("a", "p"), exec.ReadOptions{Limit: 1}, "a", 1, 2},
		{"start on split", rng("g", "-"), exec.ReadOptions{Limit: 1}, "g", 1, 2},
		{"limit with filter", rng("-", "-"), with(exec.ReadOptions{Limit: 2}), "a,e", 5, 3},
		{"reverse limit with filter", rng("-", "-"), with(exec.ReadOptions{Limit: 1, Reverse: true}), "u", 6, 3},
		{"nothing passes", rng("v", "-"), with(exec.ReadOptions{}), "", 5, 1},
		{"empty range", rng("x", "b"), exec.ReadOptions{}, "", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stats exec.Stats
			tc.opts.Stats = &stats
			if got := scanKeys(t, s, "t1", tc.r, tc.opts); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if n := stats.RowsRead.Load(); n != tc.read {
				t.Errorf("rows read %d, want %d", n, tc.read)
			}
			if n := stats.RPCs.Load(); n != 1 {
				t.Errorf("rpcs %d, want 1", n)
			}
			if n := stats.Regions.Load(); n != tc.regions {
				t.Errorf("regions %d, want %d", n, tc.regions)
			}
		})
	}

	t.Run("get", func(t *testing.T) {
		var stats exec.Stats
		keys := [][]byte{[]byte("a"), []byte("b"), []byte("z"), []byte("zz")}
		rows, err := s.Get(context.Background(), "t1", keys, with(exec.ReadOptions{Stats: &stats}))
		if err != nil || len(rows) != 1 {
			t.Fatalf("get: %d rows, %v", len(rows), err)
		}
		if r, p, g := stats.RowsRead.Load(), stats.RPCs.Load(), stats.Regions.Load(); r != 3 || p != 1 || g != 2 {
			t.Errorf("rows read %d, rpcs %d, regions %d; want 3, 1, 2", r, p, g)
		}
	})

	t.Run("early close counts only rows handed out", func(t *testing.T) {
		var stats exec.Stats
		ctx := context.Background()
		it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{Stats: &stats})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := it.Next(ctx); err != nil {
				t.Fatal(err)
			}
		}
		_ = it.Close()
		_ = it.Close()
		if n := stats.RowsRead.Load(); n != 3 {
			t.Errorf("rows read %d, want 3", n)
		}
		if _, err := it.Next(ctx); err == nil || errors.Is(err, io.EOF) {
			t.Errorf("next after close: %v, want an error", err)
		}
	})
}

func TestRegionsTouched(t *testing.T) {
	tb := newTable(tableMeta{Spec: testSpec("t1")}, nil)
	tests := []struct {
		start, stop string
		want        int
	}{
		{"-", "-", 3}, {"a", "b", 1}, {"a", "g", 1}, {"a", "g\x00", 2}, {"g", "p", 1},
		{"f", "q", 3}, {"p", "-", 1}, {"-", "a", 1}, {"q", "b", 0}, {"g", "g", 0},
	}
	for _, tc := range tests {
		r := rng(tc.start, tc.stop)
		if got := tb.regionsTouched(r.Start, r.Stop); got != tc.want {
			t.Errorf("[%q, %q): %d regions, want %d", tc.start, tc.stop, got, tc.want)
		}
	}
}

func TestScanCancel(t *testing.T) {
	s := newTestStore(t, Options{})
	var keys []string
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("k%04d", i))
	}
	putKeys(t, s, "t1", keys...)

	t.Run("between calls", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		n := 0
		for ; n < 100; n++ {
			if _, err := it.Next(ctx); err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		for {
			if _, err := it.Next(ctx); err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("got %v, want context.Canceled", err)
				}
				break
			}
			// Rows already buffered may still come out, but fewer
			// than one batch.
			if n++; n > 100+defaultScanBatch {
				t.Fatal("scan went on after cancel")
			}
		}
	})

	t.Run("inside a refill", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		filter := &countingFilter{at: 10, cancel: cancel}
		it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{Table: keyTable(t), Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		_, err = it.Next(ctx)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		if filter.seen != 10 {
			t.Errorf("filter ran on %d rows after cancel at 10", filter.seen)
		}
		if _, err := it.Next(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("second next: %v, want the same error", err)
		}
	})

	t.Run("before scan", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("scan: %v", err)
		}
		if _, err := s.Get(ctx, "t1", [][]byte{[]byte("k0001")}, exec.ReadOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("get: %v", err)
		}
	})
}

func TestReturnedRowsAreIndependent(t *testing.T) {
	s := newTestStore(t, Options{})
	mustMutate(t, s, "t1",
		exec.Mutation{Key: []byte("a"), Cells: []exec.Cell{cell("cf:x", 5, "aa"), cell("cf:y", 5, "ab")}},
		exec.Mutation{Key: []byte("b"), Cells: []exec.Cell{cell("cf:x", 5, "bb")}},
	)
	ctx := context.Background()
	it, err := s.Scan(ctx, "t1", exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := drain(ctx, it)
	if err != nil || len(rows) != 2 {
		t.Fatalf("scan: %d rows, %v", len(rows), err)
	}
	// Appending to one row's slices must not clobber the other row.
	rows[0].Key = append(rows[0].Key, 'Z')
	rows[0].Cells[0].Value = append(rows[0].Cells[0].Value, 'Z')
	rows[0].Cells = append(rows[0].Cells, cell("cf:z", 1, "zz"))
	if got := fmtRow(rows[1]); got != "b cf:x@5=bb" {
		t.Errorf("second row became %q", got)
	}
	if got := fmtRow(rows[0]); got != "aZ cf:x@5=aaZ cf:y@5=ab cf:z@1=zz" {
		t.Errorf("first row is %q", got)
	}
}

// countingFilter is a store filter that passes every row and calls
// cancel when it has seen at rows.
type countingFilter struct {
	seen, at int
	cancel   func()
}

func (f *countingFilter) Eval(catalog.Row) (expr.Tri, error) {
	if f.seen++; f.seen == f.at {
		f.cancel()
	}
	return expr.True, nil
}

func (f *countingFilter) String() string { return "counting" }
