package hbase_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/filter"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// The wire table holds wireRows rows "k0000".."k0999" in four regions.
// Every row has f:a, f:b, f:d, f:e, each a 24-byte value, and f:c =
// "even" or "odd" by parity, except rows i%10 == 5, which lack f:c. Rows
// i%3 == 0 also have g:z. The tests below prove that the server applies
// each filter by what crosses the wire: fewer cells and fewer bytes than
// the scan without it.
const wireRows = 1000

var wireSplits = [][]byte{[]byte("k0250"), []byte("k0500"), []byte("k0750")}

func wireKey(i int) string { return fmt.Sprintf("k%04d", i) }

func wireValue(col string, i int) string {
	v := fmt.Sprintf("%s%04d-", col, i)
	return v + strings.Repeat("x", 24-len(v))
}

func wireHasC(i int) bool { return i%10 != 5 }
func wireHasZ(i int) bool { return i%3 == 0 }

// newWireEnv creates and loads the wire table, dropped when t ends.
func newWireEnv(t *testing.T) *testEnv {
	t.Helper()
	c := newClient(t, hbase.Config{})
	table := hbasetest.TableName("hbase_wire")
	createTable(t, c, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "f"}, {Name: "g"}}, SplitKeys: wireSplits})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var ms []hbase.Mutation
	for i := range wireRows {
		cells := []hbase.Cell{cell("f", "a", wireValue("a", i)), cell("f", "b", wireValue("b", i)),
			cell("f", "d", wireValue("d", i)), cell("f", "e", wireValue("e", i))}
		if wireHasC(i) {
			parity := "odd"
			if i%2 == 0 {
				parity = "even"
			}
			cells = append(cells, cell("f", "c", parity))
		}
		if wireHasZ(i) {
			cells = append(cells, cell("g", "z", wireValue("z", i)))
		}
		p, err := hbase.NewPut(table, []byte(wireKey(i)), cells)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, p)
	}
	if err := c.MultiMutate(ctx, ms); err != nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return &testEnv{c: c, table: table}
}

// wireScan scans the wire table's k rows with opts, checks that the stats
// agree with what Next returned, and returns the rows and stats.
func wireScan(t *testing.T, e *testEnv, opts ...hbase.Option) ([]*hbase.Result, hbase.ScanStats) {
	t.Helper()
	_, rows, st := scanKeys(t, e, "k", "l", opts...)
	cells := 0
	for _, r := range rows {
		cells += len(r.Cells)
	}
	if st.Rows != len(rows) || st.Bytes <= 0 {
		t.Errorf("stats %+v for %d rows", st, len(rows))
	}
	if st.Cells < cells {
		t.Errorf("stats count %d cells received, Next returned %d", st.Cells, cells)
	}
	return rows, st
}

// wireFull is the scan without filters that each filtered scan is
// measured against.
func wireFull(t *testing.T, e *testEnv) hbase.ScanStats {
	t.Helper()
	rows, st := wireScan(t, e)
	want := 0
	for i := range wireRows {
		want += 4
		if wireHasC(i) {
			want++
		}
		if wireHasZ(i) {
			want++
		}
	}
	if len(rows) != wireRows || st.Cells != want {
		t.Fatalf("full scan: %d rows, %d cells; want %d rows, %d cells", len(rows), st.Cells, wireRows, want)
	}
	return st
}

// lessBytes fails unless the filtered scan received at most frac of the
// full scan's bytes.
func lessBytes(t *testing.T, what string, got, full hbase.ScanStats, frac float64) {
	t.Helper()
	t.Logf("%s: %d rows, %d cells, %d bytes in %d RPCs (full scan: %d cells, %d bytes)",
		what, got.Rows, got.Cells, got.Bytes, got.RPCs, full.Cells, full.Bytes)
	if float64(got.Bytes) > frac*float64(full.Bytes) || got.Cells >= full.Cells {
		t.Errorf("%s received %d bytes, %d cells; want at most %.2f of the full scan's %d bytes and fewer than %d cells",
			what, got.Bytes, got.Cells, frac, full.Bytes, full.Cells)
	}
}

func keysOf(rows []*hbase.Result) []string {
	var out []string
	for _, r := range rows {
		out = append(out, string(r.Row))
	}
	return out
}

func wireKeys(keep func(i int) bool) []string {
	var out []string
	for i := range wireRows {
		if keep(i) {
			out = append(out, wireKey(i))
		}
	}
	return out
}

