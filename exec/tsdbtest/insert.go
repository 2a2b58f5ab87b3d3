package tsdbtest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// RunInsertNames loads examples.OpenTSDBDemo under examples/opentsdb.yaml
// and INSERTs points by name, some under names the demo has and some
// under new ones, with one to three tags. The cells written must be the
// ones examples.OpenTSDB (which writes as OpenTSDB does, from its rules)
// writes for the same points after the demo: the key with every tag pair
// sorted by uid under its salt, the point's qualifier and value, and in
// tsdb-uid the MAXID counters and both mappings of each new name. The
// points then read back by name. st must be an exec.CellAtomic.
func RunInsertNames(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, _, o := exectest.LoadOpenTSDBNamed(t, st, physical)
	tsdb, _ := cat.Table("tsdb")
	uidt, _ := cat.Table("tsdb_uid")
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{UIDs: &exec.UIDs{Store: st}})
	at := time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC)
	pts := []examples.Point{
		{Metric: "sys.cpu.user", Tags: map[string]string{"host": "web01", "dc": "lga"}, Time: at.Add(5 * time.Second), Value: 42.0},
		{Metric: "rk.new", Tags: map[string]string{"host": "web09", "rack": "r1", "dc": "lga"}, Time: at.Add(6250 * time.Millisecond), Value: 1.5},
		{Metric: "rk.new", Tags: map[string]string{"zone": "z1"}, Time: at.Add(time.Hour + 7*time.Second), Value: -2.25},
		{Metric: "sys.mem.free", Tags: map[string]string{"rack": "r1", "host": "db01"}, Time: at.Add(3599 * time.Second), Value: 0.5},
	}
	q := "INSERT INTO tsdb (metric, tags, ts, value) VALUES "
	for i, p := range pts {
		if i > 0 {
			q += ", "
		}
		tags := ""
		for k, v := range p.Tags {
			tags += k + "=" + v + " "
		}
		q += fmt.Sprintf("('%s', '%s', '%s', %v)", p.Metric, tags, p.Time.Format("2006-01-02 15:04:05.000"), p.Value)
	}
	stmt, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pl.Plan(ctx, stmt)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	ins := plan.(*planner.Insert)
	if err := x.InsertColumns(ctx, ins.Table, ins.Columns, ins.Rows, 0, nil); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	nPoints, nUID := len(o.Points), len(o.UID)
	for _, p := range pts {
		p.Millis = p.Time.Nanosecond() != 0
		o.Add(p)
	}
	newest := func(table string, c examples.RawCell) []byte {
		srs, err := st.Get(ctx, table, [][]byte{c.Key}, exec.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sr := range srs {
			for _, sc := range sr.Cells {
				if sc.Family == string(c.Family) && sc.Qualifier == string(c.Qualifier) {
					return sc.Value
				}
			}
		}
		return nil
	}
	for _, c := range o.Points[nPoints:] {
		if got := newest(tsdb.Physical, c); !bytes.Equal(got, c.Value) {
			t.Errorf("tsdb row '%s' t:'%s' holds '%s', OpenTSDB writes '%s'", catalog.ToStringBinary(c.Key),
				catalog.ToStringBinary(c.Qualifier), catalog.ToStringBinary(got), catalog.ToStringBinary(c.Value))
		}
	}
	// The MAXID counters as they end, and every mapping.
	last := map[string]examples.RawCell{}
	for _, c := range o.UID[nUID:] {
		if len(c.Key) == 1 && c.Key[0] == 0 {
			last[string(c.Qualifier)] = c
			continue
		}
		if got := newest(uidt.Physical, c); !bytes.Equal(got, c.Value) {
			t.Errorf("tsdb-uid row '%s' %s:%s holds '%s', OpenTSDB writes '%s'", catalog.ToStringBinary(c.Key), c.Family, c.Qualifier,
				catalog.ToStringBinary(got), catalog.ToStringBinary(c.Value))
		}
	}
	if len(last) != 3 || len(o.UID[nUID:]) != 3*(1+2+3) {
		t.Fatalf("the points should add a metric, 2 tag keys and 3 tag values: %d uid cells, counters of %v", len(o.UID[nUID:]), last)
	}
	for _, c := range last {
		if got := newest(uidt.Physical, c); !bytes.Equal(got, c.Value) {
			t.Errorf("MAXID %s is '%s', OpenTSDB's is '%s'", c.Qualifier, catalog.ToStringBinary(got), catalog.ToStringBinary(c.Value))
		}
	}
	for _, p := range pts {
		conds, text := tagConds(p.Tags)
		q := fmt.Sprintf("SELECT metric, tags, ts, value FROM tsdb WHERE metric = '%s' AND %s AND ts = '%s'", p.Metric, conds, p.Time.Format("2006-01-02 15:04:05.000"))
		l := line(p.Time, p.Value)
		check(t, ctx, x, pl, q, []string{p.Metric + "|" + text + "|" + l[:23] + "|" + fmt.Sprint(p.Value)}, 0)
	}
	// Bad tags are refused before anything is written.
	for _, bad := range []string{"''", "'host'", "'host=a host=b'", "'host=a b'", "'ho st=a'", "'host=a,dc=b'"} {
		q := "INSERT INTO tsdb (metric, tags, ts, value) VALUES ('m', " + bad + ", '2024-05-02 10:00:00', 1)"
		stmt, err := parser.ParseOne(q)
		if err != nil {
			continue // not even SQL
		}
		if _, err := pl.Plan(ctx, stmt); err == nil {
			t.Errorf("%s: planned, want an error", q)
		}
	}
}
