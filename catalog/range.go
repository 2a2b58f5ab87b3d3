package catalog

import (
	"bytes"
	"math"
)

// Bound is one end of a range over a field's values.
type Bound struct {
	Set       bool
	Value     Value
	Inclusive bool
}

// KeySpan is the bytes one component may span for a set of its values: a
// key whose component bytes lie in [Start, Stop) may hold a matching value.
// A nil Start or Stop is open. Exact means every key in the span matches,
// so no filter is needed. Empty means no value matches.
type KeySpan struct {
	Start, Stop []byte
	Exact       bool
	Empty       bool
}

// OrderPreserving reports whether byte order of the component is the order
// of its values (ascending, or descending when Desc), so that a range of
// values is a range of bytes and a scan returns rows sorted on the field.
func (c *Component) OrderPreserving() bool {
	if c.Kind != KindField {
		return false
	}
	switch c.Enc {
	case KeyBinary:
		return true
	case KeyDecimal:
		return c.Width > 0
	case KeyPhoenix:
		p := c.Phoenix
		return p.isInt() || p.isTime() || p == PBoolean || p == PDouble
	case KeyJava:
		// Two's complement puts 0..MAX before MIN..-1; MAX - v and
		// unsigned numbers sort in order.
		return !c.SignSplit()
	case KeyText:
		if c.Reverse {
			return false
		}
		if c.Desc {
			return c.Width == 0
		}
		// Text ordered by its bytes stays ordered when nothing follows it,
		// or when a lone 0x00 ends it: no text byte sorts below 0x00.
		return c.Width == 0 && (len(c.delim) == 0 || (len(c.delim) == 1 && c.delim[0] == 0))
	}
	return false
}

// SignSplit reports whether the component's bytes sort in value order
// within the negative values and within the others, but not across zero:
// an ascending signed java field, which Java's Bytes.toBytes writes in
// two's complement, so that 0..MAX sort before MIN..-1. A range of its
// values that holds both signs is two ranges of bytes (SignParts).
func (c *Component) SignSplit() bool {
	if c.Kind != KindField || c.Enc != KeyJava || c.Unsigned || c.Desc {
		return false
	}
	lo, _ := typeRange(c.typ)
	return lo < 0
}

// ValueRange is the values lo <= v <= hi of a field, each end optional.
type ValueRange struct {
	Lo, Hi Bound
}

// SignParts divides the values lo..hi of a SignSplit component by sign:
// it returns the part below zero and the part from zero up, in value
// order, leaving out a part that holds no value the field can hold. Each
// part is one exact FieldSpan. It returns nil for a component that is not
// SignSplit, and for a range that holds no value.
func (c *Component) SignParts(lo, hi Bound) []ValueRange {
	if !c.SignSplit() {
		return nil
	}
	a, b, ok := c.intBounds(lo, hi)
	switch {
	case !ok:
		return nil
	case a >= 0 || b < 0:
		return []ValueRange{{lo, hi}}
	}
	return []ValueRange{
		{lo, Bound{Set: true, Value: Value{Type: c.typ, I: -1}, Inclusive: true}},
		{Bound{Set: true, Value: Value{Type: c.typ}, Inclusive: true}, hi},
	}
}

// Descending reports whether larger values sort first in the key.
func (c *Component) Descending() bool { return c.Desc }

// FieldSpan returns the key span of a field component for lo <= v <= hi
// (each end optional, inclusive or not).
func (c *Component) FieldSpan(lo, hi Bound) KeySpan {
	if c.Enc == KeyPhoenix {
		return c.phoenixSpan(lo, hi)
	}
	if c.typ.integral() && c.Enc != KeyText {
		return c.intSpan(lo, hi)
	}
	switch c.Enc {
	case KeyBinary: // DOUBLE
		return c.doubleSpan(lo, hi)
	case KeyText:
		if c.Reverse || (c.Width > 0 && c.PadLeft) || (c.Desc && c.Width > 0) {
			return KeySpan{}
		}
		if c.Desc {
			var lob, hib []byte
			var err error
			if lo.Set {
				if lob, err = c.EncodeField(nil, lo.Value); err != nil {
					return KeySpan{}
				}
			}
			if hi.Set {
				if hib, err = c.EncodeField(nil, hi.Value); err != nil {
					return KeySpan{}
				}
			}
			return fixedSpan(lob, hib, lo.Inclusive, hi.Inclusive, true)
		}
		return c.textSpan(lo, hi)
	}
	return KeySpan{}
}

