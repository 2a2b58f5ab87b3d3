package catalog

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"testing"
)

const prefixCatalog = `
tables:
  - name: orders
    columns:
      - {name: seller, type: STRING}
      - {name: order_id, type: BIGINT}
      - {name: ts, type: TIMESTAMP}
      - {name: amount, type: DOUBLE, column: "d:amount"}
    families: [{name: d}]
    rowkey:
      - {hash: md5, of: [seller], width: 4}
      - {field: seller}
      - {literal: "|"}
      - {field: ts, encoding: java, order: desc}
      - {field: order_id, encoding: java}
  - name: salted
    columns:
      - {name: a, type: INT}
      - {name: b, type: STRING}
    rowkey:
      - {salt: 4}
      - {field: a}
      - {field: b}
`

// TestEncodeKeyPrefix checks that the prefix of a partial row begins the
// key of every full row with those fields, and stops where a field is
// missing.
func TestEncodeKeyPrefix(t *testing.T) {
	c := mustParse(t, prefixCatalog)
	tb := mustTable(t, c, "orders")
	seller, _ := tb.Column("seller")
	ts, _ := tb.Column("ts")
	id, _ := tb.Column("order_id")
	row := tb.NewRow()
	row[seller] = String("s5")
	prefix, used, err := tb.EncodeKeyPrefix(row)
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum([]byte("s5"))
	if want := hex.EncodeToString(sum[:])[:4] + "s5|"; string(prefix) != want {
		t.Errorf("prefix %q, want %q", prefix, want)
	}
	if len(used) != 1 || used[0] != seller {
		t.Errorf("used %v, want [%d]", used, seller)
	}
	for _, n := range []int64{0, 1, 1 << 40} {
		full := tb.NewRow()
		full[seller], full[ts], full[id] = String("s5"), TimestampMillis(n), Bigint(n)
		key, err := tb.EncodeKey(full, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(key, prefix) {
			t.Errorf("key %q of a row of s5 does not start with %q", key, prefix)
		}
	}
	// order_id alone comes after the missing ts: it is not in the prefix.
	row[id] = Bigint(7)
	if _, used, _ := tb.EncodeKeyPrefix(row); len(used) != 1 {
		t.Errorf("used %v: order_id is after ts, which is missing", used)
	}

	s := mustTable(t, c, "salted")
	a, _ := s.Column("a")
	srow := s.NewRow()
	srow[a] = Int(3)
	if _, _, err := s.EncodeKeyPrefix(srow); err == nil {
		t.Error("a salted key's prefix without every field was computed")
	}
}
