package catalog

import (
	"bytes"
	"fmt"
	"math"
)

// Phoenix's key separators: after a variable-width field (VARCHAR,
// DECIMAL), 0x00, or 0xFF after a descending one that is not NULL. A
// descending variable-width field that ends the key keeps its 0xFF; an
// ascending one has none; trailing NULL fields are left out, with the
// separator before them.
const (
	phoenixSep     = 0x00
	phoenixDescSep = 0xFF
)

// phoenixVar reports whether a phoenix field has no fixed width, so that
// a separator ends it and it may be NULL.
func (c *Component) phoenixVar() bool {
	_, fixed := c.Phoenix.FixedWidth(c.Width)
	return c.Enc == KeyPhoenix && !fixed
}

// SeparatorOptional reports whether the key bytes EncodeField writes for
// the field end with a separator that a key leaves out when every field
// after it is NULL: an ascending VARCHAR or DECIMAL that is not the last
// field. A scan for keys starting with such a field's bytes starts one
// byte earlier, at the value's bytes alone.
func (c *Component) SeparatorOptional() bool {
	return c.phoenixVar() && !c.Desc && !c.last
}

// encodePhoenix writes a phoenix field: its value's bytes (inverted when
// descending), then its separator, which EncodeKey drops from the key's
// end where Phoenix does. A NULL writes only the separator.
func (c *Component) encodePhoenix(dst []byte, v Value) ([]byte, error) {
	if v.Null {
		if !c.phoenixVar() {
			return nil, c.errf("a %s key field cannot be NULL", c.Phoenix)
		}
		if c.last {
			return dst, nil
		}
		return append(dst, phoenixSep), nil
	}
	w := 0
	if c.Phoenix.NeedsWidth() {
		w = c.Width
	}
	b, err := phoenixEncode(nil, c.Phoenix, c.typ, v, w)
	if err != nil {
		return nil, c.errf("%v", err)
	}
	if c.phoenixVar() && c.Phoenix != PVarbinary && bytes.IndexByte(b, phoenixSep) >= 0 {
		return nil, c.errf("%s holds a NUL byte, which ends a Phoenix key field", v)
	}
	if c.Desc {
		b = invertP(c.Phoenix, b)
	}
	dst = append(dst, b...)
	switch {
	case !c.phoenixVar():
	case c.Desc:
		dst = append(dst, phoenixDescSep)
	case !c.last:
		dst = append(dst, phoenixSep)
	}
	return dst, nil
}

// decodePhoenix reads a phoenix field from the start of key, with its
// separator. At the end of the key a variable-width field is NULL (Phoenix
// left it out); an ascending separator that ends the key is refused, as
// Phoenix never writes one.
func (c *Component) decodePhoenix(key []byte) (Value, int, error) {
	var b []byte
	n := 0
	switch {
	case !c.phoenixVar():
		w, _ := c.Phoenix.FixedWidth(c.Width)
		if len(key) < w {
			return Value{}, 0, c.errf("key ends after %d bytes, inside a %s of %d bytes", len(key), c.Phoenix, w)
		}
		b, n = key[:w], w
	case len(key) == 0:
		return Null(c.typ), 0, nil
	case c.Desc:
		if key[0] == phoenixSep {
			return Null(c.typ), 1, nil
		}
		i := bytes.IndexByte(key, phoenixDescSep)
		if i < 0 {
			return Value{}, 0, c.errf("the 0xFF that ends a descending %s is missing", c.Phoenix)
		}
		b, n = key[:i], i+1
	case c.last:
		b, n = key, len(key)
	default:
		i := bytes.IndexByte(key, phoenixSep)
		switch {
		case i < 0:
			b, n = key, len(key)
		case i == len(key)-1:
			return Value{}, 0, c.errf("the key ends with a separator, which Phoenix leaves out after the last field it writes")
		default:
			b, n = key[:i], i+1
		}
	}
	if c.Desc {
		b = invertP(c.Phoenix, b)
	}
	if len(b) == 0 && !c.phoenixVar() {
		return Value{}, 0, c.errf("empty")
	}
	v, err := phoenixDecode(b, c.Phoenix, c.typ)
	if err != nil {
		return Value{}, 0, c.errf("%v", err)
	}
	if err := c.phoenixCanonical(b, v); err != nil {
		return Value{}, 0, err
	}
	return v, n, nil
}

