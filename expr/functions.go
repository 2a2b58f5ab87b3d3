package expr

import (
	"errors"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
)

// Functions is the table of scalar functions: one entry each, read by
// the planner (arity and argument types), by Build (the evaluation), by
// the shell's \h and by the generated function reference
// (docs/functions.md). Adding a function is adding an entry here.
//
// Invariant: names are upper case and unique, and only the last
// parameter of a Variadic function repeats.
var Functions = []*Function{
	{Name: "UPPER", Params: []Param{{Name: "s", Type: ArgString}}, Result: Returns(catalog.TypeString),
		Doc: "s in upper case", Example: "UPPER(status)",
		Build: func(c Call) (Scalar, error) { return Upper(c.Args[0]), nil }},
	{Name: "LOWER", Params: []Param{{Name: "s", Type: ArgString}}, Result: Returns(catalog.TypeString),
		Doc: "s in lower case", Example: "LOWER(status)",
		Build: func(c Call) (Scalar, error) { return Lower(c.Args[0]), nil }},
	{Name: "LENGTH", Params: []Param{{Name: "s", Type: ArgText}}, Result: Returns(catalog.TypeBigint),
		Doc: "the characters of a STRING, the bytes of BYTES", Example: "LENGTH(seller)",
		Build: func(c Call) (Scalar, error) { return Length(c.Args[0]), nil }},
	{Name: "SUBSTR", Params: substrParams, Result: Returns(catalog.TypeString),
		Doc: "the characters of s at positions from to from+n-1 that exist, counting from 1; without n, to the end", Example: "SUBSTR(seller, 2, 3)",
		Build: func(c Call) (Scalar, error) { return Substr(c.Args...), nil }},
	{Name: "SUBSTRING", Params: substrParams, Result: Returns(catalog.TypeString),
		Doc: "SUBSTR by its other name", Example: "SUBSTRING(seller, 2)",
		Build: func(c Call) (Scalar, error) { return Substr(c.Args...), nil }},
	{Name: "COALESCE", Params: []Param{{Name: "x", Type: ArgAny}}, Variadic: true, Result: Mixed,
		Doc: "the first x that is not NULL, NULL when all are", Example: "COALESCE(status, 'none')",
		Build: func(c Call) (Scalar, error) { return Coalesce(c.T, c.Args...), nil }},
	{Name: "CONCAT", Params: []Param{{Name: "x", Type: ArgAny}}, Variadic: true, Result: Returns(catalog.TypeString),
		Doc: "the text forms of the x joined, as || joins them; NULL when an x is NULL", Example: "CONCAT(seller, '/', order_id)",
		Build: buildConcat},
	{Name: "NOW", Result: Returns(catalog.TypeTimestamp), Arity: "no arguments",
		Doc: "the statement's time, the same everywhere in the statement", Example: "NOW() - INTERVAL '1' HOUR",
		Build: func(c Call) (Scalar, error) { return &Lit{V: catalog.Timestamp(c.Now())}, nil }},
	{Name: "DATE_TRUNC", Params: []Param{{Name: "unit", Type: ArgUnit, Literal: true}, {Name: "ts", Type: ArgTime}},
		Result: Returns(catalog.TypeTimestamp), Arity: "2 arguments, a unit such as 'hour' and a TIMESTAMP",
		Doc: "ts truncated to the start of its second, minute, hour, day, month or year, in UTC", Example: "DATE_TRUNC('hour', ts)",
		Build: func(c Call) (Scalar, error) {
			f, err := DateTrunc(c.Args[0].(*Lit).V.S, c.Args[1])
			if err != nil {
				return nil, &ArgError{Arg: 0, Err: err}
			}
			return f, nil
		}},
	{Name: "REPLACE", Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: Returns(catalog.TypeString),
		Doc: "s with every from replaced by to; an empty from leaves s as it is", Example: "REPLACE(seller, '-', '_')",
		Build: func(c Call) (Scalar, error) { return Replace(c.Args...), nil }},
	{Name: "TRIM", Params: trimParams, Result: Returns(catalog.TypeString),
		Doc: "s without the characters of chars (a space without chars) at its start and end", Example: "TRIM(status)",
		Build: func(c Call) (Scalar, error) { return Trim("TRIM", c.Args...), nil }},
	{Name: "LTRIM", Params: trimParams, Result: Returns(catalog.TypeString),
		Doc: "s without the characters of chars (a space without chars) at its start", Example: "LTRIM(seller, 's')",
		Build: func(c Call) (Scalar, error) { return Trim("LTRIM", c.Args...), nil }},
	{Name: "RTRIM", Params: trimParams, Result: Returns(catalog.TypeString),
		Doc: "s without the characters of chars (a space without chars) at its end", Example: "RTRIM(status, 'd')",
		Build: func(c Call) (Scalar, error) { return Trim("RTRIM", c.Args...), nil }},
	{Name: "LPAD", Params: padParams, Result: Returns(catalog.TypeString),
		Doc: "s cut to n characters, or filled to n at its start with fill repeated (a space without fill; an empty fill leaves s); at most 1048576", Example: "LPAD(seller, 8, '*')",
		Build: func(c Call) (Scalar, error) { return Pad("LPAD", c.Args...), nil }},
	{Name: "RPAD", Params: padParams, Result: Returns(catalog.TypeString),
		Doc: "s cut to n characters, or filled to n at its end with fill repeated (a space without fill; an empty fill leaves s); at most 1048576", Example: "RPAD(seller, 8)",
		Build: func(c Call) (Scalar, error) { return Pad("RPAD", c.Args...), nil }},
	{Name: "REVERSE", Params: []Param{{Name: "s", Type: ArgString}}, Result: Returns(catalog.TypeString),
		Doc: "the characters of s in reverse order", Example: "REVERSE(seller)",
		Build: func(c Call) (Scalar, error) { return Reverse(c.Args[0]), nil }},
	{Name: "ROUND", Params: []Param{{Name: "x", Type: ArgNumber}, {Name: "d", Type: ArgInteger, Optional: true}}, Result: numResult,
		Doc: "x, as its shortest decimal form, rounded half away from zero to d decimal places (0 without d or when d is negative); an integer x is returned as it is", Example: "ROUND(amount, 1)",
		Build: func(c Call) (Scalar, error) { return Round(c.T, c.Args...), nil }},
	{Name: "FLOOR", Params: []Param{{Name: "x", Type: ArgNumber}}, Result: numResult,
		Doc: "the greatest integer not above x", Example: "FLOOR(amount)",
		Build: func(c Call) (Scalar, error) { return FloorCeil("FLOOR", c.T, c.Args[0]), nil }},
	{Name: "CEIL", Params: []Param{{Name: "x", Type: ArgNumber}}, Result: numResult,
		Doc: "the least integer not below x", Example: "CEIL(amount)",
		Build: func(c Call) (Scalar, error) { return FloorCeil("CEIL", c.T, c.Args[0]), nil }},
	{Name: "ABS", Params: []Param{{Name: "x", Type: ArgNumber}}, Result: numResult,
		Doc: "the absolute value of x; the least BIGINT does not fit, an error", Example: "ABS(amount - 10)",
		Build: func(c Call) (Scalar, error) { return Abs(c.T, c.Args[0]), nil }},
	{Name: "MOD", Params: []Param{{Name: "a", Type: ArgNumber}, {Name: "b", Type: ArgNumber}}, Result: numResult,
		Doc: "the remainder of a divided by b, with the sign of a; NULL when b is 0", Example: "MOD(order_id, 3)",
		Build: func(c Call) (Scalar, error) { return ModOf(c.T, c.Args[0], c.Args[1]), nil }},
	{Name: "DATE_PART", Params: []Param{{Name: "unit", Type: ArgPartUnit, Literal: true}, {Name: "ts", Type: ArgTime}},
		Result: Returns(catalog.TypeBigint), Arity: "2 arguments, a unit such as 'hour' and a TIMESTAMP",
		Doc: "a field of ts in UTC: year, month, day, hour, minute, second (whole), millisecond, dow (0 for Sunday), doy (from 1) or epoch (whole seconds, rounded down); EXTRACT(unit FROM ts), the standard SQL form, is the same call", Example: "DATE_PART('hour', ts)",
		Build: func(c Call) (Scalar, error) {
			f, err := DatePart(c.Args[0].(*Lit).V.S, c.Args[1])
			if err != nil {
				return nil, &ArgError{Arg: 0, Err: err}
			}
			return f, nil
		}},
	{Name: "STRFTIME", Params: []Param{{Name: "format", Type: ArgString, Literal: true}, {Name: "ts", Type: ArgTime}},
		Result: Returns(catalog.TypeString), Arity: "2 arguments, a format such as '%Y-%m-%d' and a TIMESTAMP",
		Doc: "ts in UTC written with sqlite's format letters %Y %m %d %H %M %S %f (seconds with milliseconds, SS.SSS) %j (day of year) %w (0 for Sunday) %s (epoch seconds) %%", Example: "STRFTIME('%Y-%m-%d %H:%M', ts)",
		Build: func(c Call) (Scalar, error) {
			f, err := Strftime(c.Args[0].(*Lit).V.S, c.Args[1])
			if err != nil {
				return nil, &ArgError{Arg: 0, Err: err}
			}
			return f, nil
		}},
	{Name: "TO_TIMESTAMP", Params: []Param{{Name: "seconds", Type: ArgNumber}}, Result: Returns(catalog.TypeTimestamp),
		Doc: "the TIMESTAMP seconds after 1970-01-01 00:00:00 UTC; the seconds are epoch seconds (not milliseconds), fractions rounded to the millisecond", Example: "TO_TIMESTAMP(1715953530)",
		Build: func(c Call) (Scalar, error) { return ToTimestamp(c.Args[0]), nil }},
	{Name: "MD5", Params: []Param{{Name: "s", Type: ArgText}}, Result: Returns(catalog.TypeString),
		Doc: "the MD5 digest of s's UTF-8 bytes (of the bytes of BYTES) in lower-case hex, as Java's MessageDigest and hex give it", Example: "MD5(seller)",
		Build: func(c Call) (Scalar, error) { return MD5(c.Args[0]), nil }},
	{Name: "HASHCODE", Params: []Param{{Name: "s", Type: ArgString}}, Result: Returns(catalog.TypeInt),
		Doc: "Java's String.hashCode of s, over its UTF-16 code units", Example: "HASHCODE(seller)",
		Build: func(c Call) (Scalar, error) { return HashCode(c.Args[0]), nil }},
	{Name: "REGEXP_LIKE", Params: []Param{{Name: "s", Type: ArgString}, {Name: "pattern", Type: ArgPattern, Literal: true}}, Result: Returns(catalog.TypeBoolean),
		Doc: "whether pattern, a Java regular expression of the subset docs/reference.md lists, occurs anywhere in s (as Java's Matcher.find)", Example: "REGEXP_LIKE(seller, '^s[0-9]+')",
		Build: func(c Call) (Scalar, error) {
			re, err := CompileJavaRegex(c.Args[1].(*Lit).V.S)
			if err != nil {
				return nil, regexArgError(1, err)
			}
			return RegexpLike(c.Args[0], re), nil
		}},
	{Name: "REGEXP_REPLACE", Params: []Param{{Name: "s", Type: ArgString}, {Name: "pattern", Type: ArgPattern, Literal: true}, {Name: "replacement", Type: ArgString, Literal: true}}, Result: Returns(catalog.TypeString),
		Doc: "s with every match of pattern replaced, as Java's String.replaceAll: $1 or ${name} insert a group, \\$ is a $; a pattern that can match the empty string is refused", Example: "REGEXP_REPLACE(seller, '([a-z]+)([0-9]+)', '$2-$1')",
		Build: func(c Call) (Scalar, error) {
			re, err := CompileJavaRegex(c.Args[1].(*Lit).V.S)
			if err != nil {
				return nil, regexArgError(1, err)
			}
			repText := c.Args[2].(*Lit).V.S
			rep, err := CompileJavaReplacement(re, repText)
			if err != nil {
				var re *RegexError
				if errors.As(err, &re) {
					return nil, &ArgError{Arg: 1, Err: err}
				}
				return nil, &ArgError{Arg: 2, Err: err}
			}
			return RegexpReplace(c.Args[0], re, repText, rep), nil
		}},
}

