package expr

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/rkql/rkql/catalog"
)

// MaxPad is the longest result LPAD and RPAD make, in characters.
const MaxPad = 1 << 20

func strFunc(name string, t catalog.Type, args []Scalar, fn func(a []catalog.Value) (catalog.Value, error)) *Func {
	return &Func{Name: name, Args: args, T: t, Apply: strict(t, fn)}
}

// Replace is REPLACE(s, from, to): every from in s replaced by to; an
// empty from leaves s as it is.
func Replace(args ...Scalar) *Func {
	return strFunc("REPLACE", catalog.TypeString, args, func(a []catalog.Value) (catalog.Value, error) {
		if a[1].S == "" {
			return a[0], nil
		}
		return catalog.String(strings.ReplaceAll(a[0].S, a[1].S, a[2].S)), nil
	})
}

// Trim is TRIM, LTRIM or RTRIM (name) of s[, chars]: the characters of
// chars (a space without it) removed from the start, the end or both.
func Trim(name string, args ...Scalar) *Func {
	return strFunc(name, catalog.TypeString, args, func(a []catalog.Value) (catalog.Value, error) {
		cut := " "
		if len(a) > 1 {
			cut = a[1].S
		}
		s := a[0].S
		switch name {
		case "LTRIM":
			s = strings.TrimLeft(s, cut)
		case "RTRIM":
			s = strings.TrimRight(s, cut)
		default:
			s = strings.Trim(s, cut)
		}
		return catalog.String(s), nil
	})
}

// Pad is LPAD or RPAD (name) of s, n[, fill]: s cut or filled with
// fill (a space without it) to n characters.
func Pad(name string, args ...Scalar) *Func {
	return strFunc(name, catalog.TypeString, args, func(a []catalog.Value) (catalog.Value, error) {
		n := a[1].I
		if n > MaxPad {
			return catalog.Value{}, fmt.Errorf("%s length %d is over %d", name, n, MaxPad)
		}
		fill := " "
		if len(a) > 2 {
			fill = a[2].S
		}
		rs := []rune(a[0].S)
		switch {
		case n <= 0:
			return catalog.String(""), nil
		case int64(len(rs)) >= n:
			return catalog.String(string(rs[:n])), nil
		case fill == "":
			return a[0], nil
		}
		fr := []rune(fill)
		pad := make([]rune, 0, n-int64(len(rs)))
		for i := 0; int64(len(pad)) < n-int64(len(rs)); i++ {
			pad = append(pad, fr[i%len(fr)])
		}
		if name == "LPAD" {
			return catalog.String(string(pad) + string(rs)), nil
		}
		return catalog.String(string(rs) + string(pad)), nil
	})
}

// Reverse is REVERSE(s): the characters of s in reverse order.
func Reverse(s Scalar) *Func {
	return strFunc("REVERSE", catalog.TypeString, []Scalar{s}, func(a []catalog.Value) (catalog.Value, error) {
		rs := []rune(a[0].S)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return catalog.String(string(rs)), nil
	})
}

// MD5 is MD5(s): the lower-case hex of the MD5 digest of s's UTF-8
// bytes, or of the bytes of BYTES.
func MD5(s Scalar) *Func {
	return strFunc("MD5", catalog.TypeString, []Scalar{s}, func(a []catalog.Value) (catalog.Value, error) {
		b := a[0].B
		if a[0].Type != catalog.TypeBytes {
			b = []byte(a[0].S)
		}
		sum := md5.Sum(b)
		return catalog.String(hex.EncodeToString(sum[:])), nil
	})
}

// HashCode is HASHCODE(s): Java's String.hashCode, over s's UTF-16 code
// units, as an INT.
func HashCode(s Scalar) *Func {
	return strFunc("HASHCODE", catalog.TypeInt, []Scalar{s}, func(a []catalog.Value) (catalog.Value, error) {
		var h int32
		for _, u := range utf16.Encode([]rune(a[0].S)) {
			h = 31*h + int32(u)
		}
		return catalog.Int(h), nil
	})
}

// numResult is the result type of the numeric functions: DOUBLE when an
// argument is, else BIGINT.
var numResult = Result{Doc: "BIGINT for integers, DOUBLE for a DOUBLE", Of: func(ts []catalog.Type) (catalog.Type, bool) {
	for _, t := range ts {
		if t == catalog.TypeDouble {
			return catalog.TypeDouble, true
		}
	}
	return catalog.TypeBigint, true
}}

