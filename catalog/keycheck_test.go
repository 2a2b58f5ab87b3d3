package catalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
)

// checkAgrees fails unless KeyChecker.Check and Decode and DecodeKey give
// the same answer, and the same error text, for key, and Decode and
// DecodeKey the same values and offsets.
func checkAgrees(t *testing.T, tb *Table, k *KeyChecker, key []byte) {
	t.Helper()
	row, offs := tb.NewRow(), make([]int, len(tb.Key.Components)+1)
	want := fmt.Sprint(tb.DecodeKey(key, row, offs))
	if got := fmt.Sprint(k.Check(key)); got != want {
		t.Fatalf("%s: key '%s': Check says %s, DecodeKey %s", tb.Name, ToStringBinary(key), got, want)
	}
	row2, offs2 := tb.NewRow(), make([]int, len(tb.Key.Components)+1)
	got := fmt.Sprint(k.Decode(key, row2, offs2))
	if got != want || want == "<nil>" && (!reflect.DeepEqual(row2, row) || !reflect.DeepEqual(offs2, offs)) {
		t.Fatalf("%s: key '%s': Decode gives %s %v %v, DecodeKey %s %v %v", tb.Name, ToStringBinary(key), got, row2, offs2, want, row, offs)
	}
}

// keyCheckCatalog holds layouts for the fast path's other steps: buckets
// whose modulus is not a power of two, over negative numbers, in decimal
// and wider than a byte; descending and narrow integers, java ones
// holding negative numbers; fixed-width, descending and multi-byte
// delimited text.
const keyCheckCatalog = `
tables:
  - name: bucket_odd
    columns:
      - {name: n, type: BIGINT}
      - {name: s, type: STRING}
    rowkey:
      - {bucket: n, mod: 10}
      - {field: n, encoding: binary}
      - {field: s, width: 6, pad: "_"}
  - name: bucket_wide
    columns:
      - {name: n, type: INT}
      - {name: s, type: STRING}
      - {name: t, type: STRING}
    rowkey:
      - {bucket: n, mod: 1000, binary: true}
      - {field: n, encoding: java, order: desc}
      - {field: s}
      - {literal: "::"}
      - {field: t, order: desc}
  - name: java_signed
    columns:
      - {name: a, type: BIGINT}
      - {name: b, type: INT}
      - {name: c, type: TIMESTAMP}
      - {name: s, type: STRING}
    rowkey:
      - {bucket: a, mod: 7}
      - {field: a, encoding: java}
      - {field: b, encoding: java, width: 2, order: desc}
      - {field: c, encoding: java, order: desc}
      - {field: s}
`

// keyCheckLayouts holds layouts whose fields the fast path must leave to
// DecodeField or whose components it must leave to the general path:
// unsigned and narrow integers, times in seconds and microseconds (and a
// bucket over one), a salt over chosen fields, Arrays.hashCode and seeded
// murmur3 hashes, and a repeated key group.
const keyCheckLayouts = `
tables:
  - name: narrow_units
    columns:
      - {name: a, type: BIGINT}
      - {name: b, type: TIMESTAMP}
      - {name: c, type: INT}
      - {name: d, type: TIMESTAMP}
    rowkey:
      - {bucket: b, mod: 7, binary: true}
      - {field: a, encoding: java, width: 3, unsigned: true}
      - {field: b, encoding: java, width: 4, unit: s}
      - {field: c, encoding: sortable, width: 2, order: desc}
      - {field: d, encoding: sortable, unit: us, order: desc}
  - name: narrow_signed
    columns:
      - {name: a, type: BIGINT}
      - {name: c, type: INT}
    rowkey:
      - {bucket: a, mod: 12}
      - {field: a, encoding: java, width: 2, order: desc}
      - {field: c, encoding: sortable, width: 1}
  - name: salt_of_fields
    columns:
      - {name: m, type: BIGINT}
      - {name: h, type: STRING}
      - {name: ts, type: TIMESTAMP}
    rowkey:
      - {salt: 20, of: [m, h], width: 2}
      - {field: m, encoding: java, width: 3, unsigned: true}
      - {field: h}
      - {literal: "|"}
      - {field: ts, encoding: java, width: 4, unit: s}
  - name: arrays_murmur
    columns:
      - {name: uid, type: BIGINT}
      - {name: name, type: STRING}
    rowkey:
      - {hash: arrays, of: [uid], mod: 97}
      - {hash: murmur3, of: [name], mod: 1000, seed: 2538058380}
      - {field: uid, encoding: java}
      - {field: name}
  - name: grouped
    columns:
      - {name: m, type: BIGINT}
      - {name: k, type: BIGINT}
      - {name: v, type: BIGINT}
    rowkey:
      - {salt: 4, of: [m, k, v]}
      - {field: m, encoding: java, width: 3, unsigned: true}
      - group:
          - {field: k, encoding: java, width: 3, unsigned: true}
          - {field: v, encoding: java, width: 3, unsigned: true}
`

