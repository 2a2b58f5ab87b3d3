package hbasestore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/planner"
)

// aggYAML is a table split into 16 regions with 8-byte binary BIGINT and
// DOUBLE columns in two families, and columns the endpoint cannot read.
const aggYAML = `
tables:
  - name: agg
    hbase: %s
    families:
      - {name: d, versions: 1}
      - {name: e, versions: 1}
    columns:
      - {name: k, type: STRING}
      - {name: v, type: BIGINT, column: "d:v"}
      - {name: f, type: DOUBLE, column: "d:f"}
      - {name: s, type: STRING, column: "d:s"}
      - {name: w, type: BIGINT, column: "e:w"}
      - {name: tv, type: BIGINT, column: "d:tv", encoding: text}
      - {name: i, type: INT, column: "d:i"}
    rowkey:
      - {hash: md5, of: [k], width: 4}
      - {field: k}
    split: {algorithm: HexStringSplit, regions: 16}
`

func aggStoreRows(tb *catalog.Table) []catalog.Row {
	r := rand.New(rand.NewPCG(31, 32))
	col := func(name string) int { i, _ := tb.Column(name); return i }
	var out []catalog.Row
	for n := range 4000 {
		row := tb.NewRow()
		row[col("k")] = catalog.String(fmt.Sprintf("row%05d", n))
		if r.IntN(5) > 0 {
			row[col("v")] = catalog.Bigint(r.Int64N(2_000_000_000_000) - 1_000_000_000_000)
		}
		if r.IntN(5) > 0 {
			row[col("f")] = catalog.Double(float64(r.IntN(8001)-4000) / 4) // exact sums in any order
		}
		row[col("s")] = catalog.String([]string{"x", "y", "z"}[r.IntN(3)])
		row[col("w")] = catalog.Bigint(r.Int64N(1<<40) - 1<<39)
		row[col("tv")] = catalog.Bigint(r.Int64N(100))
		row[col("i")] = catalog.Value{Type: catalog.TypeInt, I: r.Int64N(100)}
		out = append(out, row)
	}
	return out
}

// clientAggregate computes agg over rows as SQL does: NULLs skipped, an
// empty input gives NULL (a zero count).
func clientAggregate(tb *catalog.Table, rows []catalog.Row, agg exec.Aggregation) exec.AggResult {
	if agg.Kind == exec.AggCount {
		return exec.AggResult{Count: int64(len(rows))}
	}
	typ := tb.Columns[agg.Column].Type
	out := exec.AggResult{Value: catalog.Null(typ), Sum: catalog.Null(typ)}
	if agg.Kind == exec.AggAvg {
		out.Value = catalog.Null(catalog.TypeDouble)
	}
	var n int64
	var li, lsum int64
	var d, dsum float64
	for _, r := range rows {
		v := r[agg.Column]
		if v.Null {
			continue
		}
		if n == 0 {
			li, d = v.I, v.F
		}
		n++
		lsum += v.I
		dsum += v.F
		switch agg.Kind {
		case exec.AggMin:
			li, d = min(li, v.I), min(d, v.F)
		case exec.AggMax:
			li, d = max(li, v.I), max(d, v.F)
		}
	}
	if n == 0 {
		return out
	}
	val := func(i int64, f float64) catalog.Value {
		if typ == catalog.TypeDouble {
			return catalog.Double(f)
		}
		return catalog.Bigint(i)
	}
	switch agg.Kind {
	case exec.AggSum:
		out.Value = val(lsum, dsum)
	case exec.AggMin, exec.AggMax:
		out.Value = val(li, d)
	case exec.AggAvg:
		out.Count, out.Sum = n, val(lsum, dsum)
		s := dsum
		if typ == catalog.TypeBigint {
			s = float64(lsum)
		}
		out.Value = catalog.Double(s / float64(n))
	}
	return out
}

func aggText(r exec.AggResult) string {
	return fmt.Sprintf("count %d, value %s, sum %s", r.Count, r.Value, r.Sum)
}

// storeAggregate runs agg over every range of sel's access through the
// store; the plan must leave nothing to the client.
func storeAggregate(ctx context.Context, t *testing.T, st exec.Store, p *placed.Plan, agg exec.Aggregation, stats *exec.Stats) (exec.AggResult, error) {
	acc := p.Scan(p.Select().Access)
	if p.Root() != planner.Node(acc.Access) {
		t.Fatalf("the filter is not all on the server:\n%s", p.Explain(planner.ExplainEnv{}, nil).Text())
	}
	if len(acc.Ranges) != 1 {
		t.Fatalf("%d ranges, want one", len(acc.Ranges))
	}
	opts := exec.ReadOptions{Table: acc.Table, Filter: acc.Filter, Versions: acc.Versions, Stats: stats}
	r := exec.Range{Start: acc.Ranges[0].Start, Stop: acc.Ranges[0].Stop}
	return st.(exec.Aggregator).Aggregate(ctx, acc.Table.Physical, r, agg, opts)
}

