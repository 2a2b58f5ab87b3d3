package main

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// mutationLog is an embedded store that records the keys of each Mutate
// call, per physical table.
type mutationLog struct {
	*embedded.Store
	mu    sync.Mutex
	calls map[string][][]string
}

func (m *mutationLog) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	keys := make([]string, len(muts))
	for i := range muts {
		keys[i] = string(muts[i].Key)
	}
	m.mu.Lock()
	m.calls[table] = append(m.calls[table], keys)
	m.mu.Unlock()
	return m.Store.Mutate(ctx, table, muts)
}

// The loader writes through engine.ImportRows, as rkql import does: a
// table without indexes reaches the store as one ascending run of keys,
// at most 10,000 rows a write, though its generated rows come in no
// order; a table with indexes is written with its entries, and the report
// counts the rows that replaced one of the same key.
func TestLoadWritesThroughImport(t *testing.T) {
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := &mutationLog{Store: st, calls: map[string][][]string{}}
	var out bytes.Buffer
	if err := load(context.Background(), c, log, []string{"device_metrics", "sites"}, &out); err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}

	dm, _ := c.Table("device_metrics")
	rows := examples.Rows(dm, examples.DemoRows["device_metrics"], 1)
	var keys []string
	for _, call := range log.calls[dm.Physical] {
		if len(call) > 10_000 {
			t.Errorf("a write of %d rows, want at most 10000", len(call))
		}
		keys = append(keys, call...)
	}
	if len(keys) != len(rows) {
		t.Fatalf("device_metrics: the store was given %d rows, want %d", len(keys), len(rows))
	}
	for i := 1; i < len(keys); i++ {
		if keys[i-1] > keys[i] {
			t.Fatalf("device_metrics: key %d (%x) comes after %x: not the import's key order", i, keys[i], keys[i-1])
		}
	}
	descents, prev := 0, ""
	for _, r := range rows {
		k, err := dm.EncodeKey(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(k) < prev {
			descents++
		}
		prev = string(k)
	}
	if descents == 0 {
		t.Fatal("the generated rows are in key order already: the test shows nothing")
	}

	sites, _ := c.Table("sites")
	domains := map[string]bool{}
	for _, r := range examples.Rows(sites, examples.DemoRows["sites"], 1) {
		domains[r[0].S] = true
	}
	replaced := examples.DemoRows["sites"] - len(domains)
	if replaced == 0 {
		t.Fatal("no generated site shares a domain: the count shows nothing")
	}
	want := fmt.Sprintf(`(?m)^\s*sites +%d/%d rows written, %d replaced a row with the same key$`, examples.DemoRows["sites"], examples.DemoRows["sites"], replaced)
	if !regexp.MustCompile(want).MatchString(strings.ReplaceAll(out.String(), "\r", "\n")) {
		t.Errorf("report %q lacks %s", out.String(), want)
	}
	if n, err := st.Count(context.Background(), sites.Physical); err != nil || n != int64(len(domains)) {
		t.Errorf("sites holds %d rows (%v), want %d", n, err, len(domains))
	}
	if len(log.calls[sites.Indexes[0].Physical]) == 0 {
		t.Error("no index entry of sites was written")
	}
}
