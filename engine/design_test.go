package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

func runDesignText(t *testing.T, q string) (string, error) {
	t.Helper()
	e := newEngine(t, embedded.Pushdown{})
	st, err := parser.ParseOne(q)
	if err != nil {
		return "", err
	}
	res, err := e.Run(context.Background(), st)
	if err != nil {
		return "", err
	}
	defer res.Close()
	if res.Rows != nil || res.Text == "" {
		t.Fatalf("%s: want text, got %+v", q, res)
	}
	return res.Text, nil
}

// The layout statements run through the engine and read only the catalog.
func TestDesignStatements(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"LINT order_events", []string{"order_events: warning [random-no-index]", "fix: add an index table", "0 error(s), 2 warning(s), 0 note(s)"}},
		{"LINT", []string{"orders: warning [key-length]", "orders_by_buyer: warning [key-length]", "logs: info [series-no-ttl]"}},
		{"LINT sites", []string{"sites_by_owner: info [delimiter-in-values]"}},
		{"SHOW CREATE TABLE logs", []string{"CREATE TABLE logs (hostname STRING, ", "FAMILIES (l VERSIONS 1 COMPRESSION 'SNAPPY') SPLIT BY BUCKETS;\n",
			"\n-- in the HBase shell:\n-- create 'logs', {NAME => 'l', VERSIONS => '1', COMPRESSION => 'SNAPPY'}, {SPLITS => [\"\\x01\", "}},
		{"SHOW CREATE TABLE orders_by_buyer", []string{"CREATE INDEX orders_by_buyer ON orders ROWKEY (buyer, ", "\n-- create 'orders_by_buyer', {NAME => 'd', VERSIONS => '1'}\n"}},
		{"SIMULATE WRITES logs ROWS 16000", []string{"regions used 16 of 16", "1.00 x the mean", "ts = now", "nothing was written"}},
		{"SIMULATE WRITES logs ROWS 1600 WITH ts = sequence COMPARE logs_by_host", []string{"regions used           16                 1", "ts = sequence"}},
	} {
		got, err := runDesignText(t, tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.q, w, got)
			}
		}
	}
}

func TestDesignStatementErrors(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"LINT nope", `table "nope" does not exist`},
		{"SHOW CREATE TABLE nope", `table "nope" does not exist`},
		{"SIMULATE WRITES orders ROWS 10 WITH buyer = sequence", "buyer is not in orders's rowkey"},
		{"SIMULATE WRITES orders ROWS 10 WITH nope = sequence", "table orders has no column nope"},
		{"SIMULATE WRITES orders ROWS 10 WITH seller = uniform(5, 5)", "seller draws from no values"},
		{"SIMULATE WRITES orders ROWS 10 WITH seller = now, seller = now", "seller is given twice"},
		{"SIMULATE WRITES orders ROWS 20000000", "ROWS must be between 1 and 10000000"},
	} {
		_, err := runDesignText(t, tc.q)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.q, err, tc.want)
		}
	}
}

// EXPLAIN (VERBOSE) adds a legend of the KEY line's notation, in text and
// in JSON.
func TestExplainVerboseLegend(t *testing.T) {
	text, err := runDesignText(t, "EXPLAIN (VERBOSE) SELECT * FROM phone_users WHERE phone = '5551234'")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"LEGEND reverse(phone):str: the characters reversed", "user_id:i64: 8 bytes big-endian two's complement, as Java's Bytes.toBytes writes them"} {
		if !strings.Contains(text, w) {
			t.Errorf("EXPLAIN (VERBOSE) lacks %q:\n%s", w, text)
		}
	}
	plain, err := runDesignText(t, "EXPLAIN SELECT * FROM phone_users WHERE phone = '5551234'")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "LEGEND") {
		t.Errorf("plain EXPLAIN has a legend:\n%s", plain)
	}
	js, err := runDesignText(t, "EXPLAIN (VERBOSE, FORMAT JSON) SELECT * FROM user_calendar_record WHERE uid = 7")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `"legend"`) || !strings.Contains(js, "Math.abs(s.hashCode() % 10)") {
		t.Errorf("EXPLAIN (VERBOSE, FORMAT JSON) lacks the legend:\n%s", js)
	}
}
