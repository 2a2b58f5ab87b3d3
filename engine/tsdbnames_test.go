package engine_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
)

// Through the engine, on an empty store: INSERT by name assigns uids from
// 1 (the engine's planner and executor share its uid reader), SELECT
// finds the points by the metric's name, which narrows the key to its
// uid, and by several tags at once, and a metric the uid table does not
// know reads nothing.
func TestTSDBNamesEngine(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.Parse(examples.OpenTSDBYAML)
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	x := &exec.Executor{Store: st}
	for _, name := range []string{"tsdb", "tsdb_uid"} {
		tb, _ := cat.Table(name)
		if err := x.EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	run := func(q string) string {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(ctx, stmt)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer res.Close()
		if res.Rows == nil {
			return res.Tag + res.Text
		}
		var lines []string
		for {
			r, err := res.Rows.Next(ctx)
			if errors.Is(err, io.EOF) {
				return strings.Join(lines, "\n")
			}
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			var f []string
			for _, v := range r {
				f = append(f, v.Text())
			}
			lines = append(lines, strings.Join(f, "|"))
		}
	}
	if got := run(`INSERT INTO tsdb (metric, tags, ts, value) VALUES ('a.b', 'host=h1 dc=x', '2024-05-01 10:00:01', 1.5), ('a.b', 'host=h2 dc=x', '2024-05-01 10:00:01', 2.5), ('c', 'host=h1', '2024-05-01 11:30:00', 3.5)`); got != "INSERT 3" {
		t.Fatalf("insert: %q", got)
	}
	for q, want := range map[string]string{
		`SELECT k, metrics_uid, tagk_uid, tagv_uid FROM tsdb_uid WHERE k IN ('a.b', 'c', 'host', 'dc', 'h1', 'h2', 'x') ORDER BY k`: "a.b|1|NULL|NULL\nc|2|NULL|NULL\ndc|NULL|1|NULL\nh1|NULL|NULL|2\nh2|NULL|NULL|3\nhost|NULL|2|NULL\nx|NULL|NULL|1",
		`SELECT metric, tags, ts, value FROM tsdb WHERE metric = 'a.b' AND tags['dc'] = 'x' AND tags['host'] = 'h2'`:                "a.b|{dc: x, host: h2}|2024-05-01 10:00:01.000|2.5",
		`SELECT COUNT(*) FROM tsdb WHERE metric = 'a.b'`:                                                                            "2",
		`SELECT COUNT(*) FROM tsdb WHERE metric IN ('c', 'nope') AND tags['host'] = 'h1' AND ts >= '2024-05-01 11:00:00'`:           "1",
		`SELECT COUNT(*) FROM tsdb WHERE metric = 'nope'`:                                                                           "0",
	} {
		if got := run(q); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", q, got, want)
		}
	}
	for _, q := range []string{`DELETE FROM tsdb WHERE metric = 'a.b'`, `UPDATE tsdb SET value = 1 WHERE metric = 'a.b'`} {
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(ctx, stmt); err == nil || !strings.Contains(err.Error(), "each cell of family t is a row") || strings.Contains(err.Error(), "repetition") {
			t.Errorf("%s: %v, want it refused: each stored row holds many points", q, err)
		}
	}
	if got := run(`DESCRIBE tsdb`); !strings.Contains(got, "tags|MAP<STRING, STRING>|the key's tag pairs, by name in tsdb_uid") ||
		!strings.Contains(got, "tagk|BIGINT|key, hidden: read through tags") {
		t.Errorf("DESCRIBE tsdb:\n%s", got)
	}
	if got := run(`EXPLAIN SELECT ts FROM tsdb WHERE metric = 'c' AND ts >= '2024-05-01 11:00:00' AND ts < '2024-05-01 13:00:00'`); !strings.Contains(got, "[0,2,'2024-05-01 11:00:00.000'] - [19,2,'2024-05-01 12:00:00.000']") {
		t.Errorf("EXPLAIN does not read metric 2's hours 11:00 and 12:00:\n%s", got)
	}
}
