package catalog

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/twmb/murmur3"
)

// javaHashOracle is String.hashCode written from its definition,
// s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, in exact
// arithmetic and then wrapped to 32 bits.
func javaHashOracle(s string) int32 {
	h := new(big.Int)
	for _, r := range s {
		var units []int64
		if r >= 0x10000 {
			r -= 0x10000
			units = []int64{0xD800 + int64(r>>10), 0xDC00 + int64(r&0x3FF)}
		} else {
			units = []int64{int64(r)}
		}
		for _, u := range units {
			h.Mul(h, big.NewInt(31))
			h.Add(h, big.NewInt(u))
		}
	}
	h.Mod(h, new(big.Int).Lsh(big.NewInt(1), 32))
	return int32(uint32(h.Uint64()))
}

// javaAbsModOracle is Math.abs(h % n): Java's % truncates toward zero.
func javaAbsModOracle(h, n int64) int64 {
	q := h / n // Go's / truncates toward zero, like Java's
	r := h - q*n
	if r < 0 {
		return -r
	}
	return r
}

// phoenixSaltOracle is Phoenix's SaltingUtil.getSaltingByte: the hash
// 31*h + b over the signed bytes starting from 1, then
// (byte) Math.abs(hash % buckets).
func phoenixSaltOracle(b []byte, buckets int) byte {
	h := int32(1)
	for _, x := range b {
		h = h*31 + int32(int8(x))
	}
	r := h % int32(buckets)
	if r < 0 {
		r = -r
	}
	return byte(r)
}

func TestJavaHashCode(t *testing.T) {
	cases := []struct {
		s    string
		want int32
	}{
		{"", 0},
		{"hello", 99162322},
		{"Aa", 2112},
		{"BB", 2112},
		// 'a'*31^2 + 'b'*31 + 'c'.
		{"abc", 96354},
		// The best-known Java string whose hash is Integer.MIN_VALUE.
		{"polygenelubricants", math.MinInt32},
		// U+1F600 is the surrogate pair D83D DE00: 0xD83D*31 + 0xDE00.
		{"😀", 0xD83D*31 + 0xDE00},
		// 'a'*31^2 + 0xD83D*31 + 0xDE00.
		{"a😀", 97*31*31 + 0xD83D*31 + 0xDE00},
		// é is one UTF-16 unit, U+00E9.
		{"é", 0xE9},
	}
	for _, tc := range cases {
		t.Run(tc.s, func(t *testing.T) {
			if got := JavaHashCode(tc.s); got != tc.want {
				t.Fatalf("JavaHashCode(%q) = %d, want %d", tc.s, got, tc.want)
			}
		})
	}
	// The seed's key 9~79809782~05~0008839540 starts with
	// abs("8839540".hashCode() % 10) = 9, so the hash is negative.
	if h := JavaHashCode("8839540"); h >= 0 || javaAbsMod(int64(h), 10) != 9 {
		t.Fatalf(`"8839540".hashCode() = %d, abs(h %% 10) = %d; the seed key says 9 from a negative hash`, h, javaAbsMod(int64(h), 10))
	}
	r := rand.New(rand.NewPCG(4, 0))
	negative := 0
	for range 5000 {
		s := genText(r) + genText(r) + genText(r)
		want := javaHashOracle(s)
		if got := JavaHashCode(s); got != want {
			t.Fatalf("JavaHashCode(%q) = %d, want %d", s, got, want)
		}
		if want < 0 {
			negative++
		}
	}
	if negative < 1000 {
		t.Fatalf("only %d negative hashes in 5000: the generator does not reach them", negative)
	}
}

func TestJavaAbsMod(t *testing.T) {
	cases := []struct{ h, n, want int64 }{
		{7, 3, 1},
		{-7, 3, 1}, // Java: -7 % 3 == -1; a floor modulo would give 2
		{-9, 10, 9},
		{-187318709, 10, 9},
		{math.MinInt32, 10, 8}, // Math.abs(Integer.MIN_VALUE % 10) == 8
		{math.MinInt32, 256, 0},
		{math.MaxInt32, 1000, 647},
		{0, 5, 0},
	}
	for _, tc := range cases {
		if got := javaAbsMod(tc.h, tc.n); got != tc.want {
			t.Errorf("javaAbsMod(%d, %d) = %d, want %d", tc.h, tc.n, got, tc.want)
		}
		if got := javaAbsModOracle(tc.h, tc.n); got != tc.want {
			t.Errorf("oracle(%d, %d) = %d, want %d", tc.h, tc.n, got, tc.want)
		}
	}
}

