package catalog

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// KeyError is a value that cannot be written into, or read from, a key.
type KeyError struct {
	Field string
	Msg   string
}

func (e *KeyError) Error() string {
	if e.Field == "" {
		return escapeControl(e.Msg)
	}
	return escapeControl(fmt.Sprintf("key field %s: %s", e.Field, e.Msg))
}

// escapeControl writes control bytes and invalid UTF-8 as \xNN, so that an
// error quoting a value prints on one line and never drives the terminal.
func escapeControl(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7F || (r == utf8.RuneError && n == 1) {
			fmt.Fprintf(&b, "\\x%02X", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (c *Component) errf(format string, args ...any) error {
	return &KeyError{Field: c.Field, Msg: fmt.Sprintf(format, args...)}
}

// decimalMax is 10^w - 1, the largest value w decimal digits hold.
func decimalMax(w int) int64 {
	if w >= 19 {
		return math.MaxInt64
	}
	m := int64(1)
	for i := 0; i < w; i++ {
		m *= 10
	}
	return m - 1
}

// intOf returns the integer a KeyDecimal or integral binary field writes.
// A DATE written as yyyyMMdd holds the days of years 0000..9999.
const (
	minYMDDay = -719528 // 0000-01-01
	maxYMDDay = 2932896 // 9999-12-31
)

func (c *Component) intOf(v Value) int64 {
	if c.typ == TypeDate && c.Enc == KeyDecimal {
		// Days outside the years yyyyMMdd holds sort below or above all
		// of them (and would overflow time.Time).
		switch {
		case v.I < minYMDDay:
			return math.MinInt64
		case v.I > maxYMDDay:
			return math.MaxInt64
		}
		return ymd(v)
	}
	return v.I
}

// EncodeField appends the key bytes of v for a KindField component. It
// refuses a value that could not be read back as itself: a value of the
// wrong kind or out of the encoding's range, NaN, text holding the
// delimiter that ends it, or fixed-width text that ends with its pad byte.
func (c *Component) EncodeField(dst []byte, v Value) ([]byte, error) {
	if c.Enc == KeyPhoenix {
		return c.encodePhoenix(dst, v)
	}
	if v.Null {
		return nil, c.errf("a key field cannot be NULL")
	}
	if c.Unit != Millis && v.Type == TypeTimestamp {
		n, err := c.toUnit(v)
		if err != nil {
			return nil, err
		}
		v = Value{Type: TypeBigint, I: n}
	}
	if err := c.checkValue(v); err != nil {
		return nil, err
	}
	start := len(dst)
	var out []byte
	var err error
	switch c.Enc {
	case KeyText:
		out, err = c.encodeText(dst, v)
	case KeyDecimal:
		out, err = c.appendDecimal(dst, c.intOf(v), v)
	case KeyBinary:
		out = c.encodeBinary(dst, v)
	case KeyJava:
		out = c.appendJava(dst, v.I)
	default:
		return nil, c.errf("unknown encoding")
	}
	if err != nil {
		return nil, err
	}
	// A variable-width field ends at the first occurrence of its
	// delimiter, so the delimiter must first occur right after the value.
	if c.Width == 0 && len(c.delim) > 0 && !c.descText() {
		probe := append(bytes.Clone(out[start:]), c.delim...)
		if bytes.Index(probe, c.delim) != len(out)-start {
			return nil, c.errf("%s contains the delimiter '%s'", v, ToStringBinary(c.delim))
		}
	}
	return out, nil
}

// checkValue refuses a value that the field's encoding cannot hold.
func (c *Component) checkValue(v Value) error {
	switch {
	case c.Enc == KeyText:
		if v.Type != TypeString && v.Type != TypeBytes {
			return c.errf("%s is %s, not text", v, v.Type)
		}
		if c.Reverse && c.typ != TypeBytes && !utf8.Valid(c.textBytes(v)) {
			return c.errf("%s is not UTF-8 text and cannot be reversed", v)
		}
		return nil
	case c.typ == TypeDouble:
		if v.Type != TypeDouble {
			return c.errf("%s is %s, not DOUBLE", v, v.Type)
		}
		if math.IsNaN(v.F) {
			return c.errf("NaN cannot be written into a key")
		}
		return nil
	}
	if !v.Type.integral() {
		return c.errf("%s is %s, not %s", v, v.Type, c.typ)
	}
	lo, hi := typeRange(c.typ)
	if c.typ == TypeDate && c.Enc == KeyDecimal {
		// yyyyMMdd: years 0000..9999, which also keeps the day count
		// far from overflowing time.Time.
		lo, hi = minYMDDay, maxYMDDay
	}
	if c.Enc == KeyBinary || c.Enc == KeyJava {
		dlo, dhi := c.intDomain()
		lo, hi = max(lo, dlo), min(hi, dhi)
	}
	if v.I < lo || v.I > hi {
		return c.errf("%s is out of range for %s in %d bytes", v, c.typ, c.Width)
	}
	return nil
}

// typeRange is the range of Value.I for an integral type.
func typeRange(t Type) (int64, int64) {
	switch t {
	case TypeInt:
		return math.MinInt32, math.MaxInt32
	case TypeBoolean:
		return 0, 1
	}
	return math.MinInt64, math.MaxInt64
}

// appendJava writes n as Java's Bytes.toBytes writes it in Width bytes:
// big-endian two's complement, or MAX - n when descending. MAX - n is
// computed in the field's width, wrapping as Java's int and long
// arithmetic does, so that a negative n gives 2^(8w-1)-1-n as unsigned
// bytes: descending order holds across zero.
func (c *Component) appendJava(dst []byte, n int64) []byte {
	if c.Desc {
		n = c.javaMax() - n
	}
	return appendInt(dst, uint64(n), c.Width)
}

// javaInt is the integer a java field's Width bytes u hold, the inverse
// of appendJava. ok is false only for an unsigned field of 8 bytes whose
// bytes hold more than MaxInt64.
func (c *Component) javaInt(u uint64) (int64, bool) {
	switch {
	case c.Unsigned:
		if u > uint64(c.javaMax()) {
			return 0, false
		}
		if c.Desc {
			return c.javaMax() - int64(u), true
		}
		return int64(u), true
	case c.Desc:
		// The stored 2^(8w-1)-1-v lies in 0 .. 2^(8w)-1; below 8 bytes
		// the difference fits, and at 8 it wraps back to v.
		return c.javaMax() - int64(u), true
	}
	return signExtend(u, c.Width), true
}

// encodeInt writes the integer n that a decimal, binary or java field
// holds (a yyyyMMdd number for a decimal DATE). n must be in the domain.
func (c *Component) encodeInt(n int64) []byte {
	switch c.Enc {
	case KeyDecimal:
		b, _ := c.appendDecimal(nil, n, Bigint(n))
		return b
	case KeyJava:
		return c.appendJava(nil, n)
	}
	return c.encodeBinary(nil, Value{Type: TypeBigint, I: n})
}

func (c *Component) appendDecimal(dst []byte, n int64, v Value) ([]byte, error) {
	{
		if n < 0 {
			return nil, c.errf("%s is negative and cannot be written as zero-padded digits", v)
		}
		if c.Width > 0 {
			max := decimalMax(c.Width)
			if n > max {
				return nil, c.errf("%s does not fit in %d digits", v, c.Width)
			}
			if c.Desc {
				n = max - n
			}
			s := strconv.FormatInt(n, 10)
			for i := len(s); i < c.Width; i++ {
				dst = append(dst, '0')
			}
			return append(dst, s...), nil
		}
		return strconv.AppendInt(dst, n, 10), nil
	}
}

// javaMax is the largest value a java field holds: 2^(8w-1)-1, or
// 2^(8w)-1 unsigned (at most MaxInt64). A signed field also holds every
// negative value down to -2^(8w-1).
func (c *Component) javaMax() int64 {
	bits := uint(c.Width) * 8
	if !c.Unsigned {
		bits--
	}
	if bits >= 63 {
		return math.MaxInt64
	}
	return 1<<bits - 1
}

// toUnit converts a TIMESTAMP value's milliseconds to the field's unit.
func (c *Component) toUnit(v Value) (int64, error) {
	switch c.Unit {
	case Seconds:
		if v.I%1000 != 0 {
			return 0, c.errf("%s has milliseconds, and the key holds whole seconds", v)
		}
		return v.I / 1000, nil
	case Micros:
		if v.I > math.MaxInt64/1000 || v.I < math.MinInt64/1000 {
			return 0, c.errf("%s is out of range in microseconds", v)
		}
		return v.I * 1000, nil
	}
	return v.I, nil
}

// fromUnit converts a stored count of the field's unit to milliseconds,
// flooring microseconds.
func (c *Component) fromUnit(n int64) (int64, bool) {
	switch c.Unit {
	case Seconds:
		if n > math.MaxInt64/1000 || n < math.MinInt64/1000 {
			return 0, false
		}
		return n * 1000, true
	case Micros:
		q := n / 1000
		if n%1000 < 0 {
			q--
		}
		return q, true
	}
	return n, true
}

func appendInt(dst []byte, u uint64, w int) []byte {
	for i := w - 1; i >= 0; i-- {
		dst = append(dst, byte(u>>(8*uint(i))))
	}
	return dst
}

func (c *Component) encodeBinary(dst []byte, v Value) []byte {
	var u uint64
	switch c.typ {
	case TypeDouble:
		u = math.Float64bits(v.F)
		if u&(1<<63) != 0 {
			u = ^u
		} else {
			u |= 1 << 63
		}
	default:
		u = uint64(v.I) ^ (1 << (uint(c.Width)*8 - 1))
	}
	if c.Desc {
		u = ^u
	}
	return appendInt(dst, u, c.Width)
}

// span returns the length of the component's bytes at the start of key.
func (c *Component) span(key []byte) (int, error) {
	if w, ok := c.FixedWidth(); ok {
		if len(key) < w {
			return 0, c.errf("key ends after %d bytes, inside a component of %d bytes", len(key), w)
		}
		return w, nil
	}
	if c.descText() {
		i := bytes.IndexByte(key, 0xFF)
		if i < 0 {
			return 0, c.errf("the 0xFF that ends descending text is missing")
		}
		return i + 1, nil
	}
	if len(c.delim) == 0 {
		return len(key), nil
	}
	i := bytes.Index(key, c.delim)
	if i < 0 {
		return 0, c.errf("delimiter '%s' not found", ToStringBinary(c.delim))
	}
	return i, nil
}

// DecodeField reads a KindField component's value from the start of key
// and returns it with the number of bytes read.
func (c *Component) DecodeField(key []byte) (Value, int, error) {
	if c.Enc == KeyPhoenix {
		return c.decodePhoenix(key)
	}
	n, err := c.span(key)
	if err != nil {
		return Value{}, 0, err
	}
	b := key[:n]
	switch c.Enc {
	case KeyText:
		if c.Desc {
			if c.Width == 0 {
				b = b[:len(b)-1]
			}
			inv := make([]byte, len(b))
			for i, x := range b {
				inv[i] = ^x
			}
			b = inv
			if c.Width == 0 && bytes.IndexByte(b, 0) >= 0 {
				return Value{}, 0, c.errf("descending text holds a NUL byte")
			}
		}
		if c.Width > 0 {
			if c.PadLeft {
				i := 0
				for i < len(b) && b[i] == c.Pad {
					i++
				}
				b = b[i:]
			} else {
				b = bytes.TrimRight(b, string([]byte{c.Pad}))
			}
		}
		if c.Reverse {
			if c.typ != TypeBytes && !utf8.Valid(b) {
				return Value{}, 0, c.errf("reversed text '%s' is not UTF-8", ToStringBinary(b))
			}
			b = reverseText(b, c.typ != TypeBytes)
		}
		if c.typ == TypeBytes {
			return Bytes(bytes.Clone(b)), n, nil
		}
		return String(string(b)), n, nil
	case KeyDecimal:
		u, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil || len(b) == 0 || b[0] == '-' || b[0] == '+' {
			return Value{}, 0, c.errf("'%s' is not decimal digits", ToStringBinary(b))
		}
		if c.Width == 0 && len(b) > 1 && b[0] == '0' {
			return Value{}, 0, c.errf("'%s' has a leading zero, which this variable-width field never writes", ToStringBinary(b))
		}
		if c.Desc {
			u = decimalMax(c.Width) - u
		}
		return c.fromInt(u)(n)
	case KeyBinary:
		u := readUint(b)
		if c.Desc {
			u = ^u & widthMask(c.Width)
		}
		if c.typ == TypeDouble {
			if u&(1<<63) != 0 {
				u &^= 1 << 63
			} else {
				u = ^u
			}
			f := math.Float64frombits(u)
			if math.IsNaN(f) {
				return Value{}, 0, c.errf("the key holds NaN")
			}
			return Double(f), n, nil
		}
		u ^= 1 << (uint(c.Width)*8 - 1)
		return c.fromInt(signExtend(u, c.Width))(n)
	case KeyJava:
		s, ok := c.javaInt(readUint(b))
		if !ok {
			return Value{}, 0, c.errf("'%s' is above %d, the largest value this field holds", ToStringBinary(b), c.javaMax())
		}
		return c.fromInt(s)(n)
	}
	return Value{}, 0, c.errf("unknown encoding")
}

func widthMask(w int) uint64 {
	if w >= 8 {
		return math.MaxUint64
	}
	return 1<<(uint(w)*8) - 1
}

func readUint(b []byte) uint64 {
	var u uint64
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	return u
}

func signExtend(u uint64, w int) int64 {
	shift := 64 - uint(w)*8
	return int64(u<<shift) >> shift
}

// fromInt builds the field's Value from the integer its key holds.
func (c *Component) fromInt(i int64) func(int) (Value, int, error) {
	return func(n int) (Value, int, error) {
		if lo, hi := typeRange(c.typ); i < lo || i > hi {
			return Value{}, 0, c.errf("%d is out of range for %s", i, c.typ)
		}
		switch c.typ {
		case TypeDate:
			if c.Enc == KeyDecimal {
				v, ok := fromYMD(i)
				if !ok {
					return Value{}, 0, c.errf("%d is not a yyyyMMdd date", i)
				}
				return v, n, nil
			}
			return DateDays(i), n, nil
		case TypeTimestamp:
			ms, ok := c.fromUnit(i)
			if !ok {
				return Value{}, 0, c.errf("%d is out of range for %s", i, c.typ)
			}
			return TimestampMillis(ms), n, nil
		case TypeInt:
			return Value{Type: TypeInt, I: i}, n, nil
		case TypeBoolean:
			return Bool(i != 0), n, nil
		}
		return Bigint(i), n, nil
	}
}