// phoenixCanonical refuses key bytes that Phoenix would not write for the
// value they read as (a negative DECIMAL without its 102, a non-canonical
// NaN), so that a key read is the key its fields write. A TIMESTAMP's
// nanoseconds are not compared (they read as 0), nor a DECIMAL read into
// a DOUBLE column (the nearest DOUBLE writes its own digits).
func (c *Component) phoenixCanonical(b []byte, v Value) error {
	if v.Null || c.Phoenix == PDecimal && c.typ == TypeDouble {
		return nil
	}
	w := 0
	if c.Phoenix.NeedsWidth() {
		w = c.Width
	}
	re, err := phoenixEncode(nil, c.Phoenix, c.typ, v, w)
	n := len(b)
	if c.Phoenix.hasNanos() {
		n = 8
	}
	if err != nil || len(re) != len(b) || !bytes.Equal(re[:n], b[:n]) {
		return c.errf("'%s' is not the form Phoenix writes for %s", ToStringBinary(b), v)
	}
	return nil
}

// phoenixTrim returns the number of key components EncodeKey writes for
// row: trailing NULL fields are left out, as Phoenix leaves them out.
func (t *Table) phoenixTrim(row Row, start int) int {
	comps := t.Key.Components
	end := len(comps)
	for end > start {
		c := &comps[end-1]
		if c.Kind != KindField || c.Enc != KeyPhoenix || !row[c.col].Null {
			break
		}
		end--
	}
	return end
}

// phoenixSomeField refuses a key whose phoenix fields all read as NULL,
// which Phoenix never writes. need is decodeKey's: a field it only
// measured is not NULL.
func (t *Table) phoenixSomeField(key []byte, row Row, offs []int, need []bool) error {
	comps := t.Key.Components
	for i := len(comps) - 1; i >= 0; i-- {
		c := &comps[i]
		if c.Kind != KindField || c.Enc != KeyPhoenix || !row[c.col].Null || need != nil && !need[i] && c.measuredOnly() {
			break
		}
		if offs[i+1] > offs[i] {
			return &KeyError{Msg: fmt.Sprintf("key '%s' ends with the separator of a NULL field, which Phoenix leaves out", ToStringBinary(key))}
		}
	}
	seen := false
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		if c.Kind != KindField {
			continue
		}
		if c.Enc != KeyPhoenix || (need != nil && !need[i] && c.measuredOnly()) || !row[c.col].Null {
			return nil
		}
		seen = true
	}
	if seen {
		return &KeyError{Msg: fmt.Sprintf("every field of key '%s' is NULL, which Phoenix never writes", ToStringBinary(key))}
	}
	return nil
}

// phoenixSpan is FieldSpan for a phoenix field: a range of bytes for the
// integers, times, BOOLEAN and DOUBLE, whose bytes sort as their values
// (inverted when descending); no narrowing for the others.
func (c *Component) phoenixSpan(lo, hi Bound) KeySpan {
	p := c.Phoenix
	enc := func(v Value, nanos bool) []byte {
		b, err := phoenixEncode(nil, p, c.typ, v, 0)
		if err != nil {
			return nil
		}
		if nanos && p.hasNanos() {
			// The last nanosecond of the millisecond.
			copy(b[8:], []byte{0x00, 0x0F, 0x42, 0x3F})
		}
		if c.Desc {
			b = invertP(p, b)
		}
		return b
	}
	switch {
	case p == PDouble:
		var lob, hib []byte
		if lo.Set {
			f := lo.Value.F
			if f == 0 {
				f = signedZero(lo.Inclusive)
			}
			lob = enc(Double(f), false)
		}
		if hi.Set && !math.IsNaN(hi.Value.F) {
			f := hi.Value.F
			if f == 0 {
				f = signedZero(!hi.Inclusive)
			}
			hib = enc(Double(f), false)
		}
		return fixedSpan(lob, hib, lo.Inclusive, hi.Inclusive, c.Desc)
	case p.isInt() || p.isTime() || p == PBoolean:
		a, b, ok := c.intBounds(lo, hi)
		if !ok {
			return KeySpan{Empty: true}
		}
		return fixedSpan(enc(Value{Type: c.typ, I: a}, false), enc(Value{Type: c.typ, I: b}, true), true, true, c.Desc)
	case p == PVarchar || p == PDecimal && c.typ != TypeString:
		// A DECIMAL read as text compares as text, not in the key's
		// numeric order.
		return c.phoenixVarSpan(lo, hi)
	}
	return KeySpan{}
}

