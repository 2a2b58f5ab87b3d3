package catalog

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a rowkey component.
type Kind int

// Component kinds.
const (
	// KindField writes a column's value.
	KindField Kind = iota
	// KindLiteral writes fixed bytes.
	KindLiteral
	// KindHash writes a hash of one or more fields.
	KindHash
	// KindBucket writes field % N.
	KindBucket
	// KindSalt writes a Phoenix-style salt byte over the rest of the key.
	KindSalt
	// KindRandom writes a random number in [0, N).
	KindRandom
	// KindGroup is a repeated tail: Group's fixed-width fields, again and
	// again until the key ends (OpenTSDB's tag pairs). A row is read once
	// per repetition (Table.Repeats); a row written holds one.
	KindGroup
)

// KeyEncoding is how a field is written into the key.
type KeyEncoding int

// Key encodings of a field.
const (
	// KeyText writes the text form: delimited by the literal that follows,
	// fixed width with padding, or running to the end of the key.
	KeyText KeyEncoding = iota
	// KeyDecimal writes an integer as zero-padded decimal digits (a DATE as
	// yyyyMMdd).
	KeyDecimal
	// KeyBinary writes a number big-endian with the sign bit flipped, so
	// byte order is value order (a DATE as 4 bytes of days).
	KeyBinary
	// KeyJava writes a number as Java's Bytes.toBytes does, in two's
	// complement without the sign flip: byte order is value order within
	// each sign, and 0..MAX sort before MIN..-1 (Component.SignSplit).
	KeyJava
	// KeyPhoenix writes a value as Apache Phoenix writes its type
	// (Component.Phoenix) in a row key, with Phoenix's separators after
	// VARCHAR and DECIMAL, and trailing NULL fields left out.
	KeyPhoenix
)

// TimeUnit is what a stored TIMESTAMP integer counts since the epoch.
type TimeUnit int

// Time units. A TIMESTAMP value holds milliseconds; a key in seconds
// refuses a value with milliseconds, and microseconds read back floored
// to the millisecond.
const (
	Millis TimeUnit = iota
	Seconds
	Micros
)

// HashFunc is the hash of a hash component.
type HashFunc int

// Hash functions.
const (
	// HashMD5 is the first Width hex characters of md5 of the inputs' text.
	HashMD5 HashFunc = iota
	// HashJava is abs(String.hashCode() % Mod) of the inputs' text, with
	// Java's truncated remainder.
	HashJava
	// HashMurmur3 is MurmurHash3 x86 32-bit with Seed of the inputs'
	// text, as a signed int, abs of its remainder by Mod.
	HashMurmur3
	// HashArrays is abs(Arrays.hashCode(b) % Mod), b the inputs' bytes as
	// Java's Bytes.toBytes writes them, concatenated.
	HashArrays
)

// Component is one part of a rowkey layout. Which fields are meaningful
// depends on Kind; Load validates them.
type Component struct {
	Kind Kind

	// Field is the column of a KindField or KindBucket component.
	Field string
	// Inputs are the columns a KindHash component hashes, in order.
	Inputs []string

	Enc KeyEncoding
	// Width is the fixed width in bytes; 0 means variable width (delimited
	// by the next literal, or running to the end of the key).
	Width int
	// Pad is the pad byte of a fixed-width text field.
	Pad byte
	// PadLeft pads on the left (right-aligns the value).
	PadLeft bool
	// Desc stores MAX - v so that larger values sort first.
	Desc bool
	// Reverse stores the text reversed (phone numbers, domains).
	Reverse bool
	// Unsigned reads a java field's Width bytes as an unsigned number
	// (0 .. 2^(8*Width)-1), as a uid or a count is stored.
	Unsigned bool
	// Unit is the unit a TIMESTAMP field's integer counts.
	Unit TimeUnit
	// Seed is murmur3's seed.
	Seed uint32
	// Phoenix is the Phoenix type of a KeyPhoenix field.
	Phoenix PType

	Hash HashFunc
	// Mod is N for hash, bucket, salt and random components.
	Mod int64
	// Binary writes a hash, bucket or random value as raw bytes (Width of
	// them, big-endian) instead of decimal digits.
	Binary bool

	Literal []byte

	// Group are the fields of a KindGroup component, in order.
	Group []Component

	// Resolved by Load.
	col   int    // column index of Field
	typ   Type   // column type of Field
	delim []byte // the literal that ends a variable-width field, if any
	ins   []int  // column indexes of Inputs
	last  bool   // the layout's last component
}

