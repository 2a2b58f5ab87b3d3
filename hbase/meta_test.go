package hbase

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// metaSplits cut fakeRows into 16 regions: k00-k02, k02-k04, …, k30-.
var metaSplits = func() []string {
	var out []string
	for i := 2; i <= 30; i += 2 {
		out = append(out, fmt.Sprintf("k%02d", i))
	}
	return out
}()

// metaClient is a fake client with the given rows per meta scan RPC.
func metaClient(fs *fakeServer, rows int) *Client {
	c := testClient(Config{RetryBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MetaScanRows: rows})
	c.mu.meta = fs.addr
	fs.t.Cleanup(func() { c.Close() })
	return c
}

func countAll(t *testing.T, c *Client) (int64, error) {
	t.Helper()
	s, err := NewScan("t", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAggregate(RowCount, LongInterpreter, s)
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := c.Aggregate(context.Background(), a)
	return res.Rows, err
}

func regionStarts(rs []*Region) string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r.StartKey))
	}
	return strings.Join(out, " ")
}

// TestFakeMetaShortPages lists, locates and counts through meta scans
// whose pages hold fewer rows than asked for, or none at all, and yet
// are not the last: the flags of the response say that more follow.
func TestFakeMetaShortPages(t *testing.T) {
	for _, tt := range []struct {
		name      string
		page      int
		heartbeat bool
		rows      int
	}{
		{name: "short", page: 3},
		{name: "one-row-after-heartbeat", page: 1, heartbeat: true},
		{name: "small-pages", rows: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeServer(t, metaSplits, fakeRows)
			fs.meta.page, fs.meta.heartbeat = tt.page, tt.heartbeat
			c := metaClient(fs, tt.rows)
			rs, err := c.Regions(context.Background(), "t")
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 16 || checkTiling("t", rs, nil, nil) != nil {
				t.Fatalf("%d regions: %s", len(rs), regionStarts(rs))
			}
			if n := fs.count("Scan.meta"); n < 6 {
				t.Errorf("%d meta scan calls: the listing did not page", n)
			}
			c.cache.removeTable("t")
			r, err := c.Locate(context.Background(), "t", []byte("k15"))
			if err != nil || string(r.StartKey) != "k14" {
				t.Fatalf("locate k15: %v %v", r, err)
			}
			c.cache.removeTable("t")
			s, _ := NewScan("t", nil, nil, Reversed(), Caching(7))
			if got, _ := drain(t, c.Scan(s)); got != fakeKeys(39, 0, -1) {
				t.Errorf("reversed scan: %s", got)
			}
			c.cache.removeTable("t")
			if n, err := countAll(t, c); err != nil || n != 40 {
				t.Errorf("count: %d %v, want 40", n, err)
			}
			if n := len(fs.meta.scanners); n != 0 {
				t.Errorf("%d meta scanners left open", n)
			}
		})
	}
}

// TestFakeMetaScannerLost lists regions through a meta scanner that the
// server loses between two pages: the listing starts again.
func TestFakeMetaScannerLost(t *testing.T) {
	fs := newFakeServer(t, metaSplits, fakeRows)
	fs.meta.page, fs.meta.loseAfter = 3, 2
	rs, err := metaClient(fs, 0).Regions(context.Background(), "t")
	if err != nil || len(rs) != 16 {
		t.Fatalf("%d regions, %v", len(rs), err)
	}
}

// TestFakeMetaCorruptRow lists regions through a meta row that cannot
// be read: the listing fails, naming the row, and closes its scanner
// (open, next, close).
func TestFakeMetaCorruptRow(t *testing.T) {
	fs := newFakeServer(t, metaSplits, fakeRows)
	fs.meta.page = 3
	fs.meta.extra = []fakeMetaRow{{r: &Region{Table: "t", Name: metaKey("t", []byte("k07"), "1.bad."), StartKey: []byte("k07")}, corrupt: true}}
	_, err := metaClient(fs, 0).Regions(context.Background(), "t")
	if err == nil || !strings.Contains(err.Error(), `meta row "t,k07,1.bad.": regioninfo lacks the PBUF magic`) {
		t.Errorf("listing through a corrupt row: %v", err)
	}
	if n := len(fs.meta.scanners); n != 0 || fs.count("Scan.meta") != 3 {
		t.Errorf("%d meta scanners left open after %d calls", n, fs.count("Scan.meta"))
	}
}