// TestKeyCheckerAgrees compares KeyChecker.Check with DecodeKey on keys of
// every test layout: keys EncodeKey wrote, the same keys cut short, grown
// and with one byte changed (which breaks hashes, buckets, salts,
// delimiters and literals), and random bytes.
func TestKeyCheckerAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	refused := 0
	tables := fuzzTables(t)
	for _, src := range []string{keyCheckCatalog, keyCheckLayouts} {
		extra := mustParse(t, src)
		for _, name := range extra.Names() {
			tables = append(tables, mustTable(t, extra, name))
		}
	}
	tsdb, err := os.ReadFile("../examples/opentsdb_pairs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ts := mustParse(t, string(tsdb))
	for _, name := range ts.Names() {
		tables = append(tables, mustTable(t, ts, name))
	}
	fast, negJava := 0, 0
	for _, tb := range tables {
		k := tb.NewKeyChecker()
		if k.steps != nil {
			fast++
		}
		rnd := func(n int64) int64 { return r.Int64N(n) }
		valid := 0
		for range 400 {
			row := tb.NewRow()
			for _, col := range tb.KeyColumns() {
				row[col] = genValue(r, tb.Columns[col].Type)
				if row[col].Type == TypeTimestamp && r.IntN(2) == 0 {
					// Whole seconds that fit 4 bytes, for keys in seconds.
					row[col] = TimestampMillis(r.Int64N(1<<31) * 1000)
				}
			}
			key, err := tb.EncodeKey(row, rnd)
			if err != nil {
				continue
			}
			if tb.DecodeKey(key, tb.NewRow(), nil) == nil {
				valid++
				for i := range tb.Key.Components {
					c := &tb.Key.Components[i]
					if c.Kind == KindField && c.Enc == KeyJava && !c.Unsigned && row[c.Column()].I < 0 {
						negJava++
					}
				}
			}
			checkAgrees(t, tb, k, key)
			if len(key) > 0 {
				checkAgrees(t, tb, k, key[:r.IntN(len(key))])
				bad := bytes.Clone(key)
				bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
				if tb.DecodeKey(bad, tb.NewRow(), nil) != nil {
					refused++
				}
				checkAgrees(t, tb, k, bad)
			}
			checkAgrees(t, tb, k, append(bytes.Clone(key), byte(r.IntN(256))))
			junk := make([]byte, r.IntN(24))
			for i := range junk {
				junk[i] = byte(r.IntN(256))
			}
			checkAgrees(t, tb, k, junk)
		}
		if valid == 0 {
			t.Errorf("%s: no generated key decodes; the test checks nothing valid", tb.Name)
		}
	}
	if fast < 5 {
		t.Errorf("%d layouts take the fast path; the test checks it too little", fast)
	}
	if refused == 0 {
		t.Error("no changed key was refused; the test checks nothing invalid")
	}
	if negJava < 100 {
		t.Errorf("only %d valid keys hold a negative java integer", negJava)
	}
}

// BenchmarkKeyCheck checks a logs key with DecodeKey (decode) and with a
// KeyChecker (check); raw is a hand-written check of the same layout on
// the bytes: bucket = ts % 16, a NUL after the hostname.
func BenchmarkKeyCheck(b *testing.B) {
	tb := mustTable(b, loadExamples(b), "logs")
	row := tb.NewRow()
	row[0], row[1], row[2] = String("web-042.example.com"), String("login"), TimestampMillis(1714700000123)
	key, err := tb.EncodeKey(row, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		out, offs := tb.NewRow(), make([]int, len(tb.Key.Components)+1)
		for b.Loop() {
			if err := tb.DecodeKey(key, out, offs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		k := tb.NewKeyChecker()
		if k.steps == nil {
			b.Fatal("the logs layout does not take the fast path")
		}
		for b.Loop() {
			if err := k.Check(key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			ts := int64(readUint(key[1:9]))
			if len(key) < 10 || int64(key[0]) != ts%16 || bytes.IndexByte(key[9:], 0) < 0 {
				b.Fatal("bad key")
			}
		}
	})
}