func scvEven(ifMissing bool) filter.Filter {
	return filter.SingleColumnValue{Family: []byte("f"), Qualifier: []byte("c"), Op: filter.Equal,
		Comparator: filter.Binary{Value: []byte("even")}, FilterIfMissing: ifMissing, LatestVersionOnly: true}
}

func TestIntegrationWire(t *testing.T) {
	e := newWireEnv(t)
	t.Run("filters", func(t *testing.T) { wireFilters(t, e) })
	t.Run("byte-example", func(t *testing.T) { wireByteExample(t, e) })
	t.Run("read-options", func(t *testing.T) { wireReadOptions(t, e) })
	t.Run("column-list-semantics", func(t *testing.T) { wireColumnListSemantics(t, e) })
	t.Run("single-column-value-outside-projection", func(t *testing.T) { wireSCVProjection(t, e) })
}

func wireFilters(t *testing.T, e *testEnv) {
	full := wireFull(t, e)

	t.Run("single-column-value-filter-if-missing", func(t *testing.T) {
		rows, st := wireScan(t, e, hbase.WithFilter(scvEven(true)))
		equalKeys(t, "scv", keysOf(rows), wireKeys(func(i int) bool { return i%2 == 0 && wireHasC(i) }))
		lessBytes(t, "scv filterIfMissing", st, full, 0.6)
	})
	t.Run("single-column-value-keep-missing", func(t *testing.T) {
		// Rows without f:c pass.
		rows, st := wireScan(t, e, hbase.WithFilter(scvEven(false)))
		equalKeys(t, "scv", keysOf(rows), wireKeys(func(i int) bool { return i%2 == 0 || !wireHasC(i) }))
		lessBytes(t, "scv keep missing", st, full, 0.7)
	})
	t.Run("row-regex", func(t *testing.T) {
		f := filter.Row{Op: filter.Equal, Comparator: filter.RegexString{Pattern: "^k0[0-9]{2}7$"}}
		rows, st := wireScan(t, e, hbase.WithFilter(f), hbase.TrackScanMetrics())
		equalKeys(t, "regex", keysOf(rows), wireKeys(func(i int) bool { return i%10 == 7 }))
		lessBytes(t, "row regex", st, full, 0.15)
		t.Logf("row regex: server metrics %v", st.ServerMetrics)
		// The server read every row and dropped nine in ten.
		if st.RowsScanned != wireRows || st.RowsFiltered != wireRows*9/10 {
			t.Errorf("server scanned %d rows and filtered %d, want %d and %d (%v)",
				st.RowsScanned, st.RowsFiltered, wireRows, wireRows*9/10, st.ServerMetrics)
		}
	})
	t.Run("fuzzy-row", func(t *testing.T) {
		// k??5?: the third digit is 5.
		f := filter.FuzzyRow{Keys: []filter.FuzzyKey{{Key: []byte("k\x00\x005\x00"), Mask: []byte{0, 1, 1, 0, 1}}}}
		rows, st := wireScan(t, e, hbase.WithFilter(f), hbase.TrackScanMetrics())
		equalKeys(t, "fuzzy", keysOf(rows), wireKeys(func(i int) bool { return i/10%10 == 5 }))
		lessBytes(t, "fuzzy row", st, full, 0.15)
		t.Logf("fuzzy row: server scanned %d rows, filtered %d", st.RowsScanned, st.RowsFiltered)
	})
	t.Run("multi-row-range", func(t *testing.T) {
		var ranges []filter.RowRange
		var want []string
		for r := 0; r < 10; r++ {
			lo := r*100 + 40
			ranges = append(ranges, filter.RowRange{Start: []byte(wireKey(lo)), StartInclusive: true, Stop: []byte(wireKey(lo + 5))})
			want = append(want, wireKeys(func(i int) bool { return i >= lo && i < lo+5 })...)
		}
		rows, st := wireScan(t, e, hbase.WithFilter(filter.MultiRowRange{Ranges: ranges}))
		equalKeys(t, "multi row range", keysOf(rows), want)
		lessBytes(t, "multi row range", st, full, 0.1)
		// The same rows by one scan per range.
		var perRange hbase.ScanStats
		var got []string
		for _, r := range ranges {
			keys, _, s := scanKeys(t, e, string(r.Start), string(r.Stop))
			got = append(got, keys...)
			perRange.RPCs += s.RPCs
			perRange.Bytes += s.Bytes
		}
		equalKeys(t, "scan per range", got, want)
		t.Logf("multi row range: %d RPCs, %d bytes; one scan per range: %d RPCs, %d bytes",
			st.RPCs, st.Bytes, perRange.RPCs, perRange.Bytes)
		if st.RPCs >= perRange.RPCs {
			t.Errorf("multi row range took %d RPCs, one scan per range %d", st.RPCs, perRange.RPCs)
		}
	})
	t.Run("first-key-only-key-only", func(t *testing.T) {
		rows, st := wireScan(t, e, hbase.WithFilter(filter.And(filter.FirstKeyOnly{}, filter.KeyOnly{})))
		if len(rows) != wireRows || st.Cells != wireRows {
			t.Fatalf("%d rows, %d cells; want one cell for each of %d rows", len(rows), st.Cells, wireRows)
		}
		for _, r := range rows {
			if c := r.Cells[0]; len(c.Value) != 0 || string(c.Family) != "f" || string(c.Qualifier) != "a" {
				t.Fatalf("row %s: first cell %s:%s = %q, want f:a without its value", r.Row, c.Family, c.Qualifier, c.Value)
			}
		}
		lessBytes(t, "first key only + key only", st, full, 0.25)
	})
	t.Run("prefix", func(t *testing.T) {
		rows, st := wireScan(t, e, hbase.WithFilter(filter.Prefix{Prefix: []byte("k01")}))
		equalKeys(t, "prefix", keysOf(rows), wireKeys(func(i int) bool { return i >= 100 && i < 200 }))
		lessBytes(t, "prefix", st, full, 0.15)
	})
	t.Run("filter-list", func(t *testing.T) {
		f := filter.And(filter.Or(filter.Prefix{Prefix: []byte("k01")}, filter.Prefix{Prefix: []byte("k08")}), scvEven(true))
		rows, st := wireScan(t, e, hbase.WithFilter(f))
		equalKeys(t, "filter list", keysOf(rows), wireKeys(func(i int) bool {
			return (i/100 == 1 || i/100 == 8) && i%2 == 0 && wireHasC(i)
		}))
		lessBytes(t, "filter list", st, full, 0.15)
	})
	t.Run("columns", func(t *testing.T) {
		// A projection is applied by the server too; rows without the
		// projected column do not come back at all.
		rows, st := wireScan(t, e, hbase.Columns("g", "z"))
		equalKeys(t, "columns g:z", keysOf(rows), wireKeys(wireHasZ))
		lessBytes(t, "columns g:z", st, full, 0.3)
	})
}

