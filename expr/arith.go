package expr

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// ErrOverflow is the cause of an integer result that does not fit a
// BIGINT.
var ErrOverflow = errors.New("expr: integer overflow")

// Lit is a constant value (a literal, or a folded constant expression).
type Lit struct{ V catalog.Value }

// Value returns the constant.
func (c *Lit) Value(catalog.Row) (catalog.Value, error) { return c.V, nil }

// Type is the constant's type.
func (c *Lit) Type() catalog.Type { return c.V.Type }

func (c *Lit) String() string { return c.V.String() }

// ArithOp is an arithmetic operator.
type ArithOp int

// Arithmetic operators.
const (
	Add ArithOp = iota
	Sub
	Mul
	Div
	Mod
)

var arithText = [...]string{"+", "-", "*", "/", "%"}

// Arith is L op R over numbers. Over INT and BIGINT operands it computes
// a BIGINT, exactly: a result that does not fit is an error
// (ErrOverflow); integer division truncates toward zero. With a DOUBLE
// operand it computes a DOUBLE. Division or remainder by zero is NULL,
// as is any operation with a NULL operand.
type Arith struct {
	Op   ArithOp
	L, R Scalar
}

// Type is BIGINT, or DOUBLE when either operand is one.
func (a *Arith) Type() catalog.Type {
	if a.L.Type() == catalog.TypeDouble || a.R.Type() == catalog.TypeDouble {
		return catalog.TypeDouble
	}
	return catalog.TypeBigint
}

func (a *Arith) String() string {
	return "(" + a.L.String() + " " + arithText[a.Op] + " " + a.R.String() + ")"
}

// Value computes the operation.
func (a *Arith) Value(r catalog.Row) (catalog.Value, error) {
	t := a.Type()
	x, err := a.L.Value(r)
	if err != nil {
		return x, err
	}
	y, err := a.R.Value(r)
	if err != nil {
		return y, err
	}
	if x.Null || y.Null {
		return catalog.Null(t), nil
	}
	if t == catalog.TypeDouble {
		return a.double(Float(x), Float(y)), nil
	}
	n, ok, err := a.integer(x.I, y.I)
	if err != nil || !ok {
		return catalog.Null(t), err
	}
	return catalog.Bigint(n), nil
}

func (a *Arith) double(x, y float64) catalog.Value {
	switch a.Op {
	case Add:
		return catalog.Double(x + y)
	case Sub:
		return catalog.Double(x - y)
	case Mul:
		return catalog.Double(x * y)
	case Div:
		if y == 0 {
			return catalog.Null(catalog.TypeDouble)
		}
		return catalog.Double(x / y)
	}
	if y == 0 {
		return catalog.Null(catalog.TypeDouble)
	}
	return catalog.Double(math.Mod(x, y))
}

// integer computes x op y; ok is false for a NULL result (a zero
// divisor).
func (a *Arith) integer(x, y int64) (int64, bool, error) {
	over := func() (int64, bool, error) {
		return 0, false, fmt.Errorf("%d %s %d does not fit a BIGINT: %w", x, arithText[a.Op], y, ErrOverflow)
	}
	switch a.Op {
	case Add:
		s := x + y
		if (s > x) != (y > 0) {
			return over()
		}
		return s, true, nil
	case Sub:
		s := x - y
		if (s < x) != (y > 0) {
			return over()
		}
		return s, true, nil
	case Mul:
		if x == 0 || y == 0 {
			return 0, true, nil
		}
		p := x * y
		if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return over()
		}
		return p, true, nil
	case Div:
		if y == 0 {
			return 0, false, nil
		}
		if x == math.MinInt64 && y == -1 {
			return over()
		}
		return x / y, true, nil
	}
	if y == 0 {
		return 0, false, nil
	}
	if y == -1 {
		return 0, true, nil
	}
	return x % y, true, nil
}

// Float is a numeric value as a float64.
func Float(v catalog.Value) float64 {
	if v.Type == catalog.TypeDouble {
		return v.F
	}
	return float64(v.I)
}

// Neg is -X over a number: BIGINT for an integer, DOUBLE for a double.
type Neg struct{ X Scalar }

// Type is BIGINT or DOUBLE.
func (n *Neg) Type() catalog.Type {
	if n.X.Type() == catalog.TypeDouble {
		return catalog.TypeDouble
	}
	return catalog.TypeBigint
}

func (n *Neg) String() string { return "-" + n.X.String() }

