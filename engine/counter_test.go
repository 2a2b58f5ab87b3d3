package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
)

// counterCatalog has a counter table: visits is a java BIGINT, small an
// INT, txt a BIGINT as text, hot a BIGINT an index covers.
const counterCatalog = `
tables:
  - name: hits
    families: [{name: d}]
    columns:
      - {name: page, type: STRING}
      - {name: visits, type: BIGINT, column: "d:v"}
      - {name: small, type: INT, column: "d:s"}
      - {name: txt, type: BIGINT, column: "d:t", encoding: text}
      - {name: state, type: STRING, column: "d:st"}
    rowkey:
      - {field: page}
  - name: ranked
    families: [{name: d}]
    columns:
      - {name: page, type: STRING}
      - {name: hot, type: BIGINT, column: "d:h"}
      - {name: cold, type: BIGINT, column: "d:c"}
    rowkey:
      - {field: page}
    indexes:
      - name: ranked_by_hot
        rowkey:
          - {field: hot, encoding: java}
          - {field: page}
`

// counterEngine is an engine over the counter catalog and st.
func counterEngine(t testing.TB, st exec.Store) *engine.Engine {
	t.Helper()
	cat, err := catalog.Parse([]byte(counterCatalog))
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
}

// run runs stmt and returns its tag, failing the test on an error.
func run(t testing.TB, e *engine.Engine, stmt string) string {
	t.Helper()
	_, tag, err := e.Exec(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return tag
}

// readAll returns the rows of a SELECT as text.
func readAll(t testing.TB, e *engine.Engine, q string) string {
	t.Helper()
	rows, _, err := e.Exec(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rowsText(rows)
}

// explainText returns the text of an EXPLAIN.
func explainText(t testing.TB, e *engine.Engine, q string) string {
	t.Helper()
	st, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), st)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer res.Close()
	return res.Text
}

func TestUpdateCounter(t *testing.T) {
	e := counterEngine(t, tempStore(t))
	run(t, e, "INSERT INTO hits (page, visits, state) VALUES ('a', 5, 'new'), ('b', 1, 'x'), ('c', NULL, 'y'), ('d', 10, 'z')")
	steps := []struct{ stmt, tag string }{
		{"UPDATE hits SET visits = visits + 1 WHERE page = 'a'", "UPDATE 1"},
		{"UPDATE hits SET visits = visits - 3 WHERE page >= 'b' AND page <= 'c'", "UPDATE 2"},
		{"UPDATE hits SET visits = 7 + visits WHERE page = 'd'", "UPDATE 1"},
		{"UPDATE hits SET visits = visits + -2 WHERE page = 'd'", "UPDATE 1"},
		// No row 'zz': nothing is created.
		{"UPDATE hits SET visits = visits + 1 WHERE page = 'zz'", "UPDATE 0"},
		{"UPDATE hits SET visits = visits + 1 WHERE page >= 'e' AND page < 'f'", "UPDATE 0"},
	}
	for _, s := range steps {
		if got := run(t, e, s.stmt); got != s.tag {
			t.Errorf("%s: %s, want %s", s.stmt, got, s.tag)
		}
	}
	// c had no visits cell: it counts from 0, as HBase's Increment does.
	got := readAll(t, e, "SELECT page, visits, state FROM hits ALLOW FULL SCAN")
	if want := "a 6 new; b -2 x; c -3 y; d 15 z"; got != want {
		t.Errorf("rows: %s\nwant %s", got, want)
	}
	got = explainText(t, e, "EXPLAIN UPDATE hits SET visits = visits + 1 WHERE page = 'a'")
	for _, want := range []string{"SERVER INCREMENT OF ONE ROW OF hits IF IT EXISTS", "BYTES  a\n", "SET    visits = visits + 1", "COST   1 RPC per counter set"} {
		if !strings.Contains(got, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "LOOKUP") {
		t.Errorf("EXPLAIN of one key's counter shows a read:\n%s", got)
	}
	got = explainText(t, e, "EXPLAIN UPDATE hits SET visits = visits + 1 WHERE page >= 'a' AND page < 'c'")
	for _, want := range []string{"RANGE SCAN OVER hits", "SERVER INCREMENT OF EACH ROW OF hits"} {
		if !strings.Contains(got, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, got)
		}
	}
}

