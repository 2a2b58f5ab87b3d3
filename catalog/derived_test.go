package catalog

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/twmb/murmur3"
)

// derivedCatalog has one table per kind of derived component.
const derivedCatalog = `
tables:
  - name: md5_4
    columns:
      - {name: user_id, type: STRING}
      - {name: order_id, type: BIGINT}
    rowkey:
      - {hash: md5, of: [user_id], width: 4}
      - {field: user_id}
      - {literal: "|"}
      - {field: order_id, encoding: binary}
  - name: md5_32_two_inputs
    columns:
      - {name: a, type: STRING}
      - {name: n, type: BIGINT}
    rowkey:
      - {hash: md5, of: [a, n], width: 32}
      - {field: n, encoding: decimal, width: 19}
      - {field: a}
  - name: java_mod10
    columns:
      - {name: uid, type: BIGINT}
    rowkey:
      - {hash: java, of: [uid], mod: 10}
      - {literal: "~"}
      - {field: uid, encoding: decimal, width: 10}
  - name: java_mod1000_binary
    columns:
      - {name: s, type: STRING}
    rowkey:
      - {hash: java, of: [s], mod: 1000, binary: true}
      - {field: s}
  - name: murmur_mod100
    columns:
      - {name: s, type: STRING}
      - {name: d, type: DATE}
    rowkey:
      - {hash: murmur3, of: [s, d], mod: 100}
      - {field: d, encoding: decimal, width: 8}
      - {field: s}
  - name: bucket_ts
    columns:
      - {name: ts, type: TIMESTAMP}
      - {name: host, type: STRING}
    rowkey:
      - {bucket: ts, mod: 16, binary: true}
      - {field: ts}
      - {field: host}
  - name: bucket_string
    columns:
      - {name: host, type: STRING}
    rowkey:
      - {bucket: host, mod: 7}
      - {field: host}
  - name: salted
    columns:
      - {name: k, type: STRING}
      - {name: n, type: INT}
    rowkey:
      - {salt: 8}
      - {field: n}
      - {field: k}
  - name: salted_256
    columns:
      - {name: k, type: BYTES}
    rowkey:
      - {salt: 256}
      - {field: k}
  - name: random_suffix
    columns:
      - {name: user_id, type: BIGINT}
      - {name: order_id, type: BIGINT}
    rowkey:
      - {field: user_id, encoding: decimal, width: 10}
      - {field: order_id, encoding: decimal, width: 12}
      - {random: 100}
  - name: random_binary
    columns:
      - {name: k, type: STRING}
    rowkey:
      - {field: k}
      - {literal: "#"}
      - {random: 300, binary: true}
`

// genKeyRow returns a random row whose key fields the layout can encode.
func genKeyRow(r *rand.Rand, tb *Table) Row {
	row := tb.NewRow()
	for i := range tb.Key.Components {
		c := &tb.Key.Components[i]
		if c.Kind == KindField {
			row[c.col] = genEncodable(r, c)
		}
	}
	return row
}

// hashText is the test's statement of the text a hash reads: Java's
// String.valueOf of each input, concatenated.
func hashText(tb *Table, c *Component, row Row) string {
	var s string
	for _, name := range c.Inputs {
		i, _ := tb.Column(name)
		v := row[i]
		switch v.Type {
		case TypeString:
			s += v.S
		case TypeDate:
			s += v.Time().Format("20060102")
		default:
			s += strconv.FormatInt(v.I, 10)
		}
	}
	return s
}

// wantDerived computes a derived component's bytes the test's own way.
func wantDerived(tb *Table, c *Component, key []byte, end int, row Row, rnd int64) []byte {
	number := func(n int64) []byte {
		if c.Binary {
			b := make([]byte, c.Width)
			for i := c.Width - 1; i >= 0; i-- {
				b[i] = byte(n)
				n >>= 8
			}
			return b
		}
		return fmt.Appendf(nil, "%0*d", c.Width, n)
	}
	switch c.Kind {
	case KindHash:
		in := hashText(tb, c, row)
		switch c.Hash {
		case HashMD5:
			sum := md5.Sum([]byte(in))
			return []byte(hex.EncodeToString(sum[:])[:c.Width])
		case HashJava:
			return number(javaAbsModOracle(int64(javaHashOracle(in)), c.Mod))
		default:
			return number(javaAbsModOracle(int64(int32(murmur3.Sum32([]byte(in)))), c.Mod))
		}
	case KindBucket:
		v := row[c.col]
		n := v.I
		if v.Type == TypeString {
			n = int64(javaHashOracle(v.S))
		}
		m := n % c.Mod
		if m < 0 {
			m += c.Mod
		}
		return number(m)
	case KindSalt:
		return []byte{phoenixSaltOracle(key[end:], int(c.Mod))}
	case KindRandom:
		return number(rnd % c.Mod)
	}
	return nil
}

