package hbase

import (
	"context"
	"fmt"
	"testing"
)

// The byte counts are checked against what the fake server wrote on the
// socket, so they are the frames' real sizes, not a re-encoding.

func TestFakeScanStatsCountWireBytes(t *testing.T) {
	for _, partial := range []bool{false, true} {
		t.Run(fmt.Sprintf("partial=%v", partial), func(t *testing.T) {
			fs := newFakeServer(t, fakeSplits, fakeRows)
			fs.partial = partial
			s, err := NewScan("t", []byte("k05"), []byte("k25"), Caching(3))
			if err != nil {
				t.Fatal(err)
			}
			sc := fakeClient(fs).Scan(s)
			got, _ := drain(t, sc)
			if got != fakeKeys(5, 24, 1) {
				t.Fatalf("got %s", got)
			}
			st := sc.Stats()
			if want := fs.sentBytes("Scan"); st.Bytes != int64(want) || want == 0 {
				t.Errorf("stats bytes = %d, server wrote %d", st.Bytes, want)
			}
			wantCells := 20
			if partial {
				wantCells = 40
			}
			if st.Cells != wantCells || st.Rows != 20 {
				t.Errorf("stats %+v, want %d cells and 20 rows", st, wantCells)
			}
			if st.RPCs != fs.count("Scan")-fs.count("Scan.meta") {
				t.Errorf("stats RPCs %d, server saw %d data scan calls", st.RPCs, fs.count("Scan")-fs.count("Scan.meta"))
			}
			if st.ServerMetrics != nil || st.RowsScanned != 0 {
				t.Errorf("server metrics without TrackScanMetrics: %+v", st)
			}
		})
	}
}

func TestFakeScanServerMetrics(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	s, err := NewScan("t", []byte("k05"), []byte("k25"), Caching(3), TrackScanMetrics())
	if err != nil {
		t.Fatal(err)
	}
	sc := fakeClient(fs).Scan(s)
	drain(t, sc)
	st := sc.Stats()
	// The fake reports each call's rows sent as scanned; the sum over the
	// calls is every row of the range.
	if st.RowsScanned != 20 || st.RowsFiltered != 0 || st.ServerMetrics[MetricRowsScanned] != 20 {
		t.Errorf("stats %+v, want 20 rows scanned summed over the calls", st)
	}
	st.ServerMetrics[MetricRowsScanned] = -1
	if sc.Stats().ServerMetrics[MetricRowsScanned] != 20 {
		t.Error("Stats shares its metrics map with the scanner")
	}
}

func TestFakeScanLimitTellsServer(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	s, err := NewScan("t", []byte("k08"), nil, Limit(5), Caching(2))
	if err != nil {
		t.Fatal(err)
	}
	sc := fakeClient(fs).Scan(s)
	got, _ := drain(t, sc)
	if got != fakeKeys(8, 12, 1) {
		t.Fatalf("got %s", got)
	}
	// k08 k09 in the first region (limit 5), then k10 k11 (limit 3) and
	// k12 (limit 1), after which the server ends the scan itself.
	if fmt.Sprint(fs.limits) != "[5 3 1]" {
		t.Errorf("limit_of_rows per call = %v, want [5 3 1]", fs.limits)
	}
	if n := fs.count("Scan.close"); n != 0 {
		t.Errorf("%d close calls; the server closed its scanner at the limit", n)
	}
	if n := len(fs.scanners); n != 0 {
		t.Errorf("%d server scanners left open", n)
	}
}

func TestFakeGetStats(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	fs.nsreRows["k15"] = 1
	c := fakeClient(fs)
	g, _ := NewGet("t", []byte("k15"))
	res, st, err := c.GetWithStats(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Row) != "k15" {
		t.Fatalf("got row %q", res.Row)
	}
	// The failed first call moved bytes too.
	if want := fs.sentBytes("Get"); st.Bytes != int64(want) || st.RPCs != 2 || st.Cells != 1 || st.Rows != 1 {
		t.Errorf("stats %+v, server wrote %d bytes in 2 calls", st, want)
	}
	miss, _ := NewGet("t", []byte("nope"))
	_, st, err = c.GetWithStats(context.Background(), miss)
	if err != nil || st.Rows != 0 || st.Cells != 0 || st.Bytes == 0 {
		t.Errorf("missing row: stats %+v, err %v", st, err)
	}
}

func TestFakeMultiGetStats(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	c := fakeClient(fs)
	var gets []*Get
	for _, k := range []string{"k01", "k12", "k25", "k33", "nope"} {
		g, _ := NewGet("t", []byte(k))
		gets = append(gets, g)
	}
	res, st, err := c.MultiGetWithStats(context.Background(), gets)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 5 || len(res[4].Cells) != 0 {
		t.Fatalf("results %v", res)
	}
	if want := fs.sentBytes("Multi"); st.Bytes != int64(want) || want == 0 || st.RPCs != fs.count("Multi") || st.Cells != 4 || st.Rows != 4 {
		t.Errorf("stats %+v, server wrote %d bytes in %d calls", st, want, fs.count("Multi"))
	}
}
