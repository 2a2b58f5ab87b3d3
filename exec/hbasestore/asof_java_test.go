package hbasestore_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// asOfOps are the writes of the AS OF tests, in the order they are
// applied: p,row,qualifier,value,ts a put; c,row,qualifier,ts a delete of
// the column's versions at or before ts; r,row,ts a row delete at ts.
// They hold several versions, a column delete and a row delete that
// postdate versions they hide, puts after them, and a put older than a
// version already written.
var asOfOps = []string{
	"p,r1,a,v1,10", "p,r1,b,w1,12", "p,r1,a,v2,20", "p,r2,a,x1,15", "p,r2,b,y1,16",
	"c,r1,a,25", "p,r1,a,v3,30", "p,r3,a,z1,18", "p,r3,a,z2,40", "c,r3,b,41", "r,r2,45",
	"p,r2,b,y2,50", "p,r1,b,w2,35", "p,r1,b,w0,33", "p,r4,a,q1,60",
}

// asOfTimes are the times read as of: before, at and between the writes.
var asOfTimes = []int64{5, 10, 12, 16, 19, 20, 25, 29, 30, 33, 34, 35, 40, 45, 50, 60, 100}

const asOfYAML = `
tables:
  - name: asof
    hbase: %s
    families:
      - {name: f, versions: 1000}
    columns:
      - {name: id, type: STRING}
      - {name: a, type: STRING, column: "f:a", encoding: text}
      - {name: b, type: STRING, column: "f:b", encoding: text}
    rowkey:
      - {field: id}
`

// asOfQuery reads the table as of at; where narrows it.
func asOfQuery(at int64, where string) string {
	return fmt.Sprintf("SELECT id, a, b, CAST(_ts AS BIGINT) FROM asof AS OF TIMESTAMP '%s' %s",
		time.UnixMilli(at).UTC().Format("2006-01-02 15:04:05.000"), where)
}

// asOfRows are the Java client's cells (row/qualifier/ts/value) as the
// rows of asOfQuery: id, a, b (NULL when absent), the newest cell's time.
func asOfRows(t *testing.T, cells string) []string {
	type row struct {
		a, b string
		ts   int64
	}
	rows := map[string]*row{}
	for _, l := range strings.Split(strings.TrimSpace(cells), "\n") {
		if l == "" {
			continue
		}
		f := strings.Split(l, "/")
		ts, err := strconv.ParseInt(f[2], 10, 64)
		if len(f) != 4 || err != nil {
			t.Fatalf("oracle line %q", l)
		}
		r := rows[f[0]]
		if r == nil {
			r = &row{a: "NULL", b: "NULL"}
			rows[f[0]] = r
		}
		if f[1] == "a" {
			r.a = f[3]
		} else {
			r.b = f[3]
		}
		r.ts = max(r.ts, ts)
	}
	var out []string
	for id, r := range rows {
		out = append(out, fmt.Sprintf("%s %s %s %d", id, r.a, r.b, r.ts))
	}
	slices.Sort(out)
	return out
}

func runRows(t *testing.T, e *engine.Engine, q string) []string {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := []string{}
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = v.Text()
		}
		out = append(out, strings.Join(cells, " "))
	}
	return out
}

