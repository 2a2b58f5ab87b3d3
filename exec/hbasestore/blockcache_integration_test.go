package hbasestore_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/planner"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestIntegrationBlockCache reads a table of the real HBase through a
// connection that decodes every request the client sends, and wants
// cache_blocks = false on the Scans of a whole-table read, and the
// servers' default (true) on the Gets of a point read and on a small
// LIMIT scan, unless the session turns it off.
func TestIntegrationBlockCache(t *testing.T) {
	t.Parallel()
	q := hbasetest.Quorum(t)
	rec := &wireRecorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root(), Dial: rec.dial}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	name := hbasetest.TableName("regioncache_bc")
	cat, err := catalog.Parse([]byte(fmt.Sprintf(`tables:
  - name: kv
    hbase: %q
    families: [{name: f}]
    columns:
      - {name: id, type: STRING}
      - {name: v, type: STRING, column: "f:v"}
    rowkey: [{field: id}]
    splits: ["k2", "k5"]
`, name)))
	if err != nil {
		t.Fatal(err)
	}
	dropAtEnd(t, st, []string{name})
	tb, _ := cat.Table("kv")
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	var rows []catalog.Row
	for i := range 80 {
		rows = append(rows, catalog.Row{catalog.String(fmt.Sprintf("k%02d", i)), catalog.String(fmt.Sprint(i))})
	}
	if err := x.Insert(ctx, tb, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{})
	for _, tt := range []struct {
		q     string
		mode  exec.BlockCache
		rows  int
		scans string // the cache_blocks of each Scan that opens a scanner on the table
		gets  string // the cache_blocks of each Get of the table
	}{
		{"SELECT * FROM kv ALLOW FULL SCAN", exec.BlockCacheAuto, 80, "false false false", ""},
		{"SELECT COUNT(*) FROM kv ALLOW FULL SCAN", exec.BlockCacheAuto, 1, "false false false", ""},
		{"SELECT * FROM kv WHERE id = 'k42'", exec.BlockCacheAuto, 1, "", "default"},
		{"SELECT * FROM kv WHERE id IN ('k01', 'k61')", exec.BlockCacheAuto, 2, "", "default default"},
		{"SELECT * FROM kv LIMIT 5", exec.BlockCacheAuto, 5, "default", ""},
		{"SELECT * FROM kv WHERE id = 'k42'", exec.BlockCacheOff, 1, "", "false"},
		// On is the servers' default: the request leaves it unset.
		{"SELECT * FROM kv ALLOW FULL SCAN", exec.BlockCacheOn, 80, "default default default", ""},
	} {
		t.Run(tt.mode.String()+"/"+tt.q, func(t *testing.T) {
			sel, err := exectest.Plan(pl, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := exec.Place(ctx, st, sel, exec.PlaceOptions{BlockCache: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			rec.reset()
			got, err := exectest.DrainPlaced(ctx, x, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.rows {
				t.Errorf("%d rows, want %d", len(got), tt.rows)
			}
			scans, gets, err := rec.seen(name)
			if err != nil {
				t.Fatal(err)
			}
			if scans != tt.scans || gets != tt.gets {
				t.Errorf("cache_blocks sent: scans %q, gets %q; want scans %q, gets %q", scans, gets, tt.scans, tt.gets)
			}
		})
	}
}

// wireRecorder dials region servers directly and decodes a copy of the
// requests written to them: the cache_blocks of each Scan that opens a
// scanner and of each Get, with the region each goes to.
type wireRecorder struct {
	mu    sync.Mutex
	calls []recordedCall
	err   error
}

type recordedCall struct {
	region string
	scan   bool
	cache  string // "true", "false", or "default" when unset
}

func (w *wireRecorder) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &teeConn{Conn: c, w: w}, nil
}

func (w *wireRecorder) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = nil
}

// seen lists the cache_blocks of the Scans and Gets sent to table's
// regions since reset, with the first error decoding them.
func (w *wireRecorder) seen(table string) (scans, gets string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var s, g []string
	for _, c := range w.calls {
		if !strings.HasPrefix(c.region, table+",") {
			continue
		}
		if c.scan {
			s = append(s, c.cache)
		} else {
			g = append(g, c.cache)
		}
	}
	return strings.Join(s, " "), strings.Join(g, " "), w.err
}

// teeConn decodes what the client writes before sending it, so that
// a request is recorded by the time its Write returns.
type teeConn struct {
	net.Conn
	w      *wireRecorder
	buf    []byte
	header bool // the preamble and the ConnectionHeader have been read
}

func (c *teeConn) Write(b []byte) (int, error) {
	c.buf = append(c.buf, b...)
	if err := c.decode(); err != nil {
		c.w.mu.Lock()
		c.w.err = errors.Join(c.w.err, err)
		c.w.mu.Unlock()
	}
	return c.Conn.Write(b)
}

// decode consumes the complete parts of buf: the connection preamble
// ("HBas", version, auth), the ConnectionHeader, then request frames of
// a 4-byte length, a varint-delimited RequestHeader (method_name is field
// 3) and a varint-delimited request.
func (c *teeConn) decode() error {
	for {
		skip := 0
		if !c.header {
			skip = 6
		}
		if len(c.buf) < skip+4 {
			return nil
		}
		n := int(binary.BigEndian.Uint32(c.buf[skip:]))
		if len(c.buf) < skip+4+n {
			return nil
		}
		frame := c.buf[skip+4 : skip+4+n]
		c.buf = c.buf[skip+4+n:]
		if !c.header {
			c.header = true
			continue
		}
		hdr, rest, err := delimited(frame)
		if err != nil {
			return err
		}
		param, _, err := delimited(rest)
		if err != nil {
			return err
		}
		c.w.request(string(field(hdr, 3)), param)
	}
}

// request records the Scans and Gets of one request. ScanRequest: region
// 1, scan 2; Scan: cache_blocks 8. GetRequest: region 1, get 2; Get:
// cache_blocks 7. MultiRequest: regionAction 1; RegionAction: region 1,
// action 3; Action: get 3. RegionSpecifier: value 2.
func (w *wireRecorder) request(method string, param []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	region := func(msg []byte) string { return string(field(field(msg, 1), 2)) }
	switch method {
	case "Scan":
		if scan := field(param, 2); scan != nil {
			w.calls = append(w.calls, recordedCall{region: region(param), scan: true, cache: boolField(scan, 8)})
		}
	case "Get":
		w.calls = append(w.calls, recordedCall{region: region(param), cache: boolField(field(param, 2), 7)})
	case "Multi":
		for _, ra := range fields(param, 1) {
			for _, a := range fields(ra, 3) {
				if g := field(a, 3); g != nil {
					w.calls = append(w.calls, recordedCall{region: region(ra), cache: boolField(g, 7)})
				}
			}
		}
	}
}

func delimited(b []byte) (msg, rest []byte, err error) {
	m, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, nil, fmt.Errorf("bad delimited message: %v", protowire.ParseError(n))
	}
	return m, b[n:], nil
}

