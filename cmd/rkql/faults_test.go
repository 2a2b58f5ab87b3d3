package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// faultOrders is the number of rows the import fault test loads: three
// batches of the importer's 5000.
const faultOrders = 15000

// faultOrder is the n-th row of the import fault test's input.
func faultOrder(n int) map[string]string {
	ts := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second)
	return map[string]string{
		"seller":   fmt.Sprintf("s%02d", n%37),
		"buyer":    fmt.Sprintf("b%03d", n%211),
		"order_id": strconv.Itoa(n + 1),
		"ts":       ts.Format("2006-01-02 15:04:05.000"),
		"amount":   strconv.FormatFloat(float64(n)+0.5, 'g', -1, 64),
		"status":   []string{"new", "paid", "sent"}[n%3],
	}
}

func faultOrdersFile(t *testing.T) string {
	var b strings.Builder
	for n := range faultOrders {
		o := faultOrder(n)
		ts, _ := time.Parse("2006-01-02 15:04:05.000", o["ts"])
		fmt.Fprintf(&b, `{"seller": %q, "buyer": %q, "order_id": %s, "ts": %q, "amount": %s, "status": %q}`+"\n",
			o["seller"], o["buyer"], o["order_id"], ts.Format(time.RFC3339), o["amount"], o["status"])
	}
	return writeFile(t, "orders.jsonl", b.String())
}

// countingDial counts the bytes the client sends through the proxies of
// fn, and makes the network hang once they pass after.
func countingDial(fn *faultNet, after int64, cut chan<- struct{}) func(ctx context.Context, network, addr string) (net.Conn, error) {
	var sent atomic.Int64
	var once sync.Once
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := fn.dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countConn{Conn: c, add: func(n int) {
			if sent.Add(int64(n)) >= after {
				once.Do(func() {
					fn.mu.Lock()
					fn.setLocked(netHang)
					fn.mu.Unlock()
					close(cut)
				})
			}
		}}, nil
	}
}

type countConn struct {
	net.Conn
	add func(int)
}

func (c *countConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.add(n)
	return n, err
}