var (
	trimParams = []Param{{Name: "s", Type: ArgString}, {Name: "chars", Type: ArgString, Optional: true}}
	padParams  = []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}, {Name: "fill", Type: ArgString, Optional: true}}
)

var substrParams = []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgInteger}, {Name: "n", Type: ArgInteger, Optional: true}}

// A Function is one scalar function.
type Function struct {
	Name string
	// Params are the arguments in order; the Optional ones come last.
	Params []Param
	// Variadic: the last parameter repeats, at least once.
	Variadic bool
	// Result is the result type, from the arguments' types.
	Result Result
	// Arity, when set, replaces the counted arguments in the message
	// for a wrong number of arguments ("NOW takes no arguments").
	Arity string
	// Doc is one line on what the function gives; Example is a call.
	Doc, Example string
	// Build makes the call's expression from its checked arguments.
	Build func(Call) (Scalar, error)
}

// A Param is one parameter of a Function.
type Param struct {
	Name     string
	Type     ArgType
	Optional bool
	// Literal: the argument must be written as a string literal.
	Literal bool
}

// An ArgType is the types a parameter accepts. A NULL literal (type
// catalog.TypeInvalid) fits every parameter.
type ArgType struct {
	// What names the types in an error: "a STRING".
	What string
	// Sig names them in a signature: "STRING".
	Sig string
	ok  func(catalog.Type) bool
}

