package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// reporting is a store that declares another store's Pushdown: EXPLAIN's
// placement needs only the declaration, so an embedded store can show
// what HBase would be asked to do.
type reporting struct {
	exec.Store
	p exec.Pushdown
}

func (r reporting) Pushdown() exec.Pushdown { return r.p }

// newEngine returns an engine over an empty embedded store (tables are
// created on demand, with their splits) that declares pushdown p.
func newEngine(t testing.TB, p exec.Pushdown) *engine.Engine {
	t.Helper()
	st := tempStore(t)
	// NOW() reads a fixed clock, so that EXPLAIN's folded times stay put.
	now := func() time.Time { return time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) }
	return exampleEngine(t, engine.Config{Planner: planner.Options{Now: now},
		Open: func(context.Context) (exec.Store, error) { return reporting{st, p}, nil }})
}

func explain(t testing.TB, e *engine.Engine, q string) (string, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return "", err
	}
	res, err := e.Run(context.Background(), stmt)
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

// TestExplain checks EXPLAIN as each store places the plan, in text and
// JSON, against testdata/explain; regenerate with -rewrite.
func TestExplain(t *testing.T) {
	stores := map[string]exec.Pushdown{"embedded": embedded.Pushdown{}, "hbase": hbasestore.Pushdown{}}
	engines := map[string]*engine.Engine{}
	datadriven.RunTest(t, "testdata/explain", func(t *testing.T, d *datadriven.TestData) string {
		store := "embedded"
		d.MaybeScanArgs(t, "store", &store)
		p, ok := stores[store]
		if !ok {
			return "unknown store " + store
		}
		e := engines[store]
		if e == nil {
			e = newEngine(t, p)
			engines[store] = e
		}
		e.SetPushdown(!d.HasArg("no-pushdown"))
		q := strings.TrimSpace(d.Input)
		switch d.Cmd {
		case "explain":
			q = "EXPLAIN " + q
		case "explain-json":
			q = "EXPLAIN (FORMAT JSON) " + q
		default:
			return "unknown command " + d.Cmd
		}
		out, err := explain(t, e, q)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return out
	})
}

// accessPaths are queries that, over the example catalog, reach every
// access path: point lookups, range and skip scans, fan-outs with merges,
// reverse scans, index lookups (covered or not), full scans, client sorts,
// counts and limits.
var accessPaths = []string{
	"SELECT * FROM orders WHERE seller = 's1' AND ts = TIMESTAMP '2024-05-01 10:00:00' AND order_id = 42",
	"SELECT * FROM orders WHERE seller = 's1' AND ts BETWEEN TIMESTAMP '2024-05-01 00:00:00' AND TIMESTAMP '2024-05-02 00:00:00' AND status = 'paid'",
	"SELECT order_id FROM orders WHERE seller IN ('s1', 's2') ORDER BY ts DESC LIMIT 5",
	"SELECT COUNT(*) FROM orders WHERE seller = 's1'",
	"SELECT amount FROM orders WHERE buyer = 'b7' ORDER BY ts DESC LIMIT 20",
	"SELECT * FROM orders WHERE order_id = 42",
	"SELECT * FROM orders WHERE seller = 's1' ORDER BY amount DESC LIMIT 3",
	"SELECT * FROM user_calendar_record WHERE uid = 8839540 AND date >= DATE '2019-01-01'",
	"SELECT * FROM logs WHERE ts BETWEEN TIMESTAMP '2024-05-01 00:00:00' AND TIMESTAMP '2024-05-01 01:00:00' AND hostname = 'web1' ORDER BY ts LIMIT 100",
	"SELECT * FROM logs_by_host WHERE hostname = 'web1' AND log_event LIKE 'err%'",
	"SELECT * FROM device_metrics WHERE device_id = 'd1' ORDER BY ts LIMIT 10",
	"SELECT * FROM phone_users WHERE phone LIKE '%4321'",
	"SELECT * FROM sites WHERE owner = 'alice'",
	"SELECT * FROM sites WHERE domain IN ('a.com', 'b.org')",
	"SELECT * FROM order_events WHERE user_id = 7 AND order_id = 9",
	"SELECT * FROM order_events WHERE user_id = 7 ORDER BY order_id DESC",
	"SELECT * FROM device_metrics WHERE model = 'x' ALLOW FULL SCAN",
	"SELECT * FROM orders WHERE seller = 's1' AND seller = 's2'",
	"SELECT * FROM orders WHERE seller = 's1' AND ts > NOW() - INTERVAL '1' HOUR",
	"SELECT seller, COUNT(*) AS n, MAX(ts) FROM orders GROUP BY seller ALLOW FULL SCAN",
	"SELECT status, COUNT(*), SUM(amount) FROM orders WHERE seller = 's3' GROUP BY status HAVING COUNT(*) > 1 ORDER BY 2 DESC",
	"SELECT COUNT(DISTINCT order_id), AVG(amount) FROM orders WHERE seller = 's1'",
	"SELECT *, _ts, _key, amount * 2 AS twice FROM orders WHERE seller = 's1' ORDER BY twice DESC LIMIT 5 OFFSET 2",
	"SELECT DISTINCT seller FROM orders ALLOW FULL SCAN",
	"SELECT DISTINCT seller FROM orders WHERE seller IN ('s1', 's2') AND status = 'paid' ORDER BY seller DESC LIMIT 1",
	"SELECT DISTINCT status FROM orders WHERE seller = 's1'",
	"SELECT * FROM orders WHERE (seller = 's1' AND ts > TIMESTAMP '2024-05-01 10:00:00') OR (seller = 's2' AND status = 'paid')",
	"SELECT * FROM user_calendar_record WHERE (uid, date, type) IN ((7, DATE '2024-01-02', 1), (8, DATE '2024-01-03', 2))",
	"SELECT * FROM logs_by_host WHERE hostname LIKE 'web!_1%' ESCAPE '!'",
	"SELECT seller, amount FROM orders WHERE status = 'paid' AND (buyer = 'b2' OR seller = 's3') ORDER BY amount LIMIT 2",
	"SELECT b.order_id, o.amount FROM orders_by_buyer b JOIN orders o ON o.seller = b.seller AND o.ts = b.ts AND o.order_id = b.order_id WHERE b.buyer = 'b7' AND o.status = 'paid'",
	"SELECT o.order_id, s.domain FROM orders o LEFT JOIN sites s ON s.owner = o.buyer WHERE o.seller = 's1' ORDER BY s.domain LIMIT 5",
	"SELECT o.status, COUNT(*) FROM orders o JOIN orders p ON p.status = o.status AND p.amount > o.amount WHERE o.seller = 's1' AND p.seller = 's2' GROUP BY o.status",
}