// TestFaultImportCut stops answering, for the client, in the middle of an
// import into a table with two indexes: the import must end within its
// write timeout with one line saying how many rows were written. Run
// again once the network is back, the same import must converge: the
// table and each index hold exactly the input rows, and CHECK INDEX finds
// nothing wrong without repairing anything.
func TestFaultImportCut(t *testing.T) {
	q := hbasetest.Quorum(t)
	cat, _ := scratchCatalog(t, q)
	sh := func(args ...string) result {
		t.Helper()
		return rkql(t, "", append([]string{"--catalog", cat, "--zk", q, "--zk-root", hbasetest.Root()}, args...)...)
	}
	if r := sh("--allow-writes", "-e", "CREATE TABLE orders"); r.code != 0 {
		t.Fatalf("create: %s", r.stderr)
	}
	file := faultOrdersFile(t)
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}

	// A whole import sends about 4.5 times its input's size (the data
	// table and two indexes, in three phases): batch 1 of 3 ends near 1.5
	// times, batch 2 near 3 times.
	cutBytes := 9 * fi.Size() / 4
	// Before the cut each batch write must fit the write timeout. On a
	// loaded machine one may not: a run that times out by itself, before
	// the proxy saw the bytes to cut at, shows only that, and runs again
	// with twice the timeout.
	var (
		fn      *faultNet
		args    []string
		written int
	)
	for timeout := 5 * time.Second; ; timeout *= 2 {
		fn = newFaultNet(t)
		args = []string{"import", "--catalog", cat, "--zk", fn.proxy(q), "--zk-root", hbasetest.Root(), "--allow-writes", "--timeout", timeout.String(), "--table", "orders", file}
		var cutShort bool
		if written, cutShort = importCut(t, args, fn, cutBytes, timeout); !cutShort {
			break
		}
		if timeout >= time.Minute {
			t.Fatalf("the import timed out before the cut even with a %v write timeout", timeout)
		}
		t.Logf("the import timed out before the cut with a %v write timeout; again with %v", timeout, 2*timeout)
		fn.restore()
	}

	fn.restore()
	var stdout, stderr syncBuffer
	// The second run is about converging, not speed: the shared HBase
	// may be slow, so its timeout is generous.
	again := slices.Clone(args)
	again[slices.Index(again, "--timeout")+1] = "1m"
	code := run(context.Background(), again, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, dial: fn.dial})
	// It says that the rows the first run wrote were replaced.
	m := regexp.MustCompile(fmt.Sprintf(`^imported %d rows into orders, (\d+) of them replacing a row with the same key\n$`, faultOrders)).FindStringSubmatch(stdout.String())
	if code != exitOK || m == nil {
		t.Fatalf("import again: exit %d, stdout %q, stderr %q; want %d rows imported, some replacing rows", code, stdout.String(), stderr.String(), faultOrders)
	}
	if replaced, _ := strconv.Atoi(m[1]); replaced < written || replaced >= faultOrders {
		t.Errorf("import again: %d rows replaced, want at least the %d the first run wrote, and not all", replaced, written)
	}

	for _, tb := range []string{"orders", "orders_by_buyer", "orders_by_id"} {
		r := sh("--format", "csv", "-e", "SELECT * FROM "+tb+" ALLOW FULL SCAN")
		if r.code != 0 {
			t.Fatalf("select from %s: %s", tb, r.stderr)
		}
		compareRows(t, tb, r.stdout, true)
	}
	// Through the index, as a query by buyer reads it.
	var stmts strings.Builder
	for b := range 211 {
		fmt.Fprintf(&stmts, "SELECT seller, buyer, order_id, ts, amount, status FROM orders WHERE buyer = 'b%03d';\n", b)
	}
	r := sh("--format", "csv", "-e", stmts.String())
	if r.code != 0 {
		t.Fatalf("select by buyer: %s", r.stderr)
	}
	// A blank line separates the result sets.
	rows := strings.ReplaceAll(r.stdout, "seller,buyer,order_id,ts,amount,status\n", "")
	rows = strings.TrimPrefix(strings.ReplaceAll(rows, "\n\n", "\n"), "\n")
	compareRows(t, "orders by buyer", rows, false)

	r = sh("--format", "csv", "-e", "CHECK INDEX orders_by_buyer; CHECK INDEX orders_by_id")
	want := fmt.Sprintf("data_rows,entries,no_entry,missing,orphans,unverified,stale,repaired\n%d,%d,0,0,0,0,0,0\n", faultOrders, faultOrders)
	if r.code != 0 || r.stdout != want+"\n"+want {
		t.Errorf("CHECK INDEX: exit %d, stdout %q, stderr %q; want each %q", r.code, r.stdout, r.stderr, want)
	}
}

