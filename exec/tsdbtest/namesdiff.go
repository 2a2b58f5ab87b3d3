package tsdbtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// RunNamesDiff writes n points drawn as the differential suite draws them
// (four metrics, one to three tags, two days, seconds and milliseconds,
// every value form) byte for byte as OpenTSDB does (examples.OpenTSDB),
// and runs random queries over examples/opentsdb.yaml's tsdb by name: a
// metric or two (one unknown, at times), conditions on tags (a value, an
// unknown one at times, or none: tags['rack'] IS NULL), and a time range whose ends fall on, just
// before and just after hours, to the millisecond. Each must return what
// a filter of the drawn points, in Go, says: so the base hours the time
// bounds, the metric's uid the planner looks up and the tags the decoder
// names are checked against the points themselves.
func RunNamesDiff(t *testing.T, st exec.Store, physical string, n, queries int, seed uint64) {
	ctx := context.Background()
	cat, err := exectest.OpenTSDBNamedCatalog(physical)
	if err != nil {
		t.Fatal(err)
	}
	x := &exec.Executor{Store: st}
	for _, name := range []string{"tsdb", "tsdb_uid"} {
		tb, _ := cat.Table(name)
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	pts := exectest.TSDBPoints(n, seed)
	o := examples.NewOpenTSDB()
	for _, p := range pts {
		o.Add(p)
	}
	tsdb, _ := cat.Table("tsdb")
	uidt, _ := cat.Table("tsdb_uid")
	exectest.PutRawCells(t, st, uidt.Physical, o.UID)
	exectest.PutRawCells(t, st, tsdb.Physical, o.Points)
	pl := planner.New(cat, planner.Options{UIDs: &exec.UIDs{Store: st}})

	r := rand.New(rand.NewPCG(seed, 7))
	metrics := []string{"sys.cpu.user", "sys.mem.free", "net.bytes.in", "disk.io.ops", "no.such.metric"}
	start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	instant := func() time.Time {
		at := start.Add(time.Duration(r.IntN(50)-1) * time.Hour)
		switch r.IntN(4) {
		case 0:
			return at.Add(-time.Millisecond)
		case 1:
			return at.Add(time.Millisecond)
		case 2:
			return at.Add(time.Duration(r.IntN(3600000)) * time.Millisecond)
		}
		return at
	}
	text := func(at time.Time) string { return "'" + at.Format("2006-01-02 15:04:05.000") + "'" }
	checked := 0
	for range queries {
		var conds []string
		var keep []func(examples.Point) bool
		ms := []string{metrics[r.IntN(len(metrics))]}
		if r.IntN(3) == 0 {
			ms = append(ms, metrics[r.IntN(len(metrics))])
		}
		if len(ms) == 1 {
			conds = append(conds, fmt.Sprintf("metric = '%s'", ms[0]))
		} else {
			conds = append(conds, fmt.Sprintf("metric IN ('%s', '%s')", ms[0], ms[1]))
		}
		keep = append(keep, func(p examples.Point) bool { return slices.Contains(ms, p.Metric) })
		switch r.IntN(4) {
		case 0:
			h := []string{"web01", "web02", "web03", "db01", "db02", "cache01", "web99"}[r.IntN(7)]
			conds = append(conds, fmt.Sprintf("tags['host'] = '%s'", h))
			keep = append(keep, func(p examples.Point) bool { return p.Tags["host"] == h })
		case 1:
			conds = append(conds, "tags['rack'] IS NULL")
			keep = append(keep, func(p examples.Point) bool { _, ok := p.Tags["rack"]; return !ok })
		case 2:
			dc := []string{"lga", "sjc"}[r.IntN(2)]
			rack := fmt.Sprintf("r%d", r.IntN(3))
			conds = append(conds, fmt.Sprintf("tags['dc'] = '%s' AND tags['rack'] = '%s'", dc, rack))
			keep = append(keep, func(p examples.Point) bool { return p.Tags["dc"] == dc && p.Tags["rack"] == rack })
		}
		lo, hi := instant(), instant()
		if hi.Before(lo) {
			lo, hi = hi, lo
		}
		switch r.IntN(5) {
		case 0:
			conds = append(conds, fmt.Sprintf("ts >= %s AND ts < %s", text(lo), text(hi)))
			keep = append(keep, func(p examples.Point) bool { return !p.Time.Before(lo) && p.Time.Before(hi) })
		case 1:
			conds = append(conds, fmt.Sprintf("ts > %s AND ts <= %s", text(lo), text(hi)))
			keep = append(keep, func(p examples.Point) bool { return p.Time.After(lo) && !p.Time.After(hi) })
		case 2:
			conds = append(conds, fmt.Sprintf("ts BETWEEN %s AND %s", text(lo), text(hi)))
			keep = append(keep, func(p examples.Point) bool { return !p.Time.Before(lo) && !p.Time.After(hi) })
		case 3:
			// The times of drawn points, and one of no point.
			a, b := pts[r.IntN(len(pts))].Time, pts[r.IntN(len(pts))].Time
			conds = append(conds, fmt.Sprintf("ts IN (%s, %s, %s)", text(a), text(b), text(lo)))
			keep = append(keep, func(p examples.Point) bool { return p.Time.Equal(a) || p.Time.Equal(b) || p.Time.Equal(lo) })
		default:
			conds = append(conds, fmt.Sprintf("ts < %s", text(hi)))
			keep = append(keep, func(p examples.Point) bool { return p.Time.Before(hi) })
		}
		q := "SELECT metric, tags, ts, value, int_value FROM tsdb WHERE " + strings.Join(conds, " AND ")
		var want []string
		for _, p := range pts {
			if !slices.ContainsFunc(keep, func(f func(examples.Point) bool) bool { return !f(p) }) {
				want = append(want, pointLine(p))
			}
		}
		got, stats, err := query(ctx, x, pl, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || stats.Malformed.Load() != 0 {
			t.Fatalf("%s:\n%s\nwant:\n%s\n(%d skipped: %v)", q, strings.Join(got, "\n"), strings.Join(want, "\n"), stats.Malformed.Load(), stats.FirstMalformed())
		}
		if len(want) > 0 {
			checked++
		}
	}
	if checked < queries/4 {
		t.Fatalf("only %d of %d queries found points", checked, queries)
	}
}

// pointLine is a drawn point as SELECT metric, tags, ts, value,
// int_value prints it.
func pointLine(p examples.Point) string {
	_, tags := tagConds(p.Tags)
	v, iv := catalog.Value{}, "NULL"
	switch x := p.Value.(type) {
	case int64:
		v, iv = catalog.Double(float64(x)), fmt.Sprint(x)
	case float32:
		v = catalog.Double(float64(x))
	case float64:
		v = catalog.Double(x)
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s", p.Metric, tags, p.Time.UTC().Format("2006-01-02 15:04:05.000"), v.Text(), iv)
}
