package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// writeStatements are the statements a read-only session must refuse.
var writeStatements = []struct{ stmt, what string }{
	{"CREATE TABLE orders", "CREATE TABLE"},
	{"INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'o', 1)", "INSERT"},
	{"DELETE FROM sites WHERE domain = 'a.com'", "DELETE"},
	{"BUILD INDEX sites_by_owner ON sites", "BUILD INDEX"},
	{"CHECK INDEX sites_by_owner REPAIR", "CHECK INDEX … REPAIR"},
}

// TestClusterReadOnly checks that with --zk and without --allow-writes
// every write is refused before anything is sent: the quorum here does
// not even exist.
func TestClusterReadOnly(t *testing.T) {
	for _, w := range writeStatements {
		t.Run(w.what, func(t *testing.T) {
			r := rkql(t, "", "--zk", "127.0.0.1:1", "-e", w.stmt)
			want := "rkql: " + w.what + " refused: writes to the HBase cluster at 127.0.0.1:1 need --allow-writes\n"
			if r.code != 1 || r.stderr != want {
				t.Errorf("exit %d, stderr %q; want 1, %q", r.code, r.stderr, want)
			}
		})
	}
	t.Run("import", func(t *testing.T) {
		f := writeFile(t, "rows.jsonl", `{"domain": "a.com", "owner": "o", "visits": 1}`+"\n")
		r := rkql(t, "", "import", "--zk", "127.0.0.1:1", "--table", "sites", f)
		if r.code != 1 || !strings.Contains(r.stderr, "import refused: writes to the HBase cluster at 127.0.0.1:1 need --allow-writes") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
	})
	t.Run("reads-are-tried", func(t *testing.T) {
		r := rkql(t, "", "--zk", "127.0.0.1:1", "-e", "CHECK INDEX sites_by_owner")
		if r.code != 1 || !strings.Contains(r.stderr, "cannot reach HBase") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
	})
}