func wireByteExample(t *testing.T, e *testEnv) {
	// 1000 rows of family f, most with 5 columns: the whole rows against
	// one value-less key per row.
	_, full := wireScan(t, e, hbase.Families("f"))
	_, keys := wireScan(t, e, hbase.Families("f"), hbase.WithFilter(filter.And(filter.FirstKeyOnly{}, filter.KeyOnly{})))
	t.Logf("scan of %d rows, family f: full %d bytes, %d cells, %d RPCs; FirstKeyOnly+KeyOnly %d bytes, %d cells, %d RPCs (%.1f%%)",
		wireRows, full.Bytes, full.Cells, full.RPCs, keys.Bytes, keys.Cells, keys.RPCs, 100*float64(keys.Bytes)/float64(full.Bytes))
	if keys.Cells != wireRows || keys.Bytes*4 > full.Bytes {
		t.Errorf("FirstKeyOnly+KeyOnly received %d cells, %d bytes; want %d cells and under a quarter of %d bytes",
			keys.Cells, keys.Bytes, wireRows, full.Bytes)
	}
}

// cellsText renders rows as "row[fam:qual=len ...]" for exact comparison.
func cellsText(rows []*hbase.Result) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s[", r.Row)
		for i, c := range r.Cells {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%s=%d", c.Family, c.Qualifier, len(c.Value))
		}
		b.WriteString("] ")
	}
	return strings.TrimSpace(b.String())
}

func qualEq(q string) filter.Filter {
	return filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(q)}}
}

func qualNe(q string) filter.Filter {
	return filter.Qualifier{Op: filter.NotEqual, Comparator: filter.Binary{Value: []byte(q)}}
}

func famEq(f string) filter.Filter {
	return filter.Family{Op: filter.Equal, Comparator: filter.Binary{Value: []byte(f)}}
}

