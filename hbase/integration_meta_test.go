package hbase_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// reopenRows is how many rows TestIntegrationCountWhileRegionsReopen
// writes, spread over its 16 regions.
const reopenRows = 16000

// reopenTable creates a table pre-split into 16 regions that loads the
// aggregation endpoint, writes reopenRows rows and drops it at the end.
func reopenTable(t *testing.T, c *hbase.Client) string {
	t.Helper()
	ctx := ctxT(t)
	table := hbasetest.TableName("meta_reopen_it")
	var splits [][]byte
	for i := 1; i < 16; i++ {
		splits = append(splits, []byte(fmt.Sprintf("r%05d", i*reopenRows/16)))
	}
	createTable(t, c, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "cf"}}, SplitKeys: splits,
		Coprocessors: []string{hbase.AggregateClass}})
	var ms []hbase.Mutation
	for i := range reopenRows {
		p, err := hbase.NewPut(table, []byte(fmt.Sprintf("r%05d", i)), []hbase.Cell{cell("cf", "q", "v")})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, p)
	}
	if err := c.MultiMutate(ctx, ms); err != nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return table
}

// readAll counts the table's rows in the regions, with the aggregation
// endpoint, and by a full scan, and lists its regions.
func readAll(ctx context.Context, c *hbase.Client, table string) (counted, scanned int64, regions int, err error) {
	s, err := hbase.NewScan(table, nil, nil, hbase.Caching(1000), hbase.MaxResultSize(2<<20))
	if err != nil {
		return 0, 0, 0, err
	}
	a, err := hbase.NewAggregate(hbase.RowCount, hbase.LongInterpreter, s)
	if err != nil {
		return 0, 0, 0, err
	}
	res, _, err := c.Aggregate(ctx, a)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("count: %w", err)
	}
	sc := c.Scan(s)
	defer sc.Close()
	for {
		_, err := sc.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, 0, fmt.Errorf("scan: %w", err)
		}
		scanned++
	}
	rs, err := c.Regions(ctx, table)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("regions: %w", err)
	}
	return res.Rows, scanned, len(rs), nil
}

// TestIntegrationCountWhileRegionsReopen alters a family of a 16-region
// table, which makes the master reopen every region, and reads the table
// while it does and after: the count in the regions and a full scan give
// every row, and the region list holds every region, each time. The
// client asks for four rows of hbase:meta per RPC, and its result size
// of one byte makes the server send one: every listing and lookup pages,
// through pages shorter than asked for.
func TestIntegrationCountWhileRegionsReopen(t *testing.T) {
	c := newClient(t, hbase.Config{MetaScanRows: 4, ScanMaxResultSize: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	table := reopenTable(t, c)
	check := func(when string) {
		t.Helper()
		counted, scanned, regions, err := readAll(ctx, c, table)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if counted != reopenRows || scanned != reopenRows || regions != 16 {
			t.Fatalf("%s: counted %d rows, scanned %d, listed %d regions; want %d, %d and 16",
				when, counted, scanned, regions, reopenRows, reopenRows)
		}
	}
	check("before the alter")
	for round, versions := range []int{2, 3} {
		reads, err := hbasetest.WhileRunning(func() error {
			return c.Admin().ModifyFamily(ctx, table, hbase.FamilySpec{Name: "cf", Versions: versions})
		}, func(n int) { check(fmt.Sprintf("alter %d, read %d", round, n)) })
		if err != nil {
			t.Fatalf("alter %d: %v", round, err)
		}
		t.Logf("alter %d: %d reads while and after the regions reopened", round, reads)
	}
}