// TestDerivedRoundTrip: keys with hash, bucket, salt and random components
// decode to their rows, re-encode to the same bytes, and each derived
// component holds the bytes the test computes on its own.
func TestDerivedRoundTrip(t *testing.T) {
	cat := mustParse(t, derivedCatalog)
	for ti, name := range cat.Names() {
		t.Run(name, func(t *testing.T) {
			tb := mustTable(t, cat, name)
			r := rand.New(rand.NewPCG(3, uint64(ti)))
			offs := make([]int, len(tb.Key.Components)+1)
			for range 2000 {
				row := genKeyRow(r, tb)
				rnd := r.Int64N(1 << 20)
				key, err := tb.EncodeKey(row, rndConst(rnd))
				if err != nil {
					t.Fatalf("EncodeKey(%v): %v", row, err)
				}
				got := tb.NewRow()
				if err := tb.DecodeKey(key, got, offs); err != nil {
					t.Fatalf("DecodeKey('%s'): %v", ToStringBinary(key), err)
				}
				for _, i := range tb.KeyColumns() {
					if !sameValue(got[i], row[i]) {
						t.Fatalf("key '%s': %s decoded as %s, encoded %s", ToStringBinary(key), tb.Columns[i].Name, got[i], row[i])
					}
				}
				again, err := tb.EncodeKey(got, rndConst(rnd))
				if err != nil || !bytes.Equal(again, key) {
					t.Fatalf("re-encoding gave '%s' (%v), want '%s'", ToStringBinary(again), err, ToStringBinary(key))
				}
				for i := range tb.Key.Components {
					c := &tb.Key.Components[i]
					if c.Kind == KindField || c.Kind == KindLiteral {
						continue
					}
					want := wantDerived(tb, c, key, offs[i+1], row, rnd)
					if gotb := key[offs[i]:offs[i+1]]; !bytes.Equal(gotb, want) {
						t.Fatalf("key '%s': %s is '%s', want '%s'", ToStringBinary(key), c, ToStringBinary(gotb), ToStringBinary(want))
					}
				}
			}
		})
	}
}

// TestDecodeKeyRefusesWrongDerived: a key whose hash, bucket or salt
// bytes do not match its fields, or whose random value is out of range, is
// not a key of the layout.
func TestDecodeKeyRefusesWrongDerived(t *testing.T) {
	cat := mustParse(t, derivedCatalog)
	cases := []struct {
		table string
		key   string // as toStringBinary prints it
		want  string
	}{
		{"md5_4", `6385alice|\x80\x00\x00\x00\x00\x00\x00\x07`, `md5(user_id)[0:4] is '6385' in key '6385alice|\x80\x00\x00\x00\x00\x00\x00\x07', but the key's fields give '6384'`},
		{"java_mod10", `3~0008839540`, `abs(hashCode(uid)%10):dec1 is '3' in key '3~0008839540', but the key's fields give '9'`},
		{"bucket_ts", `\x05\x80\x00\x00\x00\x00\x00\x00\x10web`, `bucket(ts%16):u8 is '\x05' in key '\x05\x80\x00\x00\x00\x00\x00\x00\x10web', but the key's fields give '\x00'`},
		{"salted", `\x07\x80\x00\x00\x01a`, `salt(8):u8 is '\x07' in key '\x07\x80\x00\x00\x01a', but the key's fields give '\x01'`},
		{"salted", `\x09\x80\x00\x00\x01a`, `at byte 0 of key '\x09\x80\x00\x00\x01a': 9 is not a value of salt(8):u8`},
		{"random_binary", `k#\x01\x2C`, `at byte 2 of key 'k#\x01,': 300 is not a value of random(300):u16`},
		{"random_suffix", `0000000001000000000007-1`, `at byte 22 of key '0000000001000000000007-1': '-1' is not the digits of random(100):dec2`},
		{"md5_4", `63A4alice|\x80\x00\x00\x00\x00\x00\x00\x07`, `at byte 0 of key '63A4alice|\x80\x00\x00\x00\x00\x00\x00\x07': '63A4' is not the lower-case hex of md5(user_id)[0:4]`},
	}
	for _, tc := range cases {
		t.Run(tc.table+"/"+tc.key, func(t *testing.T) {
			tb := mustTable(t, cat, tc.table)
			key, err := ParseBinary(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			err = tb.DecodeKey(key, tb.NewRow(), nil)
			if err == nil {
				t.Fatalf("DecodeKey('%s') succeeded, want %q", tc.key, tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("DecodeKey('%s')\n got: %s\nwant: %s", tc.key, err, tc.want)
			}
		})
	}
}
