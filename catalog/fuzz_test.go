package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"
)

// fuzzTables are the tables the codec fuzz targets pick from: the
// examples with their index tables, the derived-component tables and one
// table per field encoding.
func fuzzTables(t testing.TB) []*Table {
	var out []*Table
	add := func(c *Catalog) {
		for _, name := range c.Names() {
			tb := mustTable(t, c, name)
			out = append(out, tb)
			for _, ix := range tb.Indexes {
				out = append(out, ix.Table)
			}
		}
	}
	add(loadExamples(t))
	add(mustParse(t, derivedCatalog))
	for _, s := range fieldSpecs {
		out = append(out, s.table(t))
	}
	return out
}

// tableIndex is the index of the named table in tables, for seeds.
func tableIndex(tables []*Table, name string) uint8 {
	for i, tb := range tables {
		if tb.Name == name {
			return uint8(i)
		}
	}
	return 0
}

// fuzzValue makes a value of type typ from the fuzzer's inputs.
func fuzzValue(typ Type, s string, n int64, x float64) Value {
	switch typ {
	case TypeString:
		return String(s)
	case TypeBytes:
		return Bytes([]byte(s))
	case TypeInt:
		return Int(int32(n))
	case TypeBoolean:
		return Bool(n&1 == 1)
	case TypeDouble:
		return Double(x)
	case TypeTimestamp:
		return TimestampMillis(n)
	case TypeDate:
		return DateDays(n)
	}
	return Bigint(n)
}

func fuzzRow(tb *Table, s string, n int64, x float64) Row {
	row := tb.NewRow()
	for k, i := range tb.KeyColumns() {
		// Vary the inputs between fields so they do not all hold the same.
		switch k % 3 {
		case 1:
			row[i] = fuzzValue(tb.Columns[i].Type, reverseString(s), n/7, -x)
		case 2:
			row[i] = fuzzValue(tb.Columns[i].Type, s+s, n^0x5a5a, x*3)
		default:
			row[i] = fuzzValue(tb.Columns[i].Type, s, n, x)
		}
	}
	return row
}

