package hbase_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/filter"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// aggRow is one row of the aggregation tables, as the test wrote it; the
// expected answers are computed from these, not read back.
type aggRow struct {
	key  string
	l    *int64   // cf:l, 8-byte big-endian long
	d    *float64 // cf:d, 8-byte big-endian double
	s    string   // cf:s
	xval int64    // cf:x, an 8-byte long the aggregates must not see
}

func aggRows() []aggRow {
	r := rand.New(rand.NewPCG(11, 12))
	var out []aggRow
	for i := range 1600 {
		row := aggRow{key: fmt.Sprintf("r%04d", i), s: string(rune('a' + r.IntN(5))), xval: r.Int64N(1 << 40)}
		if r.IntN(5) > 0 {
			v := r.Int64N(2_000_000_000_000) - 1_000_000_000_000
			row.l = &v
		}
		if r.IntN(5) > 0 {
			v := float64(r.IntN(4001)-2000) / 4 // exact sums in any order
			row.d = &v
		}
		out = append(out, row)
	}
	return out
}

func be64(v uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return string(b[:])
}

// aggTable creates a table split into 16 regions, loads the rows and
// drops it at the end.
func aggTable(t *testing.T, c *hbase.Client, rows []aggRow, coprocessors []string) string {
	t.Helper()
	ctx := ctxT(t)
	table := hbasetest.TableName("agg_it")
	var splits [][]byte
	for i := 1; i < 16; i++ {
		splits = append(splits, []byte(fmt.Sprintf("r%04d", i*100)))
	}
	createTable(t, c, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "cf"}}, SplitKeys: splits, Coprocessors: coprocessors})
	var ms []hbase.Mutation
	for _, r := range rows {
		cells := []hbase.Cell{cell("cf", "s", r.s), cell("cf", "x", be64(uint64(r.xval)))}
		if r.l != nil {
			cells = append(cells, cell("cf", "l", be64(uint64(*r.l))))
		}
		if r.d != nil {
			cells = append(cells, cell("cf", "d", be64(math.Float64bits(*r.d))))
		}
		p, err := hbase.NewPut(table, []byte(r.key), cells)
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

func aggClient(t *testing.T) *hbase.Client { return newClient(t, hbase.Config{}) }

// expected is what an aggregate over the selected rows must give.
type expected struct {
	rows             int64 // rows selected
	lRows, dRows     int64 // of them, with l and with d
	lSum, lMin, lMax int64
	dSum, dMin, dMax float64
	lValid, dValid   bool
}

func expect(rows []aggRow, from, to string, keep func(aggRow) bool) expected {
	var e expected
	for _, r := range rows {
		if r.key < from || (to != "" && r.key >= to) || !keep(r) {
			continue
		}
		e.rows++
		if r.l != nil {
			v := *r.l
			if !e.lValid {
				e.lMin, e.lMax = v, v
			}
			e.lValid, e.lRows, e.lSum = true, e.lRows+1, e.lSum+v
			e.lMin, e.lMax = min(e.lMin, v), max(e.lMax, v)
		}
		if r.d != nil {
			v := *r.d
			if !e.dValid {
				e.dMin, e.dMax = v, v
			}
			e.dValid, e.dRows, e.dSum = true, e.dRows+1, e.dSum+v
			e.dMin, e.dMax = min(e.dMin, v), max(e.dMax, v)
		}
	}
	return e
}

// TestIntegrationAggregateEndpoint runs every aggregate of the endpoint on
// a 16-region table that loads AggregateImplementation, over the whole
// table, a range across regions and a range with a value filter, and
// compares each with the answer computed from the rows written. The same
// calls on a table without the endpoint fail with ErrNoEndpoint.
func TestIntegrationAggregateEndpoint(t *testing.T) {
	c := aggClient(t)
	rows := aggRows()
	with := aggTable(t, c, rows, []string{hbase.AggregateClass})
	without := aggTable(t, c, rows, nil)
	ctx := ctxT(t)

	spec, err := c.Admin().DescribeTable(ctx, with)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(spec.Coprocessors, hbase.AggregateClass) {
		t.Fatalf("descriptor of %s lists coprocessors %q, want %s", with, spec.Coprocessors, hbase.AggregateClass)
	}
	if spec, err := c.Admin().DescribeTable(ctx, without); err != nil || len(spec.Coprocessors) != 0 {
		t.Fatalf("descriptor of %s: coprocessors %v, err %v", without, spec.Coprocessors, err)
	}

	isB := filter.SingleColumnValue{Family: []byte("cf"), Qualifier: []byte("s"), Op: filter.Equal,
		Comparator: filter.Binary{Value: []byte("b")}, FilterIfMissing: true, LatestVersionOnly: true}
	all := func(aggRow) bool { return true }
	cases := []struct {
		name     string
		from, to string
		where    filter.Filter // nil: none
		keep     func(aggRow) bool
	}{
		{"whole table", "", "", nil, all},
		{"across regions", "r0150", "r1234", nil, all},
		{"filtered", "r0150", "r1234", isB, func(r aggRow) bool { return r.s == "b" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := expect(rows, tc.from, tc.to, tc.keep)
			// Sum, Min, Max and Avg read the whole family, so that a filter
			// sees its column, and keep only the aggregated column's cells.
			only := func(q string) []hbase.Option {
				f := filter.Filter(filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(q)}})
				if tc.where != nil {
					f = filter.And(tc.where, f)
				}
				return []hbase.Option{hbase.Families("cf"), hbase.WithFilter(f)}
			}
			var countOpts []hbase.Option
			if tc.where != nil {
				countOpts = append(countOpts, hbase.WithFilter(tc.where))
			}
			run := func(table string, fn hbase.AggregateFunc, in hbase.Interpreter, opts ...hbase.Option) (hbase.AggregateResult, hbase.AggregateStats, error) {
				s, err := hbase.NewScan(table, []byte(tc.from), []byte(tc.to), opts...)
				if err != nil {
					t.Fatal(err)
				}
				a, err := hbase.NewAggregate(fn, in, s)
				if err != nil {
					t.Fatal(err)
				}
				return c.Aggregate(ctx, a)
			}
			got, st, err := run(with, hbase.RowCount, hbase.LongInterpreter, countOpts...)
			if err != nil {
				t.Fatalf("row count: %v", err)
			}
			if got.Rows != want.rows {
				t.Errorf("row count %d, want %d", got.Rows, want.rows)
			}
			t.Logf("row count %d: %d regions, %d RPCs, %d bytes", got.Rows, st.Regions, st.RPCs, st.Bytes)
			if st.Regions < 2 || st.Bytes <= 0 {
				t.Errorf("stats %+v: want several regions and the bytes received", st)
			}
			for _, fn := range []hbase.AggregateFunc{hbase.Sum, hbase.Min, hbase.Max, hbase.Avg} {
				gl, _, err := run(with, fn, hbase.LongInterpreter, only("l")...)
				if err != nil {
					t.Fatalf("%s of l: %v", fn, err)
				}
				gd, _, err := run(with, fn, hbase.DoubleInterpreter, only("d")...)
				if err != nil {
					t.Fatalf("%s of d: %v", fn, err)
				}
				wl, wd := map[hbase.AggregateFunc]int64{hbase.Sum: want.lSum, hbase.Min: want.lMin, hbase.Max: want.lMax, hbase.Avg: want.lSum},
					map[hbase.AggregateFunc]float64{hbase.Sum: want.dSum, hbase.Min: want.dMin, hbase.Max: want.dMax, hbase.Avg: want.dSum}
				if !gl.Valid || gl.Long != wl[fn] {
					t.Errorf("%s of l = %d (valid %v), want %d", fn, gl.Long, gl.Valid, wl[fn])
				}
				if !gd.Valid || gd.Double != wd[fn] {
					t.Errorf("%s of d = %v (valid %v), want %v", fn, gd.Double, gd.Valid, wd[fn])
				}
				if fn == hbase.Avg {
					t.Logf("avg counts: l %d (rows with l %d), d %d (rows with d %d)", gl.Rows, want.lRows, gd.Rows, want.dRows)
					// The endpoint counts its scanner's steps: at least the
					// rows with a value, at most one more per region
					// without a filter.
					slack := int64(0)
					if tc.where == nil {
						slack = int64(st.Regions)
					} else {
						slack = want.rows
					}
					if gl.Rows < want.lRows || gl.Rows > want.lRows+slack || gd.Rows < want.dRows || gd.Rows > want.dRows+slack {
						t.Errorf("avg counts l %d d %d, want %d and %d, or up to %d more", gl.Rows, gd.Rows, want.lRows, want.dRows, slack)
					}
				}
			}
			_, _, err = run(without, hbase.RowCount, hbase.LongInterpreter, countOpts...)
			if !errors.Is(err, hbase.ErrNoEndpoint) {
				t.Errorf("row count without the endpoint: %v, want ErrNoEndpoint", err)
			}
		})
	}
}
