package ref

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// This file holds the reference's own value semantics: how SQL compares
// numbers, text, bytes, booleans and times, and how LIKE matches. None of
// it comes from the planner or from catalog.Compare, so a mistake there
// shows up as a difference.

// tri is a truth value of SQL's three-valued logic.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func (t tri) String() string { return [...]string{"FALSE", "TRUE", "UNKNOWN"}[t] }

func truth(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func and3(a, b tri) tri {
	switch {
	case a == triFalse || b == triFalse:
		return triFalse
	case a == triTrue && b == triTrue:
		return triTrue
	}
	return triUnknown
}

func or3(a, b tri) tri {
	switch {
	case a == triTrue || b == triTrue:
		return triTrue
	case a == triFalse && b == triFalse:
		return triFalse
	}
	return triUnknown
}

func not3(a tri) tri {
	switch a {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// kind is the comparison class of a reference value.
type kind int8

const (
	kNull kind = iota
	kNum
	kStr
	kBytes
	kBool
	kTime
	kMap // a MAP, which the reference only selects and subscripts
)

var kindNames = [...]string{"NULL", "number", "string", "bytes", "boolean", "time", "map"}

// val is a value as the reference sees it. Numbers are exact integers
// (isInt) or doubles; DATE and TIMESTAMP are both instants in ms, a DATE
// being midnight UTC of its day, so they compare with each other as SQL
// promotes a DATE to a TIMESTAMP.
type val struct {
	k     kind
	isInt bool
	i     int64 // kNum with isInt, kTime (ms), kBool (0 or 1)
	f     float64
	s     string
	b     []byte
	m     *catalog.Map // kMap
}

// fromValue converts a stored value.
func fromValue(v catalog.Value) val {
	if v.Null {
		return val{}
	}
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt:
		return val{k: kNum, isInt: true, i: v.I}
	case catalog.TypeDouble:
		return val{k: kNum, f: v.F}
	case catalog.TypeString:
		return val{k: kStr, s: v.S}
	case catalog.TypeBytes:
		return val{k: kBytes, b: v.B}
	case catalog.TypeBoolean:
		return val{k: kBool, i: v.I}
	case catalog.TypeTimestamp:
		return val{k: kTime, i: v.I}
	case catalog.TypeDate:
		return val{k: kTime, i: v.I * 86_400_000}
	case catalog.TypeMap:
		return val{k: kMap, m: v.M}
	}
	return val{}
}

// cmpNum orders two numbers exactly, as SQL does, with PostgreSQL's rule
// for NaN: NaN equals NaN and is greater than every other number. -0 and
// +0 are equal.
func cmpNum(a, b val) int {
	switch {
	case a.isInt && b.isInt:
		return sign3(a.i < b.i, a.i > b.i)
	case a.isInt:
		return -floatVsInt(b.f, a.i)
	case b.isInt:
		return floatVsInt(a.f, b.i)
	}
	an, bn := math.IsNaN(a.f), math.IsNaN(b.f)
	switch {
	case an || bn:
		return sign3(!an, !bn)
	}
	return sign3(a.f < b.f, a.f > b.f)
}

// floatVsInt orders f against i as numbers, NaN above all: both are
// held exactly by big.Float (any int64 and any float64, infinities
// included), which compares them without rounding either.
func floatVsInt(f float64, i int64) int {
	if math.IsNaN(f) {
		return 1
	}
	return new(big.Float).SetFloat64(f).Cmp(new(big.Float).SetInt64(i))
}

func sign3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// coerce makes a and b comparable: a string literal against a non-text
// value is read as that value's kind, as SQL casts an untyped literal, and
// text against bytes compares as bytes.
func coerce(a, b val) (val, val, error) {
	if a.k == b.k {
		return a, b, nil
	}
	if a.k == kStr && b.k == kBytes {
		return val{k: kBytes, b: []byte(a.s)}, b, nil
	}
	if a.k == kBytes && b.k == kStr {
		return a, val{k: kBytes, b: []byte(b.s)}, nil
	}
	if a.k == kStr {
		c, err := castString(a.s, b.k)
		return c, b, err
	}
	if b.k == kStr {
		c, err := castString(b.s, a.k)
		return a, c, err
	}
	return a, b, fmt.Errorf("cannot compare a %s with a %s", kindNames[a.k], kindNames[b.k])
}

// castString reads s as a value of kind k.
func castString(s string, k kind) (val, error) {
	s = strings.TrimSpace(s)
	switch k {
	case kNum:
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return val{k: kNum, isInt: true, i: i}, nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return val{k: kNum, f: f}, nil
		}
	case kBool:
		switch strings.ToLower(s) {
		case "true", "t", "1":
			return val{k: kBool, i: 1}, nil
		case "false", "f", "0":
			return val{k: kBool}, nil
		}
	case kTime:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return val{k: kTime, i: t.UnixMilli()}, nil
			}
		}
	}
	return val{}, fmt.Errorf("cannot read '%s' as a %s", s, kindNames[k])
}

