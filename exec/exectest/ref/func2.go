package ref

import (
	"crypto/md5"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The reference's readings of the string, number, time, hash and
// regular-expression functions, written apart from package expr.

// moreFuncs are the string, number, time, hash and regular expression
// functions, which func.go adds to refFuncs.
func moreFuncs() map[string]refFunc {
	num := (*evaluator).numCallType
	return map[string]refFunc{
		"REPLACE":        {typ: always(catalog.TypeString), eval: refReplace},
		"TRIM":           {typ: always(catalog.TypeString), eval: refTrim(true, true)},
		"LTRIM":          {typ: always(catalog.TypeString), eval: refTrim(true, false)},
		"RTRIM":          {typ: always(catalog.TypeString), eval: refTrim(false, true)},
		"LPAD":           {typ: always(catalog.TypeString), eval: refPad(true)},
		"RPAD":           {typ: always(catalog.TypeString), eval: refPad(false)},
		"REVERSE":        {typ: always(catalog.TypeString), eval: refReverse},
		"ROUND":          {typ: num, eval: refRound},
		"FLOOR":          {typ: num, eval: refFloorCeil(true)},
		"CEIL":           {typ: num, eval: refFloorCeil(false)},
		"ABS":            {typ: num, eval: refAbs},
		"MOD":            {typ: num, eval: refMod},
		"DATE_PART":      {typ: always(catalog.TypeBigint), eval: refDatePart},
		"STRFTIME":       {typ: always(catalog.TypeString), eval: refStrftime},
		"TO_TIMESTAMP":   {typ: always(catalog.TypeTimestamp), eval: refToTimestamp},
		"MD5":            {typ: always(catalog.TypeString), eval: refMD5},
		"HASHCODE":       {typ: always(catalog.TypeInt), eval: refHashCode},
		"REGEXP_LIKE":    {typ: always(catalog.TypeBoolean), eval: refRegexpLike},
		"REGEXP_REPLACE": {typ: always(catalog.TypeString), eval: refRegexpReplace},
	}
}

func str(s string) val { return val{k: kStr, s: s} }

func integer(i int64) val { return val{k: kNum, isInt: true, i: i} }

// numCallType is DOUBLE when an argument is, else BIGINT.
func (e *evaluator) numCallType(x *parser.CallExpr) catalog.Type {
	for _, a := range x.Args {
		if e.refType(a) == catalog.TypeDouble {
			return catalog.TypeDouble
		}
	}
	return catalog.TypeBigint
}

func refReplace(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	s, from, to := a[0].s, a[1].s, a[2].s
	if from == "" {
		return str(s), nil
	}
	var b strings.Builder
	for len(s) > 0 {
		if strings.HasPrefix(s, from) {
			b.WriteString(to)
			s = s[len(from):]
			continue
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
	return str(b.String()), nil
}

func refTrim(left, right bool) func(*evaluator, *parser.CallExpr, []val) (val, error) {
	return func(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
		set := []rune(" ")
		if len(a) > 1 {
			set = []rune(a[1].s)
		}
		in := func(r rune) bool {
			for _, c := range set {
				if c == r {
					return true
				}
			}
			return false
		}
		rs := []rune(a[0].s)
		lo, hi := 0, len(rs)
		for left && lo < hi && in(rs[lo]) {
			lo++
		}
		for right && hi > lo && in(rs[hi-1]) {
			hi--
		}
		return str(string(rs[lo:hi])), nil
	}
}

func refPad(left bool) func(*evaluator, *parser.CallExpr, []val) (val, error) {
	return func(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
		n := a[1].i
		if n > 1<<20 {
			return val{}, fmt.Errorf("pad length %d too long", n)
		}
		fill := " "
		if len(a) > 2 {
			fill = a[2].s
		}
		rs := []rune(a[0].s)
		if n <= 0 {
			return str(""), nil
		}
		if int64(len(rs)) >= n {
			return str(string(rs[:n])), nil
		}
		if fill == "" {
			return str(a[0].s), nil
		}
		pad := []rune(strings.Repeat(fill, int(n)))[:n-int64(len(rs))]
		if left {
			return str(string(pad) + a[0].s), nil
		}
		return str(a[0].s + string(pad)), nil
	}
}

func refReverse(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	var out []rune
	for _, r := range a[0].s {
		out = append([]rune{r}, out...)
	}
	return str(string(out)), nil
}

// refRound rounds half away from zero on the exact rational value.
func refRound(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	if a[0].isInt {
		return a[0], nil
	}
	f := a[0].f
	d := int64(0)
	if len(a) > 1 && a[1].i > 0 {
		d = a[1].i
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || d > 400 {
		return a[0], nil
	}
	// The decimal as written (the shortest that reads back), not the
	// binary value: 2.675 rounds to 2.68.
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(math.Abs(f), 'g', -1, 64))
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(d), nil))
	r.Mul(r, scale)
	r.Add(r, big.NewRat(1, 2))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	out, _ := new(big.Rat).Quo(new(big.Rat).SetInt(q), scale).Float64()
	return val{k: kNum, f: math.Copysign(out, f)}, nil
}

func refFloorCeil(floor bool) func(*evaluator, *parser.CallExpr, []val) (val, error) {
	return func(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
		if a[0].isInt {
			return a[0], nil
		}
		f := a[0].f
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<52 {
			return a[0], nil
		}
		t := math.Trunc(f)
		if floor && t > f {
			t--
		}
		if !floor && t < f {
			t++
		}
		if t == 0 {
			t = math.Copysign(0, f)
		}
		return val{k: kNum, f: t}, nil
	}
}

func refAbs(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	if !a[0].isInt {
		return val{k: kNum, f: math.Float64frombits(math.Float64bits(a[0].f) &^ (1 << 63))}, nil
	}
	if a[0].i == math.MinInt64 {
		return val{}, fmt.Errorf("ABS overflows")
	}
	if a[0].i < 0 {
		return integer(-a[0].i), nil
	}
	return a[0], nil
}

func refMod(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	if a[0].isInt && a[1].isInt {
		if a[1].i == 0 {
			return val{}, nil
		}
		if a[1].i == -1 {
			return integer(0), nil
		}
		q := a[0].i / a[1].i
		return integer(a[0].i - q*a[1].i), nil
	}
	x, y := a[0].f, a[1].f
	if a[0].isInt {
		x = float64(a[0].i)
	}
	if a[1].isInt {
		y = float64(a[1].i)
	}
	if y == 0 {
		return val{}, nil
	}
	return val{k: kNum, f: math.Mod(x, y)}, nil
}

func refDatePart(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	t := time.UnixMilli(a[1].i).UTC()
	ms := a[1].i
	switch strings.ToLower(a[0].s) {
	case "year":
		return integer(int64(t.Year())), nil
	case "month":
		return integer(int64(t.Month())), nil
	case "day":
		return integer(int64(t.Day())), nil
	case "hour":
		return integer(int64(t.Hour())), nil
	case "minute":
		return integer(int64(t.Minute())), nil
	case "second":
		return integer(int64(t.Second())), nil
	case "millisecond":
		return integer(((ms % 1000) + 1000) % 1000), nil
	case "dow":
		return integer(int64(t.Weekday())), nil
	case "doy":
		return integer(int64(t.YearDay())), nil
	case "epoch":
		s := ms / 1000
		if ms%1000 < 0 {
			s--
		}
		return integer(s), nil
	}
	return val{}, fmt.Errorf("reference: DATE_PART unit %s is not modelled", a[0].s)
}

func refStrftime(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	t := time.UnixMilli(a[1].i).UTC()
	r := strings.NewReplacer("%Y", fmt.Sprintf("%04d", t.Year()), "%m", t.Format("01"), "%d", t.Format("02"),
		"%H", t.Format("15"), "%M", t.Format("04"), "%S", t.Format("05"), "%f", t.Format("05.000"),
		"%j", t.Format("002"), "%w", fmt.Sprint(int(t.Weekday())), "%s", fmt.Sprint(t.Unix()), "%%", "%")
	return str(r.Replace(a[0].s)), nil
}

func refToTimestamp(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	if a[0].isInt {
		ms := new(big.Int).Mul(big.NewInt(a[0].i), big.NewInt(1000))
		if !ms.IsInt64() {
			return val{}, fmt.Errorf("TO_TIMESTAMP out of range")
		}
		return val{k: kTime, i: ms.Int64()}, nil
	}
	ms := math.Round(a[0].f * 1000)
	if !(ms >= -0x1p63 && ms < 0x1p63) {
		return val{}, fmt.Errorf("TO_TIMESTAMP out of range")
	}
	return val{k: kTime, i: int64(ms)}, nil
}

func refMD5(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	b := []byte(a[0].s)
	if a[0].k == kBytes {
		b = a[0].b
	}
	return str(fmt.Sprintf("%x", md5.Sum(b))), nil
}

// refHashCode is s[0]*31^(n-1) + … + s[n-1] over UTF-16 code units,
// surrogate pairs made by hand.
func refHashCode(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	var h uint32
	add := func(u uint32) { h = h*31 + u }
	for _, r := range a[0].s {
		if r >= 0x10000 {
			r -= 0x10000
			add(0xD800 + uint32(r>>10))
			add(0xDC00 + uint32(r&0x3FF))
			continue
		}
		add(uint32(r))
	}
	return val{k: kNum, isInt: true, i: int64(int32(h))}, nil
}

// refRegex compiles a Java pattern the planner accepted: only . and \s
// mean something else in Go.
func refRegex(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	class := false
	dotAll := strings.HasPrefix(p, "(?s)")
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '\\' && i+1 < len(rs):
			i++
			switch rs[i] {
			case 's':
				if class {
					b.WriteString(`\t\n\v\f\r `)
				} else {
					b.WriteString(`[\t\n\v\f\r ]`)
				}
			case 'S':
				b.WriteString(`[^\t\n\v\f\r ]`)
			case 'e':
				b.WriteString(`\x1b`)
			case 'u':
				b.WriteString(`\x{` + string(rs[i+1:i+5]) + `}`)
				i += 4
			default:
				b.WriteRune('\\')
				b.WriteRune(rs[i])
			}
		case c == '[' && !class:
			class = true
			b.WriteRune(c)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
		case c == ']' && class:
			class = false
			b.WriteRune(c)
		case c == '.' && !class && !dotAll:
			b.WriteString("[^\n\r\u0085\u2028\u2029]")
		default:
			b.WriteRune(c)
		}
	}
	return regexp.Compile(b.String())
}

