package hbase_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/filter"
)

// loadRows writes rows r000..r099 with a multi-put: cf:a = v<i>, cf:b =
// even/odd, meta:m = m<i>.
func loadRows(t *testing.T, e *testEnv) {
	t.Helper()
	var ms []hbase.Mutation
	for i := range 100 {
		parity := "odd"
		if i%2 == 0 {
			parity = "even"
		}
		p, err := hbase.NewPut(e.table, rowKey(i), []hbase.Cell{
			cell("cf", "a", fmt.Sprintf("v%d", i)), cell("cf", "b", parity), cell("meta", "m", fmt.Sprintf("m%d", i)),
		})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, p)
	}
	if err := e.c.MultiMutate(ctxT(t), ms); err != nil {
		t.Fatalf("multi-put: %v", err)
	}
}

// scanKeys runs a scan to the end and returns the row keys and stats.
func scanKeys(t *testing.T, e *testEnv, start, stop string, opts ...hbase.Option) ([]string, []*hbase.Result, hbase.ScanStats) {
	t.Helper()
	s, err := hbase.NewScan(e.table, []byte(start), []byte(stop), opts...)
	if err != nil {
		t.Fatal(err)
	}
	sc := e.c.Scan(s)
	defer sc.Close()
	var keys []string
	var rows []*hbase.Result
	for {
		r, err := sc.Next(ctxT(t))
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		keys = append(keys, string(r.Row))
		rows = append(rows, r)
	}
	return keys, rows, sc.Stats()
}

// keyRange lists the keys r<from>..r<to> inclusive, stepping by step.
func keyRange(from, to, step int) []string {
	var out []string
	for i := from; (step > 0 && i <= to) || (step < 0 && i >= to); i += step {
		out = append(out, string(rowKey(i)))
	}
	return out
}

func equalKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: got %d keys %v\nwant %d keys %v", what, len(got), got, len(want), want)
	}
}

func TestIntegrationMultiAndScan(t *testing.T) {
	e := newEnv(t)
	loadRows(t, e)
	checkMultiGet(t, e)
	t.Run("forward", func(t *testing.T) { forwardScans(t, e) })
	t.Run("reversed", func(t *testing.T) { reversedScans(t, e) })
	t.Run("options", func(t *testing.T) { scanOptions(t, e) })
}

// checkMultiGet reads rows from every region, and a missing one, at once.
func checkMultiGet(t *testing.T, e *testEnv) {
	var gets []*hbase.Get
	want := []int{5, 25, 45, 65, 85, 99, 100}
	for _, i := range want {
		g, err := hbase.NewGet(e.table, rowKey(i))
		if err != nil {
			t.Fatal(err)
		}
		gets = append(gets, g)
	}
	res, err := e.c.MultiGet(ctxT(t), gets)
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range want {
		got := string(res[k].Value("cf", "a"))
		if i == 100 {
			if len(res[k].Cells) != 0 {
				t.Errorf("missing row r100 has cells %v", res[k].Cells)
			}
			continue
		}
		if got != fmt.Sprintf("v%d", i) || len(res[k].Cells) != 3 {
			t.Errorf("multi-get %d: %q, %d cells", i, got, len(res[k].Cells))
		}
	}
}

func forwardScans(t *testing.T, e *testEnv) {
	t.Run("forward-full", func(t *testing.T) {
		keys, rows, st := scanKeys(t, e, "", "", hbase.Caching(7))
		equalKeys(t, "forward", keys, keyRange(0, 99, 1))
		if st.Regions != 5 || st.RPCs < 100/7 {
			t.Errorf("stats %+v, want 5 regions and >= %d RPCs", st, 100/7)
		}
		if len(rows[0].Cells) != 3 {
			t.Errorf("row has %d cells", len(rows[0].Cells))
		}
	})
	t.Run("forward-range", func(t *testing.T) {
		keys, _, st := scanKeys(t, e, "r015", "r075", hbase.Caching(4))
		equalKeys(t, "forward range", keys, keyRange(15, 74, 1))
		if st.Regions != 4 {
			t.Errorf("stats %+v, want 4 regions", st)
		}
	})
}