// TestStoreAggregates computes COUNT, SUM, MIN, MAX and AVG of a BIGINT
// and a DOUBLE column in the regions of a 16-region table that loads the
// aggregation endpoint, over every row and under filters on a column of
// the same family, of another family and on the key, and compares each
// with the answer the client computes from the rows the same query
// returns. A table without the endpoint answers exec.ErrNoAggregate.
func TestStoreAggregates(t *testing.T) {
	t.Parallel() // its tables are its own
	st := openStore(t, hbasestore.Options{Coprocessors: []string{hbase.AggregateClass}})
	plain := openStore(t, hbasestore.Options{})
	ctx := context.Background()
	var pls [2]*planner.Planner
	var tbs [2]*catalog.Table
	for i, s := range []*hbasestore.Store{st, plain} {
		phys := hbasetest.TableName("rkql_agg")
		cat, err := catalog.Parse([]byte(fmt.Sprintf(aggYAML, phys)))
		if err != nil {
			t.Fatal(err)
		}
		dropAtEnd(t, s, []string{phys})
		tb, _ := cat.Table("agg")
		x := ensureTable(t, s, tb)
		if err := x.Insert(ctx, tb, aggStoreRows(tb), 0, nil); err != nil {
			t.Fatal(err)
		}
		pls[i], tbs[i] = planner.New(cat, planner.Options{}), tb
	}
	tb := tbs[0]
	col := func(name string) int { i, _ := tb.Column(name); return i }

	for _, c := range []struct {
		name string
		agg  exec.Aggregation
		ok   bool
	}{
		{"COUNT", exec.Aggregation{Kind: exec.AggCount}, true},
		{"SUM(v)", exec.Aggregation{Kind: exec.AggSum, Column: col("v")}, true},
		{"MAX(f)", exec.Aggregation{Kind: exec.AggMax, Column: col("f")}, true},
		{"SUM(tv), text", exec.Aggregation{Kind: exec.AggSum, Column: col("tv")}, false},
		{"MIN(i), INT", exec.Aggregation{Kind: exec.AggMin, Column: col("i")}, false},
		{"MAX(s), STRING", exec.Aggregation{Kind: exec.AggMax, Column: col("s")}, false},
		{"MIN(k), key field", exec.Aggregation{Kind: exec.AggMin, Column: col("k")}, false},
	} {
		how, err := st.CanAggregate(ctx, tb, c.agg)
		if err != nil || (how != "") != c.ok {
			t.Errorf("CanAggregate %s = %q, %v; want the endpoint %v", c.name, how, err, c.ok)
		}
		if how, err := plain.CanAggregate(ctx, tbs[1], c.agg); err != nil || how != "" {
			t.Errorf("CanAggregate %s without the endpoint = %q, %v", c.name, how, err)
		}
	}

	var aggs []exec.Aggregation
	aggs = append(aggs, exec.Aggregation{Kind: exec.AggCount})
	for _, name := range []string{"v", "f"} {
		for _, k := range []exec.AggKind{exec.AggSum, exec.AggMin, exec.AggMax, exec.AggAvg} {
			aggs = append(aggs, exec.Aggregation{Kind: k, Column: col(name)})
		}
	}
	queries := []string{
		"SELECT * FROM agg ALLOW FULL SCAN",
		"SELECT * FROM agg WHERE s = 'x' ALLOW FULL SCAN",
		"SELECT * FROM agg WHERE w > 0 ALLOW FULL SCAN",
		"SELECT * FROM agg WHERE v < 0 OR s = 'y' ALLOW FULL SCAN",
		"SELECT * FROM agg WHERE k LIKE 'row01%' ALLOW FULL SCAN",
		"SELECT * FROM agg WHERE s = 'none' ALLOW FULL SCAN",
	}
	for _, q := range queries {
		t.Run(q, func(t *testing.T) {
			client, _, err := runPlaced(ctx, st, pls[0], q, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, agg := range aggs {
				want := clientAggregate(tb, client.rows, agg)
				var stats exec.Stats
				got, err := storeAggregate(ctx, t, st, client.p, agg, &stats)
				name := agg.Kind.String()
				if agg.Kind != exec.AggCount {
					name += "(" + tb.Columns[agg.Column].Name + ")"
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if aggText(got) != aggText(want) {
					t.Errorf("%s: server %s, client %s", name, aggText(got), aggText(want))
				}
				calls := int64(1)
				if agg.Kind == exec.AggAvg {
					calls = 2 // a sum and a row count
				}
				if stats.Regions.Load() != 16*calls || stats.RPCs.Load() != 16*calls || stats.Bytes.Load() <= 0 {
					t.Errorf("%s: %d regions, %d RPCs, %d bytes; want %d calls to each of 16 regions, and the bytes measured",
						name, stats.Regions.Load(), stats.RPCs.Load(), stats.Bytes.Load(), calls)
				}
			}
			t.Logf("%d rows; the server's answers agree with the client's", len(client.rows))

			sel, err := plan(pls[1], q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := exec.Place(ctx, plain, sel, exec.PlaceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = storeAggregate(ctx, t, plain, p, exec.Aggregation{Kind: exec.AggCount}, nil)
			if !errors.Is(err, exec.ErrNoAggregate) {
				t.Errorf("without the endpoint: %v, want exec.ErrNoAggregate", err)
			}
		})
	}
}