func refRegexpLike(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	re, err := refRegex(a[1].s)
	if err != nil {
		return val{}, err
	}
	if re.MatchString(a[0].s) {
		return val{k: kBool, i: 1}, nil
	}
	return val{k: kBool}, nil
}

// refRegexpReplace expands Java's $n, ${name} and \x by hand.
func refRegexpReplace(_ *evaluator, _ *parser.CallExpr, a []val) (val, error) {
	re, err := refRegex(a[1].s)
	if err != nil {
		return val{}, err
	}
	rep := []rune(a[2].s)
	s := a[0].s
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		group := func(g int) {
			if m[2*g] >= 0 {
				b.WriteString(s[m[2*g]:m[2*g+1]])
			}
		}
		for i := 0; i < len(rep); i++ {
			switch {
			case rep[i] == '\\':
				i++
				b.WriteRune(rep[i])
			case rep[i] == '$' && rep[i+1] == '{':
				k := i + 2
				for rep[k] != '}' {
					k++
				}
				group(re.SubexpIndex(string(rep[i+2 : k])))
				i = k
			case rep[i] == '$':
				g := int(rep[i+1] - '0')
				i++
				for i+1 < len(rep) && rep[i+1] >= '0' && rep[i+1] <= '9' && g*10+int(rep[i+1]-'0') <= re.NumSubexp() {
					g = g*10 + int(rep[i+1]-'0')
					i++
				}
				group(g)
			default:
				b.WriteRune(rep[i])
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return str(b.String()), nil
}