// doubleSpan handles DOUBLE. -0 and +0 are equal values with different
// bytes (-0 sorts just below +0), so a bound at zero takes the sign that
// keeps both zeros on the side the bound puts them. NaN compares above
// every number (see Compare) and is never written into a key: a lower
// bound at NaN leaves nothing, an upper bound at NaN leaves every number.
func (c *Component) doubleSpan(lo, hi Bound) KeySpan {
	var lob, hib []byte
	if lo.Set {
		f := lo.Value.F
		if math.IsNaN(f) {
			return KeySpan{Empty: true}
		}
		if f == 0 {
			f = signedZero(lo.Inclusive)
		}
		lob = c.encodeBinary(nil, Double(f))
	}
	if hi.Set && !math.IsNaN(hi.Value.F) {
		f := hi.Value.F
		if f == 0 {
			f = signedZero(!hi.Inclusive)
		}
		hib = c.encodeBinary(nil, Double(f))
	}
	return fixedSpan(lob, hib, lo.Inclusive, hi.Inclusive, c.Desc)
}

// signedZero returns -0 when neg is set, else +0.
func signedZero(neg bool) float64 {
	if neg {
		return math.Copysign(0, -1)
	}
	return 0
}

// intSpan handles the integral types: bounds become inclusive integers,
// clamped to what the encoding can hold.
func (c *Component) intSpan(lo, hi Bound) KeySpan {
	a, b, ok := c.intBounds(lo, hi)
	if !ok {
		return KeySpan{Empty: true}
	}
	if c.Enc == KeyDecimal && c.Width == 0 {
		return KeySpan{}
	}
	if c.SignSplit() && a < 0 && b >= 0 {
		// The bytes of a..-1 follow those of 0..b: one span would be
		// the whole field, so it narrows nothing (see SignParts).
		return KeySpan{}
	}
	return fixedSpan(c.encodeInt(a), c.encodeInt(b), true, true, c.Desc)
}

// intBounds turns the bounds of an integral field into the inclusive
// range a..b of the integers its key stores, clamped to what the encoding
// can hold; ok is false when no integer is left.
func (c *Component) intBounds(lo, hi Bound) (a, b int64, ok bool) {
	a, b = math.MinInt64, math.MaxInt64
	if lo.Set {
		a = c.intOf(lo.Value)
		if !lo.Inclusive {
			if a == math.MaxInt64 {
				return 0, 0, false
			}
			a++
		}
	}
	if hi.Set {
		b = c.intOf(hi.Value)
		if !hi.Inclusive {
			if b == math.MinInt64 {
				return 0, 0, false
			}
			b--
		}
	}
	if c.Unit != Millis && c.typ == TypeTimestamp {
		a, b = c.unitBounds(a, b)
	}
	dmin, dmax := c.intDomain()
	a, b = max(a, dmin), min(b, dmax)
	return a, b, a <= b
}

// unitBounds turns inclusive bounds in milliseconds into inclusive bounds
// on the field's stored count of seconds or microseconds. An unbounded
// end (MinInt64, MaxInt64) stays unbounded.
func (c *Component) unitBounds(a, b int64) (int64, int64) {
	switch c.Unit {
	case Seconds:
		if a != math.MinInt64 {
			q := a / 1000
			if a%1000 > 0 {
				q++
			}
			a = q
		}
		if b != math.MaxInt64 {
			q := b / 1000
			if b%1000 < 0 {
				q--
			}
			b = q
		}
	case Micros:
		if a != math.MinInt64 {
			a = satMul1000(a, 0)
		}
		if b != math.MaxInt64 {
			b = satMul1000(b, 999)
		}
	}
	return a, b
}

// satMul1000 is n*1000+add, saturated to the int64 range.
func satMul1000(n, add int64) int64 {
	switch {
	case n > (math.MaxInt64-add)/1000:
		return math.MaxInt64
	case n < math.MinInt64/1000:
		return math.MinInt64
	}
	return n*1000 + add
}

// intDomain is the range of integers the encoding can write.
func (c *Component) intDomain() (int64, int64) {
	switch c.Enc {
	case KeyPhoenix:
		return c.phoenixDomain()
	case KeyDecimal:
		if c.Width == 0 {
			return 0, math.MaxInt64
		}
		return 0, decimalMax(c.Width)
	case KeyJava:
		if c.Unsigned {
			return 0, c.javaMax()
		}
		return -c.javaMax() - 1, c.javaMax()
	case KeyBinary:
		if c.Width >= 8 {
			return math.MinInt64, math.MaxInt64
		}
		m := int64(1) << (uint(c.Width)*8 - 1)
		return -m, m - 1
	}
	return math.MinInt64, math.MaxInt64
}

