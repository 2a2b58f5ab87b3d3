package hbasestore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/planner"
)

// pushdownYAML is a table with a stored column of each encoding the
// pushdown tells apart, in two families, and a key with a delimited text
// field, a binary number and a text field running to the end.
const pushdownYAML = `
tables:
  - name: pd
    hbase: %s
    families:
      - {name: d, versions: 1}
      - {name: e, versions: 1}
    columns:
      - {name: k, type: STRING}
      - {name: id, type: BIGINT}
      - {name: tail, type: STRING}
      - {name: s, type: STRING, column: "d:s"}
      - {name: st, type: STRING, column: "e:st", encoding: text}
      - {name: b, type: BIGINT, column: "d:b"}
      - {name: tb, type: BIGINT, column: "d:tb", encoding: text}
      - {name: f, type: DOUBLE, column: "e:f"}
      - {name: i, type: INT, column: "e:i"}
      - {name: dt, type: DATE, column: "d:dt", encoding: text}
    rowkey:
      - {field: k}
      - {literal: "|"}
      - {field: id, encoding: binary}
      - {field: tail}
    splits: ["c", "s1", '\xC3\xA9']
`

// pushdownRows are rows with multi-byte text, empty strings, negative
// numbers and missing (NULL) columns.
func pushdownRows(tb *catalog.Table) []catalog.Row {
	r := rand.New(rand.NewPCG(5, 6))
	keys := []string{"a", "ab", "b_c", "s1", "s10", "s2", "sé", "x", "é", "€x", "日本"}
	tails := []string{"", "x", "xé", "zz", "€"}
	strs := []string{"paid", "pa", "p", "", "é", "€", "a%b", "zé€", "日本語", "mx"}
	var out []catalog.Row
	seen := map[string]bool{}
	for len(out) < 1500 {
		k, id, tail := keys[r.IntN(len(keys))], r.Int64N(101)-50, tails[r.IntN(len(tails))]
		if id := fmt.Sprint(k, id, tail); seen[id] {
			continue
		} else {
			seen[id] = true
		}
		row := tb.NewRow()
		row[0], row[1], row[2] = catalog.String(k), catalog.Bigint(id), catalog.String(tail)
		maybe := func(i int, v catalog.Value) {
			if r.IntN(5) > 0 {
				row[i] = v
			}
		}
		maybe(3, catalog.String(strs[r.IntN(len(strs))]))
		maybe(4, catalog.String(strs[r.IntN(len(strs))]))
		maybe(5, catalog.Bigint(r.Int64N(21)-10))
		maybe(6, catalog.Bigint(r.Int64N(21)-10))
		maybe(7, catalog.Double(float64(r.IntN(41)-20)/4))
		maybe(8, catalog.Value{Type: catalog.TypeInt, I: r.Int64N(21) - 10})
		maybe(9, catalog.DateDays(18000+r.Int64N(40)))
		out = append(out, row)
	}
	return out
}

