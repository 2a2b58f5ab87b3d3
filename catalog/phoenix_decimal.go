package catalog

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// decimal is a Phoenix DECIMAL value: coef × 10^exp, coef decimal digits
// with no leading or trailing zeros ("" for zero).
type decimal struct {
	neg  bool
	coef string
	exp  int
}

// Phoenix rounds a DECIMAL to 38 significant digits, half up, and drops
// trailing zeros before writing it.
const decimalDigits = 38

// decimalOf is the DECIMAL a STRING or DOUBLE value writes. Text must be
// the decimal's own form (as a read gives it: 1.5, not 1.50 or 15e-1), so
// that what is written reads back as itself; a DOUBLE writes its shortest
// decimal digits.
func decimalOf(v Value) (decimal, error) {
	switch v.Type {
	case TypeString:
		d, err := parseDecimal(v.S)
		if err != nil {
			return d, err
		}
		if p := d.plain(); p != v.S {
			return d, fmt.Errorf("%s is written as the DECIMAL '%s'; write that", v, p)
		}
		return d, nil
	case TypeDouble:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return decimal{}, fmt.Errorf("%s is not a DECIMAL", v)
		}
		return parseDecimal(strconv.FormatFloat(v.F, 'e', -1, 64))
	case TypeInt, TypeBigint:
		// Phoenix's global index holds a nullable integer column as a
		// DECIMAL.
		return parseDecimal(strconv.FormatInt(v.I, 10))
	}
	return decimal{}, fmt.Errorf("%s is %s, not a DECIMAL's text, DOUBLE or integer", v, v.Type)
}