// scratchCatalog writes the example catalog with each physical table,
// index tables included, renamed <prefix>_<name>, and returns its path and
// the physical names. The tables are dropped when the test ends.
func scratchCatalog(t *testing.T, q string) (string, []string) {
	t.Helper()
	prefix := hbasetest.TableName("rkql_sh")
	var doc yaml.Node
	if err := yaml.Unmarshal(examples.CatalogYAML, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	rename := func(m *yaml.Node) {
		name := prefix + "_" + yamlValue(m, "name").Value
		names = append(names, name)
		if v := yamlValue(m, "hbase"); v != nil {
			v.Value = name
			return
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "hbase"}, &yaml.Node{Kind: yaml.ScalarNode, Value: name})
	}
	for _, tb := range yamlValue(doc.Content[0], "tables").Content {
		rename(tb)
		if ixs := yamlValue(tb, "indexes"); ixs != nil {
			for _, ix := range ixs.Content {
				rename(ix)
			}
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	dropAtEnd(t, q, names)
	return p, names
}

func yamlValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// dropAtEnd drops the tables that exist among names when the test ends.
func dropAtEnd(t *testing.T, q string, names []string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		st, err := hbasestore.Open(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
		if err != nil {
			t.Errorf("clean-up: %v", err)
			return
		}
		defer st.Close()
		have, err := st.Tables(ctx)
		if err != nil {
			t.Errorf("clean-up: %v", err)
			return
		}
		for _, n := range names {
			if slices.Contains(have, n) {
				if err := st.DropTable(ctx, n); err != nil {
					t.Errorf("clean-up: %v", err)
				}
			}
		}
	})
}

// TestClusterShell runs the shell against the test HBase: CREATE TABLE
// with splits and index tables, SHOW REGIONS, INSERT, import, SELECT,
// DELETE, and no table created on demand.
func TestClusterShell(t *testing.T) {
	q := hbasetest.Quorum(t)
	cat, names := scratchCatalog(t, q)
	sh := func(t *testing.T, stdin string, args ...string) result {
		t.Helper()
		return rkql(t, stdin, append([]string{"--catalog", cat, "--zk", q, "--zk-root", hbasetest.Root()}, args...)...)
	}
	expect := func(t *testing.T, r result, code int, stdout, stderr string) {
		t.Helper()
		if r.code != code || !strings.Contains(r.stdout, stdout) || !strings.Contains(r.stderr, stderr) {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, stdout with %q, stderr with %q", r.code, r.stdout, r.stderr, code, stdout, stderr)
		}
	}
	t.Run("no-create-on-demand", func(t *testing.T) {
		r := sh(t, "", "-e", "SELECT * FROM sites WHERE domain = 'a.com'")
		expect(t, r, 1, "", "table not found: "+names[slices.IndexFunc(names, func(n string) bool { return strings.HasSuffix(n, "_sites") })])
	})
	t.Run("create", func(t *testing.T) {
		expect(t, sh(t, "", "--allow-writes", "-e", "CREATE TABLE orders; CREATE TABLE sites"), 0, "CREATE TABLE\nCREATE TABLE\n", "")
		expect(t, sh(t, "", "--allow-writes", "-e", "CREATE TABLE orders"), 1, "", "of orders already exists")
		r := sh(t, "", "-e", "SHOW TABLES")
		for _, tb := range []string{"orders", "orders_by_buyer", "orders_by_id", "sites", "sites_by_owner"} {
			if !regexp.MustCompile(`(?m)^` + tb + `\t[^\t]+\t\S+_` + tb + `\t.*\tTRUE$`).MatchString(r.stdout) {
				t.Errorf("SHOW TABLES does not show %s as existing:\n%s", tb, r.stdout)
			}
		}
	})
	t.Run("show-regions", func(t *testing.T) {
		r := sh(t, "", "--format", "csv", "-e", "SHOW REGIONS orders")
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || len(lines) != 17 {
			t.Fatalf("exit %d, %d lines:\n%s%s", r.code, len(lines), r.stdout, r.stderr)
		}
		if lines[0] != "region,start_key,end_key,start_decoded,end_decoded,server,reads,writes,storefile_mb,memstore_mb,load" {
			t.Errorf("header %q", lines[0])
		}
		if !strings.Contains(lines[2], ",10000000,20000000,md5(seller)[0:4]='1000',md5(seller)[0:4]='2000',") {
			t.Errorf("second region %q", lines[2])
		}
	})
	t.Run("write-and-read", func(t *testing.T) {
		rows := writeFile(t, "sites.jsonl", `{"domain": "shop.aa.com", "owner": "ann", "visits": 7}
{"domain": "aa.com", "owner": "ann", "visits": 9}
{"domain": "bb.org", "owner": "bob", "visits": 1}
`)
		r := rkql(t, "", "import", "--catalog", cat, "--zk", q, "--allow-writes", "--table", "sites", rows)
		expect(t, r, 0, "imported 3 rows into sites", "")
		expect(t, sh(t, "", "--allow-writes", "-e", "INSERT INTO sites (domain, owner, visits) VALUES ('m.aa.com', 'cy', 3)"), 0, "INSERT 1", "")
		expect(t, sh(t, "", "-e", "SELECT domain, visits FROM sites WHERE domain LIKE '%aa.com'"), 0,
			"domain\tvisits\naa.com\t9\nm.aa.com\t3\nshop.aa.com\t7\n", "")
		expect(t, sh(t, "", "-e", "SELECT domain FROM sites WHERE owner = 'ann'"), 0, "domain\naa.com\nshop.aa.com\n", "")
		expect(t, sh(t, "", "--allow-writes", "--yes", "-e", "DELETE FROM sites WHERE domain = 'aa.com'; CHECK INDEX sites_by_owner"), 0,
			"DELETE 1\ndata_rows\tentries\tno_entry\tmissing\torphans\tunverified\tstale\trepaired\n3\t3\t0\t0\t0\t0\t0\t0\n", "")
		expect(t, sh(t, "", "-e", "SELECT COUNT(*) FROM sites ALLOW FULL SCAN"), 0, "\n3\n", "")
	})
	t.Run("update-delete", func(t *testing.T) {
		w := func(stmts string) result { return sh(t, "", "--allow-writes", "--format", "tsv", "-e", stmts) }
		expect(t, w("INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b7', 1, '2024-05-01 12:00:00', 10.5, 'paid'), ('s1', 'b7', 2, '2024-05-01 13:00:00', 3, 'paid')"), 0, "INSERT 2", "")
		expect(t, w("DELETE FROM orders_by_buyer WHERE buyer = 'b7'"), 1, "", "orders_by_buyer is an index of orders, kept in step with its rows: DELETE FROM orders instead")
		expect(t, w("DELETE FROM orders WHERE seller = 's1'"), 1, "", "DELETE would remove 2 rows of orders: not confirmed, nothing was deleted (in a script, --yes confirms)")
		expect(t, sh(t, "", "-e", "EXPLAIN UPDATE orders SET buyer = 'b8' WHERE seller = 's1' AND ts = '2024-05-01 12:00:00' AND order_id = 1"), 0, "CLIENT UPDATE ROWS OF orders", "")
		expect(t, w("UPDATE orders SET buyer = 'b8', status = 'x' WHERE seller = 's1' AND ts = '2024-05-01 12:00:00' AND order_id = 1"), 0, "UPDATE 1", "")
		expect(t, sh(t, "", "--format", "tsv", "-e", "SELECT order_id, status FROM orders WHERE buyer = 'b8'; SELECT COUNT(*) FROM orders WHERE buyer = 'b7'"), 0, "order_id\tstatus\n1\tx\n\ncount\n1\n", "")
		clean := "data_rows\tentries\tno_entry\tmissing\torphans\tunverified\tstale\trepaired\n2\t2\t0\t0\t0\t0\t0\t0\n"
		expect(t, sh(t, "", "--format", "tsv", "-e", "CHECK INDEX orders_by_buyer; CHECK INDEX orders_by_id"), 0, clean+"\n"+clean, "")
		expect(t, sh(t, "", "--allow-writes", "--yes", "--format", "tsv", "-e", "DELETE FROM orders WHERE seller = 's1'; CHECK INDEX orders_by_buyer"), 0,
			"DELETE 2\ndata_rows\tentries\tno_entry\tmissing\torphans\tunverified\tstale\trepaired\n0\t0\t0\t0\t0\t0\t0\t0\n", "")
	})
}

// syncBuffer is a bytes.Buffer safe for one writer and polling readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until cond holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

const bigRows = 20000

// bigTable creates and loads a table of bigRows rows over four regions,
// through the shell, and returns its catalog file.
func bigTable(t *testing.T, q string) string {
	t.Helper()
	name := hbasetest.TableName("rkql_big")
	dropAtEnd(t, q, []string{name})
	cat := writeFile(t, "big.yaml", fmt.Sprintf(`tables:
  - name: big
    hbase: %s
    families:
      - {name: f}
    columns:
      - {name: id, type: BIGINT}
      - {name: v, type: STRING, column: "f:v"}
    rowkey:
      - {field: id, encoding: sortable}
    splits: ['\x80\x00\x00\x00\x00\x00\x13\x88', '\x80\x00\x00\x00\x00\x00\x27\x10', '\x80\x00\x00\x00\x00\x00\x3A\x98']
`, name))
	var data strings.Builder
	for i := range bigRows {
		fmt.Fprintf(&data, `{"id": %d, "v": "%s-%d"}`+"\n", i, strings.Repeat("v", 80), i)
	}
	rows := writeFile(t, "big.jsonl", data.String())
	r := rkql(t, "", "--catalog", cat, "--zk", q, "--allow-writes", "-e", "CREATE TABLE big")
	if r.code != 0 {
		t.Fatalf("create: %s", r.stderr)
	}
	r = rkql(t, "", "import", "--catalog", cat, "--zk", q, "--allow-writes", "--table", "big", rows)
	if r.code != 0 {
		t.Fatalf("import: %s", r.stderr)
	}
	return cat
}

// TestClusterTimeout cuts the network between the shell and HBase in the
// middle of a scan, through TCP proxies in front of ZooKeeper, the master
// and the region server: the statement must fail within --timeout, and
// once the network is back the next statement must work. The shared HBase
// itself is never stopped. Two faults: servers that stop answering
// (connections stay open, nothing comes back), and servers that are gone
// (every connection closed, new ones closed at once).
func TestClusterTimeout(t *testing.T) {
	q := hbasetest.Quorum(t)
	cat := bigTable(t, q)
	for _, c := range []struct {
		name  string
		state netState
		msg   string
	}{
		{"servers-stop-answering", netHang, "rkql: statement timed out after 20s (the --timeout limit; 0 turns it off)\n"},
		{"servers-gone", netDown, "rkql: "},
	} {
		t.Run(c.name, func(t *testing.T) { cutMidScan(t, q, cat, c.state, c.msg) })
	}
}

func cutMidScan(t *testing.T, q, cat string, state netState, msg string) {
	// The limit is also all the statement after the network came back
	// has to dial afresh and count the table, on a loaded machine too.
	const timeout = 20 * time.Second
	fn := newFaultNet(t)
	zk := fn.proxy(q)
	stdin, feed := io.Pipe()
	var stdout, stderr syncBuffer
	e := env{stdin: stdin, stdout: &stdout, stderr: &stderr, dial: fn.dial}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"--catalog", cat, "--zk", zk, "--zk-root", hbasetest.Root(), "--timeout", timeout.String(), "--format", "tsv"}, e)
	}()
	exited := false
	defer func() {
		feed.Close()
		if exited {
			return
		}
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the shell did not exit after its input ended")
		}
	}()

	cut := fn.arm(300<<10, state)
	begin := time.Now()
	fmt.Fprintln(feed, "SELECT * FROM big ALLOW FULL SCAN;")
	select {
	case <-cut:
	case <-time.After(20 * time.Second):
		t.Fatalf("the scan never read 300 KB: stdout %d bytes, stderr %q", len(stdout.String()), stderr.String())
	}
	if !waitFor(timeout+5*time.Second, func() bool { return strings.Contains(stderr.String(), "rkql: ") }) {
		t.Fatalf("no error %v after the cut: the statement hangs", time.Since(begin))
	}
	took := time.Since(begin)
	t.Logf("cut after %d bytes; error after %v: %s", fn.fromSrv.Load(), took.Round(time.Millisecond), strings.TrimSpace(stderr.String()))
	if took > timeout+time.Second {
		t.Errorf("the error came %v after the statement began, past the %v timeout", took, timeout)
	}
	if !strings.HasPrefix(stderr.String(), msg) || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", stderr.String(), msg)
	}
	if !waitFor(5*time.Second, func() bool { return strings.Contains(stdout.String(), "id\tv\n") }) {
		t.Fatalf("no rows before the cut: %q", stdout.String())
	}
	if n := strings.Count(stdout.String(), "\n") - 1; n == 0 || n >= bigRows {
		t.Errorf("%d rows before the error, want some and not all", n)
	}

	fn.restore()
	before := len(stdout.String())
	begin = time.Now()
	fmt.Fprintln(feed, "SELECT COUNT(*) FROM big ALLOW FULL SCAN;")
	want := fmt.Sprintf("count\n%d\n", bigRows)
	if !waitFor(timeout+5*time.Second, func() bool { return strings.Contains(stdout.String()[before:], want) }) {
		t.Fatalf("after the network came back: stdout %q, stderr %q", stdout.String()[before:], stderr.String())
	}
	t.Logf("count after the network came back: %v", time.Since(begin).Round(time.Millisecond))
	feed.Close()
	code := <-done
	exited = true
	if code != exitFail {
		t.Errorf("exit %d, want %d: one statement failed", code, exitFail)
	}
}
