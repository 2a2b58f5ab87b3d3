package exectest

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// openTSDBCatalog is examples/opentsdb_pairs.yaml with the HBase tables named
// physical and physical-uid. Unsalted, tsdb's key has no salt byte, as
// OpenTSDB writes it with salting off (its default).
func openTSDBCatalog(physical string, salted bool) (*catalog.Catalog, error) {
	return openTSDBYAML(examples.OpenTSDBPairsYAML, physical, salted)
}

// openTSDBYAML is the catalog src (examples/opentsdb.yaml or
// opentsdb_pairs.yaml) with the HBase tables named physical and
// physical+"-uid", salted or not.
func openTSDBYAML(yaml []byte, physical string, salted bool) (*catalog.Catalog, error) {
	src := strings.Replace(string(yaml), "hbase: tsdb-uid", "hbase: "+physical+"-uid", 1)
	src = strings.Replace(src, "  - name: tsdb\n", "  - name: tsdb\n    hbase: "+physical+"\n", 1)
	if !salted {
		salt := "      - {salt: 20, of: [metric, tagk, tagv]}\n"
		if !strings.Contains(src, salt) {
			salt = "      - {salt: 20, of: [metric_uid, tagk, tagv]}\n"
		}
		for _, line := range []string{salt, "    split: {buckets: true}\n"} {
			if !strings.Contains(src, line) {
				return nil, fmt.Errorf("opentsdb.yaml lacks %q", line)
			}
			src = strings.Replace(src, line, "", 1)
		}
	}
	return catalog.Parse([]byte(src))
}

// tsdbPoints draws n distinct points as OpenTSDB receives them: four
// metrics, one to three tags per series (host always, dc and rack for
// some hosts), times over two days, a quarter of them given in
// milliseconds (some at a whole second), the rest in seconds, and values
// of every form OpenTSDB writes (integers of 1, 2, 4 and 8 bytes of
// either sign, some near ±2^53, 4- and 8-byte
// floats, -0 among them).
func tsdbPoints(n int, seed uint64) []examples.Point {
	r := rand.New(rand.NewPCG(seed, 23))
	metrics := []string{"sys.cpu.user", "sys.mem.free", "net.bytes.in", "disk.io.ops"}
	hosts := []string{"web01", "web02", "web03", "db01", "db02", "cache01"}
	start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	var pts []examples.Point
	for len(pts) < n {
		h := r.IntN(len(hosts))
		tags := map[string]string{"host": hosts[h]}
		if h%3 != 2 {
			tags["dc"] = []string{"lga", "sjc"}[h%2]
		}
		if h%2 == 0 {
			tags["rack"] = fmt.Sprintf("r%d", r.IntN(3))
		}
		p := examples.Point{Metric: metrics[r.IntN(len(metrics))], Tags: tags,
			Time: start.Add(time.Duration(r.IntN(48*3600)) * time.Second)}
		if r.IntN(4) == 0 {
			p.Millis = true
			if r.IntN(5) != 0 {
				p.Time = p.Time.Add(time.Duration(r.IntN(1000)) * time.Millisecond)
			}
		}
		id := fmt.Sprint(p.Metric, p.Tags, p.Time.UnixMilli())
		if seen[id] {
			continue // OpenTSDB would overwrite the point
		}
		seen[id] = true
		sign := int64(1 - 2*r.IntN(2))
		switch r.IntN(8) {
		case 0:
			p.Value = sign * r.Int64N(128)
		case 1:
			p.Value = sign * (128 + r.Int64N(30000))
		case 2:
			p.Value = sign * (1<<15 + r.Int64N(1<<30))
		case 3:
			p.Value = sign * (1<<31 + r.Int64N(1<<50))
		case 4:
			p.Value = float32(sign) * float32(r.IntN(100000)) / 8
		case 5:
			p.Value = []int64{1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<53 + 2, 1<<53 + 3}[r.IntN(5)] * []int64{1, -1}[r.IntN(2)]
		case 6:
			p.Value = []float64{math.Copysign(0, -1), 0, 1 << 53, -1<<53 - 2}[r.IntN(4)]
		default:
			p.Value = float64(sign) * r.Float64() * math.Pow(10, float64(r.IntN(12)-3))
		}
		pts = append(pts, p)
	}
	return pts
}

// uidsOf maps kind and name to the uid the writer gave it, read from the
// forward cells it wrote to tsdb-uid.
func uidsOf(o *examples.OpenTSDB) map[string]int64 {
	out := map[string]int64{}
	for _, c := range o.UID {
		if string(c.Family) == "id" && len(c.Value) == 3 && len(c.Key) > 1 {
			out[string(c.Qualifier)+":"+string(c.Key)] = int64(c.Value[0])<<16 | int64(c.Value[1])<<8 | int64(c.Value[2])
		}
	}
	return out
}

