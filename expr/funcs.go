package expr

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// Func is a scalar function of its arguments' values. Apply sees the
// arguments' values, NULL ones included: each function decides what a
// NULL argument gives.
type Func struct {
	Name  string
	Args  []Scalar
	T     catalog.Type
	Apply func(args []catalog.Value) (catalog.Value, error)
}

// Type is the function's result type.
func (f *Func) Type() catalog.Type { return f.T }

func (f *Func) String() string { return f.Name + "(" + joinScalars(f.Args) + ")" }

// Value applies the function.
func (f *Func) Value(r catalog.Row) (catalog.Value, error) {
	args := make([]catalog.Value, len(f.Args))
	for i, a := range f.Args {
		v, err := a.Value(r)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	return f.Apply(args)
}

// strict wraps fn so that a NULL argument gives NULL of type t.
func strict(t catalog.Type, fn func(args []catalog.Value) (catalog.Value, error)) func([]catalog.Value) (catalog.Value, error) {
	return func(args []catalog.Value) (catalog.Value, error) {
		for _, a := range args {
			if a.Null {
				return catalog.Null(t), nil
			}
		}
		return fn(args)
	}
}

// Upper is UPPER(s).
func Upper(s Scalar) *Func {
	return &Func{Name: "UPPER", Args: []Scalar{s}, T: catalog.TypeString, Apply: strict(catalog.TypeString, func(a []catalog.Value) (catalog.Value, error) {
		return catalog.String(strings.ToUpper(a[0].S)), nil
	})}
}

// Lower is LOWER(s).
func Lower(s Scalar) *Func {
	return &Func{Name: "LOWER", Args: []Scalar{s}, T: catalog.TypeString, Apply: strict(catalog.TypeString, func(a []catalog.Value) (catalog.Value, error) {
		return catalog.String(strings.ToLower(a[0].S)), nil
	})}
}

// Length is LENGTH(s): characters of a STRING, bytes of BYTES.
func Length(s Scalar) *Func {
	return &Func{Name: "LENGTH", Args: []Scalar{s}, T: catalog.TypeBigint, Apply: strict(catalog.TypeBigint, func(a []catalog.Value) (catalog.Value, error) {
		if a[0].Type == catalog.TypeBytes {
			return catalog.Bigint(int64(len(a[0].B))), nil
		}
		return catalog.Bigint(int64(utf8.RuneCountInString(a[0].S))), nil
	})}
}

// Substr is SUBSTR(s, start[, length]) over characters, counted from 1:
// the characters at positions start … start+length-1 that exist. A
// negative length gives the empty string.
func Substr(args ...Scalar) *Func {
	return &Func{Name: "SUBSTR", Args: args, T: catalog.TypeString, Apply: strict(catalog.TypeString, func(a []catalog.Value) (catalog.Value, error) {
		rs := []rune(a[0].S)
		from, to := a[1].I, int64(math.MaxInt64)
		if len(a) > 2 {
			if a[2].I < 0 {
				return catalog.String(""), nil
			}
			if from < math.MaxInt64-a[2].I {
				to = from + a[2].I
			}
		}
		from = max(from, 1)
		to = min(to, int64(len(rs))+1)
		if from >= to {
			return catalog.String(""), nil
		}
		return catalog.String(string(rs[from-1 : to-1])), nil
	})}
}

// Coalesce is COALESCE(args…): the first argument that is not NULL,
// converted to type t.
func Coalesce(t catalog.Type, args ...Scalar) *Func {
	return &Func{Name: "COALESCE", Args: args, T: t, Apply: func(a []catalog.Value) (catalog.Value, error) {
		for _, v := range a {
			if !v.Null {
				return Convert(v, t)
			}
		}
		return catalog.Null(t), nil
	}}
}

// DateTrunc is DATE_TRUNC('unit', ts): ts truncated to the start of its
// second, minute, hour, day, month or year, in UTC.
func DateTrunc(unit string, ts Scalar) (*Func, error) {
	unit = strings.ToLower(unit)
	switch unit {
	case "second", "minute", "hour", "day", "month", "year":
	default:
		return nil, fmt.Errorf("DATE_TRUNC unit %q is not one of second, minute, hour, day, month, year", unit)
	}
	return &Func{Name: "DATE_TRUNC", Args: []Scalar{&Lit{V: catalog.String(unit)}, ts}, T: catalog.TypeTimestamp, Apply: strict(catalog.TypeTimestamp, func(a []catalog.Value) (catalog.Value, error) {
		return catalog.Timestamp(truncTime(time.UnixMilli(Millis(a[1])).UTC(), unit)), nil
	})}, nil
}

func truncTime(t time.Time, unit string) time.Time {
	y, mo, d := t.Date()
	switch unit {
	case "second":
		return t.Truncate(time.Second)
	case "minute":
		return t.Truncate(time.Minute)
	case "hour":
		return t.Truncate(time.Hour)
	case "day":
		return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
	case "month":
		return time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
}

// Cast is CAST(X AS T).
type Cast struct {
	X Scalar
	T catalog.Type
}

// Type is the target type.
func (c *Cast) Type() catalog.Type { return c.T }

func (c *Cast) String() string { return "CAST(" + c.X.String() + " AS " + c.T.String() + ")" }

// Value converts X's value.
func (c *Cast) Value(r catalog.Row) (catalog.Value, error) {
	v, err := c.X.Value(r)
	if err != nil {
		return v, err
	}
	return Convert(v, c.T)
}

// Convert converts v to type t: numbers to numbers (a DOUBLE rounds to
// the nearest integer, halves away from zero), anything to its text,
// text to t as a literal of t reads, BOOLEAN to and from 0 and 1, DATE
// and TIMESTAMP to each other and to and from BIGINT milliseconds.
func Convert(v catalog.Value, t catalog.Type) (catalog.Value, error) {
	if v.Null {
		return catalog.Null(t), nil
	}
	if v.Type == t {
		return v, nil
	}
	bad := func() (catalog.Value, error) {
		return catalog.Value{}, fmt.Errorf("cannot convert %s %s to %s", v.Type, v, t)
	}
	switch {
	case t == catalog.TypeString:
		return catalog.String(v.Text()), nil
	case v.Type == catalog.TypeString:
		out, err := catalog.ParseText(t, v.S)
		if err != nil {
			return catalog.Value{}, fmt.Errorf("cannot convert %s to %s: %w", v, t, err)
		}
		return out, nil
	case t == catalog.TypeDouble && (numeric(v.Type) || v.Type == catalog.TypeBoolean):
		return catalog.Double(Float(v)), nil
	case t == catalog.TypeBigint || t == catalog.TypeInt:
		n := v.I
		switch v.Type {
		case catalog.TypeDouble:
			f := math.Round(v.F)
			if math.IsNaN(f) || f < -0x1p63 || f >= 0x1p63 {
				return bad()
			}
			n = int64(f)
		case catalog.TypeDate, catalog.TypeTimestamp:
			n = Millis(v)
		}
		if t == catalog.TypeInt && (n < math.MinInt32 || n > math.MaxInt32) {
			return bad()
		}
		return catalog.Value{Type: t, I: n}, nil
	case t == catalog.TypeBoolean && (v.Type == catalog.TypeBigint || v.Type == catalog.TypeInt):
		return catalog.Bool(v.I != 0), nil
	case t == catalog.TypeTimestamp && (v.Type == catalog.TypeDate || v.Type == catalog.TypeBigint || v.Type == catalog.TypeInt):
		return catalog.TimestampMillis(Millis(v)), nil
	case t == catalog.TypeDate && v.Type == catalog.TypeTimestamp:
		return catalog.DateDays(floorDiv(v.I, 86_400_000)), nil
	case t == catalog.TypeBytes && v.Type == catalog.TypeString:
		return catalog.Bytes([]byte(v.S)), nil
	}
	return bad()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// When is one arm of a Case.
type When struct {
	Cond   Expr
	Result Scalar
}

// Case is CASE WHEN c THEN r … ELSE e END: the result of the first arm
// whose condition is TRUE, else Else (NULL when nil), converted to T.
type Case struct {
	Whens []When
	Else  Scalar
	T     catalog.Type
}

// Type is the common type of the results.
func (c *Case) Type() catalog.Type { return c.T }

func (c *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range c.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if c.Else != nil {
		b.WriteString(" ELSE " + c.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

// Value evaluates the arms in order.
func (c *Case) Value(r catalog.Row) (catalog.Value, error) {
	for _, w := range c.Whens {
		hit, err := Match(w.Cond, r)
		if err != nil {
			return catalog.Value{}, err
		}
		if hit {
			v, err := w.Result.Value(r)
			if err != nil {
				return v, err
			}
			return Convert(v, c.T)
		}
	}
	if c.Else == nil {
		return catalog.Null(c.T), nil
	}
	v, err := c.Else.Value(r)
	if err != nil {
		return v, err
	}
	return Convert(v, c.T)
}

// Truth is a condition used as a value: a BOOLEAN, NULL when unknown.
type Truth struct{ C Expr }

// Type is BOOLEAN.
func (t *Truth) Type() catalog.Type { return catalog.TypeBoolean }

func (t *Truth) String() string { return "(" + t.C.String() + ")" }

// Value evaluates the condition.
func (t *Truth) Value(r catalog.Row) (catalog.Value, error) {
	v, err := t.C.Eval(r)
	switch {
	case err != nil:
		return catalog.Value{}, err
	case v == True:
		return catalog.Bool(true), nil
	case v == False:
		return catalog.Bool(false), nil
	}
	return catalog.Null(catalog.TypeBoolean), nil
}