// TestSaltByte checks Phoenix's salt byte. Phoenix (phoenix-core-client
// SaltingUtil.getSaltingByte) computes result = 1; result = 31*result + b
// for each signed byte; then (byte) Math.abs(hash % bucketNum).
func TestSaltByte(t *testing.T) {
	cases := []struct {
		rest []byte
		n    int64
		want byte
	}{
		{nil, 4, 1},              // hash 1
		{[]byte("a"), 10, 8},     // 31 + 97 = 128
		{[]byte{0xFF}, 4, 2},     // 31 + (-1) = 30: the byte is signed
		{[]byte{0x80}, 10, 7},    // 31 - 128 = -97; abs(-97 % 10) = 7, a floor modulo gives 3
		{[]byte("ab"), 256, 226}, // (31+97)*31 + 98 = 4066 = 15*256 + 226
		{[]byte("\x80\x00\x00\x01a"), 8, 1},
	}
	for _, tc := range cases {
		if got := SaltByte(tc.rest, tc.n); got != tc.want {
			t.Errorf("SaltByte('%s', %d) = %d, want %d", ToStringBinary(tc.rest), tc.n, got, tc.want)
		}
	}
	r := rand.New(rand.NewPCG(5, 0))
	for range 5000 {
		b := genBytes(r)
		b = append(b, genBytes(r)...)
		n := int64(1 + r.IntN(256))
		if got, want := SaltByte(b, n), phoenixSaltOracle(b, int(n)); got != want {
			t.Fatalf("SaltByte('%s', %d) = %d, want %d", ToStringBinary(b), n, got, want)
		}
	}
}

// TestMurmur3 pins the murmur3 x86 32-bit hash (seed 0) that a murmur3
// component uses, as Guava's Hashing.murmur3_32_fixed().hashBytes(b).asInt().
func TestMurmur3(t *testing.T) {
	cases := []struct {
		in   string
		want uint32
	}{
		{"", 0},
		{"hello", 0x248bfa47},
		{"The quick brown fox jumps over the lazy dog", 0x2e4ff723},
	}
	for _, tc := range cases {
		if got := murmur3.Sum32([]byte(tc.in)); got != tc.want {
			t.Errorf("murmur3(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// TestJavaDouble: a hash over a DOUBLE reads Java's Double.toString.
func TestJavaDouble(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{1, "1.0"},
		{-2.5, "-2.5"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{1234567, "1234567.0"},
		{1e7, "1.0E7"},
		{12345678.9, "1.23456789E7"},
		{1e21, "1.0E21"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{math.SmallestNonzeroFloat64, "4.9E-324"},
		{2 * math.SmallestNonzeroFloat64, "9.9E-324"},
		{1e23, "1.0E23"},
		{0.30000000000000004, "0.30000000000000004"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
	}
	for _, tc := range cases {
		if got := javaDouble(tc.f); got != tc.want {
			t.Errorf("javaDouble(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestHashInputText: the text a hash reads is Java's String.valueOf of
// each input.
func TestHashInputText(t *testing.T) {
	cols := []Column{{Name: "b", Type: TypeBoolean}, {Name: "d", Type: TypeDouble}, {Name: "n", Type: TypeBigint}, {Name: "dt", Type: TypeDate}}
	row := Row{Bool(true), Double(2), Bigint(-5), DateFromYMD(2019, 2, 17)}
	if got, want := string(hashInput(cols, []int{0, 1, 2, 3}, row)), "true2.0-520190217"; got != want {
		t.Fatalf("hashInput = %q, want %q", got, want)
	}
	row[3] = DateFromYMD(987, 6, 5) // yyyyMMdd pads the year to four digits
	if got, want := string(hashInput(cols, []int{3}, row)), "09870605"; got != want {
		t.Fatalf("hashInput = %q, want %q", got, want)
	}
}