// Delimiter returns what follows a text field's value in the key, as
// toStringBinary text: its pad byte or its delimiter ("" for neither).
func (c *Component) Delimiter() string {
	switch {
	case c.Width > 0:
		return ToStringBinary([]byte{c.Pad})
	case len(c.delim) > 0:
		return ToStringBinary(c.delim)
	}
	return ""
}

// Derived reports whether the component is computed from other fields.
func (c *Component) Derived() bool { return c.Kind == KindHash || c.Kind == KindBucket }

// Column returns the column index of a field or bucket component.
func (c *Component) Column() int { return c.col }

// InputColumns returns the column indexes a derived component reads.
func (c *Component) InputColumns() []int {
	if c.Kind == KindBucket {
		return []int{c.col}
	}
	return c.ins
}

// FixedWidth returns the component's width when every encoding of it has
// the same length.
func (c *Component) FixedWidth() (int, bool) {
	switch c.Kind {
	case KindLiteral:
		return len(c.Literal), true
	case KindField:
		if c.Width > 0 {
			return c.Width, true
		}
		return 0, false
	case KindGroup:
		return 0, false
	default:
		return c.Width, true
	}
}

// Cardinality is the number of distinct values of a hash, bucket, salt or
// random component; 1 for others.
func (c *Component) Cardinality() int64 {
	switch c.Kind {
	case KindHash:
		if c.Hash == HashMD5 {
			n := int64(1)
			for i := 0; i < c.Width && n < 1<<40; i++ {
				n *= 16
			}
			return n
		}
		return c.Mod
	case KindBucket, KindSalt, KindRandom:
		return c.Mod
	}
	return 1
}

// EncodeNumber writes n as a hash, bucket, salt or random value.
func (c *Component) EncodeNumber(n int64) []byte {
	return c.appendNumber(nil, n)
}

// appendNumber appends the encoding of n as a hash, bucket, salt or random
// value to dst.
func (c *Component) appendNumber(dst []byte, n int64) []byte {
	var digits [20]byte
	if c.Kind == KindHash && c.Hash == HashMD5 {
		return appendPadded(dst, strconv.AppendInt(digits[:0], n, 16), c.Width)
	}
	if c.Binary {
		for i := c.Width - 1; i >= 0; i-- {
			dst = append(dst, byte(n>>(8*i)))
		}
		return dst
	}
	return appendPadded(dst, strconv.AppendInt(digits[:0], n, 10), c.Width)
}