// fixedSpan is the span of an order-preserving fixed-width encoding
// between the encodings of the low and high values.
func fixedSpan(lo, hi []byte, loInc, hiInc, desc bool) KeySpan {
	s := KeySpan{Exact: true}
	first, last, firstInc, lastInc := lo, hi, loInc, hiInc
	if desc {
		first, last, firstInc, lastInc = hi, lo, hiInc, loInc
	}
	if first != nil {
		if firstInc {
			s.Start = first
		} else if s.Start = prefixEnd(first); s.Start == nil {
			return KeySpan{Empty: true}
		}
	}
	if last != nil {
		if lastInc {
			s.Stop = prefixEnd(last)
		} else {
			s.Stop = last
		}
	}
	if s.Start != nil && s.Stop != nil && bytes.Compare(s.Start, s.Stop) >= 0 {
		return KeySpan{Empty: true}
	}
	return s
}

// textSpan covers text and bytes fields written as themselves: at the end
// of the key (exact), delimited, or right-padded (not exact: a value that
// is a prefix of another may sort after it, as host1| sorts after host12|).
func (c *Component) textSpan(lo, hi Bound) KeySpan {
	var s KeySpan
	var lob, hib []byte
	if lo.Set {
		lob = c.textBytes(lo.Value)
	}
	if hi.Set {
		hib = c.textBytes(hi.Value)
	}
	if c.Width == 0 && len(c.delim) == 0 {
		s.Exact = true
		if lo.Set {
			s.Start = bytes.Clone(lob)
			if !lo.Inclusive {
				s.Start = append(s.Start, 0)
			}
		}
		if hi.Set {
			s.Stop = bytes.Clone(hib)
			if hi.Inclusive {
				s.Stop = append(s.Stop, 0)
			}
		}
	} else {
		if lo.Set {
			s.Start = bytes.Clone(lob)
		}
		if hi.Set {
			s.Stop = c.textStop(lob, hib, lo.Set)
		}
	}
	if s.Start != nil && s.Stop != nil && bytes.Compare(s.Start, s.Stop) >= 0 {
		return KeySpan{Empty: true}
	}
	return s
}

// textStop is the least exclusive stop covering the encodings of every
// value v <= hi (and >= lo when hasLo): values below hi that differ from it
// at some byte sort below hi's prefix there; values that are a prefix of hi
// are encoded as that prefix plus delimiter or padding, which may sort
// above hi, so each such prefix is a candidate.
func (c *Component) textStop(lo, hi []byte, hasLo bool) []byte {
	enc := func(p []byte) []byte {
		if c.Width > 0 {
			out := bytes.Clone(p)
			for len(out) < c.Width {
				out = append(out, c.Pad)
			}
			return out
		}
		return append(bytes.Clone(p), c.delim...)
	}
	stop := prefixEnd(enc(hi))
	if stop == nil {
		return nil
	}
	for n := 0; n < len(hi); n++ {
		p := hi[:n]
		if hasLo && bytes.Compare(p, lo) < 0 {
			continue
		}
		e := prefixEnd(enc(p))
		if e == nil {
			return nil
		}
		if bytes.Compare(e, stop) > 0 {
			stop = e
		}
	}
	return stop
}

// PrefixSpan is the key span of a text field whose value starts with p
// (LIKE 'p%'). On a reversed field it is the span of values ending with p
// (LIKE '%p'), since the key holds the characters reversed. ok is false
// when the layout cannot narrow such a match.
func (c *Component) PrefixSpan(p string, suffix bool) (KeySpan, bool) {
	if c.Kind != KindField || c.Enc != KeyText || c.Reverse != suffix || (c.Desc && c.Width > 0) {
		return KeySpan{}, false
	}
	if c.Width > 0 && c.PadLeft {
		return KeySpan{}, false
	}
	b := []byte(p)
	if suffix {
		b = reverseText(b, c.typ != TypeBytes)
	}
	if c.Desc {
		// Descending text holds its bytes inverted: a value starting with
		// p is a key starting with p inverted.
		inv := make([]byte, len(b))
		for i, x := range b {
			inv[i] = ^x
		}
		b = inv
	}
	if len(b) == 0 {
		return KeySpan{}, true
	}
	return KeySpan{Start: b, Stop: prefixEnd(b)}, true
}