// fields returns the values of the length-delimited field num of msg.
func fields(msg []byte, num protowire.Number) [][]byte {
	var out [][]byte
	for len(msg) > 0 {
		n, typ, l := protowire.ConsumeTag(msg)
		if l < 0 {
			return out
		}
		msg = msg[l:]
		if n == num && typ == protowire.BytesType {
			v, l := protowire.ConsumeBytes(msg)
			if l < 0 {
				return out
			}
			out = append(out, v)
		}
		l = protowire.ConsumeFieldValue(n, typ, msg)
		if l < 0 {
			return out
		}
		msg = msg[l:]
	}
	return out
}

func field(msg []byte, num protowire.Number) []byte {
	fs := fields(msg, num)
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

// boolField is the bool field num of msg: "true", "false" or "default".
func boolField(msg []byte, num protowire.Number) string {
	out := "default"
	for len(msg) > 0 {
		n, typ, l := protowire.ConsumeTag(msg)
		if l < 0 {
			return out
		}
		msg = msg[l:]
		if n == num && typ == protowire.VarintType {
			v, _ := protowire.ConsumeVarint(msg)
			out = fmt.Sprint(v != 0)
		}
		l = protowire.ConsumeFieldValue(n, typ, msg)
		if l < 0 {
			return out
		}
		msg = msg[l:]
	}
	return out
}