// Accepts reports whether an argument of type t fits.
func (a ArgType) Accepts(t catalog.Type) bool { return t == catalog.TypeInvalid || a.ok(t) }

// The argument types of the functions.
var (
	ArgString   = ArgType{What: "a STRING", Sig: "STRING", ok: is(catalog.TypeString)}
	ArgText     = ArgType{What: "a STRING or BYTES", Sig: "STRING | BYTES", ok: is(catalog.TypeString, catalog.TypeBytes)}
	ArgInteger  = ArgType{What: "an integer", Sig: "BIGINT", ok: is(catalog.TypeBigint, catalog.TypeInt)}
	ArgTime     = ArgType{What: "a TIMESTAMP or DATE", Sig: "TIMESTAMP | DATE", ok: timeType}
	ArgUnit     = ArgType{What: "a unit such as 'hour'", Sig: "'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'", ok: is(catalog.TypeString)}
	ArgNumber   = ArgType{What: "a number", Sig: "BIGINT | DOUBLE", ok: numeric}
	ArgPartUnit = ArgType{What: "a unit such as 'hour'", Sig: "'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond' | 'dow' | 'doy' | 'epoch'", ok: is(catalog.TypeString)}
	ArgPattern  = ArgType{What: "a regular expression such as '^s[0-9]'", Sig: "STRING", ok: is(catalog.TypeString)}
	ArgAny      = ArgType{What: "a value", Sig: "any", ok: func(catalog.Type) bool { return true }}
)

