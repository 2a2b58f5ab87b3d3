package catalog

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/twmb/murmur3"
)

// hashInput is the text a hash component hashes: the inputs' text forms,
// concatenated (String.valueOf for numbers), appended to b.
func hashInput(b []byte, cols []Column, ins []int, row Row) []byte {
	for _, i := range ins {
		v := row[i]
		switch cols[i].Type {
		case TypeString:
			b = append(b, v.S...)
		case TypeBytes:
			b = append(b, v.B...)
		case TypeDate:
			b = fmt.Appendf(b, "%08d", ymd(v)) // yyyyMMdd
		case TypeDouble:
			b = append(b, javaDouble(v.F)...)
		case TypeBoolean:
			b = strconv.AppendBool(b, v.I != 0)
		default:
			b = strconv.AppendInt(b, v.I, 10)
		}
	}
	return b
}

// JavaHashCode is Java's String.hashCode of s.
func JavaHashCode(s string) int32 {
	var h int32
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return javaHashCodeUTF16(s)
		}
		h = 31*h + int32(s[i])
	}
	return h
}

// javaHashCodeUTF16 is JavaHashCode over the UTF-16 code units of s.
func javaHashCodeUTF16(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// javaAbsMod is Math.abs(h % n) with Java's truncated remainder.
func javaAbsMod(h int64, n int64) int64 {
	r := h % n
	if r < 0 {
		r = -r
	}
	return r
}

// Compute returns the bytes of a hash or bucket component for a row whose
// inputs are set.
func (c *Component) Compute(cols []Column, row Row) ([]byte, error) {
	return c.appendCompute(nil, cols, row)
}

// appendCompute appends what Compute returns to dst.
func (c *Component) appendCompute(dst []byte, cols []Column, row Row) ([]byte, error) {
	for _, i := range c.InputColumns() {
		if row[i].Null {
			return nil, &KeyError{Field: cols[i].Name, Msg: "a key field cannot be NULL"}
		}
	}
	switch c.Kind {
	case KindBucket:
		v := row[c.col]
		n := v.I
		if c.typ == TypeString {
			n = int64(JavaHashCode(v.S))
		}
		return c.appendNumber(dst, ((n%c.Mod)+c.Mod)%c.Mod), nil
	case KindHash:
		var buf [64]byte
		in := hashInput(buf[:0], cols, c.ins, row)
		switch c.Hash {
		case HashMD5:
			sum := md5.Sum(in)
			var hx [2 * md5.Size]byte
			hex.Encode(hx[:], sum[:])
			return append(dst, hx[:c.Width]...), nil
		case HashJava:
			return c.appendNumber(dst, javaAbsMod(int64(JavaHashCode(string(in))), c.Mod)), nil
		case HashMurmur3:
			return c.appendNumber(dst, javaAbsMod(int64(int32(murmur3.SeedSum32(c.Seed, in))), c.Mod)), nil
		case HashArrays:
			return c.appendNumber(dst, javaAbsMod(int64(ArraysHashCode(javaBytes(cols, c.ins, row))), c.Mod)), nil
		}
	}
	return nil, fmt.Errorf("catalog: component %s is not computed", c)
}

// SaltByte is Phoenix's salt of the rest of a key: the Java byte-array hash
// (31*h + b over signed bytes, starting at 1), abs of its remainder by n.
func SaltByte(rest []byte, n int64) byte {
	return byte(javaAbsMod(int64(ArraysHashCode(rest)), n))
}

// ArraysHashCode is Java's Arrays.hashCode(byte[]) of b: 31*h + b over
// signed bytes, starting at 1.
func ArraysHashCode(b []byte) int32 { return arraysHash(1, b) }

// arraysHash continues Arrays.hashCode's h over b.
func arraysHash(h int32, b []byte) int32 {
	for _, x := range b {
		h = 31*h + int32(int8(x))
	}
	return h
}

// javaBytes is the concatenation of the inputs as Java's Bytes.toBytes
// writes them: 8 bytes for BIGINT and TIMESTAMP (ms), 4 for INT and DATE
// (days), IEEE 8 bytes for DOUBLE, 1 for BOOLEAN, UTF-8 for STRING.
func javaBytes(cols []Column, ins []int, row Row) []byte {
	var b []byte
	for _, i := range ins {
		b = append(b, (&Column{Type: cols[i].Type}).EncodeCell(row[i])...)
	}
	return b
}

// DecodeNumber reads a hash, bucket, salt or random value from key. It
// refuses bytes that EncodeNumber never writes: anything but lower-case hex
// for md5, anything but digits for decimal values, and values outside
// [0, Mod). An md5 prefix longer than 15 hex characters reads as the value
// of its first 15.
func (c *Component) DecodeNumber(key []byte) (int64, error) {
	if len(key) < c.Width {
		return 0, c.errf("key ends inside %s", c)
	}
	b := key[:c.Width]
	var n int64
	if c.Kind == KindHash && c.Hash == HashMD5 {
		for i, x := range b {
			d := strings.IndexByte("0123456789abcdef", x)
			if d < 0 {
				return 0, &KeyError{Msg: fmt.Sprintf("'%s' is not the lower-case hex of %s", ToStringBinary(b), c)}
			}
			if i < 15 {
				n = n<<4 | int64(d)
			}
		}
		return n, nil
	}
	if c.Binary {
		u := readUint(b)
		if u >= uint64(c.Mod) {
			return 0, &KeyError{Msg: fmt.Sprintf("%d is not a value of %s", u, c)}
		}
		return int64(u), nil
	}
	for _, x := range b {
		if x < '0' || x > '9' {
			return 0, &KeyError{Msg: fmt.Sprintf("'%s' is not the digits of %s", ToStringBinary(b), c)}
		}
		n = n*10 + int64(x-'0')
		if n >= c.Mod {
			return 0, &KeyError{Msg: fmt.Sprintf("'%s' is not a value of %s", ToStringBinary(b), c)}
		}
	}
	return n, nil
}