// TestFakeMetaGap reads a table whose meta row of region k10-k12 is
// missing: the listing retries until the row is back, and fails, naming
// the gap, while it is not; so does the aggregate that uses the list,
// and the scan that walks into the gap.
func TestFakeMetaGap(t *testing.T) {
	fs := newFakeServer(t, metaSplits, fakeRows)
	c := metaClient(fs, 0)
	fs.meta.hide = map[string]int{"k10": 2}
	rs, err := c.Regions(context.Background(), "t")
	if err != nil || len(rs) != 16 {
		t.Fatalf("after a gap that closes: %d regions, %v", len(rs), err)
	}
	if n := fs.count("Scan.meta"); n != 3 {
		t.Errorf("%d meta scans, want 3: two with the gap, one without", n)
	}

	fs = newFakeServer(t, metaSplits, fakeRows)
	c = metaClient(fs, 0)
	fs.meta.hide = map[string]int{"k10": -1}
	const gap = `hbase:meta lists no region of t from "k10" to "k12"`
	if rs, err := c.Regions(context.Background(), "t"); err == nil || !strings.Contains(err.Error(), gap) {
		t.Errorf("regions over a gap: %d regions, error %v", len(rs), err)
	}
	if n := fs.count("Scan.meta"); n != c.cfg.MaxAttempts {
		t.Errorf("%d meta scans, want one per attempt (%d)", n, c.cfg.MaxAttempts)
	}
	if n, err := countAll(t, c); err == nil || !strings.Contains(err.Error(), gap) {
		t.Errorf("count over a gap: %d, error %v", n, err)
	}
	if fs.count("ExecService") != 0 {
		t.Errorf("%d regions counted over a gap", fs.count("ExecService"))
	}
	s, _ := NewScan("t", []byte("k05"), nil)
	sc := c.Scan(s)
	defer sc.Close()
	for {
		r, err := sc.Next(context.Background())
		if err != nil {
			if !strings.Contains(err.Error(), `lists no region of t that holds key "k10"`) {
				t.Errorf("scan into the gap: %v", err)
			}
			break
		}
		if string(r.Row) >= "k10" {
			t.Fatalf("scan into the gap returned %s", r.Row)
		}
	}
}

// TestFakeMetaRegionsInTransition lists and reads a table whose meta
// holds split parents (with and without the offline flag), a region
// being reopened (no server for a while) and an offline one: the split
// parents are left out, the others listed, and reads wait for the
// reopened region.
func TestFakeMetaRegionsInTransition(t *testing.T) {
	fs := newFakeServer(t, metaSplits, fakeRows)
	parent := func(start, end string, offline bool) fakeMetaRow {
		return fakeMetaRow{r: &Region{Table: "t", Name: metaKey("t", []byte(start), "0.parent"+start+"."),
			StartKey: []byte(start), EndKey: []byte(end), Server: fs.addr}, offline: offline, split: true}
	}
	fs.meta.extra = []fakeMetaRow{parent("k04", "k08", true), parent("k10", "k14", false)}
	fs.meta.transit = map[string]int{"k12": 3}
	c := metaClient(fs, 4)
	rs, err := c.Regions(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 16 || string(rs[6].StartKey) != "k12" || rs[6].Server != "" {
		t.Fatalf("regions: %s (k12 on %q)", regionStarts(rs), rs[6].Server)
	}
	g, _ := NewGet("t", []byte("k13"))
	if r, err := c.Get(context.Background(), g); err != nil || string(r.Value("f", "q")) != "k13" {
		t.Fatalf("get from the reopened region: %v %v", r, err)
	}
	if n, err := countAll(t, c); err != nil || n != 40 {
		t.Errorf("count: %d %v, want 40", n, err)
	}

	fs.meta.offline = map[string]bool{"k20": true}
	c.cache.removeTable("t")
	if rs, err := c.Regions(context.Background(), "t"); err != nil || len(rs) != 16 {
		t.Fatalf("with an offline region: %d regions, %v", len(rs), err)
	}
	g, _ = NewGet("t", []byte("k21"))
	if _, err := c.Get(context.Background(), g); err == nil || !strings.Contains(err.Error(), "is offline") {
		t.Errorf("get from an offline region: %v", err)
	}
}

// TestFakeAggregateFollowsSplit splits every region while the count runs:
// a region that answers NotServingRegion is looked up again by the key
// its part of the range starts at, and its daughters count that part.
func TestFakeAggregateFollowsSplit(t *testing.T) {
	fs := newFakeServer(t, fakeSplits, fakeRows)
	c := fakeClient(fs)
	split := false
	fs.beforeExec = func() {
		if !split {
			split = true
			fs.setRegions(metaSplits, 2)
		}
	}
	n, err := countAll(t, c)
	if err != nil || n != 40 {
		t.Fatalf("count: %d %v, want 40", n, err)
	}
	daughters := 0
	for _, name := range fs.aggregated {
		if strings.Contains(name, ",2.") {
			daughters++
		}
	}
	if daughters != 16 || len(fs.aggregated) != 16 {
		t.Errorf("regions counted: %v", fs.aggregated)
	}
}

func TestCheckTiling(t *testing.T) {
	mk := func(bounds ...string) []*Region {
		var out []*Region
		for i := 0; i+1 < len(bounds); i += 2 {
			out = append(out, &Region{Name: []byte("r" + bounds[i]), StartKey: []byte(bounds[i]), EndKey: []byte(bounds[i+1])})
		}
		return out
	}
	for _, tt := range []struct {
		regions     []*Region
		start, stop string
		want        string
	}{
		{mk("", "b", "b", "d", "d", ""), "", "", ""},
		{mk("", ""), "", "", ""},
		{mk("b", "d", "d", "f"), "c", "e", ""},
		{mk("b", "d", "d", "f"), "b", "f", ""},
		{mk("b", "d"), "a", "c", `from "a" to "b"`},
		{mk("b", "d"), "c", "e", `from "d" to "e"`},
		{mk("b", "d"), "c", "", `from "d" to the end of the table`},
		{mk("", "b", "c", ""), "", "", `from "b" to "c"`},
		{mk("", "c", "b", ""), "", "", "overlap"},
		{mk("", "", "b", ""), "", "", "overlap"},
		{nil, "", "", "lists no region of t"},
	} {
		name := fmt.Sprintf("%s[%s,%s)", regionStarts(tt.regions), tt.start, tt.stop)
		t.Run(name, func(t *testing.T) {
			err := checkTiling("t", tt.regions, []byte(tt.start), []byte(tt.stop))
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
