package embedded_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/planner"
)

// keysCatalog has a logs-like table without TTL in 4 regions, whose keys
// the fast key check reads, and a table with a TTL family and a hashed
// key in one region, which take the general paths.
const keysCatalog = `
tables:
  - name: kc
    families: [{name: f}]
    columns:
      - {name: host, type: STRING}
      - {name: ts, type: TIMESTAMP}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {bucket: ts, mod: 4, binary: true}
      - {field: ts, encoding: java}
      - {field: host}
    split: {buckets: true}
  - name: kt
    families:
      - {name: meta, versions: 3}
      - {name: m, versions: 1, ttl: 60}
    columns:
      - {name: id, type: STRING}
      - {name: model, type: STRING, column: "meta:model"}
      - {name: temp, type: DOUBLE, column: "m:temp"}
    rowkey:
      - {hash: md5, of: [id], width: 2}
      - {literal: "|"}
      - {field: id}
`

// plainStore hides the store's ScanKeys, so that a count takes the path
// every store has: keys-only rows through Scan.
type plainStore struct{ exec.Store }

// TestCountKeysAgrees counts rows through ScanKeys and through Scan, over
// rows that do not fit the layout, deleted cells and rows, cells past
// their TTL and several scan batches, and wants the same counts and
// stats from both, and the count of the rows a full SELECT returns.
func TestCountKeysAgrees(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	cat, err := catalog.Parse([]byte(keysCatalog))
	if err != nil {
		t.Fatal(err)
	}
	// A small ScanBatch makes ScanKeys walk 16*3 rows per transaction.
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true, Clock: clock, ScanBatch: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	eng := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Clock: clock,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	run := func(q string) []catalog.Row {
		t.Helper()
		rows, _, err := eng.Exec(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return rows
	}
	// Cells written at old are within kt's 60 s TTL when written, and
	// past it once the clock moves on 45 s below.
	old, fresh := now.Add(-30*time.Second).UnixMilli(), now.UnixMilli()
	for i := range 150 {
		ts := now.Add(time.Duration(i) * time.Second).UnixMilli()
		run(fmt.Sprintf("INSERT INTO kc (host, ts, v) VALUES ('h%d', %d, 'x')", i%7, ts))
		when := fresh
		if i%3 == 0 {
			when = old
		}
		q := fmt.Sprintf("INSERT INTO kt (id, temp) VALUES ('d%d', 1.5) TIMESTAMP %d", i, when)
		if i%5 == 0 {
			q = fmt.Sprintf("INSERT INTO kt (id, model, temp) VALUES ('d%d', 'a', 1.5) TIMESTAMP %d", i, when)
		}
		run(q)
	}
	for i := 3; i < 150; i += 7 {
		run(fmt.Sprintf("DELETE FROM kc WHERE ts = %d AND host = 'h3'", now.Add(time.Duration(i)*time.Second).UnixMilli()))
	}
	run("INSERT INTO kt (id, model) VALUES ('d5', NULL)")
	run("DELETE FROM kt WHERE id = 'd10'")
	// Rows written by something else that do not fit the layouts: a
	// wrong bucket, a key cut short, a wrong hash; and one that does, a
	// negative java ts (2^63 is a multiple of the bucket count, so its
	// bucket stays right).
	kcTable, _ := cat.Table("kc")
	good, err := kcTable.EncodeKey(catalog.Row{catalog.String("hz"), catalog.TimestampMillis(now.UnixMilli()), catalog.Null(catalog.TypeString)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wrongBucket := bytes.Clone(good)
	wrongBucket[0] ^= 1
	negative := bytes.Clone(good)
	negative[1] |= 0x80
	junk := map[string][][]byte{
		"kc": {wrongBucket, negative, good[:5], {}},
		"kt": {[]byte("zz|d1"), []byte("d1")},
	}
	for table, keys := range junk {
		for _, k := range keys {
			if len(k) == 0 {
				continue // HBase refuses an empty rowkey
			}
			fam := "f"
			if table == "kt" {
				fam = "meta"
			}
			m := exec.Mutation{Key: k, Cells: []exec.Cell{{Family: fam, Qualifier: "v", Value: []byte("j")}}}
			if err := st.Mutate(ctx, table, []exec.Mutation{m}); err != nil {
				t.Fatal(err)
			}
		}
	}
	mu.Lock()
	now = now.Add(45 * time.Second)
	mu.Unlock()
	queries := []struct{ q, all string }{
		{"SELECT COUNT(*) FROM kc ALLOW FULL SCAN", "SELECT host, ts, v FROM kc ALLOW FULL SCAN"},
		{"SELECT COUNT(*) FROM kc WHERE host = 'h2' ALLOW FULL SCAN", "SELECT host FROM kc WHERE host = 'h2' ALLOW FULL SCAN"},
		{"SELECT COUNT(*) FROM kt ALLOW FULL SCAN", "SELECT id, model, temp FROM kt ALLOW FULL SCAN"},
		{"SELECT COUNT(*) FROM kt WHERE id > 'd3' ALLOW FULL SCAN", "SELECT id FROM kt WHERE id > 'd3' ALLOW FULL SCAN"},
	}
	pl := planner.New(cat, planner.Options{})
	for _, q := range queries {
		fast, fastStats := countWith(t, st, pl, q.q)
		slow, slowStats := countWith(t, plainStore{st}, pl, q.q)
		if fast != slow {
			t.Errorf("%s: ScanKeys counts %d, Scan %d", q.q, fast, slow)
		}
		if all := int64(len(run(q.all))); fast != all {
			t.Errorf("%s: counts %d, but %s returns %d rows", q.q, fast, q.all, all)
		}
		if fast == 0 {
			t.Errorf("%s: counts no row; the test checks nothing", q.q)
		}
		for _, f := range []struct {
			name       string
			fast, slow int64
		}{
			{"rows read", fastStats.RowsRead.Load(), slowStats.RowsRead.Load()},
			{"rows received", fastStats.RowsReceived.Load(), slowStats.RowsReceived.Load()},
			{"malformed", fastStats.Malformed.Load(), slowStats.Malformed.Load()},
			{"bytes", fastStats.Bytes.Load(), slowStats.Bytes.Load()},
			{"regions", fastStats.Regions.Load(), slowStats.Regions.Load()},
		} {
			if f.fast != f.slow {
				t.Errorf("%s: %s: %d through ScanKeys, %d through Scan", q.q, f.name, f.fast, f.slow)
			}
		}
		if fmt.Sprint(fastStats.FirstMalformed()) != fmt.Sprint(slowStats.FirstMalformed()) {
			t.Errorf("%s: first malformed row: %v through ScanKeys, %v through Scan", q.q, fastStats.FirstMalformed(), slowStats.FirstMalformed())
		}
	}
	// The junk, the deletes and the TTL are all seen.
	if got := mustCount(t, st, pl, "SELECT COUNT(*) FROM kc ALLOW FULL SCAN"); got != 150-21+1 {
		t.Errorf("kc: counted %d rows, want 150 less the 21 of host h3, and the one with a negative ts", got)
	}
	if got := mustCount(t, st, pl, "SELECT COUNT(*) FROM kt ALLOW FULL SCAN"); got != 100+10-1 {
		t.Errorf("kt: counted %d rows, want the 100 fresh ones, 10 old ones with a model, less d10", got)
	}
	checkScanKeysRanges(t, st, cat)
}

// checkScanKeysRanges compares ScanKeys with a keys-only Scan over ranges
// that start and stop inside the tables.
func checkScanKeysRanges(t *testing.T, st *embedded.Store, cat *catalog.Catalog) {
	ctx := context.Background()
	for _, name := range []string{"kc", "kt"} {
		tb, _ := cat.Table(name)
		all := scanKeys(t, st, tb, exec.Range{})
		if len(all) < 100 {
			t.Fatalf("%s: %d keys", name, len(all))
		}
		for _, r := range []exec.Range{{}, {Start: all[1]}, {Stop: all[60]}, {Start: all[10], Stop: all[90]}, {Start: all[5], Stop: all[5]}} {
			opts := exec.ReadOptions{Table: tb, Columns: []int{}}
			it, err := st.Scan(ctx, name, r, opts)
			if err != nil {
				t.Fatal(err)
			}
			var want [][]byte
			for {
				sr, err := it.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, sr.Key)
			}
			it.Close()
			got := scanKeys(t, st, tb, r)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
				t.Errorf("%s %q..%q: ScanKeys gives %d keys, Scan %d", name, r.Start, r.Stop, len(got), len(want))
			}
		}
	}
}

func scanKeys(t *testing.T, st *embedded.Store, tb *catalog.Table, r exec.Range) [][]byte {
	t.Helper()
	var keys [][]byte
	err := st.ScanKeys(context.Background(), tb.Physical, r, exec.ReadOptions{Table: tb, Columns: []int{}}, func(k []byte) error {
		keys = append(keys, bytes.Clone(k))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestScanKeysCorruptRow: a row whose header cannot be read fails a
// keys-only count as it fails a scan, with and without TTL.
func TestScanKeysCorruptRow(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.Parse([]byte(keysCatalog))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kc", "kt"} {
		// A format byte we do not know, a well-formed row of a family
		// the table does not have, a family name cut short.
		unknownFamily := []byte{0x01, 4, 'n', 'o', 'p', 'e', 1, 1, 'q', 1, 5, 1, 'v'}
		for _, raw := range [][]byte{{0x02}, unknownFamily, {0x01, 0x09}} {
			st := openStore(t)
			tb, _ := cat.Table(name)
			x := &exec.Executor{Store: st}
			if err := x.EnsureTable(ctx, tb); err != nil {
				t.Fatal(err)
			}
			err = st.DB().Update(func(tx *bolt.Tx) error {
				return tx.Bucket([]byte(tb.Physical)).Put([]byte("bad"), raw)
			})
			if err != nil {
				t.Fatal(err)
			}
			err = st.ScanKeys(ctx, tb.Physical, exec.Range{}, exec.ReadOptions{Table: tb, Columns: []int{}}, func([]byte) error { return nil })
			if !errors.Is(err, embedded.ErrCorrupt) {
				t.Errorf("%s, row %x: ScanKeys gives %v, want ErrCorrupt", name, raw, err)
			}
		}
	}
}

// countWith plans q over st as the engine does and returns the count and
// the stats.
func countWith(t *testing.T, st exec.Store, pl *planner.Planner, q string) (int64, *exec.Stats) {
	t.Helper()
	return runCount(t, &exec.Executor{Store: st}, pl, q)
}

func mustCount(t *testing.T, st exec.Store, pl *planner.Planner, q string) int64 {
	t.Helper()
	n, _ := countWith(t, st, pl, q)
	return n
}

// TestScanKeysStops: an error from fn ends ScanKeys with that error,
// after no further call to fn; a cancelled context ends it with the
// context's error.
func TestScanKeysStops(t *testing.T) {
	x, _, tb := loadLogs(t, 5000)
	st := x.Store.(*embedded.Store)
	opts := exec.ReadOptions{Table: tb, Columns: []int{}}
	errStop := errors.New("enough")
	for _, at := range []int{1, 511, 512, 513, 1000, 4999} {
		calls := 0
		err := st.ScanKeys(context.Background(), tb.Physical, exec.Range{}, opts, func([]byte) error {
			if calls++; calls == at {
				return errStop
			}
			return nil
		})
		if !errors.Is(err, errStop) || calls != at {
			t.Errorf("fn failing at key %d: ScanKeys gives %v after %d calls", at, err, calls)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := st.ScanKeys(ctx, tb.Physical, exec.Range{}, opts, func([]byte) error {
		if calls++; calls == 100 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after 100 keys: ScanKeys gives %v after %d calls", err, calls)
	}
	n := 0
	if err := st.ScanKeys(context.Background(), tb.Physical, exec.Range{}, opts, func([]byte) error { n++; return nil }); err != nil || n != 5000 {
		t.Errorf("ScanKeys gives %d keys (%v), want 5000", n, err)
	}
}

// TestScanKeysParallel: over random ranges of a table of many pages, with
// rows that do not fit the layout among them, ScanKeysParallel's parts
// hand over, in part order, exactly the keys ScanKeys hands over, with
// the same stats; it does use several parts; and an error from one part's
// reader is what it returns.
func TestScanKeysParallel(t *testing.T) {
	ctx := context.Background()
	x, _, tb := loadLogs(t, 20_000)
	st := x.Store.(*embedded.Store)
	for i, k := range [][]byte{{0x03}, {0x0f, 0x80}, []byte("\x07zzzzzzzzzz")} {
		m := exec.Mutation{Key: k, Cells: []exec.Cell{{Family: "l", Qualifier: "message", Value: fmt.Appendf(nil, "junk %d", i)}}}
		if err := st.Mutate(ctx, tb.Physical, []exec.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	all := scanKeys(t, st, tb, exec.Range{})
	rng := rand.New(rand.NewPCG(7, 8))
	pick := func() []byte {
		if rng.IntN(4) == 0 {
			return nil
		}
		return all[rng.IntN(len(all))]
	}
	usedParts := 0
	for i := range 60 {
		r := exec.Range{Start: pick(), Stop: pick()}
		if i == 0 {
			r = exec.Range{}
		}
		want := scanKeys(t, st, tb, r)
		var wantStats exec.Stats
		if err := st.ScanKeys(ctx, tb.Physical, r, exec.ReadOptions{Table: tb, Columns: []int{}, Stats: &wantStats}, func([]byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
		parts := 2 + i%3
		var got [][][]byte
		var gotStats exec.Stats
		err := st.ScanKeysParallel(ctx, tb.Physical, r, exec.ReadOptions{Table: tb, Columns: []int{}, Stats: &gotStats}, parts,
			func(part int) func([]byte) error {
				if part != len(got) {
					t.Errorf("newFn(%d) called after %d parts", part, len(got))
				}
				got = append(got, nil)
				return func(k []byte) error {
					got[part] = append(got[part], bytes.Clone(k))
					return nil
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		usedParts = max(usedParts, len(got))
		var flat [][]byte
		for _, p := range got {
			flat = append(flat, p...)
		}
		if fmt.Sprintf("%q", flat) != fmt.Sprintf("%q", want) {
			t.Fatalf("%q..%q in %d parts: %d keys, ScanKeys gives %d", r.Start, r.Stop, parts, len(flat), len(want))
		}
		for _, f := range []struct {
			name      string
			got, want int64
		}{
			{"rows read", gotStats.RowsRead.Load(), wantStats.RowsRead.Load()},
			{"bytes", gotStats.Bytes.Load(), wantStats.Bytes.Load()},
			{"regions", gotStats.Regions.Load(), wantStats.Regions.Load()},
			{"rpcs", gotStats.RPCs.Load(), wantStats.RPCs.Load()},
		} {
			if f.got != f.want {
				t.Errorf("%q..%q: %s: %d in parts, %d through ScanKeys", r.Start, r.Stop, f.name, f.got, f.want)
			}
		}
	}
	if usedParts < 2 {
		t.Fatalf("no scan used more than %d part; the test checks nothing parallel", usedParts)
	}
	// An error from the second part's reader ends the scan and is the
	// one returned.
	boom := errors.New("boom")
	err := st.ScanKeysParallel(ctx, tb.Physical, exec.Range{}, exec.ReadOptions{Table: tb, Columns: []int{}}, 2,
		func(part int) func([]byte) error {
			return func([]byte) error {
				if part == 1 {
					return boom
				}
				return nil
			}
		})
	if !errors.Is(err, boom) {
		t.Errorf("a reader's error gives %v, want boom", err)
	}
}
