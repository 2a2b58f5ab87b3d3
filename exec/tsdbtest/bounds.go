package tsdbtest

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// RunBaseBounds checks that a condition on a point's time bounds the
// base hours a read of examples.OpenTSDBDemo's tsdb table visits: each
// query returns exactly the points of its time range (counted from the
// demo's points, not by rkql), and the store hands over only the stored
// rows of the metric whose base hour can hold such a point (counted from
// the demo's row keys: salt, 3-byte metric uid, 4-byte base).
func RunBaseBounds(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, pts, o := exectest.LoadOpenTSDBDemo(t, st, physical)
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{})
	const metric = "sys.cpu.user" // uid 1 in the demo
	day := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	at := func(h, m int, ms int) time.Time {
		return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(ms)*time.Millisecond)
	}
	text := func(t time.Time) string { return "'" + t.Format("2006-01-02 15:04:05.000") + "'" }
	for _, c := range []struct {
		where string
		in    func(time.Time) bool
		hours []int // the base hours that may hold such points
	}{
		{fmt.Sprintf("ts >= %s AND ts < %s", text(at(10, 30, 0)), text(at(12, 0, 0))),
			func(p time.Time) bool { return !p.Before(at(10, 30, 0)) && p.Before(at(12, 0, 0)) }, []int{10, 11}},
		{fmt.Sprintf("ts > %s AND ts <= %s", text(at(10, 59, 59999)), text(at(13, 0, 0))),
			func(p time.Time) bool { return p.After(at(10, 59, 59999)) && !p.After(at(13, 0, 0)) }, []int{11, 12, 13}},
		{fmt.Sprintf("ts BETWEEN %s AND %s", text(at(9, 50, 0)), text(at(10, 10, 0))),
			func(p time.Time) bool { return !p.Before(at(9, 50, 0)) && !p.After(at(10, 10, 0)) }, []int{9, 10}},
		{fmt.Sprintf("ts IN (%s, %s)", text(at(14, 0, 0)), text(at(16, 20, 0))),
			func(p time.Time) bool { return p.Equal(at(14, 0, 0)) || p.Equal(at(16, 20, 0)) }, []int{14, 16}},
		{fmt.Sprintf("ts = %s", text(at(15, 10, 0))),
			func(p time.Time) bool { return p.Equal(at(15, 10, 0)) }, []int{15}},
	} {
		q := "SELECT ts, \"offset\", value FROM tsdb WHERE metric = 1 AND " + c.where + " AND tagk = 2"
		var want []string
		for _, p := range pts {
			if p.Metric == metric && c.in(p.Time) {
				if _, ok := p.Tags["host"]; ok { // tagk 2
					want = append(want, line(p.Time, p.Value))
				}
			}
		}
		rows := map[string]bool{}
		for _, pc := range o.Points {
			k := pc.Key
			base := time.Unix(int64(binary.BigEndian.Uint32(k[4:8])), 0).UTC()
			if binary.BigEndian.Uint32(append([]byte{0}, k[1:4]...)) == 1 && base.YearDay() == day.YearDay() && slices.Contains(c.hours, base.Hour()) {
				rows[string(k)] = true
			}
		}
		got, stats, err := query(ctx, x, pl, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if !sameLines(got, want) {
			t.Fatalf("%s:\n%v\nwant:\n%v", q, got, want)
		}
		if n := stats.RowsReceived.Load(); n != int64(len(rows)) {
			t.Errorf("%s: the store handed over %d rows, want the %d of its base hours", q, n, len(rows))
		}
	}
}

// sameLines reports whether a and b hold the same lines in any order, and
// some.
func sameLines(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return len(b) > 0 && slices.Equal(a, b)
}