// phoenixVarSpan is the span of a VARCHAR or DECIMAL field, whose bytes
// sort as its values do, a value's bytes being a prefix only of larger
// values' (Phoenix's DECIMAL ends a negative number with 102, which no
// digit byte is). Ascending, the field ends with 0x00 unless it is the
// last, and a key may end after the value's bytes (the fields after it
// NULL); descending, the bytes are inverted and end with 0xFF. NULL sorts
// first (no bytes, or 0x00), so a span open below holds the NULLs: the
// span is never exact, and the condition is tested on each row too (a
// DOUBLE that Phoenix wrote as a DECIMAL with other digits than rkql's
// is then still the same value).
func (c *Component) phoenixVarSpan(lo, hi Bound) KeySpan {
	enc := func(b Bound) ([]byte, bool) {
		if !b.Set {
			return nil, true
		}
		out, err := phoenixEncode(nil, c.Phoenix, c.typ, b.Value, 0)
		if err != nil || len(out) == 0 || bytes.IndexByte(out, phoenixSep) >= 0 {
			return nil, false
		}
		if c.Desc {
			out = invertP(c.Phoenix, out)
		}
		return out, true
	}
	lob, ok1 := enc(lo)
	hib, ok2 := enc(hi)
	if !ok1 || !ok2 {
		return KeySpan{}
	}
	with := func(b []byte, x ...byte) []byte { return append(bytes.Clone(b), x...) }
	var s KeySpan
	switch {
	case c.Desc:
		// The larger values come first: hi bounds the start.
		if hib != nil {
			if hi.Inclusive {
				s.Start = with(hib, phoenixDescSep)
			} else if s.Start = prefixEnd(hib); s.Start == nil {
				return KeySpan{Empty: true}
			}
		}
		if lob != nil {
			if lo.Inclusive {
				s.Stop = prefixEnd(lob)
			} else {
				s.Stop = with(lob, phoenixDescSep)
			}
		}
	case c.last:
		if lob != nil {
			s.Start = lob
			if !lo.Inclusive {
				s.Start = with(lob, 0)
			}
		}
		if hib != nil {
			s.Stop = hib
			if hi.Inclusive {
				s.Stop = with(hib, 0)
			}
		}
	default:
		if lob != nil {
			s.Start = lob
			if !lo.Inclusive {
				s.Start = with(lob, phoenixSep+1)
			}
		}
		if hib != nil {
			s.Stop = hib
			if hi.Inclusive {
				s.Stop = with(hib, phoenixSep+1)
			}
		}
	}
	if s.Start != nil && s.Stop != nil && bytes.Compare(s.Start, s.Stop) >= 0 {
		return KeySpan{Empty: true}
	}
	return s
}

// phoenixDomain is the range of Value.I a phoenix integer, time or
// BOOLEAN field holds.
func (c *Component) phoenixDomain() (int64, int64) {
	p := c.Phoenix
	switch {
	case p.isInt():
		return p.intRange()
	case p == PBoolean:
		return 0, 1
	case c.typ == TypeDate:
		if p.unsigned() {
			return 0, math.MaxInt64 / msPerDay
		}
		return math.MinInt64 / msPerDay, math.MaxInt64 / msPerDay
	}
	return p.intRange()
}

func (c *Component) phoenixString() string {
	s := fmt.Sprintf(":phoenix(%s", c.Phoenix)
	if c.Phoenix.NeedsWidth() {
		s += fmt.Sprintf("(%d)", c.Width)
	}
	return s + ")"
}
