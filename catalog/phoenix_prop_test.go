package catalog

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"testing"
)

// The key bytes of the types whose FieldSpan narrows sort as their
// values (reversed when descending), and read back as themselves.
func TestPhoenixKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	draw := map[PType]func() Value{
		PBigint:       func() Value { return Bigint(int64(r.Uint64())) },
		PInteger:      func() Value { return Bigint(int64(int32(r.Uint32()))) },
		PSmallint:     func() Value { return Bigint(int64(int16(r.Uint32()))) },
		PTinyint:      func() Value { return Bigint(int64(int8(r.Uint32()))) },
		PUnsignedLong: func() Value { return Bigint(int64(r.Uint64() >> 1)) },
		PUnsignedInt:  func() Value { return Bigint(int64(r.Uint32() >> 1)) },
		PDouble: func() Value {
			if r.IntN(10) == 0 {
				return Double([]float64{0, math.Inf(1), math.Inf(-1), 1, -1}[r.IntN(5)])
			}
			return Double(math.Float64frombits(r.Uint64()))
		},
		PTimestamp: func() Value { return TimestampMillis(int64(r.Uint64()) >> 2) },
		PDate:      func() Value { return TimestampMillis(int64(r.Uint64()) >> 2) },
		PBoolean:   func() Value { return Bool(r.IntN(2) == 0) },
	}
	for p, gen := range draw {
		for _, desc := range []bool{false, true} {
			typ := p.ColumnTypes()[0]
			c := Component{Kind: KindField, Field: "f", Enc: KeyPhoenix, Phoenix: p, typ: typ, Desc: desc, last: true}
			c.Width, _ = p.FixedWidth(0)
			for range 2000 {
				a, b := gen(), gen()
				if a.Type == TypeBigint {
					a.Type, b.Type = typ, typ
				}
				if math.IsNaN(a.F) || math.IsNaN(b.F) {
					continue
				}
				ka, err1 := c.EncodeField(nil, a)
				kb, err2 := c.EncodeField(nil, b)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v %v", p, err1, err2)
				}
				want := Compare(a, b)
				if a.Type == TypeDouble {
					// -0 sorts just below +0.
					want = cmp.Compare(a.F, b.F)
					if want == 0 && math.Signbit(a.F) != math.Signbit(b.F) {
						want = map[bool]int{true: -1, false: 1}[math.Signbit(a.F)]
					}
				}
				if desc {
					want = -want
				}
				if got := bytes.Compare(ka, kb); got != want {
					t.Fatalf("%s desc=%v: %s %x, %s %x: bytes compare %d, values %d", p, desc, a, ka, b, kb, got, want)
				}
				v, n, err := c.DecodeField(ka)
				if err != nil || n != len(ka) || !Equal(v, a) {
					t.Fatalf("%s: %s reads back as %s (%v)", p, a, v, err)
				}
			}
		}
	}
}

// No key, however malformed, makes a phoenix layout panic.
func FuzzPhoenixDecodeKey(f *testing.F) {
	f.Add([]byte("\x00a\x00b\x00\xc1\x9b\x99\xff"))
	f.Add([]byte("\x01a"))
	f.Add([]byte{})
	tb := mustTable(f, mustParse(f, phoenixCatalog), "p")
	f.Fuzz(func(t *testing.T, key []byte) {
		row := tb.NewRow()
		if err := tb.DecodeKey(key, row, nil); err != nil {
			return
		}
		// A key that reads is the key its fields write.
		back, err := tb.EncodeKey(row, nil)
		if err != nil || !bytes.Equal(back, key) {
			t.Fatalf("%s reads as %v, which writes %s (%v)", ToStringBinary(key), row[:3], ToStringBinary(back), err)
		}
	})
}
