package hbase

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// realTable creates a table with four regions on the real cluster and
// fills rows a00..a39, deleting the table at the end.
func realTable(t *testing.T) (*Client, string) {
	t.Helper()
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := NewClient(ctx, Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	table := hbasetest.TableName("hbase_iti")
	spec := TableSpec{Name: table, Families: []FamilySpec{{Name: "f"}},
		SplitKeys: [][]byte{[]byte("a10"), []byte("a20"), []byte("a30")}}
	t.Cleanup(func() { c.Close() })
	if err := c.Admin().CreateTable(ctx, spec); err != nil {
		t.Fatal(err)
	}
	hbasetest.DropAtEnd(t, c.Admin(), table)
	var ms []Mutation
	for i := range 40 {
		k := fmt.Sprintf("a%02d", i)
		p, _ := NewPut(table, []byte(k), []Cell{{Family: []byte("f"), Qualifier: []byte("q"), Value: []byte(k)}})
		ms = append(ms, p)
	}
	if err := c.MultiMutate(ctx, ms); err != nil {
		t.Fatal(err)
	}
	return c, table
}

func TestIntegrationRelocatesFromDeadServer(t *testing.T) {
	c, table := realTable(t)
	ctx := context.Background()
	real, err := c.Locate(ctx, table, []byte("a15"))
	if err != nil {
		t.Fatal(err)
	}
	// Pretend the region lives on a server that is gone.
	dead := deadAddr(t)
	stale := *real
	stale.Server = dead
	c.cache.add(&stale)
	g, _ := NewGet(table, []byte("a15"))
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := c.Get(tctx, g)
	if err != nil || string(res.Value("f", "q")) != "a15" {
		t.Fatalf("get after a dead location: %v %v", res, err)
	}
	if r := c.cache.lookup(table, []byte("a15"), false); r == nil || r.Server != real.Server {
		t.Errorf("cache holds %+v, want server %s", r, real.Server)
	}
	// With one attempt the operator sees the dead server.
	c.cache.add(&stale)
	c.cfg.MaxAttempts = 1
	_, err = c.Get(tctx, g)
	if want := "cannot reach region server " + dead + ": connection refused"; err == nil || !contains(err.Error(), want) {
		t.Errorf("err %v, want %q", err, want)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestIntegrationLeaseRenewal(t *testing.T) {
	c, table := realTable(t)
	s, _ := NewScan(table, nil, nil, Caching(3))
	sc := c.Scan(s)
	defer sc.Close()
	ctx := context.Background()
	var keys []string
	for i := 0; ; i++ {
		if i == 2 || i == 5 {
			// What the timer does for a slow reader.
			sc.mu.Lock()
			gen := sc.mu.gen
			ttl := sc.mu.ttl
			sc.mu.Unlock()
			if ttl <= 0 {
				t.Fatal("server sent no scanner lease")
			}
			sc.renewLease(gen)
		}
		r, err := sc.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, string(r.Row))
	}
	if len(keys) != 40 || keys[0] != "a00" || keys[39] != "a39" {
		t.Errorf("got %d rows %v", len(keys), keys)
	}
	if st := sc.Stats(); st.Renewals != 2 || st.Reopens != 0 {
		t.Errorf("stats %+v, want 2 renewals and no reopen", st)
	}
}