// TestIntegrationAsOfJava: a table the Java client wrote with explicit
// timestamps, several versions, column and row deletes. SELECT … AS OF
// TIMESTAMP t returns, for every row, the version the Java client's
// Scan.setTimeRange(0, t+1) returns, for every t: through a full scan,
// a Get and a multi-get. The same writes made through rkql on the
// embedded store read the same rows.
func TestIntegrationAsOfJava(t *testing.T) {
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	q := hbasetest.Quorum(t)
	java := hbasetest.CompileJava(t, "testdata/AsOfCells.java")
	host, port, ok := strings.Cut(q, ":")
	if !ok || strings.Contains(q, ",") {
		t.Fatalf("quorum %q: want one host:port", q)
	}
	name := hbasetest.TableName("asof_cells")
	dropAtEnd(t, st, []string{name})
	cmds := [][]string{append([]string{"apply", host, port, name}, asOfOps...)}
	for _, at := range asOfTimes {
		cmds = append(cmds, []string{"scan", host, port, name, fmt.Sprint(at + 1)})
	}
	outs := java.Batch(t, "AsOfCells", cmds)
	cat, err := catalog.Parse(fmt.Appendf(nil, asOfYAML, name))
	if err != nil {
		t.Fatal(err)
	}
	onHBase := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	onEmbedded := asOfEmbedded(t, cat)
	sawDeleted := false
	for i, at := range asOfTimes {
		want := asOfRows(t, outs[i+1])
		for _, where := range []string{"ALLOW FULL SCAN", "WHERE id = 'r1'", "WHERE id IN ('r2', 'r3')"} {
			w := slices.DeleteFunc(slices.Clone(want), func(l string) bool {
				id, _, _ := strings.Cut(l, " ")
				return where == "WHERE id = 'r1'" && id != "r1" || where == "WHERE id IN ('r2', 'r3')" && id != "r2" && id != "r3"
			})
			for store, e := range map[string]*engine.Engine{"HBase": onHBase, "embedded": onEmbedded} {
				if got := runRows(t, e, asOfQuery(at, where)); !slices.Equal(got, w) {
					t.Errorf("%s on %s:\n got %q\nwant the Java client's %q", asOfQuery(at, where), store, got, w)
				}
				cq := strings.Replace(asOfQuery(at, where), "id, a, b, CAST(_ts AS BIGINT)", "COUNT(*)", 1)
				if got := runRows(t, e, cq); !slices.Equal(got, []string{fmt.Sprint(len(w))}) {
					t.Errorf("%s on %s: %q, want %d", cq, store, got, len(w))
				}
			}
		}
		// A lower bound of _ts on a read of keys and _ts is the store's
		// time range too, within AS OF's.
		var recent []string
		for _, l := range want {
			f := strings.Fields(l)
			if n, _ := strconv.ParseInt(f[3], 10, 64); n >= 30 {
				recent = append(recent, f[0]+" "+f[3])
			}
		}
		q := strings.Replace(asOfQuery(at, "WHERE _ts >= 30 ALLOW FULL SCAN"), "id, a, b,", "id,", 1)
		for store, e := range map[string]*engine.Engine{"HBase": onHBase, "embedded": onEmbedded} {
			if got := runRows(t, e, q); !slices.Equal(got, append([]string{}, recent...)) {
				t.Errorf("%s on %s:\n got %q\nwant %q", q, store, got, recent)
			}
			cq := strings.Replace(q, "id, CAST(_ts AS BIGINT)", "COUNT(*)", 1)
			if got := runRows(t, e, cq); !slices.Equal(got, []string{fmt.Sprint(len(recent))}) {
				t.Errorf("%s on %s: %q, want %d", cq, store, got, len(recent))
			}
		}
		// As of 20, r1's a held v2, but the column delete at 25 hides it.
		if at == 20 && !slices.ContainsFunc(want, func(l string) bool { return strings.HasPrefix(l, "r1 NULL w1") }) {
			t.Errorf("as of 20 the Java client reads %q: want r1's a hidden by the later delete", want)
		} else if at == 20 {
			sawDeleted = true
		}
	}
	st2, err := parser.ParseOne("EXPLAIN " + asOfQuery(20, "WHERE id = 'r1'"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := onHBase.Run(context.Background(), st2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "SERVER TIMERANGE [0, 21) (as of 1970-01-01 00:00:00.020)") {
		t.Errorf("EXPLAIN on HBase gives no time range:\n%s", res.Text)
	}
	if !sawDeleted {
		t.Error("no time read as of 20")
	}
}

// asOfEmbedded is an engine on an embedded store holding asOfOps written
// through rkql: INSERT … TIMESTAMP for puts, UPDATE … SET col = NULL
// and DELETE at the delete's time (the clock's) for the deletes.
func asOfEmbedded(t *testing.T, cat *catalog.Catalog) *engine.Engine {
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var clock int64
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Clock: func() time.Time { return time.UnixMilli(clock) },
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	for _, op := range asOfOps {
		f := strings.Split(op, ",")
		var q string
		switch f[0] {
		case "p":
			q = fmt.Sprintf("INSERT INTO asof (id, %s) VALUES ('%s', '%s') TIMESTAMP %s", f[2], f[1], f[3], f[4])
		case "c":
			// UPDATE writes at the clock's time; an INSERT of a NULL
			// alone would write the row's empty cell too.
			clock, _ = strconv.ParseInt(f[3], 10, 64)
			q = fmt.Sprintf("UPDATE asof SET %s = NULL WHERE id = '%s'", f[2], f[1])
		case "r":
			clock, _ = strconv.ParseInt(f[2], 10, 64)
			q = fmt.Sprintf("DELETE FROM asof WHERE id = '%s'", f[1])
		}
		if _, _, err := e.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return e
}
