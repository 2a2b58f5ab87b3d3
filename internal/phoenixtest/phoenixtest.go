// Package phoenixtest finds the Phoenix HBase that integration tests run
// against and runs SQL on it through Apache Phoenix's own JDBC driver.
//
// Require returns the ZooKeeper quorum $RKQL_PHOENIX_ZK names, once it has
// checked that something listens there and that $RKQL_PHOENIX_SQL names
// the command that runs SQL through Phoenix (scripts/phoenix/sql, which
// scripts/test.sh exports). When either is missing the test is skipped,
// or fails when $RKQL_REQUIRE_HBASE=1 and Java and Maven are present, so a
// CI run that should have started Phoenix cannot pass by skipping.
//
// Exec runs statements and fails the test on the first error; Query runs
// one query and returns its rows; Run returns every statement's result.
// Each call is one JVM and one Phoenix connection (seconds to tens of
// seconds): put many statements in one call. The package imports nothing
// of rkql.
package phoenixtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Environment variables read here.
const (
	// EnvQuorum is the Phoenix HBase's ZooKeeper quorum, host:port.
	EnvQuorum = "RKQL_PHOENIX_ZK"
	// EnvSQL is the command that runs SQL through Phoenix's JDBC driver
	// and prints JSON lines (scripts/phoenix/sql).
	EnvSQL = "RKQL_PHOENIX_SQL"
	// EnvRequire, set to 1, turns a skip for a missing server into a
	// failure (where Java and Maven are present).
	EnvRequire = "RKQL_REQUIRE_HBASE"
)

// Require returns the quorum of a reachable Phoenix HBase, or skips the
// test (fails it under $RKQL_REQUIRE_HBASE=1 where java and mvn are on
// PATH: there scripts/test.sh starts one).
func Require(t testing.TB) string {
	t.Helper()
	zk, cmd := os.Getenv(EnvQuorum), os.Getenv(EnvSQL)
	var why string
	switch {
	case zk == "" || cmd == "":
		why = fmt.Sprintf("%s or %s is unset", EnvQuorum, EnvSQL)
	default:
		if _, err := os.Stat(cmd); err != nil {
			why = fmt.Sprintf("%s: %v", EnvSQL, err)
		} else if c, err := net.DialTimeout("tcp", firstHost(zk), 5*time.Second); err != nil {
			why = fmt.Sprintf("nothing answers at %s (%s): %v", zk, EnvQuorum, err)
		} else {
			c.Close()
			return zk
		}
	}
	if os.Getenv(EnvRequire) == "1" {
		_, jerr := exec.LookPath("java")
		_, merr := exec.LookPath("mvn")
		if jerr == nil && merr == nil {
			t.Fatalf("a Phoenix HBase is required (%s=1, Java and Maven present): %s", EnvRequire, why)
		}
	}
	t.Skipf("no Phoenix HBase: %s (RKQL_HBASE_PHOENIX=1 scripts/hbase/up starts one)", why)
	return ""
}

// firstHost returns the first host:port of a quorum, with ZooKeeper's
// default port when it names none.
func firstHost(quorum string) string {
	h := strings.TrimSpace(strings.Split(quorum, ",")[0])
	if _, _, err := net.SplitHostPort(h); err != nil {
		h = net.JoinHostPort(h, "2181")
	}
	return h
}

// Column is a query result's column: its label and Phoenix type name.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Result is what one statement did: a query's columns and rows, or
// another statement's update count.
type Result struct {
	Stmt    int
	SQL     string
	Query   bool
	Columns []Column
	// Rows hold JSON-typed values: nil for NULL, json.Number for numbers
	// (exact), string (text; hex for binary; ISO 8601 UTC for DATE, TIME
	// and TIMESTAMP), bool, and []any for arrays.
	Rows   [][]any
	Update int64
}

// line is one line of the command's output.
type line struct {
	Stmt    int
	Columns []Column
	Row     []any
	End     bool
	Rows    int64
	Update  *int64
	Error   string
}

// Run runs the statements in one Phoenix connection, each committed when
// it has run, and returns their results in order; it fails the test on
// the first error.
func Run(t testing.TB, stmts ...string) []Result {
	t.Helper()
	return run(t, nil, stmts)
}

// RunBatch is Run committing the writes every n statements (and before
// each query and at the end): faster for many UPSERTs.
func RunBatch(t testing.TB, n int, stmts ...string) []Result {
	t.Helper()
	return run(t, []string{"--batch", strconv.Itoa(n)}, stmts)
}

// Exec runs the statements (see Run) and drops their results.
func Exec(t testing.TB, stmts ...string) {
	t.Helper()
	run(t, nil, stmts)
}

// Query runs one query and returns its rows.
func Query(t testing.TB, sql string) [][]any {
	t.Helper()
	rs := run(t, nil, []string{sql})
	if len(rs) != 1 || !rs[0].Query {
		t.Fatalf("phoenix: %s: not a query", sql)
	}
	return rs[0].Rows
}

func run(t testing.TB, flags []string, stmts []string) []Result {
	t.Helper()
	Require(t)
	stmts = append([]string(nil), stmts...)
	for i, s := range stmts {
		stmts[i] = strings.TrimRight(strings.TrimSpace(s), ";")
	}
	cmd := exec.Command(os.Getenv(EnvSQL), flags...)
	// Each ';' on a line of its own: a statement may end in a -- comment.
	cmd.Stdin = strings.NewReader(strings.Join(stmts, "\n;\n") + "\n;\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	results := make([]Result, len(stmts))
	for i := range results {
		results[i] = Result{Stmt: i + 1, SQL: stmts[i]}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	done := 0
	for dec.More() {
		var l line
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("phoenix: reading the output of %s: %v\n%s", os.Getenv(EnvSQL), err, out)
		}
		if l.Stmt < 1 || l.Stmt > len(stmts) {
			t.Fatalf("phoenix: output names statement %d of %d", l.Stmt, len(stmts))
		}
		r := &results[l.Stmt-1]
		switch {
		case l.Error != "":
			t.Fatalf("phoenix: statement %d (%s): %s", l.Stmt, abbrev(stmts[l.Stmt-1]), l.Error)
		case l.Columns != nil:
			r.Query, r.Columns = true, l.Columns
		case l.Row != nil:
			r.Rows = append(r.Rows, l.Row)
		case l.End:
			if int64(len(r.Rows)) != l.Rows {
				t.Fatalf("phoenix: statement %d: read %d rows, the end says %d", l.Stmt, len(r.Rows), l.Rows)
			}
			done = l.Stmt
		case l.Update != nil:
			r.Update = *l.Update
			done = l.Stmt
		}
	}
	if err != nil {
		t.Fatalf("phoenix: %s: %v\n%s", os.Getenv(EnvSQL), err, stderr.String())
	}
	if done != len(stmts) {
		t.Fatalf("phoenix: %d statements ran of %d\n%s", done, len(stmts), stderr.String())
	}
	return results
}

// abbrev shortens a statement for a message.
func abbrev(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
