package tsdbtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// RunPointForms writes examples.OpenTSDBDemo's cells into st (its tables
// named physical and physical+"-uid") and checks that a metric's points
// for each host over four hours, two compacted and two not, come back
// exactly, one row per point: web01 and web02 wrote seconds, db01
// milliseconds, db02 both. It then adds what a real tsdb table holds
// beside points (an annotation, a damaged compacted cell), which are
// skipped and counted, and points written by rkql's INSERT into a
// compacted row, one of them replacing a compacted point.
func RunPointForms(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, pts, o := exectest.LoadOpenTSDBDemo(t, st, physical)
	tsdb, _ := cat.Table("tsdb")
	x := &exec.Executor{Store: st}
	forms := map[string]int{}
	for _, c := range o.Points {
		switch q := c.Qualifier; {
		case len(q) == 2:
			forms["second"]++
		case len(q) == 4 && q[0]&0xF0 == 0xF0:
			forms["millisecond"]++
		case c.Value[len(c.Value)-1] == 1: // the meta byte
			forms["compacted mixed"]++
		default:
			forms["compacted"]++
		}
	}
	if len(forms) != 4 {
		t.Fatalf("the demo lacks a form of cell: %v", forms)
	}
	pl := planner.New(cat, planner.Options{})
	uid := func(kind, name string) int64 {
		got, _, err := query(ctx, x, pl, fmt.Sprintf("SELECT %s_uid FROM tsdb_uid WHERE k = '%s'", kind, name))
		if err != nil || len(got) != 1 {
			t.Fatalf("uid of %s %s: %q, %v", kind, name, got, err)
		}
		n, err := strconv.ParseInt(got[0], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	from := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	to := from.Add(4 * time.Hour) // 10:00 and 11:00 compacted, 12:00 and 13:00 not
	host := uid("tagk", "host")
	for _, metric := range []string{"sys.cpu.user", "sys.mem.free"} {
		for _, h := range []string{"web01", "web02", "db01", "db02"} {
			q := fmt.Sprintf(`SELECT ts, "offset", value FROM tsdb WHERE metric = %d AND base >= '%s' AND base < '%s' AND tagk = %d AND tagv = %d`,
				uid("metrics", metric), from.Format(time.DateTime), to.Format(time.DateTime), host, uid("tagv", h))
			var want []string
			for _, p := range pts {
				if p.Metric == metric && p.Tags["host"] == h && !p.Time.Before(from) && p.Time.Before(to) {
					want = append(want, line(p.Time, p.Value))
				}
			}
			check(t, ctx, x, pl, q, want, 0)
		}
	}

	// Beside the points of sys.cpu.user on web01: an annotation in an
	// hour of cells, and in a compacted hour a compacted cell whose value
	// lacks its meta byte. Each is skipped and counted; the points stay.
	row := func(hour time.Time) []byte {
		o2 := examples.NewOpenTSDB()
		o2.Add(examples.Point{Metric: "sys.cpu.user", Tags: map[string]string{"host": "web01", "dc": "lga"}, Time: hour, Value: int64(0)})
		return o2.Points[0].Key
	}
	q := fmt.Sprintf(`SELECT ts, "offset", value FROM tsdb WHERE metric = %d AND base >= '%s' AND base < '%s' AND tagk = %d AND tagv = %d`,
		uid("metrics", "sys.cpu.user"), from.Format(time.DateTime), to.Format(time.DateTime), host, uid("tagv", "web01"))
	var want []string
	for _, p := range pts {
		if p.Metric == "sys.cpu.user" && p.Tags["host"] == "web01" && !p.Time.Before(from) && p.Time.Before(to) {
			want = append(want, line(p.Time, p.Value))
		}
	}
	exectest.PutRawCells(t, st, tsdb.Physical, []examples.RawCell{
		{Key: row(from.Add(3 * time.Hour)), Family: []byte("t"), Qualifier: []byte{0x01, 0x00, 0x05}, Value: []byte(`{"description":"deploy"}`)},
		// 1 s and 2 s, one byte each: 01 02 and no meta byte.
		{Key: row(from), Family: []byte("t"), Qualifier: []byte{0x00, 0x10, 0x00, 0x20}, Value: []byte{1, 2}},
	})
	check(t, ctx, x, pl, q, want, 2)

	// rkql's INSERT into the compacted 10:00 row: a point with
	// milliseconds (a 4-byte cell) and one at the time of a compacted
	// point, which replaces it, since its cell is newer.
	var old examples.Point
	for _, p := range pts {
		if p.Metric == "sys.cpu.user" && p.Tags["host"] == "web01" && p.Time.Hour() == 10 {
			old = p
			break
		}
	}
	added := from.Add(30*time.Minute + 250*time.Millisecond)
	for _, p := range []struct {
		at time.Time
		v  float64
	}{{added, 7.5}, {old.Time, -1}} {
		r := tsdb.NewRow()
		r[0], r[1] = catalog.Bigint(uid("metrics", "sys.cpu.user")), catalog.TimestampMillis(from.UnixMilli())
		r[2], r[3] = catalog.Bigint(host), catalog.Bigint(uid("tagv", "web01"))
		r[5], r[6] = catalog.TimestampMillis(p.at.UnixMilli()), catalog.Double(p.v)
		m, err := exec.RowMutation(tsdb, r, 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Cells) != 1 || len(m.Cells[0].Qualifier) != 2+2*btoi(p.at.Nanosecond() != 0) {
			t.Fatalf("INSERT of a point at %s writes %+v", p.at, m.Cells)
		}
		// The row key of the row the demo compacted, for tag pair
		// host=web01 only: the demo's row has dc too, so write into it.
		m.Key = row(from)
		if err := st.Mutate(ctx, tsdb.Physical, []exec.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	want = slices.DeleteFunc(want, func(s string) bool { return s == line(old.Time, old.Value) })
	want = append(want, line(added, 7.5), line(old.Time, -1.0))
	check(t, ctx, x, pl, q, want, 2)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// line is a point as the queries print it: ts|offset|value.
func line(at time.Time, v any) string {
	var f float64
	switch v := v.(type) {
	case int64:
		f = float64(v)
	case float32:
		f = float64(v)
	case float64:
		f = v
	}
	hour := at.Truncate(time.Hour)
	return fmt.Sprintf("%s|%d|%s", at.Format("2006-01-02 15:04:05.000"), int(at.Sub(hour)/time.Second), strconv.FormatFloat(f, 'g', -1, 64))
}

// check runs q and compares its rows, in any order, and the count of
// skipped cells.
func check(t *testing.T, ctx context.Context, x *exec.Executor, pl *planner.Planner, q string, want []string, malformed int64) {
	t.Helper()
	got, stats, err := query(ctx, x, pl, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	want = slices.Clone(want)
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("%s:\n%s\nwant:\n%s", q, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := stats.Malformed.Load(); n != malformed {
		t.Fatalf("%s: %d skipped (first: %v), want %d", q, n, stats.FirstMalformed(), malformed)
	}
}

// query runs a SELECT and returns its rows as a|b|c lines.
func query(ctx context.Context, x *exec.Executor, pl *planner.Planner, q string) ([]string, *exec.Stats, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return nil, nil, err
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		return nil, nil, err
	}
	sel := p.(*planner.Select)
	placed, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{})
	if err != nil {
		return nil, nil, err
	}
	stats := &exec.Stats{}
	rows, err := x.Run(ctx, placed, stats)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var lines []string
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return lines, stats, nil
		}
		if err != nil {
			return nil, nil, err
		}
		var b bytes.Buffer
		for i, v := range r {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(v.Text())
		}
		lines = append(lines, b.String())
	}
}
