package tsdbtest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// tagConds is the condition that a point has tags: tags['k'] = 'v' for
// each, and tagsText how the tags column prints them.
func tagConds(tags map[string]string) (string, string) {
	var conds, pairs []string
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		conds = append(conds, fmt.Sprintf("tags['%s'] = '%s'", k, tags[k]))
		pairs = append(pairs, k+": "+tags[k])
	}
	return strings.Join(conds, " AND "), "{" + strings.Join(pairs, ", ") + "}"
}

// RunNames loads examples.OpenTSDBDemo under examples/opentsdb.yaml,
// whose tsdb reads names through tsdb_uid, and checks that each point is
// one row whatever its number of tags: a metric's points per series, by
// the metric's name and all of its tags at once (tags['host'] = … AND
// tags['dc'] = …), equal the demo's points
// (counted from them, not by rkql); COUNT(*) counts each point once; the
// metric's name becomes its uid in the key; a metric that tsdb-uid does
// not know reads nothing; and the key's tag pair columns cannot be named.
func RunNames(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, pts, _ := exectest.LoadOpenTSDBNamed(t, st, physical)
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{UIDs: &exec.UIDs{Store: st}})
	from := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	to := from.Add(4 * time.Hour)
	for _, metric := range []string{"sys.cpu.user", "sys.mem.free"} {
		series := map[string]map[string]string{}
		for _, p := range pts {
			_, text := tagConds(p.Tags)
			series[text] = p.Tags
		}
		for text, tags := range series {
			conds, _ := tagConds(tags)
			q := fmt.Sprintf(`SELECT metric, tags, ts, value FROM tsdb WHERE metric = '%s' AND %s AND ts >= '%s' AND ts < '%s'`,
				metric, conds, from.Format(time.DateTime), to.Format(time.DateTime))
			var want []string
			for _, p := range pts {
				if _, pt := tagConds(p.Tags); p.Metric == metric && pt == text && !p.Time.Before(from) && p.Time.Before(to) {
					l := strings.Split(line(p.Time, p.Value), "|")
					want = append(want, metric+"|"+text+"|"+l[0]+"|"+l[2])
				}
			}
			check(t, ctx, x, pl, q, want, 0)
		}
		n := 0
		for _, p := range pts {
			if p.Metric == metric {
				n++
			}
		}
		check(t, ctx, x, pl, fmt.Sprintf(`SELECT COUNT(*) FROM tsdb WHERE metric = '%s'`, metric), []string{fmt.Sprint(n)}, 0)
	}
	// The name's uid in the key: 20 buckets of metric 2's hours.
	text := explain(t, ctx, st, pl, `SELECT ts FROM tsdb WHERE metric = 'sys.mem.free' AND ts = '2024-05-01 10:00:00'`)
	if w := "[0,2,'2024-05-01 10:00:00.000',*] - [19,2,'2024-05-01 10:00:00.000',*]"; !strings.Contains(text, w) {
		t.Errorf("EXPLAIN lacks %q:\n%s", w, text)
	}
	for _, q := range []string{`SELECT ts FROM tsdb WHERE metric = 'no.such.metric'`,
		`SELECT ts FROM tsdb WHERE metric = 'sys.cpu.user' AND tags['host'] = 'no.such.host'`,
		`SELECT ts FROM tsdb WHERE metric = 'sys.cpu.user' AND 'web01' = tags['no.such.key']`} {
		if text := explain(t, ctx, st, pl, q); !strings.Contains(text, "EMPTY") || !strings.Contains(text, "no uid") {
			t.Errorf("a name tsdb-uid does not know reads nothing:\n%s", text)
		}
	}
	if text := explain(t, ctx, st, pl, `SELECT ts FROM tsdb WHERE metric = 'sys.cpu.user' AND tags['host'] = 'web01'`); strings.Contains(text, "EMPTY") {
		t.Errorf("known names read rows:\n%s", text)
	}
	if got, _, err := query(ctx, x, pl, `SELECT COUNT(*) FROM tsdb WHERE metric IN ('no.such.metric', 'sys.cpu.user') AND ts < '2024-05-01 01:00:00'`); err != nil || len(got) != 1 || got[0] != "24" {
		t.Errorf("the points of a known and an unknown metric in the first hour: %q, %v; want 24", got, err)
	}
	for _, q := range []string{`SELECT tagk FROM tsdb WHERE metric = 'sys.cpu.user'`, `SELECT ts FROM tsdb WHERE metric = 'sys.cpu.user' AND tagv = 1`} {
		if _, _, err := query(ctx, x, pl, q); err == nil || !strings.Contains(err.Error(), "tag pairs") {
			t.Errorf("%s: %v, want an error naming the tag pairs", q, err)
		}
	}
}

// explain places q and returns its EXPLAIN text.
func explain(t *testing.T, ctx context.Context, st exec.Store, pl *planner.Planner, q string) string {
	t.Helper()
	sel := plan(t, pl, q)
	placed, err := exec.Place(ctx, st, sel, exec.PlaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return placed.Explain(planner.ExplainEnv{}, nil).Text()
}

// plan plans the SELECT q.
func plan(t *testing.T, pl *planner.Planner, q string) *planner.Select {
	t.Helper()
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return p.(*planner.Select)
}
