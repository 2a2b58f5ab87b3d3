package infer_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/infer"
	"github.com/rkql/rkql/examples"
)

// One test per example layout: rows built as the Java code that writes
// the table would build them, inferred without the hand-written entry.

func TestInferOrders(t *testing.T) {
	w := write(t, "orders", generated(t, "orders", 300))
	check(t, w, "seller = {seller} AND ts = {ts} AND order_id = {order_id}",
		"seller = {seller} AND ts >= {ts} AND ts <= {ts+}")
}

func TestInferUserCalendarRecord(t *testing.T) {
	w := write(t, "user_calendar_record", generated(t, "user_calendar_record", 300))
	check(t, w, "uid = {uid} AND date = {date} AND type = {type}",
		"uid = {uid} AND date >= {date} AND date <= {date+}")
}

func TestInferLogs(t *testing.T) {
	w := write(t, "logs", generated(t, "logs", 300))
	check(t, w, "ts = {ts} AND hostname = {hostname} AND log_event = {log_event}",
		"ts >= {ts} AND ts <= {ts+}")
}

func TestInferLogsByHost(t *testing.T) {
	w := write(t, "logs_by_host", generated(t, "logs_by_host", 300))
	check(t, w, "hostname = {hostname} AND log_event = {log_event} AND ts = {ts}",
		"hostname = {hostname} AND log_event = {log_event} AND ts >= {ts} AND ts <= {ts+}")
}

func TestInferDeviceMetrics(t *testing.T) {
	w := write(t, "device_metrics", generated(t, "device_metrics", 300))
	check(t, w, "device_id = {device_id} AND ts = {ts}",
		"device_id = {device_id} AND ts >= {ts} AND ts <= {ts+}")
}

func TestInferPhoneUsers(t *testing.T) {
	w := write(t, "phone_users", generated(t, "phone_users", 300))
	check(t, w, "phone = {phone} AND user_id = {user_id}",
		"phone = {phone} AND user_id >= {user_id} AND user_id <= {user_id+}")
}

func TestInferSites(t *testing.T) {
	w := write(t, "sites", generated(t, "sites", 300))
	check(t, w, "domain = {domain}", "domain LIKE '%.com.br'")
}

// An order's events share its user and order number, and the random
// suffix spreads them: the generator draws each event of 1 to 5 from
// one order.
func TestInferOrderEvents(t *testing.T) {
	rows := generated(t, "order_events", 120)
	r := rand.New(rand.NewPCG(3, 3))
	var events []catalog.Row
	for _, row := range rows {
		for range 1 + r.IntN(5) {
			events = append(events, row)
		}
	}
	w := write(t, "order_events", events)
	check(t, w, "user_id = {user_id} AND order_id = {order_id}",
		"user_id = {user_id} AND order_id >= {order_id} AND order_id <= {order_id+}")
}

func TestInferHBaseMeta(t *testing.T) {
	w := write(t, "hbase_meta", generated(t, "hbase_meta", 300))
	check(t, w, "table = {table} AND start_key = {start_key} AND region_id = {region_id} AND encoded = {encoded}",
		"table = {table} AND start_key = {start_key} AND region_id >= {region_id} AND region_id <= {region_id+}")
}

// Keys and cells of random bytes get no layout and the raw entry.
func TestInferRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var s infer.Sample
	for range 200 {
		key := make([]byte, 4+r.IntN(20))
		for i := range key {
			key[i] = byte(r.IntN(256))
		}
		val := make([]byte, r.IntN(12))
		for i := range val {
			val[i] = byte(r.IntN(256))
		}
		s.Rows = append(s.Rows, infer.Row{Key: key, Cells: []infer.Cell{{Family: "f", Qualifier: "q", Value: val}}})
	}
	s.Table = "noise"
	p := infer.Infer(s, infer.Options{})
	t.Logf("%s", p.Text())
	if p.Found {
		t.Fatalf("a layout was found in random bytes:\n%s", p.Text())
	}
	if !strings.Contains(p.Text(), "no layout found") {
		t.Errorf("the text does not say no layout found:\n%s", p.Text())
	}
	want := "- name: noise\n  families:\n    - {name: f}\n  columns:\n    - {name: key, type: BYTES}\n    - {name: q, type: BYTES, column: 'f:q'}\n  rowkey:\n    - {field: key}\n"
	if got := p.YAML(); got != want {
		t.Errorf("raw entry:\n%s\nwant:\n%s", got, want)
	}
}

// Index tables kept by hand: their keys repeat the data table's fields,
// which a lookup of the data table's rows finds.
func TestInferIndexLike(t *testing.T) {
	for _, tc := range []struct{ data, index string }{{"sites", "sites_by_owner"}, {"orders", "orders_by_buyer"}, {"orders", "orders_by_id"}} {
		t.Run(tc.index, func(t *testing.T) {
			c := handCatalog(t)
			data, _ := c.Table(tc.data)
			ix, _ := c.Table(tc.index)
			rows := examples.Rows(data, 300, 1)
			dw := encode(t, c, data, rows)
			var entries []catalog.Row
			for _, x := range data.Indexes {
				for _, r := range rows {
					if e, ok := x.EntryRow(data, r); ok && x.Name == tc.index {
						entries = append(entries, e)
					}
				}
			}
			iw := encode(t, c, ix, entries)
			stored := map[string]infer.Row{}
			for _, r := range dw.sample.Rows {
				stored[string(r.Key)] = r
			}
			look := func(table string, keys [][]byte) ([]infer.Row, error) {
				if table != data.Physical {
					return nil, nil
				}
				var out []infer.Row
				for _, k := range keys {
					if r, ok := stored[string(k)]; ok {
						out = append(out, r)
					}
				}
				return out, nil
			}
			p := infer.Infer(iw.sample, infer.Options{Name: "inferred", Known: c, Lookup: look})
			t.Logf("%s", p.Text())
			if !strings.Contains(p.Text(), "an index-like table of "+tc.data) {
				t.Fatalf("not found to be an index of %s", tc.data)
			}
			cat, err := catalog.Parse([]byte("tables:\n" + indent(p.YAML(), "  ")))
			if err != nil {
				t.Fatal(err)
			}
			inf, _ := cat.Table("inferred")
			names := readBack(t, iw, inf)
			for h, i := range names {
				if hc, _ := ix.Column(h); ix.Columns[hc].KeyField && h != i {
					t.Errorf("index key field %s is named %s", h, i)
				}
			}
		})
	}
}

// A handful of rows of small numbers: their zero padding is shared, which
// must not read as a random suffix.
func TestInferFewRows(t *testing.T) {
	var rows []catalog.Row
	for i, uid := range []int64{8839540, 12, 99, 4711, 123456, 77, 5, 31337} {
		rows = append(rows, catalog.Row{catalog.Bigint(uid), catalog.DateFromYMD(2019+i%5, 1+i, 17), catalog.Int(int32(i * 7)), catalog.String("x")})
	}
	w := write(t, "user_calendar_record", rows)
	check(t, w, "uid = {uid} AND date = {date} AND type = {type}", "uid = {uid} AND date >= {date} AND date <= {date+}")
}