// importCut runs the import of args through fn, whose network hangs once
// the client sent cutBytes, and checks that it ends within its write
// timeout, with a note and one line saying how many rows were written.
// cutShort reports a run that timed out by itself before the cut.
func importCut(t *testing.T, args []string, fn *faultNet, cutBytes int64, timeout time.Duration) (written int, cutShort bool) {
	t.Helper()
	var stdout, stderr syncBuffer
	cut := make(chan struct{})
	done := make(chan int, 1)
	begin := time.Now()
	go func() {
		done <- run(context.Background(), args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, dial: countingDial(fn, cutBytes, cut)})
	}()
	select {
	case <-cut:
	case code := <-done:
		if code == exitFail && strings.Contains(stderr.String(), "took longer than "+timeout.String()) {
			t.Logf("before the cut: %s", strings.TrimSpace(stderr.String()))
			return 0, true
		}
		t.Fatalf("the import ended (exit %d) before the cut: %q %q", code, stdout.String(), stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatal("the import never sent as many bytes as its input holds")
	}
	cutAt := time.Since(begin)
	var code int
	select {
	case code = <-done:
	case <-time.After(3*timeout + 10*time.Second):
		t.Fatalf("the import still runs %v after the network stopped answering", time.Since(begin)-cutAt)
	}
	took := time.Since(begin) - cutAt
	t.Logf("cut after %v; import ended %v later: %s", cutAt.Round(time.Millisecond), took.Round(time.Millisecond), strings.TrimSpace(stderr.String()))
	if took > 3*timeout+2*time.Second {
		t.Errorf("the import ended %v after the cut, past 3x the %v write timeout", took, timeout)
	}
	lines := strings.SplitAfter(stderr.String(), "\n")
	if code != exitFail || stdout.String() != "" || len(lines) != 3 || !strings.HasPrefix(lines[0], "rkql: note: orders is written in parts") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1, and on stderr the note and one line", code, stdout.String(), stderr.String())
	}
	m := regexp.MustCompile(`^rkql: .*took longer than ` + regexp.QuoteMeta(timeout.String()) + `.*\((\d+) rows? written`).FindStringSubmatch(lines[1])
	if m == nil {
		t.Fatalf("stderr %q does not say the write timed out and how many rows were written", stderr.String())
	}
	written, _ = strconv.Atoi(m[1])
	if written <= 0 || written >= faultOrders {
		t.Errorf("%d rows written before the cut, want some and not all of %d", written, faultOrders)
	}
	return written, false
}

// compareRows checks that the CSV out holds each input row once, with the
// columns of its header line; without one, the columns of the data table.
func compareRows(t *testing.T, what, out string, hasHeader bool) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	header := []string{"seller", "buyer", "order_id", "ts", "amount", "status"}
	if hasHeader && len(recs) > 0 {
		header, recs = recs[0], recs[1:]
	}
	got := make([]string, len(recs))
	for i, rec := range recs {
		got[i] = strings.Join(rec, ",")
	}
	want := make([]string, faultOrders)
	for n := range faultOrders {
		o := faultOrder(n)
		f := make([]string, len(header))
		for i, c := range header {
			f[i] = o[c]
		}
		want[n] = strings.Join(f, ",")
	}
	slices.Sort(got)
	slices.Sort(want)
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s: %d rows, want %d (columns %v)", what, len(got), len(want), header)
	for i, shown := 0, 0; i < max(len(got), len(want)) && shown < 5; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("  row %d: got %q, want %q", i, g, w)
			shown++
		}
	}
}

// TestFaultZKUnreachable starts the shell on a ZooKeeper quorum that
// cannot be reached: one that accepts connections and never answers, one
// that accepts and closes them, and one that refuses them. Each must fail
// within --timeout, with one line naming the quorum, and so must an
// import, whose writes --timeout bounds. No HBase is needed:
// no byte reaches a server.
func TestFaultZKUnreachable(t *testing.T) {
	const timeout = 2 * time.Second
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return addr
	}
	for _, c := range []struct {
		name   string
		quorum func() string
	}{
		{"never-answers", func() string {
			fn := newFaultNet(t)
			fn.mu.Lock()
			fn.setLocked(netHang)
			fn.mu.Unlock()
			return fn.proxy("127.0.0.1:1")
		}},
		{"closes", func() string {
			fn := newFaultNet(t)
			fn.mu.Lock()
			fn.setLocked(netDown)
			fn.mu.Unlock()
			return fn.proxy("127.0.0.1:1")
		}},
		{"refuses", refused},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := c.quorum()
			rows := writeFile(t, "sites.jsonl", `{"domain": "a.com", "owner": "o", "visits": 1}`+"\n")
			for _, args := range [][]string{
				{"--zk", q, "--timeout", timeout.String(), "-e", "SHOW TABLES"},
				{"import", "--zk", q, "--allow-writes", "--timeout", timeout.String(), "--table", "sites", rows},
			} {
				begin := time.Now()
				r := rkql(t, "", args...)
				took := time.Since(begin)
				t.Logf("%s: %v: %s", args[0], took.Round(time.Millisecond), strings.TrimSpace(r.stderr))
				if took > timeout+2*time.Second {
					t.Errorf("%s failed after %v, past the %v timeout", args[0], took, timeout)
				}
				if r.code != exitFail || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "rkql: ") || !strings.Contains(r.stderr, "ZooKeeper "+q) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line naming ZooKeeper %s", args[0], r.code, r.stdout, r.stderr, q)
				}
			}
		})
	}
}