// Round is ROUND(x[, d]): x rounded half away from zero to d decimal
// places (0 without d or when d is negative); an integer stays as it is.
func Round(t catalog.Type, args ...Scalar) *Func {
	return strFunc("ROUND", t, args, func(a []catalog.Value) (catalog.Value, error) {
		if a[0].Type != catalog.TypeDouble {
			return catalog.Bigint(a[0].I), nil
		}
		d := int64(0)
		if len(a) > 1 && a[1].I > 0 {
			d = a[1].I
		}
		return catalog.Double(roundPlaces(a[0].F, d)), nil
	})
}

// roundPlaces rounds f half away from zero at d decimals, on the
// shortest decimal that reads back as f (so 2.675 rounds to 2.68, as
// sqlite3 and Java's BigDecimal.valueOf round it).
func roundPlaces(f float64, d int64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || d > 400 {
		return f
	}
	s := strconv.FormatFloat(math.Abs(f), 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += "."
	}
	s += strings.Repeat("0", int(d)+1)
	dot := strings.IndexByte(s, '.')
	keep := []byte(s[:dot] + s[dot+1:dot+1+int(d)])
	if s[dot+1+int(d)] >= '5' {
		i := len(keep) - 1
		for ; i >= 0 && keep[i] == '9'; i-- {
			keep[i] = '0'
		}
		if i < 0 {
			keep = append([]byte{'1'}, keep...)
		} else {
			keep[i]++
		}
	}
	ip := len(keep) - int(d)
	r, _ := strconv.ParseFloat(string(keep[:ip])+"."+string(keep[ip:])+"0", 64)
	return math.Copysign(r, f)
}

// FloorCeil is FLOOR or CEIL (name) of x: the nearest integer below or
// above; an integer stays as it is.
func FloorCeil(name string, t catalog.Type, x Scalar) *Func {
	return strFunc(name, t, []Scalar{x}, func(a []catalog.Value) (catalog.Value, error) {
		if a[0].Type != catalog.TypeDouble {
			return catalog.Bigint(a[0].I), nil
		}
		if name == "FLOOR" {
			return catalog.Double(math.Floor(a[0].F)), nil
		}
		return catalog.Double(math.Ceil(a[0].F)), nil
	})
}

// Abs is ABS(x).
func Abs(t catalog.Type, x Scalar) *Func {
	return strFunc("ABS", t, []Scalar{x}, func(a []catalog.Value) (catalog.Value, error) {
		if a[0].Type == catalog.TypeDouble {
			return catalog.Double(math.Abs(a[0].F)), nil
		}
		if a[0].I == math.MinInt64 {
			return catalog.Value{}, fmt.Errorf("ABS(%d) does not fit a BIGINT: %w", a[0].I, ErrOverflow)
		}
		if a[0].I < 0 {
			return catalog.Bigint(-a[0].I), nil
		}
		return catalog.Bigint(a[0].I), nil
	})
}

// ModOf is MOD(a, b): the remainder of a / b, with a's sign; NULL when b
// is 0.
func ModOf(t catalog.Type, x, y Scalar) *Func {
	return &Func{Name: "MOD", Args: []Scalar{x, y}, T: t, Apply: strict(t, func(a []catalog.Value) (catalog.Value, error) {
		if t == catalog.TypeDouble {
			d := Float(a[1])
			if d == 0 {
				return catalog.Null(t), nil
			}
			return catalog.Double(math.Mod(Float(a[0]), d)), nil
		}
		if a[1].I == 0 {
			return catalog.Null(t), nil
		}
		return catalog.Bigint(a[0].I % a[1].I), nil
	})}
}

// DatePartUnits are the units of DATE_PART.
var DatePartUnits = []string{"year", "month", "day", "hour", "minute", "second", "millisecond", "dow", "doy", "epoch"}