// Value negates X.
func (n *Neg) Value(r catalog.Row) (catalog.Value, error) {
	v, err := n.X.Value(r)
	switch {
	case err != nil:
		return v, err
	case v.Null:
		return catalog.Null(n.Type()), nil
	case v.Type == catalog.TypeDouble:
		return catalog.Double(-v.F), nil
	case v.I == math.MinInt64:
		return v, fmt.Errorf("-(%d) does not fit a BIGINT: %w", v.I, ErrOverflow)
	}
	return catalog.Bigint(-v.I), nil
}

// AddMillis is a TIMESTAMP or DATE plus a fixed number of milliseconds
// (an INTERVAL): a TIMESTAMP.
type AddMillis struct {
	X  Scalar
	Ms int64
	// Text is the interval as written, for printing.
	Text string
}

// Type is TIMESTAMP.
func (a *AddMillis) Type() catalog.Type { return catalog.TypeTimestamp }

func (a *AddMillis) String() string { return "(" + a.X.String() + " + " + a.Text + ")" }

// Value adds the interval.
func (a *AddMillis) Value(r catalog.Row) (catalog.Value, error) {
	v, err := a.X.Value(r)
	if err != nil || v.Null {
		return catalog.Null(catalog.TypeTimestamp), err
	}
	ms := Millis(v)
	s := ms + a.Ms
	if (s > ms) != (a.Ms > 0) {
		return catalog.Value{}, fmt.Errorf("%s does not fit a TIMESTAMP: %w", a, ErrOverflow)
	}
	return catalog.TimestampMillis(s), nil
}

// Millis is a TIMESTAMP or DATE as milliseconds since the epoch.
func Millis(v catalog.Value) int64 {
	if v.Type == catalog.TypeDate {
		return v.I * 86_400_000
	}
	return v.I
}

// Concat is L || R: the text of both, NULL when either is NULL.
type Concat struct{ L, R Scalar }

// Type is STRING.
func (c *Concat) Type() catalog.Type { return catalog.TypeString }

func (c *Concat) String() string { return "(" + c.L.String() + " || " + c.R.String() + ")" }

// Value joins the operands' text.
func (c *Concat) Value(r catalog.Row) (catalog.Value, error) {
	x, err := c.L.Value(r)
	if err != nil {
		return x, err
	}
	y, err := c.R.Value(r)
	if err != nil || x.Null || y.Null {
		return catalog.Null(catalog.TypeString), err
	}
	return catalog.String(x.Text() + y.Text()), nil
}

// CompareValues orders two non-NULL values of comparable types: numbers
// of any numeric type exactly (an integer is never rounded to a double),
// a DATE as midnight against a TIMESTAMP, and otherwise values of one
// type as catalog.Compare does.
func CompareValues(a, b catalog.Value) int {
	an, bn := numeric(a.Type), numeric(b.Type)
	switch {
	case an && bn && (a.Type == catalog.TypeDouble) != (b.Type == catalog.TypeDouble):
		if a.Type == catalog.TypeDouble {
			return compareFloatInt(a.F, b.I)
		}
		return -compareFloatInt(b.F, a.I)
	case timeType(a.Type) && timeType(b.Type) && a.Type != b.Type:
		x, y := Millis(a), Millis(b)
		return sign(x < y, x > y)
	}
	return catalog.Compare(a, b)
}

func numeric(t catalog.Type) bool {
	return t == catalog.TypeBigint || t == catalog.TypeInt || t == catalog.TypeDouble
}

func timeType(t catalog.Type) bool { return t == catalog.TypeTimestamp || t == catalog.TypeDate }

// compareFloatInt orders f against i without rounding i; NaN is above
// every number.
func compareFloatInt(f float64, i int64) int {
	switch {
	case math.IsNaN(f) || f >= 0x1p63:
		return 1
	case f < -0x1p63:
		return -1
	}
	t := math.Trunc(f)
	if ti := int64(t); ti != i {
		return sign(ti < i, ti > i)
	}
	return sign(f < t, f > t)
}

func sign(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// Comparable reports whether values of types a and b can be compared.
func Comparable(a, b catalog.Type) bool {
	return a == b || numeric(a) && numeric(b) || timeType(a) && timeType(b) ||
		a == catalog.TypeInvalid || b == catalog.TypeInvalid
}

// joinScalars renders scalars separated by commas.
func joinScalars(xs []Scalar) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}
