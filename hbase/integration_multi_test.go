package hbase_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// TestIntegrationMultiServer creates a table of 16 regions on the
// multi-server HBase, checks that its regions are spread over more than
// one region server, and reads back exactly the rows written.
func TestIntegrationMultiServer(t *testing.T) {
	q := hbasetest.MultiQuorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := hbase.NewClient(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() }) // after the table's drop
	table := hbasetest.TableName("bench_cluster_multi")
	var splits [][]byte
	for i := 1; i < 16; i++ {
		splits = append(splits, []byte(fmt.Sprintf("%x", i)))
	}
	createTable(t, c, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "f"}}, SplitKeys: splits})

	regions, err := c.Admin().Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 16 {
		t.Fatalf("%d regions, want 16", len(regions))
	}
	servers := map[string]int{}
	for _, r := range regions {
		servers[r.Server]++
	}
	if len(servers) < 2 {
		t.Fatalf("all 16 regions on %v; want them on more than one region server", servers)
	}
	t.Logf("regions per server: %v", servers)

	// 100 rows in each region: keys "<hex digit>-<n>".
	written := map[string]string{}
	var batch []hbase.Mutation
	for d := 0; d < 16; d++ {
		for n := 0; n < 100; n++ {
			key := fmt.Sprintf("%x-%03d", d, n)
			val := fmt.Sprintf("v%d.%d", d, n)
			p, err := hbase.NewPut(table, []byte(key), []hbase.Cell{{Family: []byte("f"), Qualifier: []byte("q"), Value: []byte(val)}})
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, p)
			written[key] = val
		}
	}
	if err := c.MultiMutate(ctx, batch); err != nil {
		t.Fatal(err)
	}

	s, err := hbase.NewScan(table, nil, nil, hbase.Caching(250))
	if err != nil {
		t.Fatal(err)
	}
	sc := c.Scan(s)
	defer sc.Close()
	read := map[string]string{}
	prev := ""
	for {
		r, err := sc.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		k := string(r.Row)
		if k <= prev {
			t.Fatalf("row %q after %q: out of order", k, prev)
		}
		prev = k
		if _, dup := read[k]; dup {
			t.Fatalf("row %q read twice", k)
		}
		if len(r.Cells) != 1 {
			t.Fatalf("row %q: %d cells, want 1", k, len(r.Cells))
		}
		read[k] = string(r.Cells[0].Value)
	}
	if len(read) != len(written) {
		t.Fatalf("read %d rows, wrote %d", len(read), len(written))
	}
	for k, v := range written {
		if read[k] != v {
			t.Fatalf("row %q: read %q, wrote %q", k, read[k], v)
		}
	}
	if st := sc.Stats(); st.Regions < 16 {
		t.Fatalf("the scan visited %d regions, want 16", st.Regions)
	}
}