// appendPadded appends s to dst, with zeros before it up to width bytes.
func appendPadded(dst, s []byte, width int) []byte {
	for range width - len(s) {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// ValueBytes enumerates the encodings of every value of a hash, bucket,
// salt or random component, in byte order.
func (c *Component) ValueBytes() [][]byte {
	n := c.Cardinality()
	out := make([][]byte, 0, n)
	for i := int64(0); i < n; i++ {
		out = append(out, c.EncodeNumber(i))
	}
	return out
}

// String renders the component as EXPLAIN's KEY line shows it.
func (c *Component) String() string {
	switch c.Kind {
	case KindLiteral:
		return "'" + ToStringBinary(c.Literal) + "'"
	case KindHash:
		in := strings.Join(c.Inputs, ",")
		switch c.Hash {
		case HashMD5:
			return fmt.Sprintf("md5(%s)[0:%d]", in, c.Width)
		case HashJava:
			return fmt.Sprintf("abs(hashCode(%s)%%%d)%s", in, c.Mod, c.numSuffix())
		case HashArrays:
			return fmt.Sprintf("abs(Arrays.hashCode(%s)%%%d)%s", in, c.Mod, c.numSuffix())
		default:
			if c.Seed != 0 {
				return fmt.Sprintf("murmur3(%s,seed=%d)%%%d%s", in, c.Seed, c.Mod, c.numSuffix())
			}
			return fmt.Sprintf("murmur3(%s)%%%d%s", in, c.Mod, c.numSuffix())
		}
	case KindBucket:
		return fmt.Sprintf("bucket(%s%%%d)%s", c.Field, c.Mod, c.numSuffix())
	case KindSalt:
		if len(c.Inputs) > 0 {
			return fmt.Sprintf("salt(%s)%%%d:u%d", strings.Join(c.Inputs, ","), c.Mod, c.Width*8)
		}
		return fmt.Sprintf("salt(%d):u8", c.Mod)
	case KindRandom:
		return fmt.Sprintf("random(%d)%s", c.Mod, c.numSuffix())
	case KindGroup:
		parts := make([]string, len(c.Group))
		for i := range c.Group {
			parts[i] = c.Group[i].String()
		}
		return "(" + strings.Join(parts, " | ") + ")*"
	}
	var b strings.Builder
	name := c.Field
	if c.Reverse {
		name = "reverse(" + name + ")"
	}
	if c.Desc {
		name = "desc(" + name + ")"
	}
	b.WriteString(name)
	switch c.Enc {
	case KeyText:
		switch {
		case c.Width > 0 && c.PadLeft:
			fmt.Fprintf(&b, ":lpad(%d,'%s')", c.Width, ToStringBinary([]byte{c.Pad}))
		case c.Width > 0:
			fmt.Fprintf(&b, ":rpad(%d,'%s')", c.Width, ToStringBinary([]byte{c.Pad}))
		default:
			b.WriteString(":str")
		}
	case KeyDecimal:
		fmt.Fprintf(&b, ":dec%d", c.Width)
	case KeyBinary:
		if c.typ == TypeDouble {
			b.WriteString(":f64")
		} else {
			fmt.Fprintf(&b, ":i%df", c.Width*8)
		}
	case KeyJava:
		if c.Unsigned {
			fmt.Fprintf(&b, ":u%d", c.Width*8)
		} else {
			fmt.Fprintf(&b, ":i%d", c.Width*8)
		}
	case KeyPhoenix:
		b.WriteString(c.phoenixString())
	}
	switch c.Unit {
	case Seconds:
		b.WriteString("(s)")
	case Micros:
		b.WriteString("(us)")
	}
	return b.String()
}

func (c *Component) numSuffix() string {
	if c.Binary {
		return fmt.Sprintf(":u%d", c.Width*8)
	}
	return fmt.Sprintf(":dec%d", c.Width)
}

// Layout is an ordered list of rowkey components.
type Layout struct {
	Components []Component
}

// String renders the layout as EXPLAIN's KEY line shows it. A delimiter is
// printed after the field it ends.
func (l *Layout) String() string {
	var parts []string
	for i := 0; i < len(l.Components); i++ {
		c := &l.Components[i]
		s := c.String()
		if len(c.delim) > 0 && i+1 < len(l.Components) {
			s += ToStringBinary(c.delim)
			i++
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

// prefixEnd returns the smallest key greater than every key that starts
// with p, or nil when there is none (p is empty or all 0xFF).
func prefixEnd(p []byte) []byte {
	e := bytes.Clone(p)
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] != 0xFF {
			e[i]++
			return e[:i+1]
		}
	}
	return nil
}

// PrefixEnd returns the smallest key greater than every key starting with
// p; nil means no upper bound.
func PrefixEnd(p []byte) []byte { return prefixEnd(p) }
