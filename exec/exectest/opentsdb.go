package exectest

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// RunOpenTSDB writes a day of points into st exactly as OpenTSDB does
// (examples.OpenTSDB builds the bytes) and checks the example tables of
// examples/opentsdb.yaml: names become uids through tsdb_uid, and a
// metric's points for one host over one hour come back exactly, one row
// per point, read through a fan-out over the 20 salt buckets and the
// base-hour range. physical prefixes the HBase table names.
func RunOpenTSDB(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, pts, _ := LoadOpenTSDBDemo(t, st, physical)
	tsdb, _ := cat.Table("tsdb")
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{})

	// Names to uids through tsdb-uid, both ways.
	got, err := runRaw(ctx, x, pl, "SELECT k, metrics_uid, tagk_uid, tagv_uid FROM tsdb_uid WHERE k IN ('sys.mem.free', 'host', 'web02')")
	if err != nil {
		t.Fatal(err)
	}
	if want := "host|NULL|2|NULL\nsys.mem.free|2|NULL|NULL\nweb02|NULL|NULL|4"; got != want {
		t.Fatalf("uids:\n%s\nwant:\n%s", got, want)
	}
	got, err = runRaw(ctx, x, pl, `SELECT tagv_name FROM tsdb_uid WHERE k = '\x00\x00\x04'`)
	if err != nil || got != "web02" {
		t.Fatalf("uid 4 back to a name: %q, %v", got, err)
	}

	// sys.mem.free (2) on host (2) = web02 (4), 10:00 to 11:00.
	hour := "2024-05-01 10:00:00"
	q := fmt.Sprintf("SELECT ts, offset, value FROM tsdb WHERE metric = 2 AND base = '%s' AND tagk = 2 AND tagv = 4", hour)
	var want []string
	for _, p := range pts {
		if p.Metric == "sys.mem.free" && p.Tags["host"] == "web02" && p.Time.Format("2006-01-02 15") == "2024-05-01 10" {
			var v float64
			switch x := p.Value.(type) {
			case int64:
				v = float64(x)
			case float32:
				v = float64(x)
			case float64:
				v = x
			}
			want = append(want, fmt.Sprintf("%s|%d|%s", p.Time.Format("2006-01-02 15:04:05.000"), p.Time.Minute()*60+p.Time.Second(),
				strconv.FormatFloat(v, 'g', -1, 64)))
		}
	}
	sort.Strings(want)
	if len(want) != 6 {
		t.Fatalf("the demo has %d points in the hour, want 6", len(want))
	}
	got, err = runRaw(ctx, x, pl, q)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.Join(want, "\n") {
		t.Fatalf("points:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	sel, err := Plan(pl, q)
	if err != nil {
		t.Fatal(err)
	}
	placed, err := exec.Place(ctx, st, sel, exec.PlaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	text := placed.Explain(planner.ExplainEnv{}, nil).Text()
	for _, w := range []string{"PARALLEL 20-WAY RANGE SCAN OVER tsdb", "[0,2,'" + hour + ".000',*] - [19,2,'" + hour + ".000',*]", "all 20 salt buckets"} {
		if !strings.Contains(text, w) {
			t.Errorf("EXPLAIN lacks %q:\n%s", w, text)
		}
	}
	// rkql's INSERT writes a point as OpenTSDB does (one tag pair here,
	// since a logical row holds one): an integer given in int_value as
	// addPoint(long), a value alone as addPoint(double).
	for i, v := range []any{int64(5), int64(-300), int64(70000), int64(1) << 40, 2.5} {
		o2 := examples.NewOpenTSDB()
		at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i*61) * time.Second)
		o2.Add(examples.Point{Metric: "m", Tags: map[string]string{"host": "h"}, Time: at, Value: v})
		row := tsdb.NewRow()
		f := 0.0
		if v, ok := v.(float64); ok {
			f = v
		}
		row[0], row[1], row[2], row[3] = catalog.Bigint(1), catalog.TimestampMillis(at.Truncate(time.Hour).UnixMilli()), catalog.Bigint(1), catalog.Bigint(1)
		row[4], row[6] = catalog.Int(int32(i*61)), catalog.Double(f)
		if n, ok := v.(int64); ok {
			row[6], row[7] = catalog.Null(catalog.TypeDouble), catalog.Bigint(n)
		}
		m, err := exec.RowMutation(tsdb, row, 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := o2.Points[0]
		if string(m.Key) != string(w.Key) || len(m.Cells) != 1 || m.Cells[0].Qualifier != string(w.Qualifier) || string(m.Cells[0].Value) != string(w.Value) {
			t.Errorf("INSERT of %v writes key % X cells %+v; OpenTSDB writes % X t:% X = % X", v, m.Key, m.Cells, w.Key, w.Qualifier, w.Value)
		}
	}

	// Every point of the metric in the hour, on all four hosts: one row
	// per point and tag pair (host and dc).
	got, err = runRaw(ctx, x, pl, fmt.Sprintf("SELECT COUNT(*) FROM tsdb WHERE metric = 2 AND base = '%s'", hour))
	if err != nil || got != "48" {
		t.Fatalf("count: %q, %v; want 48 (24 points, 2 tag pairs each)", got, err)
	}
}

// LoadOpenTSDBDemo makes examples/opentsdb.yaml's tables in st, named
// physical and physical+"-uid", and writes examples.OpenTSDBDemo's cells
// into them byte for byte. It returns the catalog and the demo's points
// and cells.
func LoadOpenTSDBDemo(t *testing.T, st exec.Store, physical string) (*catalog.Catalog, []examples.Point, *examples.OpenTSDB) {
	t.Helper()
	return loadOpenTSDBDemo(t, st, physical, examples.OpenTSDBPairsYAML)
}

// LoadOpenTSDBNamed is LoadOpenTSDBDemo with the catalog of
// examples/opentsdb.yaml, whose tsdb reads names through tsdb_uid.
func LoadOpenTSDBNamed(t *testing.T, st exec.Store, physical string) (*catalog.Catalog, []examples.Point, *examples.OpenTSDB) {
	t.Helper()
	return loadOpenTSDBDemo(t, st, physical, examples.OpenTSDBYAML)
}

// OpenTSDBNamedCatalog is examples/opentsdb.yaml, salted, with the HBase
// tables named physical and physical-uid.
func OpenTSDBNamedCatalog(physical string) (*catalog.Catalog, error) {
	return openTSDBYAML(examples.OpenTSDBYAML, physical, true)
}

func loadOpenTSDBDemo(t *testing.T, st exec.Store, physical string, yaml []byte) (*catalog.Catalog, []examples.Point, *examples.OpenTSDB) {
	t.Helper()
	cat, err := openTSDBYAML(yaml, physical, true)
	if err != nil {
		t.Fatal(err)
	}
	x := &exec.Executor{Store: st}
	for _, name := range []string{"tsdb", "tsdb_uid"} {
		tb, _ := cat.Table(name)
		if err := x.EnsureTable(context.Background(), tb); err != nil {
			t.Fatal(err)
		}
	}
	pts, o := examples.OpenTSDBDemo()
	uidt, _ := cat.Table("tsdb_uid")
	tsdb, _ := cat.Table("tsdb")
	PutRawCells(t, st, uidt.Physical, o.UID)
	PutRawCells(t, st, tsdb.Physical, o.Points)
	return cat, pts, o
}

// PutRawCells writes cells into table as they are, at HBase timestamp
// 1000.
func PutRawCells(t *testing.T, st exec.Store, table string, cells []examples.RawCell) {
	t.Helper()
	var muts []exec.Mutation
	for _, c := range cells {
		muts = append(muts, exec.Mutation{Key: c.Key, Cells: []exec.Cell{{Family: string(c.Family), Qualifier: string(c.Qualifier), Timestamp: 1000, Value: c.Value}}})
	}
	if err := st.Mutate(context.Background(), table, muts); err != nil {
		t.Fatal(err)
	}
}