// splitRows is the number of rows the split test scans: six fetches of
// the store's 1000 rows.
const splitRows = 6000

// TestFaultSplitMidScan splits the region a scan is reading, in the
// middle of what the scan has yet to read, and waits for the split to
// finish before reading on: the scan must still return every row once,
// in order.
func TestFaultSplitMidScan(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	table := hbasetest.TableName("rkql_split")
	dropAtEnd(t, q, []string{table})
	st, err := hbasestore.Open(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CreateTable(ctx, exec.TableSpec{Name: table, Families: []exec.FamilySpec{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	key := func(i int) []byte { return []byte(fmt.Sprintf("k%06d", i)) }
	muts := make([]exec.Mutation, splitRows)
	for i := range muts {
		muts[i] = exec.Mutation{Key: key(i), Cells: []exec.Cell{{Family: "f", Qualifier: "v", Value: []byte(strconv.Itoa(i))}}}
	}
	if err := st.Mutate(ctx, table, muts); err != nil {
		t.Fatal(err)
	}
	admin := st.Client().Admin()
	before, err := admin.Regions(ctx, table)
	if err != nil || len(before) != 1 {
		t.Fatalf("regions before the split: %d, %v; want 1", len(before), err)
	}

	var stats exec.Stats
	it, err := st.Scan(ctx, table, exec.Range{}, exec.ReadOptions{Stats: &stats})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	next := 0
	read := func(n int) {
		t.Helper()
		for ; n > 0; n-- {
			r, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				if next != splitRows {
					t.Fatalf("the scan ended after %d rows, want %d", next, splitRows)
				}
				return
			}
			if err != nil {
				t.Fatalf("row %d: %v", next, err)
			}
			if next >= splitRows || !bytes.Equal(r.Key, key(next)) || len(r.Cells) != 1 || string(r.Cells[0].Value) != strconv.Itoa(next) {
				t.Fatalf("row %d: key %q, cells %v; want key %q", next, r.Key, r.Cells, key(min(next, splitRows-1)))
			}
			next++
		}
	}
	read(10)
	at := key((10 + splitRows) / 2)
	begin := time.Now()
	if err := admin.Split(ctx, table, at); err != nil {
		t.Fatalf("split: %v", err)
	}
	after, err := admin.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 2 || !bytes.Equal(after[0].EndKey, at) || !bytes.Equal(after[1].StartKey, at) {
		var b strings.Builder
		for _, r := range after {
			fmt.Fprintf(&b, " [%q, %q)", r.StartKey, r.EndKey)
		}
		t.Fatalf("regions after the split:%s; want two, split at %q", b.String(), at)
	}
	t.Logf("split at %q took %v", at, time.Since(begin).Round(time.Millisecond))
	read(splitRows + 1)
	if next != splitRows {
		t.Fatalf("read %d rows, want %d", next, splitRows)
	}
	if _, err := it.Next(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last row: %v, want the end", err)
	}
	// The parent region, then both daughters: the scan went on past the
	// split rather than reading everything before it.
	if n := stats.Regions.Load(); n < 3 {
		t.Errorf("the scan read %d regions, want the parent and both daughters", n)
	}
	t.Logf("%d RPCs over %d regions", stats.RPCs.Load(), stats.Regions.Load())
}
