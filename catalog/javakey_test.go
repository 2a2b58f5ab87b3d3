package catalog

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// javaToBytes is Java's Bytes.toBytes for a long, int or short, cut to w
// bytes as a w-byte big-endian two's complement: each byte is the value
// shifted right and cast to byte, written here from that definition.
func javaToBytes(v int64, w int) []byte {
	out := make([]byte, w)
	for i := 0; i < w; i++ {
		out[i] = byte(v >> (8 * (w - 1 - i)))
	}
	return out
}

// javaMaxMinus is MAX - v in Java's arithmetic of a w-byte integer: the
// exact difference, wrapped to w bytes (as Long.MAX_VALUE - v and
// Integer.MAX_VALUE - v overflow), then written by Bytes.toBytes.
func javaMaxMinus(v int64, w int) []byte {
	max := int64(1)<<(8*w-1) - 1
	if w == 8 {
		max = math.MaxInt64
	}
	return javaToBytes(max-v, w) // Go's int64 subtraction wraps as Java's long does
}

// TestJavaKeyBytes: a signed java field writes every value its width
// holds, negatives included, as Java does, and reads it back.
func TestJavaKeyBytes(t *testing.T) {
	cases := []struct {
		typ, comp string
		v         int64
		want      []byte // nil: refused
	}{
		{"BIGINT", "{field: x, encoding: java}", -5, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFB}},
		{"BIGINT", "{field: x, encoding: java}", -1, bytes.Repeat([]byte{0xFF}, 8)},
		{"BIGINT", "{field: x, encoding: java}", math.MinInt64, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{"BIGINT", "{field: x, encoding: java}", math.MaxInt64, []byte{0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{"INT", "{field: x, encoding: java}", -2, []byte{0xFF, 0xFF, 0xFF, 0xFE}},
		{"INT", "{field: x, encoding: java}", math.MinInt32, []byte{0x80, 0, 0, 0}},
		{"BIGINT", "{field: x, encoding: java, width: 2}", -32768, []byte{0x80, 0x00}},
		{"BIGINT", "{field: x, encoding: java, width: 2}", -32769, nil},
		{"BIGINT", "{field: x, encoding: java, width: 1}", -128, []byte{0x80}},
		{"BIGINT", "{field: x, encoding: java, width: 1}", -129, nil},
		// Long.MAX_VALUE - (-5) overflows to Long.MIN_VALUE + 4.
		{"BIGINT", "{field: x, encoding: java, order: desc}", -5, []byte{0x80, 0, 0, 0, 0, 0, 0, 0x04}},
		{"BIGINT", "{field: x, encoding: java, order: desc}", math.MinInt64, bytes.Repeat([]byte{0xFF}, 8)},
		{"BIGINT", "{field: x, encoding: java, order: desc}", math.MaxInt64, make([]byte, 8)},
		// Integer.MAX_VALUE - (-1) overflows to Integer.MIN_VALUE.
		{"INT", "{field: x, encoding: java, order: desc}", -1, []byte{0x80, 0, 0, 0}},
		{"BIGINT", "{field: x, encoding: java, width: 3, order: desc}", -1, []byte{0x80, 0, 0}},
		{"BIGINT", "{field: x, encoding: java, width: 3, order: desc}", -1 << 23, []byte{0xFF, 0xFF, 0xFF}},
		{"BIGINT", "{field: x, encoding: java, width: 3, order: desc}", -1<<23 - 1, nil},
		{"TIMESTAMP", "{field: x, encoding: java, width: 4, unit: s}", -86400 * 1000, []byte{0xFF, 0xFE, 0xAE, 0x80}},
		{"DATE", "{field: x, encoding: java}", -1, []byte{0xFF, 0xFF, 0xFF, 0xFF}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s %s %d", tc.typ, tc.comp, tc.v), func(t *testing.T) {
			tb, c := oneField(t, tc.typ, tc.comp)
			v := Value{Type: tb.Columns[0].Type, I: tc.v}
			got, err := c.EncodeField(nil, v)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("EncodeField(%s) = '%s', want an error", v, ToStringBinary(got))
				}
				return
			}
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("EncodeField(%s) = '%s' (%v), want '%s'", v, ToStringBinary(got), err, ToStringBinary(tc.want))
			}
			back, n, err := c.DecodeField(tc.want)
			if err != nil || n != len(tc.want) || !Equal(back, v) {
				t.Fatalf("DecodeField('%s') = %s, %d, %v; want %s", ToStringBinary(tc.want), back, n, err, v)
			}
		})
	}
}

// TestJavaKeyOracle compares a java field's bytes with Java's, built by
// hand, for random values of every width, ascending and descending, and
// checks that every byte string of the width reads back as a value that
// writes it again.
func TestJavaKeyOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	for w := 1; w <= 8; w++ {
		for _, desc := range []bool{false, true} {
			comp := fmt.Sprintf("{field: x, encoding: java, width: %d}", w)
			oracle := javaToBytes
			if desc {
				comp = fmt.Sprintf("{field: x, encoding: java, width: %d, order: desc}", w)
				oracle = javaMaxMinus
			}
			t.Run(comp, func(t *testing.T) {
				_, c := oneField(t, "BIGINT", comp)
				lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
				if w < 8 {
					lo, hi = -1<<(8*w-1), 1<<(8*w-1)-1
				}
				negatives := 0
				for range 2000 {
					v := genInt(r, lo, hi)
					if v < 0 {
						negatives++
					}
					got, err := c.EncodeField(nil, Bigint(v))
					if want := oracle(v, w); err != nil || !bytes.Equal(got, want) {
						t.Fatalf("EncodeField(%d) = '%s' (%v), Java writes '%s'", v, ToStringBinary(got), err, ToStringBinary(want))
					}
					b := make([]byte, w)
					for i := range b {
						b[i] = byte(r.Uint32())
					}
					back, _, err := c.DecodeField(b)
					if err != nil {
						t.Fatalf("DecodeField('%s'): %v", ToStringBinary(b), err)
					}
					if again := oracle(back.I, w); !bytes.Equal(again, b) {
						t.Fatalf("'%s' reads as %d, which Java writes as '%s'", ToStringBinary(b), back.I, ToStringBinary(again))
					}
				}
				if negatives < 400 {
					t.Fatalf("only %d negative values in 2000", negatives)
				}
			})
		}
	}
}

