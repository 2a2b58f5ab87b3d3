package hbasestore_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestIntegrationParallelLimit: on HBase, over a table of 16 regions, a
// read a LIMIT bounds reads no more rows (the region servers' own
// ROWS_SCANNED) than the serial read and returns the same rows, and a
// whole-table count, GROUP BY and ordered read run one scanner per
// region and return what the serial read does.
func TestIntegrationParallelLimit(t *testing.T) {
	t.Parallel()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	ctx := context.Background()
	name := hbasetest.TableName("rkql_par")
	var splits []string
	for i := 1; i < 16; i++ {
		splits = append(splits, fmt.Sprintf("%q", fmt.Sprintf("%06d", i*100)))
	}
	cat, err := catalog.Parse([]byte(`tables:
  - name: seq
    hbase: ` + name + `
    families:
      - {name: f, versions: 1}
    columns:
      - {name: n, type: BIGINT}
      - {name: g, type: STRING, column: "f:g"}
      - {name: v, type: BIGINT, column: "f:v"}
    rowkey:
      - {field: n, encoding: decimal, width: 6}
    splits: [` + strings.Join(splits, ", ") + `]
`))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("seq")
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	dropAtEnd(t, st, []string{name})
	var rows []catalog.Row
	for i := range 1600 {
		rows = append(rows, catalog.Row{catalog.Bigint(int64(i)), catalog.String(fmt.Sprintf("g%d", i%7)), catalog.Bigint(int64(i * 3))})
	}
	if err := x.Insert(ctx, tb, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	run := func(q string, opts exec.PlaceOptions) (string, string, *exec.Stats) {
		t.Helper()
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
		it, err := x.Run(ctx, pl, &stats)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []string
		for {
			r, err := it.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, fmt.Sprint(r))
		}
		return strings.Join(out, "\n"), pl.Explain(planner.ExplainEnv{}, nil).Text(), &stats
	}
	for _, q := range []string{
		"SELECT * FROM seq ORDER BY n LIMIT 250 ALLOW FULL SCAN",
		"SELECT * FROM seq ORDER BY n DESC LIMIT 250 ALLOW FULL SCAN",
		"SELECT n FROM seq WHERE v % 2 = 0 ORDER BY n LIMIT 40 ALLOW FULL SCAN",
		"SELECT n, v FROM seq WHERE n >= 120 ORDER BY n LIMIT 330",
	} {
		serial, _, s1 := run(q, exec.PlaceOptions{Parallel: 1})
		par, text, s4 := run(q, exec.PlaceOptions{Parallel: 4})
		if par != serial {
			t.Errorf("%s: parallel rows differ from serial", q)
		}
		if r4, r1 := s4.RowsRead.Load(), s1.RowsRead.Load(); r4 > r1 || r1 == 0 {
			t.Errorf("%s: parallel read %d rows, serial %d\n%s", q, r4, r1, text)
		}
		if s1.RowsRead.Load() >= 1600 {
			t.Errorf("%s: the serial read did not stop early: %d rows read", q, s1.RowsRead.Load())
		}
	}
	for _, q := range []string{
		"SELECT COUNT(*) FROM seq ALLOW FULL SCAN",
		"SELECT g, COUNT(*), SUM(v), MIN(n), MAX(n), AVG(v), COUNT(DISTINCT v % 5) FROM seq GROUP BY g ORDER BY g ALLOW FULL SCAN",
		"SELECT * FROM seq ORDER BY n DESC ALLOW FULL SCAN",
	} {
		serial, _, _ := run(q, exec.PlaceOptions{Parallel: 1})
		par, text, s4 := run(q, exec.PlaceOptions{Parallel: 4})
		if par != serial {
			t.Errorf("%s: parallel rows differ from serial", q)
		}
		if !strings.Contains(text, "as 16 parts on 4 workers side by side: at least 4 RPCs one after another") || s4.RPCs.Load() < 16 {
			t.Errorf("%s: the COST does not count 16 parts on 4 workers (%d RPCs):\n%s", q, s4.RPCs.Load(), text)
		}
		if !strings.Contains(text, "CLIENT PARALLEL 16-WAY OVER REGIONS, 4 WORKERS") || s4.Parts.Load() != 16 {
			t.Errorf("%s: not read over 16 regions in parallel (%d parts):\n%s", q, s4.Parts.Load(), text)
		}
	}
}
