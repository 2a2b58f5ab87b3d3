package examples

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"time"

	"github.com/rkql/rkql/catalog"
)

// Epoch is the start of the generated data's time window.
var Epoch = time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)

// Window is the length of the generated data's time window.
const Window = 7 * 24 * time.Hour

// Domain draws values for one column. Data and random queries draw from
// the same domains, so queries hit rows.
type Domain func(r *rand.Rand) catalog.Value

// pool draws one of a fixed set of strings.
func pool(vals ...string) Domain {
	return func(r *rand.Rand) catalog.Value { return catalog.String(vals[r.IntN(len(vals))]) }
}

// names draws prefix + a number below n.
func names(prefix string, n int) Domain {
	return func(r *rand.Rand) catalog.Value { return catalog.String(fmt.Sprintf("%s%d", prefix, r.IntN(n))) }
}

func ints(lo, hi int64) Domain {
	return func(r *rand.Rand) catalog.Value { return catalog.Bigint(lo + r.Int64N(hi-lo)) }
}

func timestamps() Domain {
	return func(r *rand.Rand) catalog.Value {
		return catalog.TimestampMillis(Epoch.UnixMilli() + r.Int64N(Window.Milliseconds()))
	}
}

// hosts holds the classic trap of keys with no boundary: host1 is a prefix
// of host12.
var hosts = pool("host1", "host12", "host2", "host", "web1", "web10", "db1", "h")

// domains are the value domains of the example tables' columns.
var domains = map[string]map[string]Domain{
	"orders": {
		"seller":   names("s", 40),
		"buyer":    names("b", 300),
		"order_id": ints(1000, 10_001_000),
		"ts":       timestamps(),
		"amount": func(r *rand.Rand) catalog.Value {
			return catalog.Double(float64(r.IntN(100000)) / 100)
		},
		"status": pool("new", "paid", "shipped", "cancelled"),
	},
	"user_calendar_record": {
		"uid": ints(1, 5000),
		"date": func(r *rand.Rand) catalog.Value {
			return catalog.DateDays(Epoch.Unix()/86400 - 200 + r.Int64N(400))
		},
		"type": func(r *rand.Rand) catalog.Value { return catalog.Int(int32(r.IntN(100))) },
		"data": names("record-", 1000),
	},
	"hbase_meta": {
		"table": names("t", 5),
		"start_key": func(r *rand.Rand) catalog.Value {
			return catalog.Bytes([]byte([]string{"", "10000000", "20000000", "a0000000"}[r.IntN(4)]))
		},
		"region_id": ints(1700000000000, 1800000000000),
		"encoded":   names("e", 1000),
		"server":    pool("rs1:16020", "rs2:16020"),
		"state":     pool("OPEN", "CLOSED"),
	},
	"logs_by_host": {
		"hostname":  hosts,
		"log_event": pool("login", "logout", "error", "warn", "gc"),
		"ts":        timestamps(),
		"message":   names("message ", 500),
	},
	"device_metrics": {
		"device_id": names("dev-", 200),
		"ts":        timestamps(),
		"model":     pool("t100", "t200", "h9"),
		"firmware":  pool("1.0.3", "1.1.0", "2.0.0"),
		"temperature": func(r *rand.Rand) catalog.Value {
			return catalog.Double(float64(r.IntN(600)-100) / 10)
		},
		"humidity": func(r *rand.Rand) catalog.Value { return catalog.Double(float64(r.IntN(1000)) / 10) },
	},
	"phone_users": {
		"phone": func(r *rand.Rand) catalog.Value {
			prefixes := []string{"152", "185", "139", "177"}
			return catalog.String(fmt.Sprintf("%s%08d", prefixes[r.IntN(len(prefixes))], r.IntN(5000)*7919%100000000))
		},
		"user_id": ints(1, 100000),
		"name":    names("user", 5000),
	},
	"sites": {
		"domain": func(r *rand.Rand) catalog.Value {
			subs := []string{"", "www.", "shop.", "api.", "m."}
			return catalog.String(fmt.Sprintf("%ssite%d.%s", subs[r.IntN(len(subs))], r.IntN(800), []string{"com", "org", "cn", "com.br"}[r.IntN(4)]))
		},
		"owner":  names("owner", 100),
		"visits": ints(0, 1_000_000),
	},
	"order_events": {
		"user_id":  ints(1, 200),
		"order_id": ints(1, 3000),
		"event":    pool("created", "paid", "shipped", "delivered", "refunded"),
		"ts":       timestamps(),
	},
	"logs": {
		"hostname":  hosts,
		"log_event": pool("login", "logout", "error", "warn", "gc"),
		"ts":        timestamps(),
		"message":   names("message ", 500),
	},
}

