package embedded_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Java's encodings, written out here from their definitions, not with
// rkql's codecs.

// toBytesLong is Bytes.toBytes(long).
func toBytesLong(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

// toBytesDouble is Bytes.toBytes(double): Double.doubleToRawLongBits.
func toBytesDouble(f float64) []byte { return toBytesLong(int64(math.Float64bits(f))) }

// md5Prefix is the first n hex characters of MessageDigest "MD5" of s,
// as Java writes an md5 prefix: md5Hex(s).substring(0, n).
func md5Prefix(s string, n int) []byte {
	sum := md5.Sum([]byte(s))
	return []byte(hex.EncodeToString(sum[:])[:n])
}

// stringHashCode is String.hashCode for ASCII text: h = 31*h + c.
func stringHashCode(s string) int32 {
	var h int32
	for i := 0; i < len(s); i++ {
		h = 31*h + int32(s[i])
	}
	return h
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// interopCase is one example table's row as a Java application writes
// it (Bytes.toBytes, String.hashCode, MessageDigest): its key and cells,
// and the logical values they mean.
type interopCase struct {
	table string
	key   []byte
	cells map[string][]byte // "family:qualifier" -> value
	vals  map[string]catalog.Value
	// where selects the row back by its key fields.
	where string
	// randomTail is how many bytes at the key's end are a random suffix,
	// which an INSERT draws for itself.
	randomTail int
}

func interopCases() []interopCase {
	ts := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	day := time.Date(2019, 2, 17, 0, 0, 0, 0, time.UTC)
	return []interopCase{{
		table: "orders",
		// md5(seller).substring(0, 4) + seller + "|" +
		// Bytes.toBytes(Long.MAX_VALUE - ts) + Bytes.toBytes(orderId)
		key:   cat(md5Prefix("s1", 4), []byte("s1|"), toBytesLong(math.MaxInt64-ts), toBytesLong(1001)),
		cells: map[string][]byte{"d:buyer": []byte("b7"), "d:amount": toBytesDouble(10.5), "d:status": []byte("paid")},
		vals: map[string]catalog.Value{"seller": catalog.String("s1"), "ts": catalog.TimestampMillis(ts), "order_id": catalog.Bigint(1001),
			"buyer": catalog.String("b7"), "amount": catalog.Double(10.5), "status": catalog.String("paid")},
		where: "seller = 's1' AND ts = '2024-05-01 12:00:00' AND order_id = 1001",
	}, {
		table: "phone_users",
		// new StringBuilder(phone).reverse() + "|" + Bytes.toBytes(userId)
		key:   cat([]byte("1234567810"), []byte("|"), toBytesLong(77)),
		cells: map[string][]byte{"u:name": []byte("ann")},
		vals:  map[string]catalog.Value{"phone": catalog.String("0187654321"), "user_id": catalog.Bigint(77), "name": catalog.String("ann")},
		where: "phone = '0187654321' AND user_id = 77",
	}, {
		table: "user_calendar_record",
		// abs(String.valueOf(uid).hashCode() % 10) ~ 99999999-yyyyMMdd ~
		// leftPad(type, 2, "0") ~ leftPad(uid, 10, "0")
		key: cat([]byte(fmt.Sprint(int64(math.Abs(float64(stringHashCode("8839540")%10))))), []byte("~"),
			[]byte(fmt.Sprint(99999999-20190217)), []byte("~05~0008839540")),
		cells: map[string][]byte{"f:data": []byte("dentist")},
		vals:  map[string]catalog.Value{"uid": catalog.Bigint(8839540), "date": catalog.Date(day), "type": catalog.Int(5), "data": catalog.String("dentist")},
		where: "uid = 8839540 AND date = '2019-02-17' AND type = 5",
	}, {
		table: "logs",
		// (byte) (ts % 16) + Bytes.toBytes(ts) + hostname + 0x00 + event
		key:   cat([]byte{byte(ts % 16)}, toBytesLong(ts), []byte("host1"), []byte{0}, []byte("login")),
		cells: map[string][]byte{"l:message": []byte("ok")},
		vals:  map[string]catalog.Value{"ts": catalog.TimestampMillis(ts), "hostname": catalog.String("host1"), "log_event": catalog.String("login"), "message": catalog.String("ok")},
		where: "ts = '2024-05-01 12:00:00'",
	}, {
		table: "logs_by_host",
		// rightPad(hostname, 20, 'x') + event + "|" + toBytes(Long.MAX_VALUE - ts)
		key:   cat([]byte("host1"+strings.Repeat("x", 15)), []byte("gc|"), toBytesLong(math.MaxInt64-ts)),
		cells: map[string][]byte{"l:message": []byte("pause")},
		vals:  map[string]catalog.Value{"ts": catalog.TimestampMillis(ts), "hostname": catalog.String("host1"), "log_event": catalog.String("gc"), "message": catalog.String("pause")},
		where: "hostname = 'host1' AND log_event = 'gc' AND ts = '2024-05-01 12:00:00'",
	}, {
		table: "device_metrics",
		// md5(device_id).substring(0, 2) + device_id + "|" + toBytes(Long.MAX_VALUE - ts)
		key: cat(md5Prefix("dev-7", 2), []byte("dev-7|"), toBytesLong(math.MaxInt64-ts)),
		cells: map[string][]byte{"meta:model": []byte("t100"), "meta:fw": []byte("1.0.3"),
			"metrics:temp": toBytesDouble(21.5), "metrics:hum": toBytesDouble(-0.25)},
		vals: map[string]catalog.Value{"device_id": catalog.String("dev-7"), "ts": catalog.TimestampMillis(ts), "model": catalog.String("t100"),
			"firmware": catalog.String("1.0.3"), "temperature": catalog.Double(21.5), "humidity": catalog.Double(-0.25)},
		where: "device_id = 'dev-7' AND ts = '2024-05-01 12:00:00'",
	}, {
		table: "sites",
		// new StringBuilder(domain).reverse()
		key:   []byte("moc.aa.pohs"),
		cells: map[string][]byte{"s:owner": []byte("ann"), "s:visits": toBytesLong(-12)},
		vals:  map[string]catalog.Value{"domain": catalog.String("shop.aa.com"), "owner": catalog.String("ann"), "visits": catalog.Bigint(-12)},
		where: "domain = 'shop.aa.com'",
	}, {
		table: "order_events",
		// leftPad(user_id, 10, "0") + leftPad(order_id, 12, "0") + random(100)
		key:        []byte("0000000042" + "000000001234" + "07"),
		cells:      map[string][]byte{"e:event": []byte("paid"), "e:ts": toBytesLong(ts)},
		vals:       map[string]catalog.Value{"user_id": catalog.Bigint(42), "order_id": catalog.Bigint(1234), "event": catalog.String("paid"), "ts": catalog.TimestampMillis(ts)},
		where:      "user_id = 42 AND order_id = 1234",
		randomTail: 2,
	}}
}

// TestInterop: for each example table, a row written as a Java
// application writes it reads back as its values, and rkql's INSERT of those
// values writes the same bytes.
func TestInterop(t *testing.T) {
	runInterop(t, interopCases())
}

// TestInteropNegative: Java code may write negative numbers into java
// key fields: Bytes.toBytes(-1001L) is two's complement, and
// Long.MAX_VALUE - ts for a time before 1970 overflows past
// Long.MIN_VALUE. rkql reads such rows and writes the same bytes.
func TestInteropNegative(t *testing.T) {
	ts := time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()
	if ts >= 0 {
		t.Fatal("the time is not before 1970")
	}
	runInterop(t, []interopCase{{
		table: "orders",
		key:   cat(md5Prefix("s1", 4), []byte("s1|"), toBytesLong(math.MaxInt64-ts), toBytesLong(-1001)),
		cells: map[string][]byte{"d:buyer": []byte("b7"), "d:amount": toBytesDouble(-3), "d:status": []byte("new")},
		vals: map[string]catalog.Value{"seller": catalog.String("s1"), "ts": catalog.TimestampMillis(ts), "order_id": catalog.Bigint(-1001),
			"buyer": catalog.String("b7"), "amount": catalog.Double(-3), "status": catalog.String("new")},
		where: "seller = 's1' AND ts = '1969-12-31 00:00:00' AND order_id = -1001",
	}, {
		table: "orders",
		key:   cat(md5Prefix("s2", 4), []byte("s2|"), toBytesLong(math.MaxInt64-ts), toBytesLong(math.MinInt64)),
		cells: map[string][]byte{"d:buyer": []byte("b8")},
		vals: map[string]catalog.Value{"seller": catalog.String("s2"), "ts": catalog.TimestampMillis(ts), "order_id": catalog.Bigint(math.MinInt64),
			"buyer": catalog.String("b8")},
		where: "seller = 's2' AND order_id < -5 AND ts < '1970-01-01 00:00:00'",
	}, {
		table: "phone_users",
		key:   cat([]byte("1234567810"), []byte("|"), toBytesLong(-77)),
		cells: map[string][]byte{"u:name": []byte("neg")},
		vals:  map[string]catalog.Value{"phone": catalog.String("0187654321"), "user_id": catalog.Bigint(-77), "name": catalog.String("neg")},
		where: "phone = '0187654321' AND user_id BETWEEN -100 AND 100",
	}})
}

func runInterop(t *testing.T, cases []interopCase) {
	ctx := context.Background()
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.New(c, planner.Options{})
	for _, tc := range cases {
		t.Run(tc.table, func(t *testing.T) {
			tb, _ := c.Table(tc.table)
			row := tb.NewRow()
			var cols []string
			for name, v := range tc.vals {
				i, ok := tb.Column(name)
				if !ok {
					t.Fatalf("no column %s", name)
				}
				row[i] = v
				cols = append(cols, name)
			}
			slices.Sort(cols)
			// Written by Java, read by rkql.
			st := openStore(t)
			x := &exec.Executor{Store: st}
			if err := x.EnsureTable(ctx, tb); err != nil {
				t.Fatal(err)
			}
			m := exec.Mutation{Key: tc.key}
			for fq, v := range tc.cells {
				f, q, _ := strings.Cut(fq, ":")
				m.Cells = append(m.Cells, exec.Cell{Family: f, Qualifier: q, Value: v})
			}
			if err := st.Mutate(ctx, tb.Physical, []exec.Mutation{m}); err != nil {
				t.Fatal(err)
			}
			stmt, err := parser.ParseOne("SELECT " + strings.Join(cols, ", ") + " FROM " + tc.table + " WHERE " + tc.where)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pl.Plan(context.Background(), stmt)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := x.Query(ctx, p.(*planner.Select), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rows.Next(ctx)
			if err != nil {
				t.Fatalf("the Java-written row is not found: %v", err)
			}
			for i, name := range cols {
				if want := tc.vals[name]; !catalog.Equal(got[i], want) {
					t.Errorf("%s = %v, want %v", name, got[i], want)
				}
			}
			if _, err := rows.Next(ctx); err != io.EOF {
				t.Errorf("more than one row: %v", err)
			}
			rows.Close()

			// Written by rkql's INSERT, compared byte for byte.
			st2 := openStore(t)
			x2 := &exec.Executor{Store: st2}
			for _, it := range append([]*catalog.Table{tb}, indexTables(tb)...) {
				if err := x2.EnsureTable(ctx, it); err != nil {
					t.Fatal(err)
				}
			}
			if err := x2.Insert(ctx, tb, []catalog.Row{row}, 0, nil); err != nil {
				t.Fatal(err)
			}
			it, err := st2.Scan(ctx, tb.Physical, exec.Range{}, exec.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sr, err := it.Next(ctx)
			it.Close()
			if err != nil {
				t.Fatal(err)
			}
			n := len(tc.key) - tc.randomTail
			if !bytes.Equal(sr.Key[:min(n, len(sr.Key))], tc.key[:n]) || len(sr.Key) != len(tc.key) {
				t.Errorf("INSERT wrote key % X, Java writes % X", sr.Key, tc.key)
			}
			if len(sr.Cells) != len(tc.cells) {
				t.Errorf("INSERT wrote %d cells, Java writes %d", len(sr.Cells), len(tc.cells))
			}
			for _, cl := range sr.Cells {
				if want := tc.cells[cl.Family+":"+cl.Qualifier]; !bytes.Equal(cl.Value, want) {
					t.Errorf("INSERT wrote %s:%s = % X, Java writes % X", cl.Family, cl.Qualifier, cl.Value, want)
				}
			}
		})
	}
}

func indexTables(t *catalog.Table) []*catalog.Table {
	var out []*catalog.Table
	for _, ix := range t.Indexes {
		out = append(out, ix.Table)
	}
	return out
}
