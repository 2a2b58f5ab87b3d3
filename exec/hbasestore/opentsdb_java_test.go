package hbasestore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/tsdbtest"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestIntegrationOpenTSDBJava runs OpenTSDB 2.4.1's own Java code
// (scripts/opentsdb) against the tables rkql writes in a real HBase:
// OpenTSDB reads back, through TsdbQuery, the points rkql's INSERT wrote
// (floats, -0, integers near 2^53 and at 2^63 - 1, a point at offset
// 3,599 s and one in the next hour's row), and OpenTSDB writes with
// tsd.storage.enable_appends a row of append cells, a time twice among
// them, which rkql then reads as OpenTSDB does.
func TestIntegrationOpenTSDBJava(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	java := hbasetest.CompileMaven(t, "scripts/opentsdb")
	ctx := context.Background()
	name := hbasetest.TableName("rkql_otsdbjava")
	dropAtEnd(t, st, []string{name, name + "-uid", name + "-tree", name + "-meta"})
	cat, err := exectest.OpenTSDBCatalog(name)
	if err != nil {
		t.Fatal(err)
	}
	tsdb, _ := cat.Table("tsdb")
	uidt, _ := cat.Table("tsdb_uid")
	x := &exec.Executor{Store: st}
	createOpenTSDBTables(t, st, x, cat, name)
	// The uids of rk.m and host=a (1, 1, 1) as UniqueId writes them, with
	// the MAXID counters OpenTSDB assigns the next ones from.
	o := examples.NewOpenTSDB()
	o.Add(examples.Point{Metric: "rk.m", Tags: map[string]string{"host": "a"}, Time: time.Unix(0, 0), Value: int64(0)})
	exectest.PutRawCells(t, st, uidt.Physical, o.UID)

	pl := planner.New(cat, planner.Options{})
	run := func(q string) {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		ins := p.(*planner.Insert)
		if err := x.Insert(ctx, ins.Table, ins.Rows, ins.Timestamp, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Floats first: OpenTSDB's query reports an integer followed by a
	// float as a float, a quirk of its own.
	hour := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	run(`INSERT INTO tsdb (metric, tagk, tagv, ts, value) VALUES
		(1, 1, 1, '2024-06-01 10:00:00', 2.5), (1, 1, 1, '2024-06-01 10:00:01.500', -0.0), (1, 1, 1, '2024-06-01 10:00:02', 0.1)`)
	run(`INSERT INTO tsdb (metric, tagk, tagv, ts, int_value) VALUES
		(1, 1, 1, '2024-06-01 10:00:03', 1), (1, 1, 1, '2024-06-01 10:00:04', 9007199254740993),
		(1, 1, 1, '2024-06-01 10:00:05', -9007199254740993), (1, 1, 1, '2024-06-01 10:00:06', 9223372036854775807),
		(1, 1, 1, '2024-06-01 10:59:59', 3599), (1, 1, 1, '2024-06-01 11:00:00', 42)`)
	ms := func(d time.Duration) int64 { return hour.Add(d).UnixMilli() }
	want := strings.Join([]string{
		fmt.Sprintf("%d f 4004000000000000", ms(0)),
		fmt.Sprintf("%d f 8000000000000000", ms(1500*time.Millisecond)),
		fmt.Sprintf("%d f 3fb999999999999a", ms(2*time.Second)),
		fmt.Sprintf("%d i 1", ms(3*time.Second)),
		fmt.Sprintf("%d i 9007199254740993", ms(4*time.Second)),
		fmt.Sprintf("%d i -9007199254740993", ms(5*time.Second)),
		fmt.Sprintf("%d i 9223372036854775807", ms(6*time.Second)),
		fmt.Sprintf("%d i 3599", ms(3599*time.Second)),
		fmt.Sprintf("%d i 42", ms(time.Hour)),
	}, "\n") + "\n"
	zk := hbasetest.Quorum(t)
	got := java.Run(t, "OpenTSDBHarness", zk, name, "read", "rk.m", "host=a", fmt.Sprint(hour.Unix()), fmt.Sprint(hour.Add(2*time.Hour).Unix()-1))
	if got != want {
		t.Fatalf("OpenTSDB reads what rkql wrote as:\n%swant:\n%s", got, want)
	}

	// OpenTSDB writes with appends on, a time out of order and one twice
	// (5 s: the later write, 2^53 + 1, counts).
	app := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	s := func(d time.Duration) int64 { return app.Add(d).Unix() }
	in := fmt.Sprintf("%d i 9\n%d d -0.0\n%d f 1.5\n%d i 5\n%d d 0.1\n%d i 1\n%d i -9007199254740993\n%d i 9007199254740993\n",
		s(3599*time.Second), app.Add(250*time.Millisecond).UnixMilli(), s(time.Second), s(5*time.Second), s(2*time.Second),
		s(3*time.Second), s(4*time.Second), s(5*time.Second))
	if out := java.RunInput(t, in, "OpenTSDBHarness", zk, name, "write", "true", "rk.app", "host=a"); out != "ok\n" {
		t.Fatalf("OpenTSDB's write: %q", out)
	}
	uid, _, err := tsdbtest.Query(ctx, x, pl, "SELECT metrics_uid FROM tsdb_uid WHERE k = 'rk.app'")
	if err != nil || len(uid) != 1 {
		t.Fatalf("uid of rk.app: %q, %v", uid, err)
	}
	cells := 0
	it, err := st.Scan(ctx, tsdb.Physical, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for sr, err := it.Next(ctx); err == nil; sr, err = it.Next(ctx) {
		for _, c := range sr.Cells {
			if c.Qualifier == "\x05\x00\x00" {
				cells++
			}
		}
	}
	it.Close()
	if cells != 1 {
		t.Fatalf("OpenTSDB wrote %d append cells, want 1", cells)
	}
	rows, stats, err := tsdbtest.Query(ctx, x, pl, fmt.Sprintf(`SELECT ts, value, int_value FROM tsdb WHERE metric = %s AND base = '2024-06-01 12:00:00' AND tagk = 1 AND tagv = 1`, uid[0]))
	if err != nil {
		t.Fatal(err)
	}
	wantRows := strings.Join([]string{
		"2024-06-01 12:00:00.250|-0.0|NULL",
		"2024-06-01 12:00:01.000|1.5|NULL",
		"2024-06-01 12:00:02.000|0.1|NULL",
		"2024-06-01 12:00:03.000|1|1",
		"2024-06-01 12:00:04.000|-9.007199254740992e+15|-9007199254740993",
		"2024-06-01 12:00:05.000|9.007199254740992e+15|9007199254740993",
		"2024-06-01 12:59:59.000|9|9",
	}, "\n")
	if strings.Join(rows, "\n") != wantRows || stats.Malformed.Load() != 0 {
		t.Fatalf("rkql reads OpenTSDB's append cell as:\n%s\n(%d skipped: %v)\nwant:\n%s", strings.Join(rows, "\n"), stats.Malformed.Load(), stats.FirstMalformed(), wantRows)
	}
	// And OpenTSDB reads it the same.
	a := func(d time.Duration) int64 { return app.Add(d).UnixMilli() }
	want = strings.Join([]string{
		fmt.Sprintf("%d f 8000000000000000", a(250*time.Millisecond)),
		fmt.Sprintf("%d f 3ff8000000000000", a(time.Second)),
		fmt.Sprintf("%d f 3fb999999999999a", a(2*time.Second)),
		fmt.Sprintf("%d i 1", a(3*time.Second)),
		fmt.Sprintf("%d i -9007199254740993", a(4*time.Second)),
		fmt.Sprintf("%d i 9007199254740993", a(5*time.Second)),
		fmt.Sprintf("%d i 9", a(3599*time.Second)),
	}, "\n") + "\n"
	got = java.Run(t, "OpenTSDBHarness", zk, name, "read", "rk.app", "host=a", fmt.Sprint(app.Unix()), fmt.Sprint(app.Add(time.Hour).Unix()-1))
	if got != want {
		t.Fatalf("OpenTSDB reads its append cell as:\n%swant:\n%s", got, want)
	}
}

// createOpenTSDBTables creates the four tables OpenTSDB's own code opens
// under the prefix name: tsdb and tsdb-uid as cat describes them, and the
// tree and meta tables it needs but rkql does not read.
func createOpenTSDBTables(t *testing.T, st exec.Store, x *exec.Executor, cat *catalog.Catalog, name string) {
	t.Helper()
	ctx := context.Background()
	for _, tb := range []string{"tsdb", "tsdb_uid"} {
		tbl, _ := cat.Table(tb)
		if err := x.EnsureTable(ctx, tbl); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []exec.TableSpec{
		{Name: name + "-tree", Families: []exec.FamilySpec{{Name: "t"}}},
		{Name: name + "-meta", Families: []exec.FamilySpec{{Name: "name"}}},
	} {
		if err := st.CreateTable(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}