func reversedScans(t *testing.T, e *testEnv) {
	t.Run("reversed-range", func(t *testing.T) {
		keys, _, st := scanKeys(t, e, "r075", "r015", hbase.Reversed(), hbase.Caching(4))
		equalKeys(t, "reversed range", keys, keyRange(75, 16, -1))
		if st.Regions != 4 {
			t.Errorf("stats %+v, want 4 regions", st)
		}
	})
	t.Run("reversed-full", func(t *testing.T) {
		keys, _, st := scanKeys(t, e, "", "", hbase.Reversed(), hbase.Caching(9))
		equalKeys(t, "reversed", keys, keyRange(99, 0, -1))
		if st.Regions != 5 {
			t.Errorf("stats %+v, want 5 regions", st)
		}
	})
	t.Run("reversed-at-boundary", func(t *testing.T) {
		keys, _, _ := scanKeys(t, e, "r040", "r019", hbase.Reversed(), hbase.Caching(3))
		equalKeys(t, "reversed boundary", keys, keyRange(40, 20, -1))
	})
}

func scanOptions(t *testing.T, e *testEnv) {
	t.Run("limit", func(t *testing.T) {
		keys, _, _ := scanKeys(t, e, "r015", "", hbase.Limit(10), hbase.Caching(3))
		equalKeys(t, "limit", keys, keyRange(15, 24, 1))
	})
	t.Run("partial-rows", func(t *testing.T) {
		keys, rows, _ := scanKeys(t, e, "r010", "r030", hbase.MaxResultSize(1))
		equalKeys(t, "partial", keys, keyRange(10, 29, 1))
		for _, r := range rows {
			if len(r.Cells) != 3 {
				t.Fatalf("row %s stitched to %d cells", r.Row, len(r.Cells))
			}
		}
	})
	t.Run("families", func(t *testing.T) {
		_, rows, _ := scanKeys(t, e, "r000", "r005", hbase.Families("meta"))
		if len(rows) != 5 || len(rows[0].Cells) != 1 || string(rows[0].Cells[0].Family) != "meta" {
			t.Errorf("rows %v", rows)
		}
	})
	t.Run("early-close", func(t *testing.T) {
		s, _ := hbase.NewScan(e.table, nil, nil, hbase.Caching(2))
		sc := e.c.Scan(s)
		for i := range 3 {
			r, err := sc.Next(ctxT(t))
			if err != nil || string(r.Row) != string(rowKey(i)) {
				t.Fatalf("row %d: %v %v", i, r, err)
			}
		}
		if err := sc.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := sc.Next(ctxT(t)); err != io.EOF {
			t.Errorf("Next after Close = %v, want io.EOF", err)
		}
		st := sc.Stats()
		// open + 1 next + close
		if st.Regions != 1 || st.RPCs != 3 {
			t.Errorf("stats %+v", st)
		}
	})
}

type filterCase struct {
	name        string
	start, stop string
	f           filter.Filter
	want        []string
}

func filterCases() []filterCase {
	scv := func(v string) filter.Filter {
		return filter.SingleColumnValue{Family: []byte("cf"), Qualifier: []byte("b"), Op: filter.Equal,
			Comparator: filter.Binary{Value: []byte(v)}, FilterIfMissing: true, LatestVersionOnly: true}
	}
	var evens []string
	for i := 0; i < 100; i += 2 {
		evens = append(evens, string(rowKey(i)))
	}
	return []filterCase{
		{"prefix", "", "", filter.Prefix{Prefix: []byte("r01")}, keyRange(10, 19, 1)},
		{"row-binary", "", "", filter.Row{Op: filter.Less, Comparator: filter.Binary{Value: []byte("r005")}}, keyRange(0, 4, 1)},
		{"row-binary-prefix", "", "", filter.Row{Op: filter.Equal, Comparator: filter.BinaryPrefix{Value: []byte("r09")}}, keyRange(90, 99, 1)},
		{"row-regex", "", "", filter.Row{Op: filter.Equal, Comparator: filter.RegexString{Pattern: "^r0[0-4]5$"}}, keyRange(5, 45, 10)},
		{"row-substring", "", "", filter.Row{Op: filter.Equal, Comparator: filter.Substring{Substr: "R07"}}, keyRange(70, 79, 1)},
		{"single-column-value", "", "", scv("even"), evens},
		{"and", "", "", filter.And(filter.Prefix{Prefix: []byte("r01")}, scv("even")), keyRange(10, 18, 2)},
		{"or", "", "", filter.Or(filter.Prefix{Prefix: []byte("r01")}, filter.Prefix{Prefix: []byte("r05")}),
			append(keyRange(10, 19, 1), keyRange(50, 59, 1)...)},
		{"multi-row-range", "", "", filter.MultiRowRange{Ranges: []filter.RowRange{
			{Start: []byte("r010"), StartInclusive: true, Stop: []byte("r013")},
			{Start: []byte("r050"), StartInclusive: true, Stop: []byte("r052"), StopInclusive: true},
		}}, append(keyRange(10, 12, 1), keyRange(50, 52, 1)...)},
		{"fuzzy-row", "", "", filter.FuzzyRow{Keys: []filter.FuzzyKey{{Key: []byte("r\x00\x005"), Mask: []byte{0, 1, 1, 0}}}},
			keyRange(5, 95, 10)},
		{"page", "r000", "r020", filter.Page{Size: 5}, keyRange(0, 4, 1)},
	}
}