// RunOpenTSDBDiff runs the differential suite over OpenTSDB's tsdb table:
// points written byte for byte as OpenTSDB writes them (examples.OpenTSDB),
// second and millisecond points, two rows in three compacted as
// OpenTSDB's compaction leaves them, one in six an append cell as
// OpenTSDB writes with appends on (some points appended twice, the
// later value counting), some points written again later as
// single cells (some in the other qualifier form, at the same time), and
// a few cells that are no points (an annotation, a damaged compacted
// cell, a millisecond point whose value does not fit its flags), are read
// by the reference's own decoding of tag pairs and points
// (ref/expand.go); a full scan must count each cell that is no point as
// malformed, and fixed queries (metric reads over hours, tag
// filters, ORDER BY, LIMIT, aggregates) and random ones must return what
// the reference does. It runs twice: salted as examples/opentsdb.yaml
// is, and unsalted (OpenTSDB's default, where key order is metric and
// hour order). physical names the HBase tables (physical and
// physical_nosalt).
func RunOpenTSDBDiff(t *testing.T, st exec.Store, physical string, o Options) {
	t.Run("salted", func(t *testing.T) { runOpenTSDBDiff(t, st, physical, true, o) })
	t.Run("unsalted", func(t *testing.T) { runOpenTSDBDiff(t, st, physical+"_nosalt", false, o) })
}

