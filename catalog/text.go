package catalog

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

func (c *Component) textBytes(v Value) []byte {
	if v.Type == TypeBytes {
		return v.B
	}
	return []byte(v.S)
}

func (c *Component) encodeText(dst []byte, v Value) ([]byte, error) {
	b := c.textBytes(v)
	if c.Reverse {
		b = reverseText(b, c.typ != TypeBytes)
	}
	if c.Desc {
		return c.encodeDescText(dst, v, b)
	}
	if c.Width > 0 {
		if len(b) > c.Width {
			return nil, c.errf("%s is %d bytes, longer than the field's fixed width of %d", v, len(b), c.Width)
		}
		// Decoding strips every pad byte at the padded edge, so a value
		// may not have one there, even when it fills the width.
		if len(b) > 0 {
			edge := b[len(b)-1]
			if c.PadLeft {
				edge = b[0]
			}
			if edge == c.Pad {
				where := "ends"
				if c.PadLeft {
					where = "starts"
				}
				return nil, c.errf("%s %s with the pad byte '%s' and could not be read back", v, where, ToStringBinary([]byte{c.Pad}))
			}
		}
		if c.PadLeft {
			for i := len(b); i < c.Width; i++ {
				dst = append(dst, c.Pad)
			}
			return append(dst, b...), nil
		}
		dst = append(dst, b...)
		for i := len(b); i < c.Width; i++ {
			dst = append(dst, c.Pad)
		}
		return dst, nil
	}
	return append(dst, b...), nil
}

// descText reports whether the component is variable-width descending
// text, which ends itself with a 0xFF byte.
func (c *Component) descText() bool {
	return c.Kind == KindField && c.Enc == KeyText && c.Desc && c.Width == 0
}

// encodeDescText writes descending text: every byte inverted, so larger
// values sort first. Variable-width text is followed by 0xFF, which no
// inverted byte equals since the text may not hold 0x00; so a shorter
// value sorts after a longer one it starts, as descending order wants.
// Fixed-width text is padded first, then inverted.
func (c *Component) encodeDescText(dst []byte, v Value, b []byte) ([]byte, error) {
	if c.Width > 0 {
		if len(b) > c.Width {
			return nil, c.errf("%s is %d bytes, longer than the field's fixed width of %d", v, len(b), c.Width)
		}
		if len(b) > 0 && b[len(b)-1] == c.Pad {
			return nil, c.errf("%s ends with the pad byte '%s' and could not be read back", v, ToStringBinary([]byte{c.Pad}))
		}
		for _, x := range b {
			dst = append(dst, ^x)
		}
		for i := len(b); i < c.Width; i++ {
			dst = append(dst, ^c.Pad)
		}
		return dst, nil
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, c.errf("%s holds a NUL byte, which descending text cannot hold", v)
	}
	for _, x := range b {
		dst = append(dst, ^x)
	}
	return append(dst, 0xFF), nil
}

// reverseText reverses the characters of b when runes is set, and its
// bytes otherwise (BYTES fields). Text is reversed only when it is valid
// UTF-8, so that reversing twice gives b back.
func reverseText(b []byte, runes bool) []byte {
	out := make([]byte, 0, len(b))
	if !runes || !utf8.Valid(b) {
		out = append(out, b...)
		slices.Reverse(out)
		return out
	}
	for i := len(b); i > 0; {
		_, n := utf8.DecodeLastRune(b[:i])
		out = append(out, b[i-n:i]...)
		i -= n
	}
	return out
}

// javaDouble is Java's Double.toString of f (JDK 19 and later), which
// byte-exact readers of text cells and hashes expect.
//
// Its digits are the shortest decimal that reads back as f, the one
// closest to f when several are that short; when one digit is enough,
// the closest decimal of one or two digits (4.9E-324, not 5.0E-324). For
// 1e-3 <= |f| < 1e7 they are written as a plain decimal with at least one
// digit after the point, otherwise as d.dddEn with at least one digit
// after the point and no '+' (1.0E7, 1.0E-4). NaN, Infinity, -Infinity
// and -0.0 are written so.
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	digits, exp := javaDigits(math.Abs(f))
	var b []byte
	if f < 0 {
		b = append(b, '-')
	}
	// digits is d1 d2 … dn and the value is d1.d2…dn × 10^exp.
	a := math.Abs(f)
	if a >= 1e-3 && a < 1e7 {
		switch {
		case exp < 0:
			b = append(b, "0."...)
			for i := -1; i > exp; i-- {
				b = append(b, '0')
			}
			b = append(b, digits...)
		case exp+1 >= len(digits):
			b = append(b, digits...)
			for i := len(digits); i <= exp; i++ {
				b = append(b, '0')
			}
			b = append(b, ".0"...)
		default:
			b = append(b, digits[:exp+1]...)
			b = append(b, '.')
			b = append(b, digits[exp+1:]...)
		}
		return string(b)
	}
	b = append(b, digits[0], '.')
	if len(digits) == 1 {
		b = append(b, '0')
	} else {
		b = append(b, digits[1:]...)
	}
	b = append(b, 'E')
	return string(strconv.AppendInt(b, int64(exp), 10))
}

// javaDigits returns the significant digits Double.toString picks for a
// positive finite f, without trailing zeros, and the decimal exponent of
// the first one.
func javaDigits(f float64) (string, int) {
	// Go's shortest form is the shortest decimal that reads back as f,
	// and the closest to f among those.
	digits, exp := splitE(strconv.FormatFloat(f, 'e', -1, 64))
	if len(digits) > 1 {
		return digits, exp
	}
	// One digit is enough: Java takes the closest decimal of one or two
	// digits, and every one-digit decimal is also a two-digit one (5 is
	// 5.0). The closest two-digit decimal is the answer if it reads back
	// as f; if it does not, the interval of decimals that read back as f
	// lies on the other side of it, where the next two-digit decimal is
	// the closest, and it lies between f and the one-digit decimal, so it
	// reads back too.
	two := strconv.FormatFloat(f, 'e', 1, 64)
	if g, err := strconv.ParseFloat(two, 64); err == nil && g == f {
		return trimZeros(splitE(two))
	}
	d2, e2 := splitE(two)
	k := int(d2[0]-'0')*10 + int(d2[1]-'0')
	g, _ := strconv.ParseFloat(two, 64)
	if g < f {
		if k++; k == 100 {
			k, e2 = 10, e2+1
		}
	} else {
		if k--; k == 9 {
			k, e2 = 99, e2-1
		}
	}
	return trimZeros(strconv.Itoa(k), e2)
}

// splitE splits Go's d.ddde±n form into its digits and exponent.
func splitE(s string) (string, int) {
	mant, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	return strings.Replace(mant, ".", "", 1), exp
}

func trimZeros(digits string, exp int) (string, int) {
	if t := strings.TrimRight(digits, "0"); t != "" {
		digits = t
	}
	return digits, exp
}
