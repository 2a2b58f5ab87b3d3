package hbase

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeRows are "k00".."k39"; fakeSplits cut them into four regions.
var (
	fakeSplits = []string{"k10", "k20", "k30"}
	fakeRows   = func() []string {
		var out []string
		for i := range 40 {
			out = append(out, fmt.Sprintf("k%02d", i))
		}
		return out
	}()
)

func fakeKeys(from, to, step int) string {
	var out []string
	for i := from; (step > 0 && i <= to) || (step < 0 && i >= to); i += step {
		out = append(out, fmt.Sprintf("k%02d", i))
	}
	return strings.Join(out, " ")
}

func drain(t *testing.T, sc *Scanner) (string, []*Result) {
	t.Helper()
	defer sc.Close()
	var keys []string
	var rows []*Result
	for {
		r, err := sc.Next(context.Background())
		if err == io.EOF {
			return strings.Join(keys, " "), rows
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		keys = append(keys, string(r.Row))
		rows = append(rows, r)
	}
}

func TestFakeScans(t *testing.T) {
	tests := []struct {
		name        string
		start, stop string
		opts        []Option
		want        string
		regions     int
	}{
		{"forward-all", "", "", []Option{Caching(3)}, fakeKeys(0, 39, 1), 4},
		{"forward-range", "k05", "k35", []Option{Caching(4)}, fakeKeys(5, 34, 1), 4},
		{"forward-stop-at-boundary", "k00", "k20", []Option{Caching(4)}, fakeKeys(0, 19, 1), 2},
		{"reversed-all", "", "", []Option{Reversed(), Caching(3)}, fakeKeys(39, 0, -1), 4},
		{"reversed-range", "k35", "k05", []Option{Reversed(), Caching(4)}, fakeKeys(35, 6, -1), 4},
		{"reversed-from-boundary", "k20", "k09", []Option{Reversed(), Caching(2)}, fakeKeys(20, 10, -1), 3},
		{"reversed-stop-at-boundary", "k25", "k10", []Option{Reversed(), Caching(2)}, fakeKeys(25, 11, -1), 2},
		{"limit", "k08", "", []Option{Limit(5), Caching(2)}, fakeKeys(8, 12, 1), 2},
		{"reversed-limit", "", "", []Option{Reversed(), Limit(3)}, fakeKeys(39, 37, -1), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeServer(t, fakeSplits, fakeRows)
			c := fakeClient(fs)
			s, err := NewScan("t", []byte(tt.start), []byte(tt.stop), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			sc := c.Scan(s)
			got, _ := drain(t, sc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if st := sc.Stats(); st.Regions != tt.regions {
				t.Errorf("opened %d regions, want %d (%+v)", st.Regions, tt.regions, st)
			}
			if n := len(fs.scanners); n != 0 {
				t.Errorf("%d server scanners left open", n)
			}
		})
	}
}

func TestFakeScanStitchesPartials(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	fs.partial = true
	s, _ := NewScan("t", []byte("k08"), []byte("k13"), Caching(1))
	got, rows := drain(t, fakeClient(fs).Scan(s))
	if got != fakeKeys(8, 12, 1) {
		t.Fatalf("got %s", got)
	}
	for _, r := range rows {
		if len(r.Cells) != 2 || string(r.Cells[1].Qualifier) != "q2" {
			t.Errorf("row %s: %d cells", r.Row, len(r.Cells))
		}
	}
}

func TestFakeScanReopensLostScanner(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	fs.lostScannerAfter = 2
	s, _ := NewScan("t", nil, nil, Caching(3))
	sc := fakeClient(fs).Scan(s)
	got, _ := drain(t, sc)
	if got != fakeKeys(0, 39, 1) {
		t.Fatalf("got %s", got)
	}
	if st := sc.Stats(); st.Reopens != 1 {
		t.Errorf("stats %+v, want one reopen", st)
	}
}

func TestFakeScanFollowsSplit(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	c := fakeClient(fs)
	s, _ := NewScan("t", nil, nil, Caching(4))
	sc := c.Scan(s)
	defer sc.Close()
	var keys []string
	for i := 0; ; i++ {
		if i == 6 {
			// Region k10-k20 splits while the scan is in it: the old region
			// name stops existing.
			fs.mu.Lock()
			fs.setRegions([]string{"k10", "k15", "k20", "k30"}, 2)
			fs.scanners = map[uint64]*fakeScanner{}
			fs.mu.Unlock()
		}
		r, err := sc.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, string(r.Row))
	}
	if got := strings.Join(keys, " "); got != fakeKeys(0, 39, 1) {
		t.Fatalf("got %s", got)
	}
}

func TestFakeEarlyCloseClosesServerScanner(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	s, _ := NewScan("t", nil, nil, Caching(2))
	sc := fakeClient(fs).Scan(s)
	for range 3 {
		if _, err := sc.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(fs.scanners) != 1 {
		t.Fatalf("%d server scanners open", len(fs.scanners))
	}
	sc.Close()
	if len(fs.scanners) != 0 || fs.count("Scan.close") != 1 {
		t.Errorf("after Close: %d open, %d closes", len(fs.scanners), fs.count("Scan.close"))
	}
	if _, err := sc.Next(context.Background()); err != io.EOF {
		t.Errorf("Next after Close: %v", err)
	}
}

func TestFakeLeaseRenewal(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	fs.ttlMillis = 100
	s, _ := NewScan("t", nil, []byte("k05"), Caching(2))
	sc := fakeClient(fs).Scan(s)
	defer sc.Close()
	if _, err := sc.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A slow reader: read on only once the lease has been renewed twice.
	waitUntil(t, "two lease renewals", func() bool { return fs.count("Scan.renew") >= 2 })
	if got, _ := drain(t, sc); got != fakeKeys(1, 4, 1) {
		t.Errorf("got %s", got)
	}
	if st := sc.Stats(); st.Renewals < 2 || st.Reopens != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestFakeGetRelocatesAfterNSRE(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	c := fakeClient(fs)
	fs.nsreRows["k15"] = 2
	g, _ := NewGet("t", []byte("k15"))
	r, err := c.Get(context.Background(), g)
	if err != nil || string(r.Value("f", "q")) != "k15" {
		t.Fatalf("get: %v %v", r, err)
	}
	// One lookup to start, one after each NSRE.
	if n := fs.count("Scan.meta"); n != 3 {
		t.Errorf("%d meta lookups, want 3", n)
	}
	g, _ = NewGet("t", []byte("k16"))
	if _, err := c.Get(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if n := fs.count("Scan.meta"); n != 3 {
		t.Errorf("cached region not used: %d meta lookups", n)
	}
	g, _ = NewGet("t", []byte("zz"))
	if r, err := c.Get(context.Background(), g); err != nil || r.Row != nil {
		t.Errorf("missing row: %v %v", r, err)
	}
}

func TestFakeMulti(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	c := fakeClient(fs)
	var ms []Mutation
	for _, k := range []string{"a1", "k11", "k25", "z9"} {
		p, _ := NewPut("t", []byte(k), []Cell{{Family: []byte("f"), Qualifier: []byte("q"), Value: []byte(k)}})
		ms = append(ms, p)
	}
	fs.nsreRows["k25"] = 1
	if err := c.MultiMutate(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	var gets []*Get
	keys := []string{"a1", "k05", "k11", "k25", "k31", "z9", "missing"}
	for _, k := range keys {
		g, _ := NewGet("t", []byte(k))
		gets = append(gets, g)
	}
	fs.nsreRows["k31"] = 1
	res, err := c.MultiGet(context.Background(), gets)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		want := k
		if k == "missing" {
			want = ""
		}
		if got := string(res[i].Value("f", "q")); got != want {
			t.Errorf("%s: got %q", k, got)
		}
	}
	// Both multis: one call for the first try, one retry for the NSRE.
	if n := fs.count("Multi"); n != 4 {
		t.Errorf("%d Multi calls, want 4", n)
	}
}

// waitUntil polls cond until it holds, failing the test if it still does
// not hold a minute later: a bound on a hang, not a timing expectation.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after a minute", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