func reverseString(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// FuzzKeyCodec: random field values either are refused with a KeyError or
// round-trip through EncodeKey and DecodeKey; an order-preserving field
// orders its bytes as its values.
func FuzzKeyCodec(f *testing.F) {
	tables := fuzzTables(f)
	f.Add(tableIndex(tables, "orders"), "alice", "bob", int64(1714521600000), int64(42), 1.5, int64(7))
	f.Add(tableIndex(tables, "user_calendar_record"), "8839540", "host12", int64(17944), int64(5), math.Copysign(0, -1), int64(99))
	f.Add(tableIndex(tables, "logs"), "web1", "", int64(-1), int64(math.MaxInt64), math.Inf(1), int64(0))
	f.Add(tableIndex(tables, "random_suffix"), "host1", "host12", int64(math.MinInt64), int64(0), math.NaN(), int64(1))
	f.Fuzz(func(t *testing.T, which uint8, s1, s2 string, n1, n2 int64, x float64, rnd int64) {
		tb := tables[int(which)%len(tables)]
		if rnd < 0 {
			rnd = -(rnd + 1)
		}
		row := fuzzRow(tb, s1, n1, x)
		key, err := tb.EncodeKey(row, rndConst(rnd))
		if err != nil {
			var ke *KeyError
			if !errors.As(err, &ke) {
				t.Fatalf("%s: EncodeKey error %v is %T, want a *KeyError", tb.Name, err, err)
			}
		} else {
			got := tb.NewRow()
			if err := tb.DecodeKey(key, got, nil); err != nil {
				t.Fatalf("%s: DecodeKey('%s'): %v", tb.Name, ToStringBinary(key), err)
			}
			for _, i := range tb.KeyColumns() {
				if !sameValue(got[i], row[i]) {
					t.Fatalf("%s: key '%s': %s decoded as %s, encoded %s", tb.Name, ToStringBinary(key), tb.Columns[i].Name, got[i], row[i])
				}
			}
			again, err := tb.EncodeKey(got, rndConst(rnd))
			if err != nil || !bytes.Equal(again, key) {
				t.Fatalf("%s: re-encoding gave '%s' (%v), want '%s'", tb.Name, ToStringBinary(again), err, ToStringBinary(key))
			}
		}
		other := fuzzRow(tb, s2, n2, -x)
		for ci := range tb.Key.Components {
			c := &tb.Key.Components[ci]
			if c.Kind != KindField || !c.OrderPreserving() {
				continue
			}
			a, b := row[c.col], other[c.col]
			ea, err1 := c.EncodeField(nil, a)
			eb, err2 := c.EncodeField(nil, b)
			if err1 != nil || err2 != nil {
				continue
			}
			want := sign(Compare(a, b))
			if c.Desc {
				want = -want
			}
			if want == 0 && !sameValue(a, b) {
				continue
			}
			if got := sign(bytes.Compare(ea, eb)); got != want {
				t.Fatalf("%s.%s: %s vs %s: bytes compare %d, want %d", tb.Name, c.Field, a, b, got, want)
			}
		}
	})
}

// FuzzDecodeKey: DecodeKey never panics on any bytes, and a key it accepts
// is one EncodeKey writes, given the same random values; KeyChecker
// agrees with it.
func FuzzDecodeKey(f *testing.F) {
	tables := fuzzTables(f)
	f.Add(tableIndex(tables, "user_calendar_record"), []byte("9~79809782~05~0008839540"))
	f.Add(tableIndex(tables, "orders"), []byte("6384alice|\x7f\xff\xfep\xce\x8c\x8f\xff\x80\x00\x00\x00\x00\x00\x00*"))
	f.Add(tableIndex(tables, "logs"), []byte("\x07\x00\x00\x01\x8f1sp\x07web1\x00login"))
	f.Add(tableIndex(tables, "salted"), []byte{})
	f.Fuzz(func(t *testing.T, which uint8, key []byte) {
		tb := tables[int(which)%len(tables)]
		row := tb.NewRow()
		offs := make([]int, len(tb.Key.Components)+1)
		err := tb.DecodeKey(key, row, offs)
		if got := tb.NewKeyChecker().Check(key); fmt.Sprint(got) != fmt.Sprint(err) {
			t.Fatalf("%s: key '%s': KeyChecker says %v, DecodeKey %v", tb.Name, ToStringBinary(key), got, err)
		}
		if err != nil {
			return
		}
		var randoms []int64
		for i := range tb.Key.Components {
			if c := &tb.Key.Components[i]; c.Kind == KindRandom {
				n, err := c.DecodeNumber(key[offs[i]:])
				if err != nil {
					t.Fatalf("%s: DecodeKey accepted '%s' but its random component does not read: %v", tb.Name, ToStringBinary(key), err)
				}
				randoms = append(randoms, n)
			}
		}
		replay := func(mod int64) int64 {
			n := randoms[0]
			randoms = randoms[1:]
			return n
		}
		again, err := tb.EncodeKey(row, replay)
		if err != nil || !bytes.Equal(again, key) {
			t.Fatalf("%s: DecodeKey accepted '%s', but the row encodes as '%s' (%v)", tb.Name, ToStringBinary(key), ToStringBinary(again), err)
		}
	})
}

// FuzzLoadCatalog: Parse never panics, and whatever it accepts can be
// described, split and used to encode and decode keys.
func FuzzLoadCatalog(f *testing.F) {
	for _, s := range []string{base, derivedCatalog, fieldSpecs[0].yaml(), fieldSpecs[20].yaml()} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := Parse(src)
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("Parse error %v is %T, want a *LoadError", err, err)
			}
			return
		}
		for _, name := range c.Names() {
			tb := mustTable(t, c, name)
			all := []*Table{tb}
			for _, ix := range tb.Indexes {
				all = append(all, ix.Table)
			}
			for _, tt := range all {
				_ = tt.Describe()
				_ = tt.Key.String()
				_ = tt.SplitKeys()
				for _, s := range []string{"a", "", "x|y\x00z"} {
					row := fuzzRow(tt, s, 7, 2.5)
					key, err := tt.EncodeKey(row, rndConst(3))
					if err != nil {
						continue
					}
					got := tt.NewRow()
					if err := tt.DecodeKey(key, got, nil); err != nil {
						t.Fatalf("%s: DecodeKey('%s') of an encoded key: %v", tt.Name, ToStringBinary(key), err)
					}
					for _, i := range tt.KeyColumns() {
						if !sameValue(got[i], row[i]) {
							t.Fatalf("%s: %s decoded as %s, encoded %s", tt.Name, tt.Columns[i].Name, got[i], row[i])
						}
					}
				}
			}
		}
	})
}