// wireColumnListSemantics pins how HBase 2.6 answers "every existing row,
// plus only the columns f:c and g:z" with one scan over all families.
func wireColumnListSemantics(t *testing.T, e *testEnv) {
	// s1 has a wanted column after an unwanted first cell, s2 none of the
	// wanted columns, s3 a wanted first cell, s4 only a wanted column.
	mustPut(t, e, []byte("s1"), cell("f", "a", "aaaa"), cell("f", "c", "cc"), cell("g", "z", "zzz"))
	mustPut(t, e, []byte("s2"), cell("f", "a", "aaaa"))
	mustPut(t, e, []byte("s3"), cell("f", "c", "cc"), cell("f", "e", "eeeee"))
	mustPut(t, e, []byte("s4"), cell("g", "z", "zzz"))
	wanted := []filter.Filter{
		filter.And(famEq("f"), qualEq("c")),
		filter.And(famEq("g"), qualEq("z")),
	}
	cases := []struct {
		name string
		opts []hbase.Option
		want string
	}{{
		// MUST_PASS_ONE(FirstKeyOnly, columns): each row comes with its
		// first cell, value and all, plus the wanted columns; a row
		// lacking every wanted column still comes, with its first cell; a
		// wanted first cell comes once.
		"or-first-key-only",
		[]hbase.Option{hbase.WithFilter(filter.Or(append([]filter.Filter{filter.FirstKeyOnly{}}, wanted...)...))},
		"s1[f:a=4 f:c=2 g:z=3] s2[f:a=4] s3[f:c=2] s4[g:z=3]",
	}, {
		// The same with the families named: no difference.
		"or-first-key-only-families",
		[]hbase.Option{hbase.Families("f", "g"), hbase.WithFilter(filter.Or(append([]filter.Filter{filter.FirstKeyOnly{}}, wanted...)...))},
		"s1[f:a=4 f:c=2 g:z=3] s2[f:a=4] s3[f:c=2] s4[g:z=3]",
	}, {
		// A trap: KeyOnly beside FirstKeyOnly also strips a wanted first
		// cell, since every list member that took a cell transforms it.
		"or-first-key-only-key-only-strips-wanted",
		[]hbase.Option{hbase.WithFilter(filter.Or(append([]filter.Filter{filter.And(filter.FirstKeyOnly{}, filter.KeyOnly{})}, wanted...)...))},
		"s1[f:a=0 f:c=2 g:z=3] s2[f:a=0] s3[f:c=0] s4[g:z=0]",
	}, {
		// What works without moving unwanted values: the first cell
		// stripped only when it is not a wanted column.
		"or-first-unwanted-key-only",
		[]hbase.Option{hbase.WithFilter(filter.Or(append([]filter.Filter{
			filter.And(filter.FirstKeyOnly{}, qualNe("c"), qualNe("z"), filter.KeyOnly{})}, wanted...)...))},
		"s1[f:a=0 f:c=2 g:z=3] s2[f:a=0] s3[f:c=2] s4[g:z=3]",
	}, {
		// A column projection is applied before the filter: rows without
		// a projected column vanish, whatever the filter.
		"projection-drops-rows",
		[]hbase.Option{hbase.Columns("f", "c"), hbase.Columns("g", "z"),
			hbase.WithFilter(filter.Or(append([]filter.Filter{filter.FirstKeyOnly{}}, wanted...)...))},
		"s1[f:c=2 g:z=3] s3[f:c=2] s4[g:z=3]",
	}}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, rows, _ := scanKeys(t, e, "s", "t", tt.opts...)
			if got := cellsText(rows); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// wireSCVProjection pins SingleColumnValueFilter when the scan's columns
// leave out the tested column: the filter never sees it, so every row
// counts as missing it.
func wireSCVProjection(t *testing.T, e *testEnv) {
	rows, _ := wireScan(t, e, hbase.Columns("f", "a"), hbase.WithFilter(scvEven(true)))
	if len(rows) != 0 {
		t.Errorf("filterIfMissing with f:c not projected: %d rows, want none", len(rows))
	}
	rows, _ = wireScan(t, e, hbase.Columns("f", "a"), hbase.WithFilter(scvEven(false)))
	if len(rows) != wireRows {
		t.Errorf("keep-missing with f:c not projected: %d rows, want all %d (the test never runs)", len(rows), wireRows)
	}
	// Projecting the tested column too makes the filter work again.
	rows, _ = wireScan(t, e, hbase.Columns("f", "a", "c"), hbase.WithFilter(scvEven(true)))
	equalKeys(t, "scv with f:c projected", keysOf(rows), wireKeys(func(i int) bool { return i%2 == 0 && wireHasC(i) }))
}

func wireReadOptions(t *testing.T, e *testEnv) {
	ctx := ctxT(t)
	t.Run("get-filter-and-stats", func(t *testing.T) {
		g, _ := hbase.NewGet(e.table, []byte(wireKey(3)))
		full, fst, err := e.c.GetWithStats(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		g, _ = hbase.NewGet(e.table, []byte(wireKey(3)), hbase.WithFilter(filter.KeyOnly{}))
		keys, kst, err := e.c.GetWithStats(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Cells) != 6 || fst.Cells != 6 || fst.Rows != 1 || fst.RPCs != 1 {
			t.Errorf("full get: %d cells, stats %+v", len(full.Cells), fst)
		}
		if len(keys.Cells) != 6 || kst.Cells != 6 || cellsText([]*hbase.Result{keys}) != "k0003[f:a=0 f:b=0 f:c=0 f:d=0 f:e=0 g:z=0]" {
			t.Errorf("key-only get: %s", cellsText([]*hbase.Result{keys}))
		}
		// Five 24-byte values and "odd" stay on the server.
		if d := fst.Bytes - kst.Bytes; d != 5*24+3 {
			t.Errorf("key-only get received %d bytes less than the full get (%d, %d), want %d", d, fst.Bytes, kst.Bytes, 5*24+3)
		}
	})
	t.Run("multiget-filter-and-stats", func(t *testing.T) {
		var plain, filtered []*hbase.Get
		for i := 0; i < wireRows; i += 97 {
			g, _ := hbase.NewGet(e.table, []byte(wireKey(i)))
			plain = append(plain, g)
			g, _ = hbase.NewGet(e.table, []byte(wireKey(i)), hbase.WithFilter(qualEq("b")))
			filtered = append(filtered, g)
		}
		_, pst, err := e.c.MultiGetWithStats(ctx, plain)
		if err != nil {
			t.Fatal(err)
		}
		res, fst, err := e.c.MultiGetWithStats(ctx, filtered)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if len(r.Cells) != 1 || string(r.Cells[0].Qualifier) != "b" {
				t.Fatalf("filtered multi-get row %s: %s", r.Row, cellsText([]*hbase.Result{r}))
			}
		}
		t.Logf("multi-get of %d rows: %+v; with a qualifier filter: %+v", len(plain), pst, fst)
		if fst.Rows != len(filtered) || fst.Cells != len(filtered) || pst.Cells <= 5*len(plain) || fst.Bytes*3 > pst.Bytes {
			t.Errorf("multi-get stats: plain %+v, filtered %+v", pst, fst)
		}
	})
	t.Run("time-range", func(t *testing.T) {
		for _, ts := range []int64{100, 200, 300} {
			p, _ := hbase.NewPut(e.table, []byte("t1"), []hbase.Cell{cell("f", fmt.Sprint("q", ts), "v")}, hbase.Timestamp(ts))
			if err := e.c.Mutate(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		g, _ := hbase.NewGet(e.table, []byte("t1"), hbase.TimeRange(100, 300))
		r, err := e.c.Get(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if got := cellsText([]*hbase.Result{r}); got != "t1[f:q100=1 f:q200=1]" {
			t.Errorf("get [100, 300): %s", got)
		}
		_, rows, _ := scanKeys(t, e, "t1", "t2", hbase.TimeRange(200, 201))
		if got := cellsText(rows); got != "t1[f:q200=1]" {
			t.Errorf("scan [200, 201): %s", got)
		}
	})
	t.Run("caching", func(t *testing.T) {
		rows, st := wireScan(t, e, hbase.Caching(50))
		// 1000 rows at 50 per call over four regions: at least 20 calls.
		if len(rows) != wireRows || st.RPCs < 20 {
			t.Errorf("caching 50: %d rows in %d RPCs", len(rows), st.RPCs)
		}
	})
	t.Run("max-result-size", func(t *testing.T) {
		rows, st := wireScan(t, e, hbase.Caching(1000), hbase.MaxResultSize(4096))
		// About 250 bytes per row: the size, not the caching, ends each
		// call.
		if len(rows) != wireRows || st.RPCs < 40 {
			t.Errorf("max result size 4096: %d rows in %d RPCs", len(rows), st.RPCs)
		}
	})
	t.Run("server-limit", func(t *testing.T) {
		keys, _, st := scanKeys(t, e, wireKey(240), "", hbase.Limit(20), hbase.Caching(100))
		equalKeys(t, "limit", keys, wireKeys(func(i int) bool { return i >= 240 && i < 260 }))
		// Ten rows from each of two regions; the server closes the second
		// scanner at the limit, so no close call follows.
		if st.RPCs != 2 || st.Regions != 2 {
			t.Errorf("limit 20 across a region boundary: stats %+v, want 2 RPCs", st)
		}
	})
}
