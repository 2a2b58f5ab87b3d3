package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// counterStores names the stores the counter tests run on.
var counterStores = []string{"embedded", "hbase"}

// counterFlags returns the flags that reach store (see counterStores)
// with a catalog of one counter table: the embedded store in a directory
// of the test's, or the test HBase (skipped without RKQL_HBASE_ZK,
// failed under RKQL_REQUIRE_HBASE=1) with a table of the test's, created
// here and dropped at the end.
func counterFlags(t *testing.T, store string) []string {
	t.Helper()
	table := func(hb string) string {
		return `tables:
  - name: hits
` + hb + `    families: [{name: d}]
    columns:
      - {name: page, type: STRING}
      - {name: visits, type: BIGINT, column: "d:v"}
      - {name: state, type: STRING, column: "d:st"}
    rowkey:
      - {field: page}
`
	}
	if store == "embedded" {
		return []string{"--store", t.TempDir(), "--catalog", writeFile(t, "catalog.yaml", table("")), "--lock-timeout", "10m"}
	}
	q := hbasetest.Quorum(t)
	name := hbasetest.TableName("counters_hits")
	flags := []string{"--zk", q, "--allow-writes", "--catalog", writeFile(t, "catalog.yaml", table("    hbase: "+name+"\n"))}
	dropAtEnd(t, q, []string{name})
	rkqlOK(t, append(flags, "-e", "CREATE TABLE hits")...)
	return flags
}

// rkqlOK runs the binary with args, failing the test unless it succeeds,
// and returns its standard output.
func rkqlOK(t *testing.T, args ...string) string {
	t.Helper()
	cmd := command(t, rkqlBin, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("rkql %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// TestCounterProcesses runs UPDATE … SET visits = visits + 1 from 8 rkql
// processes at once, 1,000 statements each (one UPDATE a statement, no
// batching), and reads 8,000 back. On HBase each is a Get and a server
// Increment, and the processes interleave. The embedded store is one
// process's at a time (bbolt's flock, waited for up to --lock-timeout),
// so there the processes take turns; each one's write clock starts
// afresh, which the increment's timestamp must not fall behind.
func TestCounterProcesses(t *testing.T) {
	const procs, each = 8, 1000
	script := writeFile(t, "inc.sql", strings.Repeat("UPDATE hits SET visits = visits + 1 WHERE page = 'p';\n", each))
	for _, name := range counterStores {
		t.Run(name, func(t *testing.T) {
			flags := counterFlags(t, name)
			rkqlOK(t, append(flags, "-e", "INSERT INTO hits (page, visits) VALUES ('p', 0)")...)
			start := time.Now()
			var wg sync.WaitGroup
			errs := make([]error, procs)
			for i := range procs {
				cmd := command(t, rkqlBin, append(flags, "-q", "--stop-on-error", "-f", script)...)
				var errb strings.Builder
				cmd.Stderr = &errb
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := cmd.Run(); err != nil {
						errs[i] = fmt.Errorf("process %d: %v: %s", i, err, errb.String())
					}
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%s: %d processes × %d UPDATEs in %v", name, procs, each, time.Since(start).Round(time.Millisecond))
			if got := rkqlOK(t, append(flags, "--format", "csv", "-e", "SELECT visits FROM hits WHERE page = 'p'")...); got != "visits\n8000\n" {
				t.Errorf("visits: %q, want 8000", got)
			}
		})
	}
}

// TestCheckAndPutStores runs conditional single-row UPDATEs on each
// store, applied and not, and reads the rows back.
func TestCheckAndPutStores(t *testing.T) {
	for _, name := range counterStores {
		t.Run(name, func(t *testing.T) {
			flags := counterFlags(t, name)
			script := writeFile(t, "check.sql", `INSERT INTO hits (page, visits, state) VALUES ('a', 5, 'new'), ('b', 1, NULL);
UPDATE hits SET state = 'done' WHERE page = 'a' AND state = 'new';
UPDATE hits SET state = 'again' WHERE page = 'a' AND state = 'new';
UPDATE hits SET visits = 50 WHERE page = 'a' AND visits = 5;
UPDATE hits SET state = 'set' WHERE page = 'b' AND state IS NULL;
UPDATE hits SET state = 'never' WHERE page = 'b' AND state IS NULL;
UPDATE hits SET state = 'ghost' WHERE page = 'zz' AND state IS NULL;
UPDATE hits SET visits = visits + 10 WHERE page = 'b';
UPDATE hits SET visits = visits + 1 WHERE page = 'zz';
SELECT page, visits, state FROM hits ALLOW FULL SCAN;
EXPLAIN UPDATE hits SET state = 'x' WHERE page = 'a' AND state = 'done';
EXPLAIN UPDATE hits SET visits = visits + 1 WHERE page = 'a';
`)
			got := rkqlOK(t, append(flags, "--format", "csv", "-f", script)...)
			for _, want := range []string{
				"INSERT 2\nUPDATE 1\nUPDATE 0\nUPDATE 1\nUPDATE 1\nUPDATE 0\nUPDATE 0\nUPDATE 1\nUPDATE 0\n",
				"page,visits,state\na,50,done\nb,11,set\n",
				"SERVER CHECK AND MUTATE ROW OF hits", "IF     state = 'done'",
				"SERVER INCREMENT OF ONE ROW OF hits IF IT EXISTS",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
		})
	}
}