func runOpenTSDBDiff(t *testing.T, st exec.Store, physical string, salted bool, o Options) {
	o.Rows = cmp.Or(o.Rows, 2000)
	o.Queries = cmp.Or(o.Queries, 200)
	o.Seed = diffSeed(o.Seed)
	ctx := context.Background()
	cat, err := openTSDBCatalog(physical, salted)
	if err != nil {
		t.Fatal(err)
	}
	tsdb, _ := cat.Table("tsdb")
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tsdb); err != nil {
		t.Fatal(err)
	}
	w := examples.NewOpenTSDB()
	pairs := 0
	pts := tsdbPoints(o.Rows, o.Seed)
	for _, p := range pts {
		w.Add(p)
		pairs += len(p.Tags)
	}
	put := func(cells []examples.RawCell, ts int64) {
		for from := 0; from < len(cells); from += 500 {
			var muts []exec.Mutation
			for _, c := range cells[from:min(from+500, len(cells))] {
				key := c.Key
				if !salted {
					key = key[1:]
				}
				muts = append(muts, exec.Mutation{Key: key, Cells: []exec.Cell{{Family: string(c.Family), Qualifier: string(c.Qualifier), Timestamp: ts, Value: c.Value}}})
			}
			if err := st.Mutate(ctx, tsdb.Physical, muts); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Two rows in three compacted, one in six appended, picked by the
	// seed; some points of the appended rows are appended again with
	// another value.
	pick := func(row []byte) uint64 {
		h := fnv.New64a()
		fmt.Fprint(h, o.Seed)
		h.Write(row)
		return h.Sum64() % 6
	}
	for i := 0; i < len(pts); i += 13 {
		if pick(w.Points[i].Key) == 0 {
			p := pts[i]
			p.Value = float64(i) + 0.5
			w.Add(p)
		}
	}
	w.Compact(func(row []byte) bool { return pick(row)%3 != 0 })
	w.Append(func(row []byte) bool { return pick(row) == 0 })
	compacted, mixed, appended := 0, 0, 0
	for _, c := range w.Points {
		if len(c.Qualifier) == 3 {
			appended++
		}
		if len(c.Qualifier) > 4 || len(c.Qualifier) == 4 && c.Qualifier[0]>>4 != 0xF {
			compacted++
			if c.Value[len(c.Value)-1] == 1 {
				mixed++
			}
		}
	}
	// Cells that are no points, beside points of a row: each is skipped
	// and counted, the row's points read.
	bad := 0
	badAt := map[string]bool{}
	for i := 0; i < len(w.Points); i += 97 {
		c := w.Points[i]
		var q, v []byte
		switch i % 3 {
		case 0: // an annotation
			q, v = []byte{1, 0, byte(i)}, []byte(`{"description":"deploy"}`)
		case 1: // a compacted cell without its meta byte (one time twice, so no real cell has its qualifier)
			q, v = []byte{0xE0, 0xF0, 0xE0, 0xF0}, []byte{1, 2}
		default: // flags of 2 bytes over 1 (bit 4 set, which no writer sets)
			q, v = []byte{0xF0, 0, byte(i) << 6, 0x11}, []byte{1}
		}
		if badAt[string(c.Key)+string(q)] {
			continue // one cell, written twice
		}
		badAt[string(c.Key)+string(q)] = true
		w.Points = append(w.Points, examples.RawCell{Key: c.Key, Family: c.Family, Qualifier: q, Value: v})
		bad++
	}
	put(w.Points, 1000)
	// Some points written again later with another value of the same
	// form, some at the same time in the other form (a second point as a
	// millisecond one, or back): the newer cell replaces the point, also
	// one a compacted cell holds.
	n := len(w.Points)
	for i := 0; i < len(pts); i += 29 {
		p := pts[i]
		switch v := p.Value.(type) {
		case int64:
			p.Value = v ^ 1
		case float32:
			p.Value = v + 1
		case float64:
			p.Value = v * 3
		}
		if i%58 == 0 && p.Time.UnixMilli()%1000 == 0 {
			p.Millis = !p.Millis
		}
		w.Add(p)
	}
	put(w.Points[n:], 2000)
	all, err := ScanAll(ctx, st, tsdb)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != pairs {
		t.Fatalf("the reference reads %d rows; the points have %d tag pairs", len(all), pairs)
	}
	pl := planner.New(cat, o.Planner)
	var stats exec.Stats
	sel, err := Plan(pl, "SELECT COUNT(*) FROM tsdb ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Drain(ctx, x, sel, &stats); err != nil {
		t.Fatal(err)
	}
	if got := stats.Malformed.Load(); got != int64(bad) {
		t.Errorf("a full scan counts %d malformed, want the %d cells that are no points (first: %v)", got, bad, stats.FirstMalformed())
	}
	c := &checker{x: x, pl: pl, t: tsdb, all: all, kinds: map[string]int{}, known: map[string]int{}}
	for _, q := range tsdbQueries(uidsOf(w)) {
		if err := c.checkNonEmpty(ctx, q); err != nil {
			t.Errorf("%s\n  %v", q, err)
		}
	}
	g := &queryGen{t: tsdb, r: rand.New(rand.NewPCG(o.Seed, 7)), rows: all}
	for i := 0; i < o.Queries; i++ {
		q := g.query()
		if err := c.check(ctx, q); err != nil {
			t.Errorf("query %d: %s\n  %v", i, q, err)
			if i > 20 {
				return
			}
		}
	}
	t.Logf("tsdb: %d cells (%d compacted, %d of them mixed; %d appended; %d no points), %d written again, %d rows, %d fixed and %d random queries, plans %v", n, compacted, mixed, appended, bad, len(w.Points)-n, len(all), len(tsdbQueries(uidsOf(w))), o.Queries, c.kinds)
}

// tsdbQueries are the fixed queries over tsdb, with names turned into
// uids; each must return rows.
func tsdbQueries(uid map[string]int64) []string {
	v := func(s string) string {
		return strings.NewReplacer(
			"$cpu", fmt.Sprint(uid["metrics:sys.cpu.user"]), "$mem", fmt.Sprint(uid["metrics:sys.mem.free"]),
			"$net", fmt.Sprint(uid["metrics:net.bytes.in"]),
			"$host", fmt.Sprint(uid["tagk:host"]), "$dc", fmt.Sprint(uid["tagk:dc"]), "$rack", fmt.Sprint(uid["tagk:rack"]),
			"$web01", fmt.Sprint(uid["tagv:web01"]), "$db01", fmt.Sprint(uid["tagv:db01"]), "$lga", fmt.Sprint(uid["tagv:lga"]),
			"$r1", fmt.Sprint(uid["tagv:r1"]),
		).Replace(s)
	}
	qs := []string{
		// A metric's points over one hour, and over a range of hours.
		`SELECT ts, "offset", value FROM tsdb WHERE metric = $cpu AND base = '2024-05-01 10:00:00'`,
		`SELECT * FROM tsdb WHERE metric = $mem AND base >= '2024-05-01 22:00:00' AND base < '2024-05-02 03:00:00' ORDER BY ts, tagk`,
		`SELECT ts, value FROM tsdb WHERE metric IN ($cpu, $net) AND base BETWEEN '2024-05-02 00:00:00' AND '2024-05-02 02:00:00' ORDER BY value DESC, ts LIMIT 7`,
		// One tag pair.
		`SELECT ts, value FROM tsdb WHERE metric = $cpu AND base >= '2024-05-01 06:00:00' AND base <= '2024-05-01 12:00:00' AND tagk = $host AND tagv = $web01 ORDER BY ts`,
		`SELECT ts, value, tagv FROM tsdb WHERE metric = $net AND base > '2024-05-01 20:00:00' AND tagk = $dc AND tagv = $lga ORDER BY ts DESC LIMIT 10 OFFSET 3`,
		`SELECT COUNT(*) FROM tsdb WHERE metric = $mem AND base < '2024-05-01 12:00:00' AND tagk = $rack AND tagv = $r1`,
		// Two tag pairs: either, as one row holds one pair.
		`SELECT ts, tagk, tagv, value FROM tsdb WHERE metric = $cpu AND base >= '2024-05-01 12:00:00' AND base < '2024-05-01 18:00:00' AND ((tagk = $host AND tagv = $db01) OR (tagk = $dc AND tagv = $lga)) ORDER BY ts, tagk`,
		`SELECT ts, tagk, tagv FROM tsdb WHERE metric = $mem AND base BETWEEN '2024-05-01 00:00:00' AND '2024-05-01 08:00:00' AND (tagk, tagv) IN (($host, $web01), ($rack, $r1)) ORDER BY 1, 2`,
		// A tag value with any key, and a key with any value.
		`SELECT ts, tagk FROM tsdb WHERE metric = $net AND base >= '2024-05-01 12:00:00' AND base < '2024-05-01 20:00:00' AND tagv = $web01`,
		`SELECT DISTINCT tagv FROM tsdb WHERE metric = $cpu AND base >= '2024-05-01 00:00:00' AND base < '2024-05-02 00:00:00' AND tagk = $host ORDER BY tagv`,
		// Time within the hour, values, the cell timestamp.
		`SELECT ts, "offset", value, _ts FROM tsdb WHERE metric = $cpu AND base = '2024-05-01 13:00:00' AND ts >= TIMESTAMP '2024-05-01 13:20:00' AND "offset" < 3000 ORDER BY "offset" DESC`,
		`SELECT ts, value FROM tsdb WHERE metric = $mem AND base >= '2024-05-01 00:00:00' AND value < 0 AND value > -200 ORDER BY value, ts LIMIT 20`,
		// Aggregates.
		`SELECT COUNT(*), SUM(value), MIN(value), MAX(value), AVG(value), MIN(ts), MAX(ts) FROM tsdb WHERE metric = $cpu AND base >= '2024-05-01 00:00:00' AND base < '2024-05-01 12:00:00' AND tagk = $host`,
		`SELECT tagv, COUNT(*), MAX(value), COUNT(DISTINCT base) FROM tsdb WHERE metric = $net AND base >= '2024-05-01 00:00:00' AND tagk = $host GROUP BY tagv ORDER BY 2 DESC, tagv`,
		`SELECT base, COUNT(*) AS n, SUM(value) FROM tsdb WHERE metric = $mem AND base >= '2024-05-01 00:00:00' AND base < '2024-05-01 06:00:00' GROUP BY base HAVING COUNT(*) > 1 ORDER BY base`,
		`SELECT metric, tagk, COUNT(*) FROM tsdb GROUP BY metric, tagk ORDER BY metric, tagk ALLOW FULL SCAN`,
		`SELECT COUNT(*) FROM tsdb ALLOW FULL SCAN`,
		`SELECT * FROM tsdb WHERE tagk = $rack AND value > 1000 ORDER BY value DESC, ts, metric LIMIT 15 ALLOW FULL SCAN`,
		// Integer points exactly, beyond 2^53 too, told from floats.
		`SELECT ts, value, int_value FROM tsdb WHERE int_value IN (9007199254740993, -9007199254740993, 9007199254740995) ORDER BY ts, tagk, metric ALLOW FULL SCAN`,
		`SELECT ts, int_value FROM tsdb WHERE int_value > 9007199254740992 AND int_value < 9007199254740995 ORDER BY int_value, ts ALLOW FULL SCAN`,
		`SELECT COUNT(*), COUNT(int_value), MIN(int_value), MAX(int_value) FROM tsdb WHERE metric = $cpu AND base >= '2024-05-01 00:00:00'`,
		`SELECT ts, value, int_value FROM tsdb WHERE int_value IS NULL AND value = 0 ORDER BY ts, tagk, metric ALLOW FULL SCAN`,
		`SELECT metric, COUNT(*), SUM(int_value) FROM tsdb WHERE int_value IS NULL AND value IN (0, 9007199254740992, -9007199254740994) OR int_value = 9007199254740992 GROUP BY metric ORDER BY metric ALLOW FULL SCAN`,
	}
	for i := range qs {
		qs[i] = v(qs[i])
	}
	return qs
}

// OpenTSDBCatalog is examples/opentsdb.yaml, salted, with the HBase
// tables named physical and physical-uid.
func OpenTSDBCatalog(physical string) (*catalog.Catalog, error) {
	return openTSDBCatalog(physical, true)
}

// TSDBPoints is the differential suite's draw of n distinct points
// (tsdbPoints), for suites of their own.
func TSDBPoints(n int, seed uint64) []examples.Point { return tsdbPoints(n, seed) }
