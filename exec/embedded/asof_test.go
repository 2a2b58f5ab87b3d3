package embedded_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/parser"
)

const asOfCatalog = `
tables:
  - name: asof
    families:
      - {name: f, versions: 1000}
    columns:
      - {name: id, type: STRING}
      - {name: a, type: BIGINT, column: "f:a"}
      - {name: b, type: STRING, column: "f:b"}
    rowkey:
      - {field: id}
  - name: asofs
    families:
      - {name: f, versions: 1000}
    columns:
      - {name: id, type: STRING}
      - {name: a, type: BIGINT, column: "f:a"}
      - {name: b, type: STRING, column: "f:b"}
    rowkey:
      - {salt: 4}
      - {field: id}
`

// asOfModel is the brute-force model of a table read as of a time, with
// HBase's rules: a put is seen as of t when it was written at or before
// t and no delete at or after its time covers it, whenever that delete
// was written.
type asOfModel struct {
	puts map[string]map[string][]asOfPut // row, column
	dels map[string]map[string][]int64   // row, column: DeleteColumns times
}

type asOfPut struct {
	ts  int64
	val string
}

func (m *asOfModel) at(row, col string, t int64) (string, int64, bool) {
	var best *asOfPut
	for i, p := range m.puts[row][col] {
		if p.ts > t || slices.ContainsFunc(m.dels[row][col], func(d int64) bool { return d >= p.ts }) {
			continue
		}
		if best == nil || p.ts > best.ts {
			best = &m.puts[row][col][i]
		}
	}
	if best == nil {
		return "", 0, false
	}
	return best.val, best.ts, true
}

// rows renders the model as of t as SELECT id, a, b, _ts … shows it.
func (m *asOfModel) rows(t int64) string {
	var ids []string
	for id := range m.puts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []string
	for _, id := range ids {
		line, newest, any := []string{id}, int64(0), false
		for _, c := range []string{"a", "b", "_"} {
			v, ts, ok := m.at(id, c, t)
			switch {
			case c == "_":
				// The empty cell of a row written with no value shows
				// only as the row and its _ts.
				if ok {
					any, newest = true, max(newest, ts)
				}
			case !ok:
				line = append(line, "NULL")
			default:
				line, any, newest = append(line, v), true, max(newest, ts)
			}
		}
		if any {
			out = append(out, strings.Join(append(line, fmt.Sprint(newest)), " "))
		}
	}
	return strings.Join(out, "\n")
}