func is(ts ...catalog.Type) func(catalog.Type) bool {
	return func(t catalog.Type) bool {
		for _, x := range ts {
			if t == x {
				return true
			}
		}
		return false
	}
}

// A Result is a function's result type rule.
type Result struct {
	// Doc names the result in the reference: "STRING".
	Doc string
	// Of is the result type of arguments of types ts; false when
	// they do not mix.
	Of func(ts []catalog.Type) (catalog.Type, bool)
}

// Returns is the rule of a function whose result is always of type t.
func Returns(t catalog.Type) Result {
	return Result{Doc: t.String(), Of: func([]catalog.Type) (catalog.Type, bool) { return t, true }}
}

// Mixed is the rule of a function whose result has the arguments'
// common type (CommonType).
var Mixed = Result{Doc: "the common type of the x", Of: CommonType}

// CommonType is the type values of types ts share, as CASE and COALESCE
// give it: integers widen to BIGINT, any DOUBLE makes DOUBLE, a DATE with
// a TIMESTAMP makes TIMESTAMP, only NULLs make STRING; false when the
// types do not mix.
func CommonType(ts []catalog.Type) (catalog.Type, bool) {
	out := catalog.TypeInvalid
	for _, t := range ts {
		switch {
		case t == catalog.TypeInvalid || t == out:
		case out == catalog.TypeInvalid:
			out = t
		case numeric(t) && numeric(out):
			if t == catalog.TypeDouble || out == catalog.TypeDouble {
				out = catalog.TypeDouble
			} else {
				out = catalog.TypeBigint
			}
		case timeType(t) && timeType(out):
			out = catalog.TypeTimestamp
		default:
			return out, false
		}
	}
	if out == catalog.TypeInvalid {
		out = catalog.TypeString
	}
	return out, true
}

