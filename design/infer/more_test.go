package infer_test

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/infer"
	"github.com/rkql/rkql/examples"
)

// Layouts beyond the example catalog's: the other derived prefixes and
// times. Each is a hand-written entry whose generated rows are encoded
// with it, then inferred without it.
func TestInferMoreLayouts(t *testing.T) {
	cases := []struct {
		name, columns, rowkey, point, scan string
	}{{
		name:    "salt_seconds_desc",
		columns: "{name: host, type: STRING}, {name: ts, type: TIMESTAMP}, {name: v, type: STRING, column: 'f:v'}",
		rowkey:  "{salt: 8}, {field: host}, {literal: '|'}, {field: ts, encoding: java, order: desc, unit: s}",
		point:   "host = {host} AND ts = {ts}",
		scan:    "host = {host} AND ts >= {ts} AND ts <= {ts+}",
	}, {
		name:    "murmur3_prefix",
		columns: "{name: user, type: STRING}, {name: n, type: BIGINT}, {name: v, type: STRING, column: 'f:v'}",
		rowkey:  "{hash: murmur3, of: [user], mod: 100}, {literal: '|'}, {field: user}, {literal: '|'}, {field: n, encoding: java}",
		point:   "user = {user} AND n = {n}",
		scan:    "user = {user} AND n >= {n} AND n <= {n+}",
	}, {
		name:    "arrays_hash_binary",
		columns: "{name: id, type: BIGINT}, {name: v, type: STRING, column: 'f:v'}",
		rowkey:  "{hash: arrays, of: [id], mod: 64, binary: true}, {field: id, encoding: java}",
		point:   "id = {id}",
		scan:    "id >= {id} AND id <= {id+}",
	}, {
		name:    "md5_of_number",
		columns: "{name: id, type: BIGINT}, {name: day, type: DATE}, {name: v, type: DOUBLE, column: 'f:v'}",
		rowkey:  "{hash: md5, of: [id], width: 8}, {field: id, encoding: decimal, width: 12}, {literal: '#'}, {field: day, encoding: decimal, width: 8}",
		point:   "id = {id} AND day = {day}",
		scan:    "id = {id} AND day >= {day} AND day <= {day+}",
	}, {
		name:    "md5_of_two_fields",
		columns: "{name: app, type: STRING}, {name: uid, type: BIGINT}, {name: v, type: STRING, column: 'f:v'}",
		rowkey:  "{hash: md5, of: [app, uid], width: 6}, {literal: ':'}, {field: app}, {literal: ':'}, {field: uid, encoding: decimal, width: 9}",
		point:   "app = {app} AND uid = {uid}",
		// A range of uid cannot be read through a hash of both fields:
		// an IN list of points instead.
		scan: "app = {app} AND uid IN ({uid}, {uid+})",
	}, {
		name:    "micros_asc_text",
		columns: "{name: ts, type: TIMESTAMP}, {name: name, type: STRING}, {name: v, type: BIGINT, column: 'f:v'}",
		rowkey:  "{field: ts, encoding: java, unit: us}, {field: name}",
		point:   "ts = {ts} AND name = {name}",
		scan:    "ts >= {ts} AND ts <= {ts+}",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "tables:\n  - name: " + tc.name + "\n    families: [{name: f}]\n    columns: [" + tc.columns + "]\n    rowkey: [" + tc.rowkey + "]\n"
			c, err := catalog.Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			hand, _ := c.Table(tc.name)
			w := encode(t, c, hand, examples.Rows(hand, 300, 2))
			check(t, w, tc.point, tc.scan)
		})
	}
}

// An md5 prefix kept as raw bytes (MessageDigest's digest, cut to 4
// bytes) is recognised and verified, though the catalog writes md5 as
// hex only: the entry keeps the bytes as a BYTES field.
func TestInferRawMD5(t *testing.T) {
	var s infer.Sample
	for i := range 200 {
		user := fmt.Sprintf("user%d", i*7%150)
		sum := md5.Sum([]byte(user))
		key := append(append(append([]byte{}, sum[:4]...), user+"|"...), binary.BigEndian.AppendUint64(nil, uint64(i))...)
		s.Rows = append(s.Rows, infer.Row{Key: key, Cells: []infer.Cell{{Family: "f", Qualifier: "v", Value: []byte("x")}}})
	}
	s.Table = "raw_md5"
	p := infer.Infer(s, infer.Options{})
	t.Logf("%s", p.Text())
	if !p.Found || !strings.Contains(p.Text(), "the first 4 bytes of md5(k1), raw rather than hex") {
		t.Fatalf("the raw md5 prefix is not recognised:\n%s", p.Text())
	}
	if !strings.Contains(p.Key, "md5:") || !strings.Contains(p.Key, "k1:str|") {
		t.Errorf("key %s", p.Key)
	}
}
