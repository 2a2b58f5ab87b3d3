package hbase_test

import (
	"encoding/binary"
	"sync"
	"testing"

	"github.com/rkql/rkql/hbase"
)

// Increment counts from 0 and hands each of concurrent callers its own
// value; the counter reads back as 8 big-endian bytes.
func TestIntegrationIncrement(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	key, fam, q := []byte("r001"), []byte("cf"), []byte("n")
	if n, err := e.c.Increment(ctx, e.table, key, fam, q, 1); err != nil || n != 1 {
		t.Fatalf("first increment: %d, %v; want 1", n, err)
	}
	var mu sync.Mutex
	seen := map[int64]bool{1: true}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := e.c.Increment(ctx, e.table, key, fam, q, 1)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || seen[n] {
				t.Errorf("increment: %d (seen %v), %v", n, seen[n], err)
			}
			seen[n] = true
		}()
	}
	wg.Wait()
	if n, err := e.c.Increment(ctx, e.table, key, fam, q, 0); err != nil || n != 9 {
		t.Fatalf("counter after 9 increments: %d, %v", n, err)
	}
	res, err := e.c.Get(ctx, mustGet(t, e, key))
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Value("cf", "n"); len(v) != 8 || binary.BigEndian.Uint64(v) != 9 {
		t.Fatalf("stored counter % X, want 9 in 8 bytes", v)
	}
}

// CheckAndPut writes only when the column is as expected: absent, or
// holding the given bytes.
func TestIntegrationCheckAndPut(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	key, fam, q := []byte("r002"), []byte("cf"), []byte("a")
	put := func(v string) *hbase.Put {
		p, err := hbase.NewPut(e.table, key, []hbase.Cell{cell("cf", "a", v)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		val      string
		expected []byte
		want     bool
		after    string
	}{
		{"one", nil, true, "one"},            // absent: written
		{"two", nil, false, "one"},           // present: not written
		{"three", []byte("x"), false, "one"}, // not x: not written
		{"four", []byte("one"), true, "four"},
	} {
		ok, err := e.c.CheckAndPut(ctx, put(c.val), fam, q, c.expected)
		if err != nil || ok != c.want {
			t.Fatalf("check and put %q expecting %q: %v, %v; want %v", c.val, c.expected, ok, err, c.want)
		}
		res, err := e.c.Get(ctx, mustGet(t, e, key))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Value("cf", "a")); got != c.after {
			t.Fatalf("after check and put %q: %q, want %q", c.val, got, c.after)
		}
	}
}

func mustGet(t *testing.T, e *testEnv, key []byte) *hbase.Get {
	t.Helper()
	g, err := hbase.NewGet(e.table, key)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
