package ref

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// refFunc is the reference's own reading of one scalar function. It
// shares no code with package expr; a test checks that every function
// of expr.Functions has one.
type refFunc struct {
	// typ is the result type of call x.
	typ func(e *evaluator, x *parser.CallExpr) catalog.Type
	// eval computes the call from its arguments' values. A NULL
	// argument gives NULL before eval runs, unless takesNull.
	eval      func(e *evaluator, x *parser.CallExpr, args []val) (val, error)
	takesNull bool
}

// refFuncs are the scalar functions the reference models, by name. It
// is set in init, as its functions reach back to it through refType.
var refFuncs map[string]refFunc

func init() {
	refFuncs = map[string]refFunc{
		"UPPER":      {typ: always(catalog.TypeString), eval: refCase(strings.ToUpper)},
		"LOWER":      {typ: always(catalog.TypeString), eval: refCase(strings.ToLower)},
		"LENGTH":     {typ: always(catalog.TypeBigint), eval: refLength},
		"SUBSTR":     {typ: always(catalog.TypeString), eval: refSubstr},
		"SUBSTRING":  {typ: always(catalog.TypeString), eval: refSubstr},
		"COALESCE":   {typ: (*evaluator).argsType, eval: refCoalesce, takesNull: true},
		"CONCAT":     {typ: always(catalog.TypeString), eval: refConcat},
		"NOW":        {typ: always(catalog.TypeTimestamp), eval: refNow},
		"DATE_TRUNC": {typ: always(catalog.TypeTimestamp), eval: refDateTrunc},
	}
}

func always(t catalog.Type) func(*evaluator, *parser.CallExpr) catalog.Type {
	return func(*evaluator, *parser.CallExpr) catalog.Type { return t }
}

// argsType is the type the arguments share.
func (e *evaluator) argsType(x *parser.CallExpr) catalog.Type {
	var ts []catalog.Type
	for _, a := range x.Args {
		ts = append(ts, e.refType(a))
	}
	return mixTypes(ts)
}

func refCase(to func(string) string) func(*evaluator, *parser.CallExpr, []val) (val, error) {
	return func(_ *evaluator, _ *parser.CallExpr, args []val) (val, error) {
		return val{k: kStr, s: to(args[0].s)}, nil
	}
}

// refLength counts the characters of a string, the bytes of bytes.
func refLength(_ *evaluator, _ *parser.CallExpr, args []val) (val, error) {
	n := utf8.RuneCountInString(args[0].s)
	if args[0].k == kBytes {
		n = len(args[0].b)
	}
	return val{k: kNum, isInt: true, i: int64(n)}, nil
}

// refSubstr keeps the characters whose position p, counted from 1, has
// from <= p < from+n.
func refSubstr(_ *evaluator, _ *parser.CallExpr, args []val) (val, error) {
	rs := []rune(args[0].s)
	var out []rune
	for p := int64(1); p <= int64(len(rs)); p++ {
		if p >= args[1].i && (len(args) < 3 || p < args[1].i+args[2].i) {
			out = append(out, rs[p-1])
		}
	}
	return val{k: kStr, s: string(out)}, nil
}

func refCoalesce(_ *evaluator, _ *parser.CallExpr, args []val) (val, error) {
	for _, a := range args {
		if a.k != kNull {
			return a, nil
		}
	}
	return val{}, nil
}

func refConcat(e *evaluator, x *parser.CallExpr, args []val) (val, error) {
	var b strings.Builder
	for i, a := range args {
		b.WriteString(text(a, e.refType(x.Args[i])))
	}
	return val{k: kStr, s: b.String()}, nil
}

// refNow is the statement's time, which EvaluateAt gives.
func refNow(e *evaluator, _ *parser.CallExpr, _ []val) (val, error) {
	if e.now.IsZero() {
		return val{}, fmt.Errorf("reference: NOW() needs the statement's time (EvaluateAt)")
	}
	return val{k: kTime, i: e.now.UnixMilli()}, nil
}

// refDateTrunc rebuilds the time from its fields down to the unit.
func refDateTrunc(_ *evaluator, _ *parser.CallExpr, args []val) (val, error) {
	t := time.UnixMilli(args[1].i).UTC()
	keep := map[string]int{"year": 1, "month": 2, "day": 3, "hour": 4, "minute": 5, "second": 6}[strings.ToLower(args[0].s)]
	if keep == 0 {
		return val{}, fmt.Errorf("reference: DATE_TRUNC unit %s is not modelled", args[0].s)
	}
	f := [6]int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()}
	for i := keep; i < len(f); i++ {
		f[i] = 0
		if i < 3 {
			f[i] = 1 // months and days count from 1
		}
	}
	t = time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, time.UTC)
	return val{k: kTime, i: t.UnixMilli()}, nil
}

// Functions lists, sorted, the names of the scalar functions the
// reference models.
func Functions() []string { return slices.Sorted(maps.Keys(refFuncs)) }