func TestIntegrationFilters(t *testing.T) {
	e := newEnv(t)
	loadRows(t, e)
	for _, tt := range filterCases() {
		t.Run(tt.name, func(t *testing.T) {
			keys, _, _ := scanKeys(t, e, tt.start, tt.stop, hbase.WithFilter(tt.f), hbase.Caching(6))
			equalKeys(t, tt.name, keys, tt.want)
		})
	}
	t.Run("key-only", func(t *testing.T) {
		_, rows, _ := scanKeys(t, e, "r000", "r003", hbase.WithFilter(filter.KeyOnly{}))
		if len(rows) != 3 {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if len(r.Cells) != 3 {
				t.Errorf("row %s has %d cells", r.Row, len(r.Cells))
			}
			for _, c := range r.Cells {
				if len(c.Value) != 0 {
					t.Errorf("row %s kept value %q", r.Row, c.Value)
				}
			}
		}
	})
	t.Run("first-key-only", func(t *testing.T) {
		_, rows, _ := scanKeys(t, e, "r000", "r050", hbase.WithFilter(filter.FirstKeyOnly{}))
		if len(rows) != 50 {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if len(r.Cells) != 1 {
				t.Errorf("row %s has %d cells", r.Row, len(r.Cells))
			}
		}
	})
	t.Run("get-with-filter", func(t *testing.T) {
		g, err := hbase.NewGet(e.table, rowKey(7), hbase.WithFilter(filter.KeyOnly{LenAsValue: true}), hbase.Columns("cf", "a"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.c.Get(ctxT(t), g)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Cells) != 1 || string(r.Cells[0].Value) != "\x00\x00\x00\x02" {
			t.Errorf("cells %+v", r.Cells)
		}
	})
	t.Run("bad-filter", func(t *testing.T) {
		s, err := hbase.NewScan(e.table, nil, nil, hbase.WithFilter(filter.Row{Op: filter.Equal}))
		if err == nil || s != nil {
			t.Errorf("NewScan with a broken filter: %v", err)
		}
	})
}

func TestIntegrationVersions(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	for ts := int64(1000); ts <= 3000; ts += 1000 {
		p, err := hbase.NewPut(e.table, []byte("v"), []hbase.Cell{cell("cf", "a", fmt.Sprint(ts))}, hbase.Timestamp(ts))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.Mutate(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := hbase.NewGet(e.table, []byte("v"), hbase.Versions(3))
	r, err := e.c.Get(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 3 || r.Cells[0].Timestamp != 3000 || string(r.Value("cf", "a")) != "3000" {
		t.Errorf("versions: %+v", r.Cells)
	}
	g, _ = hbase.NewGet(e.table, []byte("v"), hbase.Versions(3), hbase.TimeRange(1000, 2500))
	if r, err = e.c.Get(ctx, g); err != nil || len(r.Cells) != 2 {
		t.Errorf("time range: %+v, %v", r, err)
	}
	d, _ := hbase.NewDelete(e.table, []byte("v"), hbase.Families("cf"), hbase.Timestamp(2000))
	if err := e.c.Mutate(ctx, d); err != nil {
		t.Fatal(err)
	}
	g, _ = hbase.NewGet(e.table, []byte("v"), hbase.Versions(3))
	if r, err = e.c.Get(ctx, g); err != nil || len(r.Cells) != 1 || r.Cells[0].Timestamp != 3000 {
		t.Errorf("after family delete at 2000: %+v, %v", r, err)
	}
}

// TestIntegrationRaw pins what a raw Get and Scan return on HBase 2.6:
// the delete markers, and the puts they hide, which a plain read leaves
// out.
func TestIntegrationRaw(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	key := []byte("raw")
	put := func(qual string, ts int64) {
		t.Helper()
		p, err := hbase.NewPut(e.table, key, []hbase.Cell{cell("cf", qual, fmt.Sprint(ts))}, hbase.Timestamp(ts))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.Mutate(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	del := func(opts ...hbase.Option) {
		t.Helper()
		d, err := hbase.NewDelete(e.table, key, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.Mutate(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	put("a", 1000)
	del(hbase.ColumnsAt(2000, "cf", "a"))
	put("a", 1500) // hidden by the column marker at 2000
	del(hbase.Families("cf"), hbase.Timestamp(3000))
	put("b", 2500) // hidden by the family marker at 3000
	put("b", 4000)

	g, _ := hbase.NewGet(e.table, key, hbase.Versions(10))
	r, err := e.c.Get(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if got := describeCells(r.Cells); got != "cf:b@4000 put" {
		t.Errorf("plain get: %s", got)
	}
	want := "cf:@3000 delete-family, cf:a@2000 delete-column, cf:a@1500 put, cf:a@1000 put, cf:b@4000 put, cf:b@2500 put"
	g, err = hbase.NewGet(e.table, key, hbase.Versions(10), hbase.Raw())
	if err != nil {
		t.Fatal(err)
	}
	if r, err = e.c.Get(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got := describeCells(r.Cells); got != want {
		t.Errorf("raw get:\n got %s\nwant %s", got, want)
	}
	res, err := e.c.MultiGet(ctx, []*hbase.Get{g})
	if err != nil {
		t.Fatal(err)
	}
	if got := describeCells(res[0].Cells); got != want {
		t.Errorf("raw multi-get:\n got %s\nwant %s", got, want)
	}
	g, _ = hbase.NewGet(e.table, key, hbase.Raw())
	if r, err = e.c.Get(ctx, g); err != nil {
		t.Fatal(err)
	}
	// Markers do not count as versions.
	if got, want := describeCells(r.Cells), "cf:@3000 delete-family, cf:a@2000 delete-column, cf:a@1500 put, cf:b@4000 put"; got != want {
		t.Errorf("raw get of one version:\n got %s\nwant %s", got, want)
	}
	// A row delete is a family marker in each family.
	row := []byte("raw2")
	d, _ := hbase.NewDelete(e.table, row, hbase.Timestamp(3000))
	if err := e.c.Mutate(ctx, d); err != nil {
		t.Fatal(err)
	}
	g, _ = hbase.NewGet(e.table, row, hbase.Raw())
	if r, err = e.c.Get(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got, want := describeCells(r.Cells), "cf:@3000 delete-family, meta:@3000 delete-family"; got != want {
		t.Errorf("raw get after a row delete:\n got %s\nwant %s", got, want)
	}
	s, err := hbase.NewScan(e.table, key, append(key, 0), hbase.Versions(10), hbase.Raw())
	if err != nil {
		t.Fatal(err)
	}
	sc := e.c.Scan(s)
	defer sc.Close()
	sr, err := sc.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := describeCells(sr.Cells); got != want {
		t.Errorf("raw scan:\n got %s\nwant %s", got, want)
	}
}

func describeCells(cells []hbase.Cell) string {
	names := map[hbase.CellType]string{hbase.CellPut: "put", hbase.CellDelete: "delete", hbase.CellDeleteColumn: "delete-column",
		hbase.CellDeleteFamily: "delete-family", hbase.CellDeleteFamilyVersion: "delete-family-version"}
	var out []string
	for _, c := range cells {
		out = append(out, fmt.Sprintf("%s:%s@%d %s", c.Family, c.Qualifier, c.Timestamp, names[c.Type]))
	}
	return strings.Join(out, ", ")
}
