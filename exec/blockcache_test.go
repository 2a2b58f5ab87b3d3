package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// noCacheStore places as HBase does, but has no block cache to skip.
type noCacheStore struct{ exec.Store }

func (noCacheStore) Pushdown() exec.Pushdown { return noCachePushdown{} }

type noCachePushdown struct{ hbasestore.Pushdown }

func (noCachePushdown) Features() exec.Features {
	f := hbasestore.Pushdown{}.Features()
	f.BlockCache = false
	return f
}

// TestPlaceBlockCache places reads under each block cache choice and
// wants the read's NoBlockCache and the EXPLAIN line that says it.
func TestPlaceBlockCache(t *testing.T) {
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	auto, on, off := exec.BlockCacheAuto, exec.BlockCacheOn, exec.BlockCacheOff
	for _, tt := range []struct {
		q    string
		mode exec.BlockCache
		// line is the EXPLAIN line wanted, "" for none (the store caches).
		line string
	}{
		{"SELECT * FROM orders ALLOW FULL SCAN", auto, "SERVER BLOCK CACHE off (a whole-table scan)"},
		{"SELECT COUNT(*) FROM orders ALLOW FULL SCAN", auto, "SERVER BLOCK CACHE off (a whole-table scan)"},
		{"SELECT status, COUNT(*) FROM orders GROUP BY status ALLOW FULL SCAN", auto, "SERVER BLOCK CACHE off (a whole-table scan)"},
		{"SELECT * FROM orders WHERE status = 'paid' ALLOW FULL SCAN", auto, "SERVER BLOCK CACHE off (a whole-table scan)"},
		{"SELECT * FROM orders LIMIT 10", auto, ""},
		{"SELECT * FROM orders LIMIT 10000", auto, ""},
		{"SELECT * FROM orders LIMIT 10001", auto, "SERVER BLOCK CACHE off (a whole-table scan)"},
		{"SELECT * FROM orders WHERE seller = 's1'", auto, ""},
		{"SELECT * FROM orders WHERE seller = 's1' AND ts >= '2024-01-01' AND ts < '2024-01-02'", auto, ""},
		{"SELECT * FROM orders WHERE seller = 's1' AND ts = '2024-01-01' AND order_id = 7", auto, ""},
		{"SELECT * FROM logs_by_host WHERE hostname >= 'web'", auto, "SERVER BLOCK CACHE off (a range open at one end)"},
		// The client filters the rows, so the LIMIT bounds none the
		// store reads.
		{"SELECT * FROM logs_by_host WHERE hostname >= 'web' LIMIT 5", auto, "SERVER BLOCK CACHE off (a range open at one end)"},
		{"SELECT * FROM logs_by_host WHERE hostname = 'web' LIMIT 5", auto, ""},
		// A loose scan reads one row per distinct key prefix.
		{"SELECT DISTINCT seller FROM orders ALLOW FULL SCAN", auto, ""},
		{"SELECT * FROM orders ALLOW FULL SCAN", on, "SERVER BLOCK CACHE on (set on for this session)"},
		{"SELECT * FROM orders WHERE seller = 's1'", off, "SERVER BLOCK CACHE off (set off for this session)"},
		{"SELECT * FROM orders WHERE seller = 's1' AND ts = '2024-01-01' AND order_id = 7", off, "SERVER BLOCK CACHE off (set off for this session)"},
	} {
		t.Run(tt.mode.String()+"/"+tt.q, func(t *testing.T) {
			stmt, err := parser.ParseOne(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pl.Plan(context.Background(), stmt)
			if err != nil {
				t.Fatal(err)
			}
			sel := p.(*planner.Select)
			placed, err := exec.Place(context.Background(), aggStore{}, sel, exec.PlaceOptions{BlockCache: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			text := explain(placed.Explain)
			sc := placed.Scan(sel.Access)
			if got := blockCacheLine(text); got != tt.line {
				t.Errorf("block cache line %q, want %q, in\n%s", got, tt.line, text)
			}
			if wantOff := strings.Contains(tt.line, "CACHE off"); sc.NoBlockCache != wantOff {
				t.Errorf("NoBlockCache = %v, want %v", sc.NoBlockCache, wantOff)
			}
			// A store without a block cache is told nothing, and EXPLAIN
			// says nothing of it.
			other, err := exec.Place(context.Background(), noCacheStore{}, sel, exec.PlaceOptions{BlockCache: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			if line := blockCacheLine(explain(other.Explain)); line != "" || other.Scan(sel.Access).NoBlockCache {
				t.Errorf("a store without a block cache: %q", line)
			}
			// Pushdown off, the store only reads, as it would by default.
			plain, err := exec.Place(context.Background(), aggStore{}, sel, exec.PlaceOptions{BlockCache: tt.mode, NoPushdown: true})
			if err != nil {
				t.Fatal(err)
			}
			if line := blockCacheLine(explain(plain.Explain)); line != "" || plain.Scan(sel.Access).NoBlockCache {
				t.Errorf("pushdown off: %q", line)
			}
		})
	}
}

func blockCacheLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "SERVER BLOCK CACHE") {
			return l
		}
	}
	return ""
}

func TestParseBlockCache(t *testing.T) {
	for _, s := range []string{"auto", "on", "off", "OFF"} {
		b, err := exec.ParseBlockCache(s)
		if err != nil || b.String() != strings.ToLower(s) {
			t.Errorf("ParseBlockCache(%q) = %v, %v", s, b, err)
		}
	}
	if _, err := exec.ParseBlockCache("maybe"); err == nil || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("ParseBlockCache(maybe): %v", err)
	}
}
