package catalog

import (
	"bytes"
	"strings"
	"testing"
)

// tsdbLike is OpenTSDB's key: a salt over the metric and tag uids (not
// the base time), 3-byte unsigned uids, 4 bytes of seconds.
const tsdbLike = `tables:
  - name: s
    families: [{name: t}]
    columns:
      - {name: metric, type: BIGINT}
      - {name: base, type: TIMESTAMP}
      - {name: tagk, type: BIGINT}
      - {name: tagv, type: BIGINT}
      - {name: v, type: BIGINT, column: "t:v"}
    rowkey:
      - {salt: %d, of: [metric, tagk, tagv], width: %d}
      - {field: metric, encoding: java, width: 3, unsigned: true}
      - {field: base, encoding: java, width: 4, unit: s}
      - {field: tagk, encoding: java, width: 3, unsigned: true}
      - {field: tagv, encoding: java, width: 3, unsigned: true}
`

// javaArraysHashCode is Arrays.hashCode(byte[]) written out: result = 1,
// then 31 * result + element, in int arithmetic.
func javaArraysHashCode(b []byte) int32 {
	result := int32(1)
	for _, e := range b {
		result = 31*result + int32(int8(e))
	}
	return result
}

func TestSaltOverFields(t *testing.T) {
	for _, tc := range []struct{ buckets, width int }{{20, 1}, {300, 2}} {
		src := strings.Replace(strings.Replace(tsdbLike, "%d", itoa(int64(tc.buckets)), 1), "%d", itoa(int64(tc.width)), 1)
		c := mustParse(t, src)
		tb := mustTable(t, c, "s")
		row := tb.NewRow()
		row[0], row[1], row[2], row[3] = Bigint(0x0100FF), TimestampMillis(1714521600_000), Bigint(1), Bigint(0xABCDEF)
		key, err := tb.EncodeKey(row, nil)
		if err != nil {
			t.Fatal(err)
		}
		// As OpenTSDB's RowKey.prefixKeyWithSalt: hash the metric and the
		// tags, skipping the salt and the 4 timestamp bytes.
		rest := []byte{0x01, 0x00, 0xFF, 0x66, 0x31, 0x86, 0x00, 0x00, 0x00, 0x01, 0xAB, 0xCD, 0xEF}
		base := append(append([]byte{}, rest[:3]...), rest[7:]...)
		m := javaArraysHashCode(base) % int32(tc.buckets)
		if m < 0 {
			m *= -1
		}
		salt := make([]byte, tc.width)
		for i, shift := 1, 0; i <= tc.width; i, shift = i+1, shift+8 {
			salt[tc.width-i] = byte(uint32(m) >> shift)
		}
		want := append(salt, rest...)
		if !bytes.Equal(key, want) {
			t.Fatalf("buckets %d: key % X, want % X", tc.buckets, key, want)
		}
		got, err := tb.Salt(rest)
		if err != nil || !bytes.Equal(got, salt) {
			t.Fatalf("Salt = % X, %v; want % X", got, err, salt)
		}
		back := tb.NewRow()
		if err := tb.DecodeKey(key, back, nil); err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(key)
		bad[tc.width-1]++
		if err := tb.DecodeKey(bad, back, nil); err == nil {
			t.Fatalf("a wrong salt decodes")
		}
	}
}

func TestHashFunctions(t *testing.T) {
	src := `tables:
  - name: h
    families: [{name: d}]
    columns:
      - {name: uid, type: BIGINT}
      - {name: name, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {hash: arrays, of: [uid], mod: 97}
      - {hash: murmur3, of: [name], mod: 1000, seed: 2538058380}
      - {field: uid, encoding: java}
      - {field: name}
`
	tb := mustTable(t, mustParse(t, src), "h")
	row := tb.NewRow()
	row[0], row[1] = Bigint(12345), String("Hello, world!")
	key, err := tb.EncodeKey(row, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Arrays.hashCode(Bytes.toBytes(12345L)) % 97, abs.
	a := javaArraysHashCode([]byte{0, 0, 0, 0, 0, 0, 0x30, 0x39}) % 97
	if a < 0 {
		a = -a
	}
	// MurmurHash3_x86_32("Hello, world!", seed 0x9747b28c) is 0x24884CBA
	// (the reference implementation's test vector).
	m := int32(0x24884CBA) % 1000
	want := itoa(int64(a)) + "314"
	if m != 314 || !strings.HasPrefix(string(key), want) {
		t.Fatalf("key %q, want prefix %q", key, want)
	}
	if s := tb.Key.String(); !strings.Contains(s, "abs(Arrays.hashCode(uid)%97)") || !strings.Contains(s, "murmur3(name,seed=2538058380)%1000") {
		t.Fatalf("KEY line %q does not name the functions", s)
	}
}
