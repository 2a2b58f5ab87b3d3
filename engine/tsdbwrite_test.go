package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
)

// tsdbEngine is an engine over examples/opentsdb.yaml on an empty
// embedded store, which confirms what it asks, and a function that runs
// one statement and returns its rows as a|b lines (or its tag).
func tsdbEngine(t *testing.T) (*catalog.Table, exec.Store, func(string) (string, error)) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Parse(examples.OpenTSDBPairsYAML)
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	tsdb, _ := cat.Table("tsdb")
	if err := (&exec.Executor{Store: st}).EnsureTable(ctx, tsdb); err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	e.SetConfirm(func(context.Context, string) (bool, error) { return true, nil })
	run := func(q string) (string, error) {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(ctx, stmt)
		if err != nil {
			return "", err
		}
		defer res.Close()
		if res.Rows == nil {
			return res.Tag, nil
		}
		var lines []string
		for {
			r, err := res.Rows.Next(ctx)
			if errors.Is(err, io.EOF) {
				return strings.Join(lines, "\n"), nil
			}
			if err != nil {
				return "", err
			}
			var f []string
			for _, v := range r {
				f = append(f, v.Text())
			}
			lines = append(lines, strings.Join(f, "|"))
		}
	}
	return tsdb, st, run
}

// rawCells is every cell of table as key/qualifier=value in hex, in
// store order.
func rawCells(t *testing.T, st exec.Store, table string) []string {
	t.Helper()
	ctx := context.Background()
	it, err := st.Scan(ctx, table, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for {
		r, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range r.Cells {
			out = append(out, fmt.Sprintf("%X/%X=%X", r.Key, c.Qualifier, c.Value))
		}
	}
}

// tsdbCells is the cells OpenTSDB's TSDB.addPoint writes for points of
// metric m, tag h=v (uids 1, as examples.OpenTSDB gives its first names),
// as rawCells prints them, sorted.
func tsdbCells(pts ...examples.Point) []string {
	o := examples.NewOpenTSDB()
	var out []string
	for _, p := range pts {
		p.Metric, p.Tags = "m", map[string]string{"h": "v"}
		o.Add(p)
	}
	for _, c := range o.Points {
		out = append(out, fmt.Sprintf("%X/%X=%X", c.Key, c.Qualifier, c.Value))
	}
	slices.Sort(out)
	return out
}

// insertCheck runs the INSERTs, which must succeed, then compares the
// table's cells with want, then runs the refused INSERTs, each of which
// must fail saying its error and write nothing, and returns the SELECT
// of the points of metric 1 from 10:00 to 12:00.
func insertCheck(t *testing.T, ok []string, want []string, refused [][2]string) string {
	t.Helper()
	tsdb, st, run := tsdbEngine(t)
	for _, q := range ok {
		if _, err := run(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	got := rawCells(t, st, tsdb.Physical)
	if !slices.Equal(got, want) {
		t.Fatalf("cells:\n%s\nOpenTSDB writes:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range refused {
		q := "INSERT INTO tsdb " + c[0]
		if tag, err := run(q); err == nil || !strings.Contains(err.Error(), c[1]) {
			t.Errorf("%s: %q, %v; want an error saying %q", q, tag, err, c[1])
		}
	}
	if after := rawCells(t, st, tsdb.Physical); !slices.Equal(after, got) {
		t.Fatalf("refused INSERTs wrote cells:\n%s", strings.Join(after, "\n"))
	}
	const sel = "SELECT ts, \"offset\", value, int_value FROM tsdb WHERE metric = 1 AND base >= '2024-05-01 10:00:00' AND base < '2024-05-01 12:00:00' ORDER BY ts"
	back, err := run(sel)
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return back
}

var tsdbHour = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// TestOpenTSDBInsertHour: INSERT puts a point in the row of its time's
// hour, base given or left out, at offsets up to 3,599 s as OpenTSDB
// does; an offset past the hour (which OpenTSDB reads as a millisecond
// point from 3,840 s, and out of order before), a base that is not the
// time's hour, and one off the hour are refused and write nothing.
func TestOpenTSDBInsertHour(t *testing.T) {
	back := insertCheck(t, []string{
		"INSERT INTO tsdb (metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 10:59:59', 2.5)",
		"INSERT INTO tsdb (metric, tagk, tagv, ts, value) VALUES (1, 1, 1, '2024-05-01 11:00:00', 3.5)",
		"INSERT INTO tsdb (metric, tagk, tagv, ts, value) VALUES (1, 1, 1, '2024-05-01 11:59:59.999', 4.5)",
		"INSERT INTO tsdb (metric, base, tagk, tagv, \"offset\", value) VALUES (1, '2024-05-01 10:00:00', 1, 1, 3598, 1.5)",
	}, tsdbCells(
		examples.Point{Time: tsdbHour.Add(3599 * time.Second), Value: 2.5},
		examples.Point{Time: tsdbHour.Add(time.Hour), Value: 3.5},
		examples.Point{Time: tsdbHour.Add(2*time.Hour - time.Millisecond), Value: 4.5},
		examples.Point{Time: tsdbHour.Add(3598 * time.Second), Value: 1.5},
	), [][2]string{
		{"(metric, base, tagk, tagv, \"offset\", value) VALUES (1, '2024-05-01 10:00:00', 1, 1, 3840, 1)", "offset 3840 s is not within the row's hour (0 to 3599)"},
		{"(metric, base, tagk, tagv, \"offset\", value) VALUES (1, '2024-05-01 10:00:00', 1, 1, 3600, 1)", "offset 3600 s is not within the row's hour"},
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 11:04:00', 1)",
			"base '2024-05-01 10:00:00.000' is not the hour of time '2024-05-01 11:04:00.000': that point belongs in the row of base '2024-05-01 11:00:00.000'"},
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 11:00:00', 1)", "is not the hour of time"},
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:30:00', 1, 1, '2024-05-01 10:30:01', 1)", "is not the hour of time"},
		{"(metric, base, tagk, tagv, \"offset\", value) VALUES (1, '2024-05-01 10:30:00', 1, 1, 1, 1)", "base '2024-05-01 10:30:00.000' is not on the hour"},
		{"(metric, tagk, tagv, \"offset\", value) VALUES (1, 1, 1, 5, 1)", "must set key field base"},
	})
	if want := "2024-05-01 10:59:58.000|3598|1.5|NULL\n" +
		"2024-05-01 10:59:59.000|3599|2.5|NULL\n" +
		"2024-05-01 11:00:00.000|0|3.5|NULL\n" +
		"2024-05-01 11:59:59.999|3599|4.5|NULL"; back != want {
		t.Fatalf("read back:\n%s\nwant:\n%s", back, want)
	}
}

// TestOpenTSDBInsertValue: NaN and the infinities, which TSDB.addPoint
// refuses and OpenTSDB's queries fail on, are refused; -0 is written as
// addPoint(double) writes it, 8 bytes with flags 0xF, and reads back -0.
func TestOpenTSDBInsertValue(t *testing.T) {
	back := insertCheck(t, []string{
		"INSERT INTO tsdb (metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 10:00:01', -0.0)",
	}, tsdbCells(
		examples.Point{Time: tsdbHour.Add(time.Second), Value: math.Copysign(0, -1)},
	), [][2]string{
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 10:00:00', 'Infinity')", "value 'Infinity' is not a number OpenTSDB stores (it refuses NaN and infinities)"},
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 10:00:00', '-Infinity')", "is not a number OpenTSDB stores"},
		{"(metric, base, tagk, tagv, ts, value) VALUES (1, '2024-05-01 10:00:00', 1, 1, '2024-05-01 10:00:00', 'NaN')", "is not a number OpenTSDB stores"},
	})
	if want := "2024-05-01 10:00:01.000|1|-0.0|NULL"; back != want {
		t.Fatalf("read back:\n%s\nwant:\n%s", back, want)
	}
}

// TestOpenTSDBInsertInteger: an integer given in int_value is written as
// addPoint(long) writes it, exactly (2^53 + 1 too), and reads back
// exactly in int_value, beside its nearest double in value; a value
// alone is a float point, whose int_value is NULL even when it is whole;
// a value and an integer that differ are refused.
func TestOpenTSDBInsertInteger(t *testing.T) {
	back := insertCheck(t, []string{
		"INSERT INTO tsdb (metric, tagk, tagv, ts, int_value) VALUES (1, 1, 1, '2024-05-01 10:00:01', 9007199254740993)",
		"INSERT INTO tsdb (metric, tagk, tagv, ts, value, int_value) VALUES (1, 1, 1, '2024-05-01 10:00:02', -300, -300)",
		"INSERT INTO tsdb (metric, tagk, tagv, ts, value) VALUES (1, 1, 1, '2024-05-01 10:00:03', 5)",
		"INSERT INTO tsdb (metric, tagk, tagv, ts, int_value) VALUES (1, 1, 1, '2024-05-01 10:00:04', -9223372036854775808)",
	}, tsdbCells(
		examples.Point{Time: tsdbHour.Add(time.Second), Value: int64(1<<53 + 1)},
		examples.Point{Time: tsdbHour.Add(2 * time.Second), Value: int64(-300)},
		examples.Point{Time: tsdbHour.Add(3 * time.Second), Value: 5.0},
		examples.Point{Time: tsdbHour.Add(4 * time.Second), Value: int64(math.MinInt64)},
	), [][2]string{
		{"(metric, tagk, tagv, ts, value, int_value) VALUES (1, 1, 1, '2024-05-01 10:00:00', 2, 3)", "value 2 and integer 3 of one point differ"},
	})
	if want := "2024-05-01 10:00:01.000|1|9.007199254740992e+15|9007199254740993\n" +
		"2024-05-01 10:00:02.000|2|-300|-300\n" +
		"2024-05-01 10:00:03.000|3|5|NULL\n" +
		"2024-05-01 10:00:04.000|4|-9.223372036854776e+18|-9223372036854775808"; back != want {
		t.Fatalf("read back:\n%s\nwant:\n%s", back, want)
	}
}