// Random puts, column deletes (NULL at a time) and row deletes, in
// increasing time, then AS OF every time in between and around: each
// read equals the model's, through point gets, ranges and full scans,
// and on a salted table through fan-outs.
func TestAsOfMatchesModel(t *testing.T) {
	for seed := range uint64(6) {
		table := []string{"asof", "asofs"}[seed%2]
		t.Run(fmt.Sprint(table, seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			s := newSession(t, asOfCatalog, func() time.Time { return time.UnixMilli(0) }, 0)
			m := &asOfModel{puts: map[string]map[string][]asOfPut{}, dels: map[string]map[string][]int64{}}
			ts := int64(1000)
			var times []int64
			for range 40 {
				ts += 1 + rng.Int64N(3)
				times = append(times, ts)
				id := fmt.Sprintf("r%d", rng.IntN(4))
				if m.puts[id] == nil {
					m.puts[id], m.dels[id] = map[string][]asOfPut{}, map[string][]int64{}
				}
				if rng.IntN(8) == 0 {
					// DELETE goes at the row's newest cell time (the clock
					// is at 0): it hides every version up to that.
					_, d, any := m.newest(id)
					if !any {
						continue
					}
					s.run(fmt.Sprintf("DELETE FROM %s WHERE id = '%s'", table, id))
					for _, c := range []string{"a", "b", "_"} {
						m.dels[id][c] = append(m.dels[id][c], d)
					}
					continue
				}
				a, b := fmt.Sprint(rng.IntN(100)), fmt.Sprintf("'v%d'", rng.IntN(100))
				if rng.IntN(4) == 0 {
					a = "NULL"
				}
				if rng.IntN(4) == 0 {
					b = "NULL"
				}
				s.run(fmt.Sprintf("INSERT INTO %s (id, a, b) VALUES ('%s', %s, %s) TIMESTAMP %d", table, id, a, b, ts))
				if a == "NULL" && b == "NULL" {
					// A row written with no value gets one empty cell.
					m.puts[id]["_"] = append(m.puts[id]["_"], asOfPut{ts, ""})
				}
				for c, v := range map[string]string{"a": a, "b": strings.Trim(b, "'")} {
					if v == "NULL" {
						m.dels[id][c] = append(m.dels[id][c], ts)
					} else {
						m.puts[id][c] = append(m.puts[id][c], asOfPut{ts, v})
					}
				}
			}
			for _, at := range append([]int64{0, 999, ts + 10}, times...) {
				want := m.rows(at)
				got := s.run(fmt.Sprintf("SELECT id, a, b, CAST(_ts AS BIGINT) FROM %s AS OF %d ORDER BY id ALLOW FULL SCAN", table, at))
				if got != want {
					t.Fatalf("AS OF %d:\n got %q\nwant %q", at, got, want)
				}
				for _, q := range []string{"WHERE id = 'r1'", "WHERE id IN ('r0', 'r2')", "WHERE id >= 'r2'"} {
					got := s.run(fmt.Sprintf("SELECT id, a, b, CAST(_ts AS BIGINT) FROM %s AS OF %d %s ORDER BY id", table, at, q))
					if w := filterLines(want, q); got != w {
						t.Fatalf("AS OF %d %s:\n got %q\nwant %q", at, q, got, w)
					}
				}
				cnt := s.run(fmt.Sprintf("SELECT COUNT(*) FROM %s AS OF %d ALLOW FULL SCAN", table, at))
				if n := len(strings.Fields(strings.ReplaceAll(want, "\n", " | "))); want == "" && cnt != "0" || want != "" && cnt != fmt.Sprint(strings.Count(want, "\n")+1) {
					t.Fatalf("AS OF %d: COUNT(*) = %s, want the %d rows of %q", at, cnt, n, want)
				}
			}
		})
	}
}

func (m *asOfModel) newest(id string) (string, int64, bool) {
	var newest int64
	any := false
	for _, c := range []string{"a", "b", "_"} {
		if _, ts, ok := m.at(id, c, 1<<62); ok {
			newest, any = max(newest, ts), true
		}
	}
	return "", newest, any
}