// TestExplainTextAndJSONAgree renders every access path of every store
// placement in both formats and checks that they say the same: each JSON
// step has the text's title, in the same order, and every attribute the
// text shows has the same value in the JSON.
func TestExplainTextAndJSONAgree(t *testing.T) {
	for name, p := range map[string]exec.Pushdown{"embedded": embedded.Pushdown{}, "hbase": hbasestore.Pushdown{}} {
		e := newEngine(t, p)
		for _, on := range []bool{true, false} {
			e.SetPushdown(on)
			for _, q := range accessPaths {
				t.Run(fmt.Sprintf("%s/%v/%s", name, on, q), func(t *testing.T) {
					text, err := explain(t, e, "EXPLAIN "+q)
					if err != nil {
						t.Fatal(err)
					}
					js, err := explain(t, e, "EXPLAIN (FORMAT JSON) "+q)
					if err != nil {
						t.Fatal(err)
					}
					checkAgree(t, text, js)
				})
			}
		}
	}
}

func checkAgree(t *testing.T, text, js string) {
	t.Helper()
	var doc struct {
		Plan []map[string]any `json:"plan"`
		Cost string           `json:"cost"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, js)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	i := 0
	for _, step := range doc.Plan {
		title, _ := step["title"].(string)
		for i < len(lines) && lines[i] != title {
			i++
		}
		if i == len(lines) {
			t.Fatalf("JSON step %q is not a line of the text, in order:\n%s", title, text)
		}
		i++
		// The attribute lines under the title: each must be in the JSON.
		for ; i < len(lines) && strings.HasPrefix(lines[i], "    "); i++ {
			if !attrInJSON(strings.TrimSpace(lines[i]), step) {
				t.Errorf("text line %q of step %q has no JSON attribute with its value\n%s", lines[i], title, js)
			}
		}
	}
	if !strings.Contains(text, "COST   "+doc.Cost+"\n") {
		t.Errorf("JSON cost %q is not the text's COST", doc.Cost)
	}
	if len(doc.Plan) == 0 {
		t.Fatal("no steps")
	}
}

// attrInJSON reports whether a text attribute line ("LABEL value") is a
// JSON attribute of the step: its key is the label in snake case, and its
// value the rest of the line.
func attrInJSON(line string, step map[string]any) bool {
	for k, v := range step {
		var val string
		switch v := v.(type) {
		case string:
			val = v
		case float64:
			val = fmt.Sprint(v)
		case bool:
			val = ""
		case []any:
			// A list prints its first value after the label and the
			// others on lines of their own.
			label := strings.ToUpper(strings.ReplaceAll(k, "_", " "))
			for i, x := range v {
				if s, ok := x.(string); ok && (line == s && i > 0 || strings.HasPrefix(line, label) && strings.TrimSpace(strings.TrimPrefix(line, label)) == s) {
					return true
				}
			}
			continue
		default:
			continue
		}
		label := strings.ToUpper(strings.ReplaceAll(k, "_", " "))
		switch {
		case val == "" && line == label:
			return true
		case strings.HasPrefix(line, label) && strings.TrimSpace(strings.TrimPrefix(line, label)) == val:
			return true
		case strings.Contains(line, " "+val+" ") && strings.HasPrefix(line, strings.Fields(label)[0]):
			// A value inside its label, as in "SERVER 5 ROW LIMIT".
			if strings.ReplaceAll(line, " "+val+" ", " ") == label {
				return true
			}
		}
	}
	return false
}
