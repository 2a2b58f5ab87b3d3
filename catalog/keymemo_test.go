package catalog

import (
	"fmt"
	"testing"
	"time"
)

const md5Catalog = `
tables:
  - name: orders
    columns:
      - {name: seller, type: STRING}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP}
    rowkey:
      - {hash: md5, of: [seller], width: 4}
      - {field: seller}
      - {literal: "|"}
      - {field: ts, encoding: java, order: desc}
      - {field: order_id, encoding: java}
`

// md5Keys returns sellers × per keys of md5Catalog's table, a seller's
// keys one after another as a scan reads them.
func md5Keys(t testing.TB, tb *Table, sellers, per int) [][]byte {
	var keys [][]byte
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	for s := range sellers {
		for n := range per {
			row := tb.NewRow()
			row[0] = Value{Type: TypeString, S: fmt.Sprintf("s%d", s)}
			row[1] = Value{Type: TypeBigint, I: int64(n)}
			row[2] = TimestampMillis(base.Add(time.Duration(n) * time.Minute).UnixMilli())
			k, err := tb.EncodeKey(row, nil)
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k)
		}
	}
	return keys
}

// TestKeyCheckerMD5Memo checks that the remembered md5 of the key before
// never lets a wrong hash prefix through: a key of the same seller with
// one hash byte changed is refused, as DecodeKey refuses it, and every
// good key decodes as DecodeKey decodes it.
func TestKeyCheckerMD5Memo(t *testing.T) {
	tb := mustTable(t, mustParse(t, md5Catalog), "orders")
	k := tb.NewKeyChecker()
	keys := md5Keys(t, tb, 3, 4)
	for i, key := range keys {
		checkAgrees(t, tb, k, key)
		bad := append([]byte(nil), key...)
		bad[i%4] ^= 1
		checkAgrees(t, tb, k, bad)
		if err := k.Decode(bad, tb.NewRow(), make([]int, len(tb.Key.Components)+1)); err == nil {
			t.Fatalf("key '%s' with a wrong hash accepted", ToStringBinary(bad))
		}
		checkAgrees(t, tb, k, key)
	}
}

// BenchmarkDecodeKeyMD5 decodes keys of a layout with an md5 prefix, 200
// per seller in key order: DecodeKey computes every md5; a KeyChecker
// reuses the last one while the seller stays the same.
func BenchmarkDecodeKeyMD5(b *testing.B) {
	tb := mustTable(b, mustParse(b, md5Catalog), "orders")
	keys := md5Keys(b, tb, 20, 200)
	row, offs := tb.NewRow(), make([]int, len(tb.Key.Components)+1)
	b.Run("DecodeKey", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if err := tb.DecodeKey(keys[i%len(keys)], row, offs); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("KeyChecker", func(b *testing.B) {
		k := tb.NewKeyChecker()
		i := 0
		for b.Loop() {
			if err := k.Decode(keys[i%len(keys)], row, offs); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