// DatePart is DATE_PART(unit, ts) as a BIGINT, in UTC.
func DatePart(unit string, ts Scalar) (*Func, error) {
	unit = strings.ToLower(unit)
	ok := false
	for _, u := range DatePartUnits {
		ok = ok || u == unit
	}
	if !ok {
		return nil, fmt.Errorf("DATE_PART unit %q is not one of %s", unit, strings.Join(DatePartUnits, ", "))
	}
	return &Func{Name: "DATE_PART", Args: []Scalar{&Lit{V: catalog.String(unit)}, ts}, T: catalog.TypeBigint, Apply: strict(catalog.TypeBigint, func(a []catalog.Value) (catalog.Value, error) {
		ms := Millis(a[1])
		t := time.UnixMilli(ms).UTC()
		var n int
		switch unit {
		case "year":
			n = t.Year()
		case "month":
			n = int(t.Month())
		case "day":
			n = t.Day()
		case "hour":
			n = t.Hour()
		case "minute":
			n = t.Minute()
		case "second":
			n = t.Second()
		case "millisecond":
			n = t.Nanosecond() / 1e6
		case "dow":
			n = int(t.Weekday())
		case "doy":
			n = t.YearDay()
		case "epoch":
			return catalog.Bigint(t.Unix()), nil
		}
		return catalog.Bigint(int64(n)), nil
	})}, nil
}

// Strftime is STRFTIME(format, ts) with sqlite's letters %Y %m %d %H %M
// %S %f %j %w %s %%, in UTC.
func Strftime(format string, ts Scalar) (*Func, error) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i == len(format) || !strings.ContainsRune("YmdHMSfjws%", rune(format[i])) {
			return nil, fmt.Errorf("STRFTIME format %q: character %d: only %%Y %%m %%d %%H %%M %%S %%f %%j %%w %%s %%%% are formats", format, i)
		}
	}
	return &Func{Name: "STRFTIME", Args: []Scalar{&Lit{V: catalog.String(format)}, ts}, T: catalog.TypeString, Apply: strict(catalog.TypeString, func(a []catalog.Value) (catalog.Value, error) {
		ms := Millis(a[1])
		t := time.UnixMilli(ms).UTC()
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			if format[i] != '%' {
				b.WriteByte(format[i])
				continue
			}
			i++
			switch format[i] {
			case 'Y':
				fmt.Fprintf(&b, "%04d", t.Year())
			case 'm':
				fmt.Fprintf(&b, "%02d", int(t.Month()))
			case 'd':
				fmt.Fprintf(&b, "%02d", t.Day())
			case 'H':
				fmt.Fprintf(&b, "%02d", t.Hour())
			case 'M':
				fmt.Fprintf(&b, "%02d", t.Minute())
			case 'S':
				fmt.Fprintf(&b, "%02d", t.Second())
			case 'f':
				fmt.Fprintf(&b, "%02d.%03d", t.Second(), t.Nanosecond()/1e6)
			case 'j':
				fmt.Fprintf(&b, "%03d", t.YearDay())
			case 'w':
				fmt.Fprintf(&b, "%d", int(t.Weekday()))
			case 's':
				fmt.Fprintf(&b, "%d", t.Unix())
			case '%':
				b.WriteByte('%')
			}
		}
		return catalog.String(b.String()), nil
	})}, nil
}

// ToTimestamp is TO_TIMESTAMP(seconds): the TIMESTAMP that many seconds
// (fractions to the millisecond) after 1970-01-01 00:00:00 UTC.
func ToTimestamp(x Scalar) *Func {
	return strFunc("TO_TIMESTAMP", catalog.TypeTimestamp, []Scalar{x}, func(a []catalog.Value) (catalog.Value, error) {
		const lim = math.MaxInt64 / 1000
		if a[0].Type != catalog.TypeDouble {
			if a[0].I > lim || a[0].I < -lim {
				return catalog.Value{}, fmt.Errorf("TO_TIMESTAMP(%d) is out of TIMESTAMP's range", a[0].I)
			}
			return catalog.TimestampMillis(a[0].I * 1000), nil
		}
		ms := math.Round(a[0].F * 1000)
		if math.IsNaN(ms) || ms >= 0x1p63 || ms < -0x1p63 {
			return catalog.Value{}, fmt.Errorf("TO_TIMESTAMP(%v) is out of TIMESTAMP's range", a[0].F)
		}
		return catalog.TimestampMillis(int64(ms)), nil
	})
}
