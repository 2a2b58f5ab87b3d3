package shell

import (
	"strings"
	"testing"

	prompt "github.com/elk-language/go-prompt"
	"github.com/google/go-cmp/cmp"

	"github.com/rkql/rkql/catalog"
)

// completionYAML is the catalog of the completion tests: two tables, one
// with an index and a column spelled like a reserved word.
const completionYAML = `
tables:
  - name: orders
    families: [{name: d}]
    columns:
      - {name: seller, type: STRING}
      - {name: order_id, type: BIGINT}
      - {name: status, type: STRING, column: "d:status"}
      - {name: limit, type: INT, column: "d:limit"}
    rowkey:
      - {field: seller}
      - {literal: "|"}
      - {field: order_id, encoding: binary}
    indexes:
      - name: orders_by_status
        rowkey:
          - {field: status}
          - {literal: "|"}
          - {field: order_id, encoding: binary}
        carries: [seller]
  - name: logs
    families: [{name: l}]
    columns:
      - {name: ts, type: TIMESTAMP}
      - {name: host, type: STRING}
      - {name: msg, type: STRING, column: "l:msg"}
    rowkey:
      - {field: host}
      - {literal: "|"}
      - {field: ts, encoding: java}
`

func completionCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse([]byte(completionYAML))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The completer is driven through go-prompt's Document, with the cursor
// where the input has its '|'.
func TestComplete(t *testing.T) {
	c := newCompleter(completionCatalog(t))
	tests := []struct {
		in   string
		want []string // suggestion texts, in order
		word string   // the word they replace
	}{
		// statement starts: starters only, in the case typed
		{in: "|", want: nil},
		{in: "s|", want: []string{"select", "show", "simulate", "snapshot"}, word: "s"},
		{in: "se|", want: []string{"select"}, word: "se"},
		{in: "SH|", want: []string{"SHOW"}, word: "SH"},
		{in: "  d|", want: []string{"decode", "delete", "desc", "describe", "drop"}, word: "d"},
		{in: "select|", want: nil, word: "select"},
		// meta-commands and their arguments
		{in: `\|`, want: []string{`\q`, `\?`, `\h`, `\conninfo`, `\connect`, `\watch`, `\d`, `\d+`, `\dt`, `\di`, `\status`, `\i`, `\o`, `\e`, `\echo`, `\!`, `\set`, `\unset`, `\x`, `\pset`, `\pager`, `\timing`, `\pushdown`, `\blockcache`, `\parallel`, `\format`}, word: `\`},
		{in: `\x |`, want: []string{"on", "off", "auto"}, word: ""},
		{in: `\blockcache |`, want: []string{"on", "off", "auto"}, word: ""},
		{in: `\t|`, want: []string{`\timing`}, word: `\t`},
		{in: `\d |`, want: []string{"logs", "orders", "orders_by_status"}},
		{in: `\d o|`, want: []string{"orders", "orders_by_status"}, word: "o"},
		{in: `\d ORD|`, want: []string{"orders", "orders_by_status"}, word: "ORD"},
		{in: `\format j|`, want: []string{"json", "jsonl"}, word: "j"},
		{in: `\timing o|`, want: []string{"on", "off"}, word: "o"},
		{in: `\d orders |`, want: nil},
		// tables
		{in: "SELECT * FROM |", want: []string{"logs", "orders", "orders_by_status"}},
		{in: "SELECT * FROM l|", want: []string{"logs"}, word: "l"},
		{in: "SELECT *\n  FROM L|", want: []string{"logs"}, word: "L"},
		{in: "SELECT * FROM logs|", want: nil, word: "logs"},
		{in: "INSERT INTO |", want: []string{"logs", "orders", "orders_by_status"}},
		{in: "DESCRIBE o|", want: []string{"orders", "orders_by_status"}, word: "o"},
		{in: "show regions lo|", want: []string{"logs"}, word: "lo"},
		{in: "CHECK CLUSTER |", want: []string{"logs", "orders", "orders_by_status"}},
		{in: "check meta o|", want: []string{"orders", "orders_by_status"}, word: "o"},
		{in: "CHECK CLUSTER logs |", want: nil},
		{in: "ENCODE KEY |", want: []string{"logs", "orders", "orders_by_status"}},
		{in: "BUILD INDEX orders_by_status ON o|", want: []string{"orders", "orders_by_status"}, word: "o"},
		// indexes
		{in: "BUILD INDEX |", want: []string{"orders_by_status"}},
		{in: "check index o|", want: []string{"orders_by_status"}, word: "o"},
		{in: "SELECT * FROM orders USE INDEX (|", want: []string{"orders_by_status"}},
		{in: "SELECT * FROM logs USE INDEX (|", want: nil},
		// columns of the statement's table, with the keywords that match
		{in: "SELECT * FROM orders WHERE |", want: []string{"seller", "order_id", "status", `"limit"`}},
		{in: "SELECT * FROM orders WHERE s|", want: []string{"seller", "status", "scan", "second", "snapshots", "system_time"}, word: "s"},
		{in: "SELECT * FROM orders WHERE seller = 'x' AND |", want: []string{"seller", "order_id", "status", `"limit"`}},
		{in: "SELECT * FROM orders WHERE seller = 'x' |", want: nil},
		{in: "SELECT * FROM orders WHERE seller = 'x' L|", want: []string{`"limit"`, "LIKE", "LIMIT"}, word: "L"},
		{in: "SELECT * FROM orders WHERE seller = 'x' ORDER BY |", want: []string{"seller", "order_id", "status", `"limit"`}},
		{in: "SELECT * FROM orders WHERE seller = 'x' ORDER BY order_id d|", want: []string{"date", "day", "desc", "distinct"}, word: "d"},
		{in: "SELECT h| FROM logs", want: []string{"host", "having", "hour"}, word: "h"},
		{in: "SELECT |, ts FROM logs", want: []string{"ts", "host", "msg"}},
		{in: "SELECT |", want: nil},
		{in: "SELECT * FROM logs WHERE host IN (|", want: nil},
		{in: "SELECT count(|", want: nil},
		{in: "INSERT INTO logs (|", want: []string{"ts", "host", "msg"}},
		{in: "INSERT INTO logs (ts, host) VALUES (|", want: nil},
		{in: "INSERT INTO logs (ts, host) VALUES (1, 'a') T|", want: []string{"TABLE", "TABLES", "TEXT", "THEN", "TIMESTAMP", "TRUE"}, word: "T"},
		// EXPLAIN takes a statement after it
		{in: "EXPLAIN s|", want: []string{"scan", "second", "select", "snapshots", "system_time"}, word: "s"},
		{in: "EXPLAIN SELECT * FROM logs WHERE host = 'a' s|", want: []string{"scan", "second", "snapshots", "system_time"}, word: "s"},
		// the statement is the one the cursor is in
		{in: "SELECT * FROM logs; SELECT * FROM orders WHERE O|", want: []string{"order_id", "OF", "OFF", "OFFSET", "ON", "OR", "ORDER", "OUTER"}, word: "O"},
		{in: "SELECT * FROM orders WHERE st|; SELECT 1 FROM logs;", want: []string{"status"}, word: "st"},
		{in: "SELECT * FROM logs; s|", want: []string{"select", "show", "simulate", "snapshot"}, word: "s"},
		// nothing inside strings and comments
		{in: "SELECT * FROM orders WHERE seller = 's|", want: nil, word: "s"},
		{in: "SELECT * FROM orders -- s|", want: nil, word: "s"},
		{in: "SELECT * FROM orders /* s|", want: nil, word: "s"},
		{in: `SELECT * FROM "ord|`, want: nil, word: `"ord`},
		// malformed text before the word is read past
		{in: "SELECT * FROM orders WHERE seller = 1x AND st|", want: []string{"status"}, word: "st"},
		{in: "SELECT * FROM orders WHERE seller = x'00' AND st|", want: []string{"status"}, word: "st"},
		{in: "SELECT * FROM orders WHERE é = 1 AND st|", want: []string{"status"}, word: "st"},
		{in: "SELECT * FROM orders -- ;\n WHERE st|", want: []string{"status"}, word: "st"},
		{in: "SELECT * FROM logs /* ; */ WHERE h|", want: []string{"host", "having", "hour"}, word: "h"},
		// a name quoted in the statement still names its table
		{in: `SELECT * FROM "logs" WHERE h|`, want: []string{"host", "having", "hour"}, word: "h"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			text := strings.Replace(tc.in, "|", "", 1)
			cur := strings.Index(tc.in, "|")
			sugs, word := c.suggest(text, cur)
			var got []string
			for _, s := range sugs {
				got = append(got, s.Text)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("suggestions (-want +got):\n%s", diff)
			}
			if word != tc.word {
				t.Errorf("word %q, want %q", word, tc.word)
			}
		})
	}
}

// Suggestions carry a description: a column's type and place, a table's
// key layout, an index's table, a meta-command's help.
func TestCompleteDescriptions(t *testing.T) {
	c := newCompleter(completionCatalog(t))
	tests := []struct{ in, want string }{
		{"SELECT * FROM orders WHERE sel", "seller: STRING key"},
		{"SELECT * FROM orders WHERE stat", "status: STRING d:status"},
		{"SELECT * FROM lo", "logs: key host:str| | ts:i64"},
		{"SELECT * FROM orders_by", "orders_by_status: index on orders, key status:str| | order_id:i64f"},
		{"CHECK INDEX o", "orders_by_status: on orders, key status:str| | order_id:i64f"},
		{`\tim`, `\timing: toggle printing how long each statement took`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sugs, _ := c.suggest(tc.in, len(tc.in))
			if len(sugs) != 1 {
				t.Fatalf("got %v, want one suggestion", sugs)
			}
			if got := sugs[0].Text + ": " + sugs[0].Description; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Complete gives go-prompt the rune range of the word, which its Tab
// replaces with the suggestion.
func TestCompleteRange(t *testing.T) {
	c := newCompleter(completionCatalog(t))
	buf := prompt.NewBuffer()
	buf.InsertTextMoveCursor("SELECT 'é' FROM lo", 80, 24, false)
	sugs, start, end := c.Complete(*buf.Document())
	if len(sugs) != 1 || sugs[0].Text != "logs" || start != 16 || end != 18 {
		t.Fatalf("got %v [%d,%d), want [logs] [16,18)", sugs, start, end)
	}
}

// go-prompt asks again after each Tab, with the suggestion chosen in
// place of the word; the completer hands back the same list and range
// while Tab walks it, and a fresh one otherwise.
func TestCompleteTabWalk(t *testing.T) {
	c := newCompleter(completionCatalog(t))
	both := []string{"orders", "orders_by_status"}
	steps := []struct {
		key        prompt.Key
		text       string
		want       []string
		start, end int
	}{
		{prompt.NotDefined, "SELECT * FROM o", both, 14, 15},
		{prompt.Tab, "SELECT * FROM orders", both, 14, 15},
		{prompt.Tab, "SELECT * FROM orders_by_status", both, 14, 15},
		{prompt.Tab, "SELECT * FROM o", both, 14, 15},
		{prompt.Down, "SELECT * FROM orders", both, 14, 15},
		{prompt.NotDefined, "SELECT * FROM orders", both, 14, 20},
		{prompt.Tab, "SELECT * FROM logs", nil, 14, 18},
		{prompt.Up, "SELECT * FROM o", both, 14, 15},
		{prompt.Up, "SELECT 1;", nil, 9, 9},
	}
	for i, st := range steps {
		sugs, start, end := c.complete(st.key, st.text, len(st.text))
		var got []string
		for _, s := range sugs {
			got = append(got, s.Text)
		}
		if diff := cmp.Diff(st.want, got); diff != "" || int(start) != st.start || int(end) != st.end {
			t.Fatalf("step %d (%q): range [%d,%d), want [%d,%d); suggestions (-want +got):\n%s", i, st.text, start, end, st.start, st.end, diff)
		}
	}
}

// Completion never fails, wherever the cursor is.
func TestCompleteEveryPosition(t *testing.T) {
	c := newCompleter(completionCatalog(t))
	texts := []string{
		"SELECT seller FROM orders WHERE seller = 'é';\nSELECT seller FROM orders\n  WHERE seller = 'ü' AND nope = 1;\n",
		"SELECT 1; SELECT 2; SELECT * FROM logs USE INDEX (x) WHERE host IN ('a', 'b') ORDER BY ts DESC LIMIT 3;",
		`\d orders; \format csv`,
		"INSERT INTO \"logs\" (ts, host) VALUES (1, 'it''s'), (2, x'00ff') TIMESTAMP 5; -- done\n/* c */ EXPLAIN (FORMAT JSON) DELETE FROM orders WHERE seller = '';",
		"SELECT \"unterminated FROM ; 'x",
	}
	for _, text := range texts {
		for cur := 0; cur <= len(text); cur++ {
			c.suggest(text, cur)
			c.complete(prompt.Tab, text, cur)
		}
	}
}

func FuzzComplete(f *testing.F) {
	f.Add("SELECT * FROM orders WHERE seller = 's1'; SELECT 1", 30)
	f.Add("\\d o", 4)
	f.Add("INSERT INTO logs (ts) VALUES (1); BUILD INDEX ", 45)
	c := newCompleter(completionCatalog(f))
	f.Fuzz(func(t *testing.T, text string, cur int) {
		if cur < 0 || cur > len(text) {
			return
		}
		c.suggest(text, cur)
	})
}