// compareVals orders two non-NULL values of comparable kinds.
func compareVals(a, b val) (int, error) {
	a, b, err := coerce(a, b)
	if err != nil {
		return 0, err
	}
	switch a.k {
	case kNum:
		return cmpNum(a, b), nil
	case kStr:
		// Text compares by its bytes, which is also the order of the code
		// points in UTF-8.
		return bytes.Compare([]byte(a.s), []byte(b.s)), nil
	case kBytes:
		return bytes.Compare(a.b, b.b), nil
	case kBool, kTime:
		return sign3(a.i < b.i, a.i > b.i), nil
	}
	return 0, fmt.Errorf("cannot compare %s values", kindNames[a.k])
}

// sortCompare orders values for ORDER BY: NULL first, then by compareVals.
// Values of one column always compare, so an error cannot happen here; it
// is reported as unequal kinds ordered by kind.
func sortCompare(a, b val) int {
	if a.k == kNull || b.k == kNull {
		return sign3(a.k == kNull && b.k != kNull, a.k != kNull && b.k == kNull)
	}
	c, err := compareVals(a, b)
	if err != nil {
		return sign3(a.k < b.k, a.k > b.k)
	}
	return c
}

// likeText matches s against a LIKE pattern in which % stands for any run
// of characters and _ for one character; escape, when not "", is the one
// character that makes the character after it stand for itself.
// Characters are UTF-8 code points (an invalid byte counts as one).
func likeText(s, pattern, escape string) (bool, error) {
	p, err := likeTokens(splitRunes(pattern), escape)
	return err == nil && likeMatch(splitRunes(s), p), err
}

// likeBytes is LIKE over bytes: _ stands for one byte, and so does the
// escape.
func likeBytes(b []byte, pattern, escape string) (bool, error) {
	units := func(b []byte) []string {
		out := make([]string, len(b))
		for i := range b {
			out[i] = string(b[i : i+1])
		}
		return out
	}
	p, err := likeTokens(units([]byte(pattern)), escape)
	return err == nil && likeMatch(units(b), p), err
}

// The wildcards of a tokenised pattern: two bytes, so that no unit of a
// value (one code point or one byte) equals them.
const (
	anyRun  = "\x00%"
	anyUnit = "\x00_"
)

// likeTokens turns a pattern's units into literal units and wildcards.
func likeTokens(units []string, escape string) ([]string, error) {
	var out []string
	for i := 0; i < len(units); i++ {
		switch u := units[i]; {
		case escape != "" && u == escape:
			i++
			if i == len(units) {
				return nil, fmt.Errorf("reference: LIKE pattern ends with its escape %q", escape)
			}
			out = append(out, units[i])
		case u == "%":
			out = append(out, anyRun)
		case u == "_":
			out = append(out, anyUnit)
		default:
			out = append(out, u)
		}
	}
	return out, nil
}

func splitRunes(s string) []string {
	var out []string
	for len(s) > 0 {
		_, n := utf8.DecodeRuneInString(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// likeMatch is the classic greedy matcher with one backtrack point: the
// last % seen, retried one unit further on each mismatch.
func likeMatch(s, p []string) bool {
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && p[pi] == anyRun:
			star, mark = pi, si
			pi++
		case pi < len(p) && (p[pi] == anyUnit || p[pi] == s[si]):
			si++
			pi++
		case star >= 0:
			mark++
			si, pi = mark, star+1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == anyRun {
		pi++
	}
	return pi == len(p)
}

// CompareValues orders two values as the reference's ORDER BY does:
// NULL first, then by the reference's own comparison.
func CompareValues(a, b catalog.Value) int { return sortCompare(fromValue(a), fromValue(b)) }