// TestSignSplitOrder: an ascending signed java field sorts its bytes in
// value order within each sign, and every negative after every other
// value; a descending one sorts in descending order across zero.
func TestSignSplitOrder(t *testing.T) {
	for si, s := range fieldSpecs {
		tb := s.table(t)
		_, fc := fieldComp(t, tb, "f")
		wantSplit := fc.Enc == KeyJava && !fc.Desc && !fc.Unsigned && fc.typ != TypeBoolean
		if fc.SignSplit() != wantSplit {
			t.Fatalf("%s: SignSplit() = %v, want %v", s.name, fc.SignSplit(), wantSplit)
		}
		if !wantSplit {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(si)))
			crossed := 0
			for range 3000 {
				a, b := genEncodable(r, fc), genEncodable(r, fc)
				ea, _ := fc.EncodeField(nil, a)
				eb, _ := fc.EncodeField(nil, b)
				got := sign(bytes.Compare(ea, eb))
				want := sign(Compare(a, b))
				if (a.I < 0) != (b.I < 0) {
					crossed++
					want = -want // the negative one sorts last
				}
				if got != want {
					t.Fatalf("%s vs %s: bytes compare %d ('%s' vs '%s'), want %d", a, b, got, ToStringBinary(ea), ToStringBinary(eb), want)
				}
			}
			if crossed < 500 {
				t.Fatalf("only %d pairs of opposite signs", crossed)
			}
		})
	}
}

// TestSignParts: a range of a SignSplit field is cut at zero into parts
// whose spans are exact and hold exactly the range's values.
func TestSignParts(t *testing.T) {
	tb, c := oneField(t, "BIGINT", "{field: x, encoding: java, width: 1}")
	_ = tb
	inc := func(v int64) Bound { return Bound{Set: true, Value: Bigint(v), Inclusive: true} }
	exc := func(v int64) Bound { return Bound{Set: true, Value: Bigint(v)} }
	cases := []struct {
		lo, hi Bound
		parts  int
	}{
		{inc(0), Bound{}, 1},
		{exc(-1), inc(5), 1},
		{Bound{}, exc(0), 1},
		{inc(-5), inc(-1), 1},
		{inc(-5), inc(5), 2},
		{Bound{}, inc(0), 2},
		{Bound{}, Bound{}, 2},
		{inc(5), inc(4), 0},
		{exc(-1), exc(0), 0},
		{inc(-1000), inc(-500), 0}, // below what one byte holds
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s..%s", boundName(tc.lo), boundName(tc.hi))
		t.Run(name, func(t *testing.T) {
			parts := c.SignParts(tc.lo, tc.hi)
			if len(parts) != tc.parts {
				t.Fatalf("SignParts = %d parts, want %d", len(parts), tc.parts)
			}
			var covered []int64
			for _, p := range parts {
				s := c.FieldSpan(p.Lo, p.Hi)
				if !s.Exact || s.Empty {
					t.Fatalf("part %s..%s: span %+v is not exact", boundName(p.Lo), boundName(p.Hi), s)
				}
				for v := int64(-128); v <= 127; v++ {
					b, _ := c.EncodeField(nil, Bigint(v))
					if inSpan(s, b) {
						covered = append(covered, v)
					}
				}
			}
			var want []int64
			for v := int64(-128); v <= 127; v++ {
				if inBoundsTest(v, tc.lo, tc.hi) {
					want = append(want, v)
				}
			}
			slices.Sort(covered)
			if !slices.Equal(covered, want) {
				t.Fatalf("the parts' spans hold %v, want %v", covered, want)
			}
		})
	}
	// A range across zero is no single span.
	if s := c.FieldSpan(inc(-5), inc(5)); s.Exact || s.Start != nil || s.Stop != nil {
		t.Fatalf("FieldSpan(-5..5) = %+v, want an unbounded, inexact span", s)
	}
	// Only ascending signed java fields are split.
	_, d := oneField(t, "BIGINT", "{field: x, encoding: java, order: desc}")
	if d.SignParts(inc(-5), inc(5)) != nil || !d.OrderPreserving() {
		t.Fatalf("a descending java field is split by sign")
	}
}

func boundName(b Bound) string {
	if !b.Set {
		return "*"
	}
	if b.Inclusive {
		return "[" + b.Value.String()
	}
	return "(" + b.Value.String()
}

func inBoundsTest(v int64, lo, hi Bound) bool {
	if lo.Set && (v < lo.Value.I || v == lo.Value.I && !lo.Inclusive) {
		return false
	}
	if hi.Set && (v > hi.Value.I || v == hi.Value.I && !hi.Inclusive) {
		return false
	}
	return true
}
