package catalog

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
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
	// The calendar key 9~79809782~05~0008839540 starts with
	// abs("8839540".hashCode() % 10) = 9, so the hash is negative.
	if h := JavaHashCode("8839540"); h >= 0 || javaAbsMod(int64(h), 10) != 9 {
		t.Fatalf(`"8839540".hashCode() = %d, abs(h %% 10) = %d; the calendar key says 9 from a negative hash`, h, javaAbsMod(int64(h), 10))
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

// TestJavaDouble: a hash over a DOUBLE, and a text DOUBLE cell, read
// Java's Double.toString.
func TestJavaDouble(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{1, "1.0"},
		{3, "3.0"},
		{0.1, "0.1"},
		{100, "100.0"},
		{-100, "-100.0"},
		{1e-3, "0.001"},
		{1.5e-3, "0.0015"},
		{9.999999999999998e-4, "9.999999999999998E-4"},
		{1e6, "1000000.0"},
		{9999999, "9999999.0"},
		{9999999.5, "9999999.5"},
		{123.456, "123.456"},
		{-1.0e-4, "-1.0E-4"},
		{1.0e-5, "1.0E-5"},
		{2e10, "2.0E10"},
		{1.25e-7, "1.25E-7"},
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
		if g, err := strconv.ParseFloat(tc.want, 64); err != nil || !(g == tc.f || math.IsNaN(g) && math.IsNaN(tc.f)) {
			t.Errorf("%q does not read back as %v", tc.want, tc.f)
		}
	}
}

// javaDigitsOracle picks the digits of Double.toString from the
// definition, in exact arithmetic: among the decimals that read back as f
// (ParseFloat rounds correctly) with the fewest significant digits, or
// with one or two when one is enough, the closest to f, the even one on a
// tie. It tries, for each length n, the two decimals of n digits on
// either side of f in each nearby decade.
func javaDigitsOracle(f float64) (string, int) {
	x := new(big.Rat).SetFloat64(f)
	// The decade of f (math.Log10 is off for subnormals); the search
	// below covers the decades on either side too.
	_, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', 0, 64), "e")
	e0, _ := strconv.Atoi(exp)
	type cand struct {
		k   *big.Int // the digits as an integer
		e   int      // the value is k × 10^e
		val *big.Rat
	}
	pow := func(e int) *big.Rat {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
		if e < 0 {
			return new(big.Rat).SetFrac(big.NewInt(1), p)
		}
		return new(big.Rat).SetInt(p)
	}
	var best []cand
	// Stop after the first length with candidates, but not before two:
	// when one digit is enough, two-digit decimals compete too.
	for n := 1; n <= 17 && (best == nil || n == 2); n++ {
		for e := e0 - n; e <= e0-n+2; e++ { // decades around f
			q := new(big.Rat).Quo(x, pow(e))
			lo := new(big.Int).Quo(q.Num(), q.Denom())
			for _, k := range []*big.Int{lo, new(big.Int).Add(lo, big.NewInt(1))} {
				if len(k.String()) > n || k.Sign() == 0 {
					continue
				}
				val := new(big.Rat).Mul(new(big.Rat).SetInt(k), pow(e))
				g, _ := val.Float64()
				if g == f {
					best = append(best, cand{k, e, val})
				}
			}
		}
	}
	var pick cand
	var dist *big.Rat
	for _, c := range best {
		d := new(big.Rat).Sub(c.val, x)
		d.Abs(d)
		if dist == nil || d.Cmp(dist) < 0 || d.Cmp(dist) == 0 && c.k.Bit(0) == 0 {
			pick, dist = c, d
		}
	}
	digits := strings.TrimRight(pick.k.String(), "0")
	zeros := len(pick.k.String()) - len(digits)
	return digits, pick.e + zeros + len(digits) - 1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestJavaDigitsOracle checks the digits against the definition for
// random doubles of every magnitude, and for those at and near powers of
// two, where the decimals that read back lie unevenly around f.
func TestJavaDigitsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 0))
	var fs []float64
	for range 3000 {
		f := math.Float64frombits(r.Uint64() &^ (1 << 63))
		if !math.IsNaN(f) && !math.IsInf(f, 0) && f != 0 {
			fs = append(fs, f)
		}
	}
	for e := -1074; e <= 1023; e += 7 {
		p := math.Ldexp(1, e)
		fs = append(fs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)))
	}
	for i := 1; i <= 40; i++ {
		fs = append(fs, float64(i)*math.SmallestNonzeroFloat64, float64(i), float64(i)*1e7, float64(i)/1000)
	}
	for _, f := range fs {
		if f == 0 {
			continue
		}
		gd, ge := javaDigits(f)
		wd, we := javaDigitsOracle(f)
		if gd != wd || ge != we {
			t.Fatalf("javaDigits(%v) = %s e%d, want %s e%d (%s)", f, gd, ge, wd, we, javaDouble(f))
		}
	}
}

// TestHashInputText: the text a hash reads is Java's String.valueOf of
// each input.
func TestHashInputText(t *testing.T) {
	cols := []Column{{Name: "b", Type: TypeBoolean}, {Name: "d", Type: TypeDouble}, {Name: "n", Type: TypeBigint}, {Name: "dt", Type: TypeDate}}
	row := Row{Bool(true), Double(2), Bigint(-5), DateFromYMD(2019, 2, 17)}
	if got, want := string(hashInput(nil, cols, []int{0, 1, 2, 3}, row)), "true2.0-520190217"; got != want {
		t.Fatalf("hashInput = %q, want %q", got, want)
	}
	row[3] = DateFromYMD(987, 6, 5) // yyyyMMdd pads the year to four digits
	if got, want := string(hashInput(nil, cols, []int{3}, row)), "09870605"; got != want {
		t.Fatalf("hashInput = %q, want %q", got, want)
	}
}