// A Call is what Build reads: the checked arguments, the result type
// Result gave, and the statement's time.
type Call struct {
	Args []Scalar
	T    catalog.Type
	Now  func() time.Time
}

// An ArgError is an error of one argument, numbered from 0; At, when
// not 0, is the character of the argument's literal text, from 1, where
// the error is.
type ArgError struct {
	Arg int
	At  int
	Err error
}

func regexArgError(arg int, err error) *ArgError {
	ae := &ArgError{Arg: arg, Err: err}
	var re *RegexError
	if errors.As(err, &re) {
		ae.At = re.At
	}
	return ae
}

func (e *ArgError) Error() string { return e.Err.Error() }

func (e *ArgError) Unwrap() error { return e.Err }

// LookupFunction is the function called name (upper case), or nil.
func LookupFunction(name string) *Function {
	for _, f := range Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// MinArgs is the least number of arguments; MaxArgs the most, -1 for
// any number.
func (f *Function) MinArgs() int {
	n := 0
	for _, p := range f.Params {
		if !p.Optional {
			n++
		}
	}
	return n
}

// MaxArgs is the most arguments f takes, -1 for any number.
func (f *Function) MaxArgs() int {
	if f.Variadic {
		return -1
	}
	return len(f.Params)
}

// Param is the parameter argument i (from 0) fills.
func (f *Function) Param(i int) Param {
	if i >= len(f.Params) {
		return f.Params[len(f.Params)-1]
	}
	return f.Params[i]
}

// ArityText is how many arguments f takes, in words: "2 or 3 arguments".
func (f *Function) ArityText() string {
	if f.Arity != "" {
		return f.Arity
	}
	lo, hi := f.MinArgs(), f.MaxArgs()
	switch {
	case lo == hi && lo == 1:
		return "1 argument"
	case lo == hi:
		return itoa(lo) + " arguments"
	case hi < 0:
		return "at least " + itoa(lo) + " argument(s)"
	}
	return itoa(lo) + " or " + itoa(hi) + " arguments"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// Signature is f's call with its parameters' types:
// "SUBSTR(s STRING, from BIGINT[, n BIGINT]) -> STRING".
func (f *Function) Signature() string {
	var b strings.Builder
	b.WriteString(f.Name + "(")
	for i, p := range f.Params {
		sep := ""
		if i > 0 {
			sep = ", "
		}
		arg := p.Name + " " + p.Type.Sig
		if p.Optional {
			b.WriteString("[" + sep + arg + "]")
			continue
		}
		b.WriteString(sep + arg)
	}
	if f.Variadic {
		b.WriteString(", …")
	}
	b.WriteString(") -> " + f.Result.Doc)
	return b.String()
}

func buildConcat(c Call) (Scalar, error) {
	f := c.Args[0]
	for _, a := range c.Args[1:] {
		f = &Concat{L: f, R: a}
	}
	if len(c.Args) == 1 {
		f = &Concat{L: f, R: &Lit{V: catalog.String("")}}
	}
	return f, nil
}