func TestUpdateCounterRefused(t *testing.T) {
	e := counterEngine(t, tempStore(t))
	for _, c := range []struct{ stmt, want string }{
		{"UPDATE hits SET small = small + 1 WHERE page = 'a'", "small is INT with encoding java: SET small = small + k is a server increment, which needs a BIGINT stored as Bytes.toBytes(long)"},
		{"UPDATE hits SET txt = txt + 1 WHERE page = 'a'", "txt is BIGINT with encoding text"},
		{"UPDATE hits SET visits = visits + 1, state = 'q' WHERE page = 'a'", "sets only counters"},
		{"UPDATE ranked SET hot = hot + 1 WHERE page = 'a'", "hot is held by index ranked_by_hot: a server increment changes the cell where no index entry follows it"},
		{"UPDATE hits SET visits = visits * 2 WHERE page = 'a'", "expected a value for column visits"},
	} {
		_, _, err := e.Exec(context.Background(), c.stmt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.stmt, err, c.want)
		}
	}
	// A column no index holds counts on a table with indexes.
	run(t, e, "INSERT INTO ranked (page, hot, cold) VALUES ('a', 1, 1)")
	if tag := run(t, e, "UPDATE ranked SET cold = cold + 4 WHERE page = 'a'"); tag != "UPDATE 1" {
		t.Errorf("tag %s", tag)
	}
	if got := readAll(t, e, "SELECT page, hot, cold FROM ranked WHERE hot = 1"); got != "a 1 5" {
		t.Errorf("through the index: %s", got)
	}
}

func TestUpdateCheckAndPut(t *testing.T) {
	e := counterEngine(t, tempStore(t))
	run(t, e, "INSERT INTO hits (page, visits, state) VALUES ('a', 5, 'new'), ('b', 1, 'x')")
	steps := []struct{ stmt, tag string }{
		{"UPDATE hits SET state = 'done' WHERE page = 'a' AND state = 'new'", "UPDATE 1"},
		{"UPDATE hits SET state = 'again' WHERE page = 'a' AND state = 'new'", "UPDATE 0"},
		{"UPDATE hits SET state = 'five', visits = 50 WHERE visits = 5 AND page = 'a'", "UPDATE 1"},
		{"UPDATE hits SET state = 'nulled' WHERE page = 'b' AND small IS NULL", "UPDATE 1"},
		{"UPDATE hits SET state = 'never' WHERE page = 'b' AND state IS NULL", "UPDATE 0"},
		// No row: not written, even where the condition is IS NULL.
		{"UPDATE hits SET state = 'ghost' WHERE page = 'zz' AND small IS NULL", "UPDATE 0"},
		{"UPDATE hits SET state = 'ghost' WHERE page = 'zz' AND state = 'x'", "UPDATE 0"},
	}
	for _, s := range steps {
		if got := run(t, e, s.stmt); got != s.tag {
			t.Errorf("%s: %s, want %s", s.stmt, got, s.tag)
		}
	}
	got := readAll(t, e, "SELECT page, visits, state FROM hits ALLOW FULL SCAN")
	if want := "a 50 five; b 1 nulled"; got != want {
		t.Errorf("rows: %s\nwant %s", got, want)
	}
	got = explainText(t, e, "EXPLAIN UPDATE hits SET state = 'done' WHERE page = 'a' AND state = 'new'")
	for _, want := range []string{"POINT LOOKUP ON 1 KEY", "SERVER CHECK AND MUTATE ROW OF hits", "IF     state = 'new'"} {
		if !strings.Contains(got, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, got)
		}
	}
	// Over several rows the condition is the client's, as before.
	got = explainText(t, e, "EXPLAIN UPDATE hits SET state = 'done' WHERE page >= 'a' AND state = 'new' ALLOW FULL SCAN")
	if strings.Contains(got, "CHECK AND MUTATE") || !strings.Contains(got, "CLIENT UPDATE") {
		t.Errorf("EXPLAIN of a range:\n%s", got)
	}
}

// TestUpdateCounterConcurrent runs SET n = n + 1 from 8 sessions at once,
// 1,000 times each, one UPDATE a statement, and reads 8,000 back. The
// embedded store is one process's at a time (bbolt's flock), so the
// sessions are 8 engines of this process over one Store.
func TestUpdateCounterConcurrent(t *testing.T) {
	const sessions, each = 8, 1000
	st := tempStore(t)
	run(t, counterEngine(t, st), "INSERT INTO hits (page, visits) VALUES ('p', 0)")
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	cat, err := catalog.Parse([]byte(counterCatalog))
	if err != nil {
		t.Fatal(err)
	}
	for range sessions {
		// The table exists: the sessions create none, which the store
		// refuses while another's increment holds its transaction.
		e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if _, tag, err := e.Exec(context.Background(), "UPDATE hits SET visits = visits + 1 WHERE page = 'p'"); err != nil || tag != "UPDATE 1" {
					errs <- fmt.Errorf("tag %q, error %v", tag, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := readAll(t, counterEngine(t, st), "SELECT visits FROM hits WHERE page = 'p'"); got != "8000" {
		t.Errorf("visits %s, want 8000", got)
	}
}
