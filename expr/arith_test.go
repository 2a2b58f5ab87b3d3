package expr

import (
	"errors"
	"math"
	"testing"

	"github.com/rkql/rkql/catalog"
)

func lit(v catalog.Value) Scalar { return &Lit{V: v} }

func TestArith(t *testing.T) {
	big, one := lit(catalog.Bigint(math.MaxInt64)), lit(catalog.Bigint(1))
	tests := []struct {
		name string
		s    Scalar
		want catalog.Value
		err  error
	}{
		{"int add", &Arith{Op: Add, L: lit(catalog.Int(2)), R: lit(catalog.Bigint(3))}, catalog.Bigint(5), nil},
		{"overflow", &Arith{Op: Add, L: big, R: one}, catalog.Value{}, ErrOverflow},
		{"mul overflow", &Arith{Op: Mul, L: big, R: lit(catalog.Bigint(2))}, catalog.Value{}, ErrOverflow},
		{"min / -1", &Arith{Op: Div, L: lit(catalog.Bigint(math.MinInt64)), R: lit(catalog.Bigint(-1))}, catalog.Value{}, ErrOverflow},
		{"int div truncates", &Arith{Op: Div, L: lit(catalog.Bigint(-7)), R: lit(catalog.Bigint(2))}, catalog.Bigint(-3), nil},
		{"div by zero is null", &Arith{Op: Div, L: one, R: lit(catalog.Bigint(0))}, catalog.Null(catalog.TypeBigint), nil},
		{"mod", &Arith{Op: Mod, L: lit(catalog.Bigint(-7)), R: lit(catalog.Bigint(3))}, catalog.Bigint(-1), nil},
		{"double", &Arith{Op: Mul, L: lit(catalog.Double(1.5)), R: lit(catalog.Bigint(2))}, catalog.Double(3), nil},
		{"null", &Arith{Op: Sub, L: lit(catalog.Null(catalog.TypeBigint)), R: one}, catalog.Null(catalog.TypeBigint), nil},
		{"neg min", &Neg{X: lit(catalog.Bigint(math.MinInt64))}, catalog.Value{}, ErrOverflow},
		{"interval", &AddMillis{X: lit(catalog.DateDays(1)), Ms: 3_600_000}, catalog.TimestampMillis(86_400_000 + 3_600_000), nil},
		{"concat", &Concat{L: lit(catalog.String("a")), R: lit(catalog.Bigint(7))}, catalog.String("a7"), nil},
		{"concat null", &Concat{L: lit(catalog.String("a")), R: lit(catalog.Null(catalog.TypeString))}, catalog.Null(catalog.TypeString), nil},
		{"substr", Substr(lit(catalog.String("héllo")), lit(catalog.Bigint(2)), lit(catalog.Bigint(3))), catalog.String("éll"), nil},
		{"substr from 0", Substr(lit(catalog.String("abc")), lit(catalog.Bigint(0)), lit(catalog.Bigint(2))), catalog.String("a"), nil},
		{"length", Length(lit(catalog.String("héllo"))), catalog.Bigint(5), nil},
		{"coalesce", Coalesce(catalog.TypeDouble, lit(catalog.Null(catalog.TypeInt)), lit(catalog.Int(4))), catalog.Double(4), nil},
		{"cast text", &Cast{X: lit(catalog.String("42")), T: catalog.TypeBigint}, catalog.Bigint(42), nil},
		{"cast round", &Cast{X: lit(catalog.Double(2.5)), T: catalog.TypeBigint}, catalog.Bigint(3), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.s.Value(nil)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("got %v, %v; want error %v", v, err, tt.err)
				}
				return
			}
			if err != nil || v.Type != tt.want.Type || v.Null != tt.want.Null || !v.Null && CompareValues(v, tt.want) != 0 {
				t.Fatalf("got %v (%v), %v; want %v (%v)", v, v.Type, err, tt.want, tt.want.Type)
			}
		})
	}
}

func TestCompareValues(t *testing.T) {
	if CompareValues(catalog.Double(9007199254740993), catalog.Bigint(9007199254740993)) != -1 {
		t.Error("a double must not round the integer it is compared with")
	}
	if CompareValues(catalog.DateDays(1), catalog.TimestampMillis(86_400_000)) != 0 {
		t.Error("a DATE is its midnight")
	}
	if CompareValues(catalog.Double(math.NaN()), catalog.Bigint(math.MaxInt64)) != 1 {
		t.Error("NaN is above every number")
	}
}
