package hbasestore_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/tsdbtest"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestIntegrationOpenTSDBJavaNames asks OpenTSDB 2.4.1 itself
// (TSDB.addPoint, then TsdbQuery, scripts/opentsdb) and rkql, over
// examples/opentsdb.yaml's tsdb (one row per point, names through
// tsdb-uid), the same questions of points OpenTSDB wrote for three hosts
// with two tags each, every host at the same times so that OpenTSDB does
// not interpolate: each series' points, the sum across hosts at each
// time, and each host's hourly averages (1h-avg). Then rkql INSERTs
// points under new names, OpenTSDB reads them, and OpenTSDB's next new
// names get uids past rkql's, none given twice.
func TestIntegrationOpenTSDBJavaNames(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	java := hbasetest.CompileMaven(t, "scripts/opentsdb")
	ctx := context.Background()
	name := hbasetest.TableName("tsdbrows_java")
	dropAtEnd(t, st, []string{name, name + "-uid", name + "-tree", name + "-meta"})
	cat, err := exectest.OpenTSDBNamedCatalog(name)
	if err != nil {
		t.Fatal(err)
	}
	x := &exec.Executor{Store: st}
	createOpenTSDBTables(t, st, x, cat, name)
	zk := hbasetest.Quorum(t)
	start := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(3 * time.Hour)
	hosts := []string{"h1", "h2", "h3"}
	for h, host := range hosts {
		var in strings.Builder
		for i := range 18 {
			at := start.Add(time.Duration(i*600) * time.Second).Unix()
			switch {
			case h == 0 || h == 2 && i%2 == 0:
				fmt.Fprintf(&in, "%d i %d\n", at, i*3+h)
			default:
				fmt.Fprintf(&in, "%d d %v\n", at, float64(i)+0.5)
			}
		}
		tags := fmt.Sprintf("host=%s,dc=d%d", host, h%2)
		if out := java.RunInput(t, in.String(), "OpenTSDBHarness", zk, name, "write", "false", "rk.cpu", tags); out != "ok\n" {
			t.Fatalf("OpenTSDB's write of %s: %q", tags, out)
		}
	}
	pl := planner.New(cat, planner.Options{UIDs: &exec.UIDs{Store: st}})
	query := func(q string) []string {
		t.Helper()
		rows, stats, err := tsdbtest.Query(ctx, x, pl, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n := stats.Malformed.Load(); n != 0 {
			t.Fatalf("%s: %d rows skipped: %v", q, n, stats.FirstMalformed())
		}
		return rows
	}
	span := fmt.Sprintf("ts >= '%s' AND ts < '%s'", start.Format(time.DateTime), end.Format(time.DateTime))
	oq := func(agg, ds, metric, tags string) map[string][]point {
		t.Helper()
		return parseSeries(t, java.Run(t, "OpenTSDBHarness", zk, name, "query", agg, ds, metric, tags, fmt.Sprint(start.Unix()), fmt.Sprint(end.Unix()-1)))
	}

	// Each series' points.
	got := oq("none", "-", "rk.cpu", "-")
	if len(got) != 3 {
		t.Fatalf("OpenTSDB answers %d series, want 3: %v", len(got), got)
	}
	for h, host := range hosts {
		series := fmt.Sprintf("{dc=d%d, host=%s}", h%2, host)
		mine := rkqlPoints(t, query(fmt.Sprintf(`SELECT ts, value FROM tsdb WHERE metric = 'rk.cpu' AND tags['host'] = '%s' AND tags['dc'] = 'd%d' AND %s ORDER BY ts`, host, h%2, span)))
		samePoints(t, "the points of "+series, got[series], mine, 18)
	}
	// The sum across hosts at each time.
	got = oq("sum", "-", "rk.cpu", "-")
	if len(got) != 1 {
		t.Fatalf("OpenTSDB's sum: %d series, want 1: %v", len(got), got)
	}
	var sum []point
	for _, s := range got {
		sum = s
	}
	samePoints(t, "the sum across hosts", sum, rkqlPoints(t, query(fmt.Sprintf(`SELECT ts, SUM(value) FROM tsdb WHERE metric = 'rk.cpu' AND %s GROUP BY ts ORDER BY ts`, span))), 18)
	// Each host's hourly averages.
	got = oq("sum", "1h-avg", "rk.cpu", "host=*")
	if len(got) != 3 {
		t.Fatalf("OpenTSDB's 1h-avg by host: %d series, want 3: %v", len(got), got)
	}
	for h, host := range hosts {
		series := fmt.Sprintf("{dc=d%d, host=%s}", h%2, host)
		mine := rkqlPoints(t, query(fmt.Sprintf(`SELECT DATE_TRUNC('hour', ts) AS hour, AVG(value) FROM tsdb WHERE metric = 'rk.cpu' AND tags['host'] = '%s' AND %s GROUP BY DATE_TRUNC('hour', ts) ORDER BY hour`, host, span)))
		samePoints(t, "the hourly averages of "+series, got[series], mine, 3)
	}

	// rkql writes under new names; OpenTSDB reads the points back.
	run := func(q string) {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(ctx, stmt)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		ins := p.(*planner.Insert)
		if err := x.InsertColumns(ctx, ins.Table, ins.Columns, ins.Rows, ins.Timestamp, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	run(`INSERT INTO tsdb (metric, tags, ts, value) VALUES ('rk.mem', 'host=h9 dc=d9', '2024-06-01 00:00:10', 1.25), ('rk.mem', 'host=h9 dc=d9', '2024-06-01 01:00:20.500', -3.5)`)
	run(`INSERT INTO tsdb (metric, tags, ts, int_value) VALUES ('rk.mem', 'dc=d9 host=h9', '2024-06-01 02:59:59', 77)`)
	got = oq("none", "-", "rk.mem", "host=h9,dc=d9")
	want := []point{{start.Add(10 * time.Second).UnixMilli(), 1.25}, {start.Add(time.Hour + 20500*time.Millisecond).UnixMilli(), -3.5}, {start.Add(3*time.Hour - time.Second).UnixMilli(), 77}}
	samePoints(t, "OpenTSDB's read of rkql's points", got["{dc=d9, host=h9}"], want, 3)

	// OpenTSDB's next names get the next uids.
	uids := func() map[string]string {
		out := map[string]string{}
		for _, r := range query(`SELECT k, metrics_uid, tagk_uid, tagv_uid FROM tsdb_uid WHERE k IN ('rk.cpu', 'rk.mem', 'rk.after', 'host', 'dc', 'rack', 'h9', 'd9', 'h10', 'r1')`) {
			k, rest, _ := strings.Cut(r, "|")
			out[k] = rest
		}
		return out
	}
	before := uids()
	if out := java.RunInput(t, fmt.Sprintf("%d i 5\n", start.Unix()), "OpenTSDBHarness", zk, name, "write", "false", "rk.after", "host=h10,rack=r1"); out != "ok\n" {
		t.Fatalf("OpenTSDB's write after rkql's: %q", out)
	}
	after := uids()
	// rkql gave d9 and h9 tag value uids 6 and 7; OpenTSDB gives h10
	// and r1 8 and 9, in an order of its own.
	for k, want := range map[string]string{"rk.cpu": "1|NULL|NULL", "rk.mem": "2|NULL|NULL", "rk.after": "3|NULL|NULL", "rack": "NULL|3|NULL",
		"d9": "NULL|NULL|6", "h9": "NULL|NULL|7"} {
		if after[k] != want {
			t.Errorf("uid of %s: %q, want %q (before OpenTSDB's write: %v)", k, after[k], want, before)
		}
	}
	if new := []string{after["h10"], after["r1"]}; !slices.Equal(slices.Sorted(slices.Values(new)), []string{"NULL|NULL|8", "NULL|NULL|9"}) {
		t.Errorf("OpenTSDB's new tag values h10 and r1: %q, want uids 8 and 9", new)
	}
	// No uid is given twice: each reverse mapping names one name.
	names := map[string]string{}
	it, err := st.Scan(ctx, name+"-uid", exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for sr, err := it.Next(ctx); err == nil; sr, err = it.Next(ctx) {
		for _, c := range sr.Cells {
			if c.Family != "id" || len(sr.Key) == 1 {
				continue
			}
			k := c.Qualifier + ":" + string(c.Value)
			if other, dup := names[k]; dup {
				t.Errorf("%s uid % X is both %q and %q", c.Qualifier, c.Value, other, sr.Key)
			}
			names[k] = string(sr.Key)
		}
	}
	if len(names) != 3+3+9 {
		t.Errorf("%d names in tsdb-uid, want 15 (3 metrics, 3 tag keys, 9 tag values): %v", len(names), names)
	}
	samePoints(t, "rkql's read of OpenTSDB's rk.after", rkqlPoints(t, query(`SELECT ts, value FROM tsdb WHERE metric = 'rk.after' AND tags['rack'] = 'r1' AND tags['host'] = 'h10'`)),
		[]point{{start.UnixMilli(), 5}}, 1)
}

// point is a time in ms and a value.
type point struct {
	ms int64
	v  float64
}

// parseSeries reads the harness's query output: "series {k=v, ...}"
// lines, each followed by its points.
func parseSeries(t *testing.T, out string) map[string][]point {
	t.Helper()
	series := map[string][]point{}
	cur := ""
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if s, ok := strings.CutPrefix(l, "series "); ok {
			cur = s
			series[cur] = nil
			continue
		}
		f := strings.Fields(l)
		if len(f) != 3 || cur == "" {
			t.Fatalf("harness line %q", l)
		}
		ms, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		var v float64
		switch f[1] {
		case "i":
			n, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = float64(n)
		case "f":
			bits, err := strconv.ParseUint(f[2], 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = math.Float64frombits(bits)
		}
		series[cur] = append(series[cur], point{ms, v})
	}
	return series
}

// rkqlPoints reads rows "ts|value".
func rkqlPoints(t *testing.T, rows []string) []point {
	t.Helper()
	var out []point
	for _, r := range rows {
		ts, v, _ := strings.Cut(r, "|")
		at, err := time.Parse("2006-01-02 15:04:05.000", ts)
		if err != nil {
			t.Fatalf("row %q: %v", r, err)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("row %q: %v", r, err)
		}
		out = append(out, point{at.UnixMilli(), f})
	}
	return out
}

// samePoints fails unless got and want hold n points at the same times
// with the same values (to 1e-12, the order of a sum's additions aside).
func samePoints(t *testing.T, what string, got, want []point, n int) {
	t.Helper()
	eq := func(a, b point) bool {
		return a.ms == b.ms && (a.v == b.v || math.Abs(a.v-b.v) <= 1e-12*math.Max(math.Abs(a.v), math.Abs(b.v)))
	}
	if len(got) != n || !slices.EqualFunc(got, want, eq) {
		t.Fatalf("%s:\n%v\nwant (%d points):\n%v", what, got, n, want)
	}
}