// pushdownQueries say, for each query, whether every part of its filter
// goes to the server ("server"), only some ("both") or none ("client"),
// or that it has no filter and its ranges are read by one scan
// ("ranges").
var pushdownQueries = []struct{ q, where string }{
	{"SELECT * FROM pd WHERE s = 'paid'", "server"},
	{"SELECT * FROM pd WHERE s != 'paid'", "server"},
	{"SELECT * FROM pd WHERE s = ''", "server"},
	{"SELECT * FROM pd WHERE s < 'm'", "server"},
	{"SELECT * FROM pd WHERE s >= 'é'", "server"},
	{"SELECT * FROM pd WHERE s BETWEEN 'a' AND 'p'", "server"},
	{"SELECT * FROM pd WHERE s NOT BETWEEN 'b' AND 'q'", "server"},
	{"SELECT * FROM pd WHERE s IN ('paid', 'é', NULL)", "server"},
	{"SELECT * FROM pd WHERE s NOT IN ('paid', 'pa')", "server"},
	{"SELECT * FROM pd WHERE s LIKE 'p%'", "server"},
	{"SELECT * FROM pd WHERE s LIKE '_'", "server"},
	{"SELECT * FROM pd WHERE s LIKE '%_%_'", "server"},
	{"SELECT * FROM pd WHERE s LIKE '__'", "server"},
	{"SELECT * FROM pd WHERE s NOT LIKE '%a%'", "server"},
	{"SELECT * FROM pd WHERE s LIKE '%\\%'", "server"},
	{"SELECT * FROM pd WHERE st LIKE '€%' OR st LIKE '%語'", "server"},
	{"SELECT * FROM pd WHERE REGEXP_LIKE(s, 'a')", "server"},
	{"SELECT * FROM pd WHERE REGEXP_LIKE(s, '^p.?\\z')", "server"},
	{"SELECT * FROM pd WHERE REGEXP_LIKE(st, '[é€]') OR REGEXP_LIKE(st, '語\\z')", "server"},
	{"SELECT k, id FROM pd WHERE REGEXP_LIKE(s, '^\\z') AND b > 0", "server"},
	{"SELECT * FROM pd WHERE NOT REGEXP_LIKE(s, 'a|é')", "server"},
	{"SELECT * FROM pd WHERE NOT (REGEXP_LIKE(st, '^p') OR s = 'mx')", "server"},
	{"SELECT * FROM pd WHERE REGEXP_LIKE(s, '')", "client"},
	{"SELECT * FROM pd WHERE REGEXP_LIKE(k, 's[0-9]')", "client"},
	{"SELECT * FROM pd WHERE s IS NULL", "server"},
	{"SELECT * FROM pd WHERE f IS NOT NULL", "server"},
	{"SELECT * FROM pd WHERE NOT (s = 'paid')", "server"},
	{"SELECT * FROM pd WHERE NOT (s = 'paid' OR b = 3)", "server"},
	{"SELECT * FROM pd WHERE s = 'paid' OR b = -3", "server"},
	{"SELECT * FROM pd WHERE b = -3", "server"},
	{"SELECT * FROM pd WHERE b != 5 AND i = 7", "server"},
	{"SELECT * FROM pd WHERE dt >= DATE '2019-04-01'", "server"},
	{"SELECT * FROM pd WHERE b > 0", "server"},
	{"SELECT * FROM pd WHERE b < -3", "server"},
	{"SELECT * FROM pd WHERE b BETWEEN -5 AND 5", "server"},
	{"SELECT * FROM pd WHERE b NOT BETWEEN -2 AND 2", "server"},
	{"SELECT * FROM pd WHERE i >= -1 OR i < -8", "server"},
	{"SELECT * FROM pd WHERE NOT (b > 3)", "server"},
	{"SELECT * FROM pd WHERE st > 'm'", "server"},
	{"SELECT * FROM pd WHERE k != 's1'", "server"},
	{"SELECT * FROM pd WHERE k LIKE '%1'", "server"},
	{"SELECT * FROM pd WHERE k LIKE '_'", "server"},
	{"SELECT * FROM pd WHERE k LIKE '%x'", "server"},
	{"SELECT * FROM pd WHERE k NOT LIKE 's_'", "server"},
	{"SELECT * FROM pd WHERE id = -3", "server"},
	{"SELECT * FROM pd WHERE id IN (1, 2, -7)", "server"},
	{"SELECT * FROM pd WHERE tail = 'x'", "server"},
	{"SELECT * FROM pd WHERE tail LIKE '%é'", "server"},
	{"SELECT * FROM pd WHERE tail = ''", "server"},
	{"SELECT * FROM pd WHERE NOT (k = 's1')", "server"},
	{"SELECT k, id FROM pd WHERE k LIKE 's%' AND s = 'paid'", "server"},
	{"SELECT k, b FROM pd WHERE st = 'mx' AND i != 0", "server"},
	{"SELECT COUNT(*) FROM pd WHERE f IS NULL", "server"},
	{"SELECT id FROM pd WHERE s = 'paid' LIMIT 5", "server"},
	{"SELECT * FROM pd WHERE k IN ('a', 'b_c', 's1', 's2', 'x') AND s = 'pa'", "server"},
	{"SELECT * FROM pd WHERE k IN ('a', 'b_c', 's1', 's2', 'x')", "ranges"},
	{"SELECT k, id FROM pd WHERE k IN ('a', 'b_c', 's1', 's2', 'x', 'é') LIMIT 200", "ranges"},
	{"SELECT * FROM pd WHERE k = 'x' OR s = 'paid'", "server"},
	{"SELECT * FROM pd WHERE NOT (k LIKE 's%' AND s = 'pa')", "server"},
	{"SELECT * FROM pd WHERE k IN ('s1', 'a', 'é') AND id IN (-3, 4, 7, 9) AND tail IN ('x', '', 'zz') AND s != 'paid'", "server"},
	{"SELECT k, id, tail FROM pd WHERE k IN ('s1', 'a', 'é') AND id IN (-3, 4, 7, 9) AND tail IN ('x', '', 'zz') AND i IS NOT NULL", "server"},
	{"SELECT * FROM pd WHERE tb = 7", "client"},
	{"SELECT * FROM pd WHERE f > 1.5", "client"},
	{"SELECT * FROM pd WHERE b > 0 AND s = 'paid'", "server"},
	{"SELECT * FROM pd WHERE b > 0 AND tb = 3", "both"},
	{"SELECT * FROM pd WHERE s = 'paid' OR tb = 3", "client"},
}