// filterLines keeps the model's lines of the rows q selects.
func filterLines(all, q string) string {
	var out []string
	for _, l := range strings.Split(all, "\n") {
		id, _, _ := strings.Cut(l, " ")
		keep := false
		switch q {
		case "WHERE id = 'r1'":
			keep = id == "r1"
		case "WHERE id IN ('r0', 'r2')":
			keep = id == "r0" || id == "r2"
		case "WHERE id >= 'r2'":
			keep = id >= "r2"
		}
		if l != "" && keep {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A lower bound of _ts in a query that reads keys and _ts alone is the
// store's time range, alone and with AS OF, and reads what the row
// filter alone reads; in one that reads a stored column it stays a row
// filter, and EXPLAIN says which.
func TestTsBoundTimeRange(t *testing.T) {
	s := newSession(t, asOfCatalog, func() time.Time { return time.UnixMilli(0) }, 0)
	m := &asOfModel{puts: map[string]map[string][]asOfPut{}, dels: map[string]map[string][]int64{}}
	rng := rand.New(rand.NewPCG(3, 9))
	ts := int64(100)
	for range 30 {
		ts += 1 + rng.Int64N(4)
		id, c := fmt.Sprintf("r%d", rng.IntN(6)), []string{"a", "b"}[rng.IntN(2)]
		v := fmt.Sprint(rng.IntN(50))
		s.run(fmt.Sprintf("INSERT INTO asof (id, %s) VALUES ('%s', '%s') TIMESTAMP %d", c, id, v, ts))
		if m.puts[id] == nil {
			m.puts[id], m.dels[id] = map[string][]asOfPut{}, map[string][]int64{}
		}
		m.puts[id][c] = append(m.puts[id][c], asOfPut{ts, v})
	}
	for from := int64(95); from <= ts+2; from += 3 {
		for _, at := range []int64{ts, from + 5} {
			var want []string
			for _, l := range strings.Split(m.rows(at), "\n") {
				f := strings.Fields(l)
				if len(f) != 4 {
					continue
				}
				if n, err := strconv.ParseInt(f[3], 10, 64); err == nil && n >= from {
					want = append(want, f[0]+" "+f[3])
				}
			}
			q := fmt.Sprintf("SELECT id, CAST(_ts AS BIGINT) FROM asof AS OF %d WHERE _ts >= %d ALLOW FULL SCAN", at, from)
			if got := s.run(q); got != strings.Join(want, "\n") {
				t.Fatalf("%s:\n got %q\nwant %q", q, got, strings.Join(want, "\n"))
			}
			if got := s.run(strings.Replace(q, "id, CAST(_ts AS BIGINT)", "COUNT(*)", 1)); got != fmt.Sprint(len(want)) {
				t.Fatalf("COUNT of %s = %s, want %d", q, got, len(want))
			}
		}
	}
	explain := explainText(t, s, "EXPLAIN SELECT id FROM asof WHERE _ts >= TIMESTAMP '1970-01-01 00:00:00.120' ALLOW FULL SCAN")
	if !strings.Contains(explain, "SERVER TIMERANGE [120, ∞)") {
		t.Errorf("EXPLAIN of a keys-and-_ts read gives no time range:\n%s", explain)
	}
	explain = explainText(t, s, "EXPLAIN SELECT id, a FROM asof WHERE _ts >= TIMESTAMP '1970-01-01 00:00:00.120' ALLOW FULL SCAN")
	if strings.Contains(explain, "TIMERANGE") || !strings.Contains(explain, "stays a row filter") {
		t.Errorf("EXPLAIN of a read of a stored column: want the bound a row filter, said so:\n%s", explain)
	}
	explain = explainText(t, s, "EXPLAIN SELECT id, a FROM asof AS OF TIMESTAMP '1970-01-01 00:00:00.120' WHERE id = 'r1'")
	if !strings.Contains(explain, "SERVER TIMERANGE [0, 121) (as of 1970-01-01 00:00:00.120)") {
		t.Errorf("EXPLAIN of AS OF gives no time range:\n%s", explain)
	}
}

// explainText is EXPLAIN's text.
func explainText(t *testing.T, s *session, q string) string {
	t.Helper()
	st, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.eng.Run(context.Background(), st)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res.Text
}

// SELECT RAW * AS OF shows the cells at or before the time, as many
// versions as asked for, by key and by a scan of the whole table.
func TestAsOfRaw(t *testing.T) {
	s := newSession(t, asOfCatalog, func() time.Time { return time.UnixMilli(0) }, 0)
	for _, ts := range []int{100, 200, 300} {
		s.run(fmt.Sprintf("INSERT INTO asof (id, a) VALUES ('r1', %d) TIMESTAMP %d", ts, ts))
	}
	for _, q := range []string{"WHERE id = 'r1' VERSIONS 5", "VERSIONS 5 ALLOW FULL SCAN"} {
		got := s.run("SELECT RAW * FROM asof AS OF 250 " + q)
		if strings.Count(got, "\n") != 1 || !strings.Contains(got, "00:00:00.200") || !strings.Contains(got, "00:00:00.100") || strings.Contains(got, "00:00:00.300") {
			t.Errorf("SELECT RAW * AS OF 250 %s: want the cells of 100 and 200, got\n%s", q, got)
		}
	}
}
