package catalog

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// mustParse loads a catalog written in a test.
func mustParse(t testing.TB, src string) *Catalog {
	t.Helper()
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return c
}

func mustTable(t testing.TB, c *Catalog, name string) *Table {
	t.Helper()
	tb, ok := c.Table(name)
	if !ok {
		t.Fatalf("no table %q", name)
	}
	return tb
}

// fieldComp returns the KindField component of the named column.
func fieldComp(t testing.TB, tb *Table, name string) (int, *Component) {
	t.Helper()
	for i := range tb.Key.Components {
		c := &tb.Key.Components[i]
		if c.Kind == KindField && c.Field == name {
			return i, c
		}
	}
	t.Fatalf("table %s has no key field %s", tb.Name, name)
	return 0, nil
}

// textPieces are the pieces random text is made of: ordinary letters and
// digits, every pad and delimiter byte the test layouts use, multi-byte
// and non-BMP characters, and an invalid UTF-8 byte.
var textPieces = []string{
	"a", "b", "h", "o", "s", "t", "1", "2", "9", "x", "_", "|", "~", " ", "0",
	"\x00", "\x01", "é", "日", "😀", "\xff", "host", "host1",
}

func genText(r *rand.Rand) string {
	var b strings.Builder
	n := r.IntN(7)
	for range n {
		b.WriteString(textPieces[r.IntN(len(textPieces))])
	}
	return b.String()
}

func genBytes(r *rand.Rand) []byte {
	b := make([]byte, r.IntN(7))
	for i := range b {
		switch r.IntN(4) {
		case 0:
			b[i] = 0
		case 1:
			b[i] = 0xFF
		default:
			b[i] = byte(r.IntN(256))
		}
	}
	return b
}

// genInt returns an int64 in [lo, hi], often at or near an edge.
func genInt(r *rand.Rand, lo, hi int64) int64 {
	edges := []int64{lo, hi, 0, 1, -1, lo + 1, hi - 1, 9, 10, 99, 100}
	if r.IntN(3) == 0 {
		v := edges[r.IntN(len(edges))]
		if v >= lo && v <= hi {
			return v
		}
	}
	var v int64
	switch r.IntN(3) {
	case 0:
		v = r.Int64N(2001) - 1000
	case 1:
		v = int64(r.Uint64() >> (r.IntN(63) + 1))
		if r.IntN(2) == 0 {
			v = -v
		}
	default:
		v = int64(r.Uint64())
	}
	if v < lo || v > hi {
		span := uint64(hi - lo)
		if span == math.MaxUint64 {
			return v
		}
		return lo + int64(r.Uint64N(span+1))
	}
	return v
}

func genDouble(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1),
			math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0.5, -2.5}[r.IntN(11)]
	case 1:
		return float64(r.IntN(21) - 10)
	default:
		for {
			f := math.Float64frombits(r.Uint64())
			if !math.IsNaN(f) {
				return f
			}
		}
	}
}

// genValue returns a random value of type t: any value the type holds,
// within 0001-01-01..9999-12-31 for dates.
func genValue(r *rand.Rand, t Type) Value {
	switch t {
	case TypeString:
		return String(genText(r))
	case TypeBytes:
		return Bytes(genBytes(r))
	case TypeBigint:
		return Bigint(genInt(r, math.MinInt64, math.MaxInt64))
	case TypeInt:
		return Int(int32(genInt(r, math.MinInt32, math.MaxInt32)))
	case TypeTimestamp:
		return TimestampMillis(genInt(r, math.MinInt64, math.MaxInt64))
	case TypeDate:
		return DateDays(genInt(r, -719162, 2932896))
	case TypeDouble:
		return Double(genDouble(r))
	case TypeBoolean:
		return Bool(r.IntN(2) == 0)
	}
	panic("genValue: type " + t.String())
}

// encodable is the test's own statement of which values a field can hold;
// EncodeField must accept exactly these.
func encodable(c *Component, v Value) bool {
	switch c.Enc {
	case KeyText:
		b := []byte(v.S)
		if v.Type == TypeBytes {
			b = v.B
		}
		if c.Reverse {
			if c.typ == TypeString && !utf8.Valid(b) {
				return false
			}
			b = reverseOracle(b, c.typ == TypeString)
		}
		if c.Width > 0 {
			if len(b) > c.Width {
				return false
			}
			if len(b) > 0 && ((c.PadLeft && b[0] == c.Pad) || (!c.PadLeft && b[len(b)-1] == c.Pad)) {
				return false
			}
			return true
		}
		if c.Desc {
			// Descending text ends itself with 0xFF and may not hold 0x00.
			return bytes.IndexByte(b, 0) < 0
		}
		return delimOK(c, b)
	case KeyDecimal:
		n := v.I
		if c.typ == TypeDate {
			t := v.Time()
			n = int64(t.Year())*10000 + int64(t.Month())*100 + int64(t.Day())
		}
		if n < 0 {
			return false
		}
		s := []byte(itoa(n))
		if c.Width > 0 {
			return len(s) <= c.Width
		}
		return delimOK(c, s)
	case KeyJava:
		// Width bytes of two's complement, or unsigned.
		bits := uint(c.Width) * 8
		if c.Unsigned {
			return v.I >= 0 && (bits >= 63 || v.I < 1<<bits)
		}
		return bits >= 64 || (v.I >= -(1<<(bits-1)) && v.I < 1<<(bits-1))
	case KeyBinary:
		return !(c.typ == TypeDouble && math.IsNaN(v.F))
	}
	return false
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// delimOK: the first delimiter after a variable-width value must be the
// one that follows it.
func delimOK(c *Component, b []byte) bool {
	if len(c.delim) == 0 {
		return true
	}
	return bytes.Index(append(bytes.Clone(b), c.delim...), c.delim) == len(b)
}

// reverseOracle reverses characters (strings) or bytes.
func reverseOracle(b []byte, chars bool) []byte {
	if !chars {
		out := bytes.Clone(b)
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	}
	rs := []rune(string(b))
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return []byte(string(rs))
}

// genEncodable returns a random value of c's type that c can encode.
func genEncodable(r *rand.Rand, c *Component) Value {
	for {
		v := genValue(r, c.typ)
		if encodable(c, v) {
			return v
		}
	}
}

// sameValue is Equal, but tells -0 from +0.
func sameValue(a, b Value) bool {
	if a.Type == TypeDouble && b.Type == TypeDouble && !a.Null && !b.Null {
		return math.Float64bits(a.F) == math.Float64bits(b.F)
	}
	return Equal(a, b)
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// rndSeq returns a random source for EncodeKey that always gives n % mod.
func rndConst(n int64) func(int64) int64 {
	return func(mod int64) int64 { return n % mod }
}