// parseDecimal reads [+-]digits[.digits][e[+-]digits], rounded and
// normalized as Phoenix stores it.
func parseDecimal(s string) (decimal, error) {
	bad := fmt.Errorf("'%s' is not a decimal number", s)
	var d decimal
	r := s
	if r != "" && (r[0] == '-' || r[0] == '+') {
		d.neg, r = r[0] == '-', r[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(r), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return d, bad
	}
	d.coef, d.exp = digits, -len(frac)
	if hasExp {
		e, err := strconv.Atoi(expText)
		if err != nil || e > 1000 || e < -1000 {
			return d, bad
		}
		d.exp += e
	}
	d.normalize()
	return d, nil
}

// normalize drops leading zeros, rounds to 38 digits half up, and drops
// trailing zeros.
func (d *decimal) normalize() {
	d.coef = strings.TrimLeft(d.coef, "0")
	if len(d.coef) > decimalDigits {
		up := d.coef[decimalDigits] >= '5'
		d.exp += len(d.coef) - decimalDigits
		d.coef = d.coef[:decimalDigits]
		if up {
			d.coef = incDigits(d.coef)
		}
	}
	t := strings.TrimRight(d.coef, "0")
	d.exp += len(d.coef) - len(t)
	d.coef = t
	if d.coef == "" {
		*d = decimal{}
	}
}

// incDigits adds one to a string of decimal digits.
func incDigits(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// plain writes d without an exponent, as a read gives it.
func (d decimal) plain() string {
	if d.coef == "" {
		return "0"
	}
	var s string
	switch k := -d.exp; {
	case k <= 0:
		s = d.coef + strings.Repeat("0", -k)
	case len(d.coef) > k:
		s = d.coef[:len(d.coef)-k] + "." + d.coef[len(d.coef)-k:]
	default:
		s = "0." + strings.Repeat("0", k-len(d.coef)) + d.coef
	}
	if d.neg {
		return "-" + s
	}
	return s
}

// value is d as a value of column type t: its text, the nearest DOUBLE,
// or, for an integer column, the integer it must be.
func (d decimal) value(t Type) (Value, error) {
	switch t {
	case TypeString:
		return String(d.plain()), nil
	case TypeInt, TypeBigint:
		if d.exp < 0 {
			return Value{}, fmt.Errorf("DECIMAL %s is not an integer", d.plain())
		}
		i, err := strconv.ParseInt(d.plain(), 10, 64)
		if err != nil || t == TypeInt && (i < math.MinInt32 || i > math.MaxInt32) {
			return Value{}, fmt.Errorf("DECIMAL %s is out of range for %s", d.plain(), t)
		}
		if t == TypeInt {
			return Int(int32(i)), nil
		}
		return Bigint(i), nil
	}
	if d.coef == "" {
		return Double(0), nil
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	f, err := strconv.ParseFloat(sign+d.coef+"e"+strconv.Itoa(d.exp), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Value{}, fmt.Errorf("DECIMAL %s: %v", d.plain(), err)
	}
	return Double(f), nil
}

// Bytes of Phoenix's DECIMAL form.
const (
	decZero        = 0x80 // zero, alone
	decNegTerminal = 102  // ends a negative number of under 20 digit pairs
	decMaxBytes    = 21
)

// appendPhoenix writes d as 0.D1 D2 … Dn × 100^E, the Di base-100
// digits: an exponent byte (0x80 | E+64 when positive, 127-(E+64) when
// negative), then Di+1 (positive) or 101-Di (negative), then 102 after a
// negative number if the whole fits in 21 bytes.
func (d decimal) appendPhoenix(dst []byte) ([]byte, error) {
	if d.coef == "" {
		return append(dst, decZero), nil
	}
	coef, exp := d.coef, d.exp
	if exp%2 != 0 {
		// The base-100 digits are aligned on the decimal point.
		coef, exp = coef+"0", exp-1
	}
	if len(coef)%2 != 0 {
		coef = "0" + coef
	}
	n := len(coef) / 2
	e := n + exp/2
	if e+64 < 1 || e+64 > 126 {
		return nil, fmt.Errorf("%s is beyond the exponents a Phoenix DECIMAL holds", d.plain())
	}
	if d.neg {
		dst = append(dst, byte(127-(e+64)))
	} else {
		dst = append(dst, byte(0x80|(e+64)))
	}
	for i := 0; i < n; i++ {
		dig := int(coef[2*i]-'0')*10 + int(coef[2*i+1]-'0')
		if d.neg {
			dst = append(dst, byte(101-dig))
		} else {
			dst = append(dst, byte(dig+1))
		}
	}
	if d.neg && n+2 <= decMaxBytes {
		dst = append(dst, decNegTerminal)
	}
	return dst, nil
}

// readPhoenixDecimal reads appendPhoenix's bytes.
func readPhoenixDecimal(b []byte) (decimal, error) {
	bad := func(why string) (decimal, error) {
		return decimal{}, fmt.Errorf("'%s' is not a Phoenix DECIMAL: %s", ToStringBinary(b), why)
	}
	if len(b) == 1 && b[0] == decZero {
		return decimal{}, nil
	}
	if len(b) < 2 {
		return bad("no digits")
	}
	var d decimal
	var e int
	body := b[1:]
	if b[0]&0x80 != 0 {
		e = int(b[0]&0x7F) - 64
	} else {
		d.neg = true
		e = 63 - int(b[0])
		if body[len(body)-1] == decNegTerminal {
			body = body[:len(body)-1]
		}
		if len(body) == 0 {
			return bad("no digits")
		}
	}
	var sb strings.Builder
	for _, x := range body {
		dig := int(x) - 1
		if d.neg {
			dig = 101 - int(x)
		}
		if dig < 0 || dig > 99 {
			return bad(fmt.Sprintf("byte %d is not a base-100 digit", x))
		}
		sb.WriteByte(byte('0' + dig/10))
		sb.WriteByte(byte('0' + dig%10))
	}
	d.coef, d.exp = sb.String(), 2*(e-len(body))
	neg := d.neg
	d.normalize()
	d.neg = neg && d.coef != ""
	return d, nil
}