// TestPushdownFilters runs each query on HBase with pushdown on and off
// and on the embedded store with pushdown off (the client evaluating
// every condition), checks the three agree, that the filter went where
// expected, and that what the server filtered did not travel.
func TestPushdownFilters(t *testing.T) {
	t.Parallel() // its tables are its own
	ctx := context.Background()
	st, emb, pl := loadBoth(t, pushdownYAML, "pd", pushdownRows)
	t.Run("random-like", func(t *testing.T) { randomLike(ctx, t, st, emb, pl) })
	for _, c := range pushdownQueries {
		t.Run(c.q, func(t *testing.T) {
			q := c.q + " ALLOW FULL SCAN"
			want, _, err := runPlaced(ctx, emb, pl, q, false)
			if err != nil {
				t.Fatal(err)
			}
			off, stOff, err := runPlaced(ctx, st, pl, q, false)
			if err != nil {
				t.Fatal(err)
			}
			on, stOn, err := runPlaced(ctx, st, pl, q, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameRows(off.rows, want.rows); err != nil {
				t.Fatalf("pushdown off: %v", err)
			}
			if err := sameRows(on.rows, want.rows); err != nil {
				t.Fatalf("pushdown on: %v\n%s", err, on.String())
			}
			pl := on.scan
			got := "client"
			switch {
			case len(pl.Server) == 0 && pl.Filter == nil && pl.MultiRange:
				got = "ranges"
			case len(pl.Server) > 0 && len(pl.Client) > 0:
				got = "both"
			case len(pl.Server) > 0:
				got = "server"
			}
			if got != c.where {
				t.Fatalf("filter went to the %s, want %s\nserver: %q\nclient: %q", got, c.where, pl.Server, pl.Client)
			}
			t.Logf("%d rows; rows received %d -> %d, bytes %d -> %d, RPCs %d -> %d; server %q, client %q", len(want.rows),
				stOff.RowsReceived.Load(), stOn.RowsReceived.Load(), stOff.Bytes.Load(), stOn.Bytes.Load(),
				stOff.RPCs.Load(), stOn.RPCs.Load(), pl.Server, pl.Client)
			// Without a LIMIT every range is read to its end, so one scan
			// over them all must take fewer round trips than a scan each.
			// A LIMIT may end the scans after the first range, and how many
			// of the others had opened by then is a matter of timing.
			if got == "ranges" && !strings.Contains(c.q, " LIMIT ") && stOn.RPCs.Load() >= stOff.RPCs.Load() {
				t.Errorf("one scan over the ranges took %d RPCs, one scan each %d", stOn.RPCs.Load(), stOff.RPCs.Load())
			}
			if (got == "server" || got == "both") && stOn.RowsReceived.Load() >= stOff.RowsReceived.Load() {
				t.Errorf("the server filtered nothing: %d rows received with pushdown, %d without",
					stOn.RowsReceived.Load(), stOff.RowsReceived.Load())
			}
			if stOn.Bytes.Load() <= 0 || stOn.Bytes.Load() > stOff.Bytes.Load() {
				t.Errorf("bytes received %d with pushdown, %d without", stOn.Bytes.Load(), stOff.Bytes.Load())
			}
		})
	}
}

// placedRun is a query's rows, its placed plan and the placed read of
// its access.
type placedRun struct {
	rows []catalog.Row
	p    *placed.Plan
	scan *placed.Scan
}

// String is the placed plan's EXPLAIN text.
func (r placedRun) String() string { return r.p.Explain(planner.ExplainEnv{}, nil).Text() }

// runPlaced plans q, places it on s with pushdown on or off, and runs it.
func runPlaced(ctx context.Context, s exec.Store, pl *planner.Planner, q string, on bool) (placedRun, *exec.Stats, error) {
	sel, err := plan(pl, q)
	if err != nil {
		return placedRun{}, nil, err
	}
	p, err := exec.Place(ctx, s, sel, exec.PlaceOptions{NoPushdown: !on})
	if err != nil {
		return placedRun{}, nil, err
	}
	var stats exec.Stats
	rows, err := exectest.DrainPlaced(ctx, &exec.Executor{Store: s}, p, &stats)
	if err != nil {
		return placedRun{}, nil, fmt.Errorf("%w\n%s", err, strings.TrimSpace(sel.String()))
	}
	return placedRun{rows, p, p.Scan(sel.Access)}, &stats, nil
}

// randomLike compares LIKE patterns drawn from the characters the rows
// hold, on key fields and stored columns, with pushdown on against the
// client's evaluation.
func randomLike(ctx context.Context, t *testing.T, st, emb exec.Store, pl *planner.Planner) {
	r := rand.New(rand.NewPCG(21, 22))
	alphabet := []string{"%", "%", "_", "_", "s", "1", "é", "€", "x", "a", "p", "日", "z"}
	pushed := 0
	for range 120 {
		var b strings.Builder
		for n := r.IntN(5); n >= 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		col := []string{"k", "tail", "s", "st"}[r.IntN(4)]
		not := ""
		if r.IntN(4) == 0 {
			not = "NOT "
		}
		q := fmt.Sprintf("SELECT k, id, tail, s, st FROM pd WHERE %s %sLIKE '%s' ALLOW FULL SCAN", col, not, b.String())
		want, _, err := runPlaced(ctx, emb, pl, q, false)
		if err != nil {
			t.Fatal(err)
		}
		on, _, err := runPlaced(ctx, st, pl, q, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameRows(on.rows, want.rows); err != nil {
			t.Fatalf("%s: %v\n%s", q, err, on.String())
		}
		if len(on.scan.Server) > 0 {
			pushed++
		}
	}
	// No pattern holds the key's delimiter, so the server takes each.
	if pushed != 120 {
		t.Errorf("only %d of 120 LIKE filters went to the server", pushed)
	}
	t.Logf("%d of 120 LIKE filters went to the server and agree with the client", pushed)
}

// loadBoth creates the table of a one-table catalog (its yaml has %s
// where the physical name goes) on HBase and on an embedded store, and
// loads the same rows into both.
func loadBoth(t *testing.T, yamlFmt, name string, gen func(*catalog.Table) []catalog.Row) (exec.Store, exec.Store, *planner.Planner) {
	t.Helper()
	st := openStore(t, hbasestore.Options{})
	phys := hbasetest.TableName("rkql_" + name)
	cat, err := catalog.Parse([]byte(fmt.Sprintf(yamlFmt, phys)))
	if err != nil {
		t.Fatal(err)
	}
	dropAtEnd(t, st, []string{phys})
	tb, _ := cat.Table(name)
	emb, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	ctx := context.Background()
	rows := gen(tb)
	for _, s := range []exec.Store{st, emb} {
		if err := ensureTable(t, s, tb).Insert(ctx, tb, rows, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	return st, emb, planner.New(cat, planner.Options{})
}

// fuzzyYAML has a key of fixed-width parts only.
const fuzzyYAML = `
tables:
  - name: fx
    hbase: %s
    families:
      - {name: d, versions: 1}
    columns:
      - {name: g, type: INT}
      - {name: n, type: BIGINT}
      - {name: m, type: INT}
      - {name: s, type: STRING, column: "d:s"}
    rowkey:
      - {field: g, encoding: decimal, width: 2}
      - {field: n, encoding: binary}
      - {field: m, encoding: decimal, width: 4}
    splits: ["02", "05"]
`

func fuzzyRows(tb *catalog.Table) []catalog.Row {
	var out []catalog.Row
	for _, g := range []int64{1, 2, 5, 9} {
		for n := int64(-20); n <= 20; n++ {
			for m := range int64(31) {
				row := tb.NewRow()
				row[0], row[1], row[2] = catalog.Value{Type: catalog.TypeInt, I: g}, catalog.Bigint(n), catalog.Value{Type: catalog.TypeInt, I: m}
				row[3] = catalog.String(fmt.Sprintf("v%d", (n+m)%7))
				out = append(out, row)
			}
		}
	}
	return out
}

// TestPushdownFuzzy checks that equality on fixed-width key parts is a
// FuzzyRowFilter on forward scans, which seeks (the servers read fewer
// rows than with the row filter of a reversed scan), and that both
// agree with the client.
func TestPushdownFuzzy(t *testing.T) {
	ctx := context.Background()
	st, emb, pl := loadBoth(t, fuzzyYAML, "fx", fuzzyRows)
	for _, q := range []string{
		"SELECT * FROM fx WHERE n = 5",
		"SELECT * FROM fx WHERE m IN (3, 7) AND s = 'v3'",
		"SELECT * FROM fx WHERE NOT (n != -5) AND m = 30",
	} {
		t.Run(q, func(t *testing.T) {
			fwd, rev := q+" ALLOW FULL SCAN", q+" ORDER BY g DESC ALLOW FULL SCAN"
			var read [2]int64
			for i, q := range []string{fwd, rev} {
				want, _, err := runPlaced(ctx, emb, pl, q, false)
				if err != nil {
					t.Fatal(err)
				}
				got, stats, err := runPlaced(ctx, st, pl, q, true)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameRows(got.rows, want.rows); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if len(want.rows) == 0 {
					t.Fatalf("%s: no rows", q)
				}
				if i == 1 && !got.scan.Reverse {
					t.Fatalf("%s is not a reversed scan", q)
				}
				read[i] = stats.RowsRead.Load()
				t.Logf("%s: %d rows, servers read %d; %q", q, len(want.rows), read[i], got.scan.Server)
			}
			if read[0]*2 > read[1] {
				t.Errorf("the fuzzy row filter read %d rows, the row filter %d: it did not seek", read[0], read[1])
			}
		})
	}
}