// DomainOf returns the domain of a column of an example table, or a
// generic one drawn from its type.
func DomainOf(t *catalog.Table, col int) Domain {
	c := t.Columns[col]
	if d, ok := domains[t.Name][c.Name]; ok {
		return d
	}
	if d := keyDomain(t, col); d != nil {
		return d
	}
	switch c.Type {
	case catalog.TypeString:
		return names(c.Name+"-", 50)
	case catalog.TypeInt:
		return func(r *rand.Rand) catalog.Value { return catalog.Int(int32(r.IntN(100))) }
	case catalog.TypeDouble:
		return func(r *rand.Rand) catalog.Value { return catalog.Double(float64(r.IntN(10000)) / 10) }
	case catalog.TypeBoolean:
		return func(r *rand.Rand) catalog.Value { return catalog.Bool(r.IntN(2) == 0) }
	case catalog.TypeTimestamp:
		return timestamps()
	case catalog.TypeDate:
		return func(r *rand.Rand) catalog.Value { return catalog.DateDays(Epoch.Unix()/86400 + r.Int64N(60)) }
	case catalog.TypeBytes:
		return func(r *rand.Rand) catalog.Value { return catalog.Bytes([]byte{byte(r.IntN(4)), byte(r.IntN(256))}) }
	}
	return ints(0, 1000)
}

// keyDomain narrows a key field's values to what its encoding holds:
// whole seconds for a TIMESTAMP counted in seconds, small numbers for a
// narrow integer; a signed java integer takes negative numbers too, as
// Java code writing Bytes.toBytes(-5L) does.
func keyDomain(t *catalog.Table, col int) Domain {
	for i := range t.Key.Components {
		k := &t.Key.Components[i]
		if k.Kind != catalog.KindField || k.Column() != col {
			continue
		}
		if k.Unit == catalog.Seconds {
			return func(r *rand.Rand) catalog.Value {
				return catalog.TimestampMillis((Epoch.Unix() + r.Int64N(int64(Window.Seconds()))) * 1000)
			}
		}
		if k.Width == 1 && (k.Enc == catalog.KeyJava || k.Enc == catalog.KeyBinary) {
			switch t.Columns[col].Type {
			case catalog.TypeBigint:
				return ints(0, 100)
			case catalog.TypeInt:
				return func(r *rand.Rand) catalog.Value { return catalog.Int(int32(r.IntN(100))) }
			}
		}
		if k.Enc == catalog.KeyJava && !k.Unsigned {
			switch t.Columns[col].Type {
			case catalog.TypeBigint:
				return ints(-500, 500)
			case catalog.TypeInt:
				return func(r *rand.Rand) catalog.Value { return catalog.Int(int32(r.IntN(200) - 100)) }
			}
		}
	}
	return nil
}

// unique names the columns whose values are unique per row, as an index
// keyed by them alone needs (one order number, one order).
var unique = map[string]string{"orders": "order_id"}

// Rows returns n deterministic rows for t. Stored columns are NULL in about
// one row in twenty, so NULL handling is exercised.
func Rows(t *catalog.Table, n int, seed uint64) []catalog.Row { return RowsAt(t, 0, n, seed) }

// RowsAt returns n deterministic rows for t, numbered from first: the
// rows Rows draws with the same seed, except that a unique column's
// values follow from each row's number, so that rows drawn apart (with
// other seeds) never share one as long as their numbers differ.
func RowsAt(t *catalog.Table, first, n int, seed uint64) []catalog.Row {
	r := rand.New(rand.NewPCG(seed, uint64(len(t.Name))))
	doms := make([]Domain, len(t.Columns))
	for i := range t.Columns {
		doms[i] = DomainOf(t, i)
	}
	out := make([]catalog.Row, n)
	for i := range out {
		row := make(catalog.Row, len(t.Columns))
		for j, c := range t.Columns {
			if !c.KeyField && r.IntN(20) == 0 {
				row[j] = catalog.Null(c.Type)
				continue
			}
			row[j] = doms[j](r)
			if unique[t.Name] == c.Name {
				// Row k's value is in [k*1000, k*1000+1000).
				row[j] = catalog.Bigint(int64(first+i+1)*1000 + r.Int64N(1000))
			}
		}
		out[i] = row
	}
	return out
}

// Stream yields n deterministic rows for t in chunks of at most size
// rows, the k-th chunk drawn with seed k (from 1), so that a large data
// set needs no more memory than one chunk. The rows are numbered across
// the whole stream: a unique column repeats no value.
func Stream(t *catalog.Table, n, size int) iter.Seq[[]catalog.Row] {
	return func(yield func([]catalog.Row) bool) {
		for start, seed := 0, uint64(1); start < n; start, seed = start+size, seed+1 {
			if !yield(RowsAt(t, start, min(size, n-start), seed)) {
				return
			}
		}
	}
}

// DemoRows is how many rows `make demo` loads into each example table.
var DemoRows = map[string]int{
	"orders":               50_000,
	"user_calendar_record": 30_000,
	"logs":                 40_000,
	"logs_by_host":         40_000,
	"device_metrics":       30_000,
	"phone_users":          20_000,
	"sites":                4_000,
	"hbase_meta":           50,
	"order_events":         20_000,
}
