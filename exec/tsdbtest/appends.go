package tsdbtest

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/planner"
)

// RunAppends writes a row as OpenTSDB writes it with
// tsd.storage.enable_appends (one append cell, qualifier 05 00 00, whose
// value is each point's qualifier and value in the order they were
// added) beside single point cells, older and newer, and checks that
// every point is read: of a time appended twice the later pair, of a
// time both in the append cell and in a point cell the newer cell's. It
// also checks that integers near 2^53 and -0 read back exactly.
func RunAppends(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, _, _ := exectest.LoadOpenTSDBDemo(t, st, physical)
	tsdb, _ := cat.Table("tsdb")
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{})
	// A month after the demo: uids 1 are its first names, and no point
	// of the demo is in this hour.
	hour := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return hour.Add(d) }
	point := func(o *examples.OpenTSDB, d time.Duration, v any) {
		o.Add(examples.Point{Metric: "m", Tags: map[string]string{"host": "a"}, Time: at(d), Value: v})
	}
	app := examples.NewOpenTSDB()
	point(app, 20*time.Second, int64(1)) // appended again below
	point(app, 0, int64(1<<53+1))
	point(app, 10*time.Second+500*time.Millisecond, float32(2.5))
	point(app, 30*time.Second, math.Copysign(0, -1))
	point(app, 20*time.Second, int64(-(1<<53)-1))
	point(app, 40*time.Second, int64(40))
	point(app, 3599*time.Second, 0.125)
	app.Append(func([]byte) bool { return true })
	if len(app.Points) != 1 || string(app.Points[0].Qualifier) != "\x05\x00\x00" {
		t.Fatalf("the writer's append cell: %+v", app.Points)
	}
	older, newer := examples.NewOpenTSDB(), examples.NewOpenTSDB()
	point(older, 40*time.Second, int64(-1)) // the append cell is newer
	point(older, 50*time.Second, int64(50)) // only here
	point(newer, 30*time.Second, int64(30)) // newer than the append cell
	putAt(t, st, tsdb.Physical, older.Points, 500)
	putAt(t, st, tsdb.Physical, app.Points, 1000)
	putAt(t, st, tsdb.Physical, newer.Points, 2000)

	const where = ` FROM tsdb WHERE metric = 1 AND base = '2024-06-01 10:00:00' AND tagk = 1 AND tagv = 1`
	check(t, ctx, x, pl, `SELECT ts, value`+where, []string{
		"2024-06-01 10:00:00.000|9.007199254740992e+15", "2024-06-01 10:00:10.500|2.5",
		"2024-06-01 10:00:20.000|-9.007199254740992e+15", "2024-06-01 10:00:30.000|30",
		"2024-06-01 10:00:40.000|40", "2024-06-01 10:00:50.000|50", "2024-06-01 10:59:59.000|0.125",
	}, 0)
	q := `SELECT ts, "offset", value, int_value` + where
	want := []string{
		"2024-06-01 10:00:00.000|0|9.007199254740992e+15|9007199254740993",
		"2024-06-01 10:00:10.500|10|2.5|NULL",
		"2024-06-01 10:00:20.000|20|-9.007199254740992e+15|-9007199254740993",
		"2024-06-01 10:00:30.000|30|30|30",
		"2024-06-01 10:00:40.000|40|40|40",
		"2024-06-01 10:00:50.000|50|50|50",
		"2024-06-01 10:59:59.000|3599|0.125|NULL",
	}
	check(t, ctx, x, pl, q, want, 0)
	// Without the newer cell, the append cell's -0 at 30 s.
	if err := st.Mutate(ctx, tsdb.Physical, []exec.Mutation{{Key: newer.Points[0].Key,
		Deletes: []exec.Cell{{Family: "t", Qualifier: string(newer.Points[0].Qualifier), Timestamp: 2000}}}}); err != nil {
		t.Fatal(err)
	}
	want[3] = "2024-06-01 10:00:30.000|30|-0.0|NULL"
	check(t, ctx, x, pl, q, want, 0)
}

// putAt writes cells as they are at HBase timestamp ts.
func putAt(t *testing.T, st exec.Store, table string, cells []examples.RawCell, ts int64) {
	t.Helper()
	var muts []exec.Mutation
	for _, c := range cells {
		muts = append(muts, exec.Mutation{Key: c.Key, Cells: []exec.Cell{{Family: string(c.Family), Qualifier: string(c.Qualifier), Timestamp: ts, Value: c.Value}}})
	}
	if err := st.Mutate(context.Background(), table, muts); err != nil {
		t.Fatal(err)
	}
}

// Query runs a SELECT and returns its rows as a|b|c lines and its stats.
func Query(ctx context.Context, x *exec.Executor, pl *planner.Planner, q string) ([]string, *exec.Stats, error) {
	return query(ctx, x, pl, q)
}
