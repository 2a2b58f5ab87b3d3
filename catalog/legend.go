package catalog

import (
	"fmt"
	"strings"
)

// Legend explains, one line per component, the notation Layout.String
// uses for the key: what bytes each component writes and, where there is
// one, the Java expression that writes the same bytes.
func (l *Layout) Legend() []string {
	var out []string
	for i := range l.Components {
		c := &l.Components[i]
		if c.Kind == KindLiteral {
			continue
		}
		out = append(out, c.String()+": "+c.explain())
	}
	return out
}

func (c *Component) explain() string {
	num := func() string {
		if c.Binary {
			return fmt.Sprintf("written as %d raw byte(s), big-endian", c.Width)
		}
		return fmt.Sprintf("written as %d zero-padded decimal digit(s)", c.Width)
	}
	switch c.Kind {
	case KindHash:
		switch c.Hash {
		case HashMD5:
			return fmt.Sprintf("the first %d lower-case hex characters of md5 of the text of %v; derived, so a query that binds them computes it", c.Width, c.Inputs)
		case HashJava:
			return fmt.Sprintf("Math.abs(s.hashCode() %% %d) of the text of %v (Java's String.hashCode), %s", c.Mod, c.Inputs, num())
		case HashArrays:
			return fmt.Sprintf("Math.abs(Arrays.hashCode(b) %% %d), b the Bytes.toBytes forms of %v, %s", c.Mod, c.Inputs, num())
		}
		return fmt.Sprintf("MurmurHash3 x86 32-bit with seed %d of the text of %v (Guava's murmur3_32(seed)), abs of the signed int mod %d, %s", c.Seed, c.Inputs, c.Mod, num())
	case KindBucket:
		return fmt.Sprintf("%s %% %d, %s: a range over %s reads all %d buckets", c.Field, c.Mod, num(), c.Field, c.Mod)
	case KindSalt:
		if len(c.Inputs) > 0 {
			return fmt.Sprintf("%d bytes, abs(Arrays.hashCode(key bytes of %s) %% %d) (OpenTSDB's salt)", c.Width, strings.Join(c.Inputs, ","), c.Mod)
		}
		return fmt.Sprintf("one byte, the hash of the rest of the key mod %d (Phoenix's SALT_BUCKETS)", c.Mod)
	case KindRandom:
		return fmt.Sprintf("a random number in [0, %d), %s: a point read tries every value", c.Mod, num())
	case KindGroup:
		parts := make([]string, len(c.Group))
		for i := range c.Group {
			parts[i] = c.Group[i].Field + " " + c.Group[i].explain()
		}
		return "repeated until the key ends (at least once), each time " + strings.Join(parts, ", then ") + "; a row is read once per repetition"
	}
	var s string
	switch c.Enc {
	case KeyText:
		switch {
		case c.Width > 0 && c.PadLeft:
			s = fmt.Sprintf("text left-padded with '%s' to %d bytes", ToStringBinary([]byte{c.Pad}), c.Width)
		case c.Width > 0:
			s = fmt.Sprintf("text right-padded with '%s' to %d bytes", ToStringBinary([]byte{c.Pad}), c.Width)
		case c.descText():
			s = "text of any length with no NUL byte, ended by the byte \\xFF, which no inverted text byte equals"
		case len(c.delim) > 0:
			s = fmt.Sprintf("text of any length, ended by '%s'", ToStringBinary(c.delim))
		default:
			s = "text of any length, running to the end of the key"
		}
	case KeyDecimal:
		s = fmt.Sprintf("zero-padded decimal digits, %d wide", c.Width)
		if c.typ == TypeDate {
			s = "yyyyMMdd digits"
		}
	case KeyBinary:
		if c.typ == TypeDouble {
			s = "8 bytes of the IEEE double with the sign bit flipped (all bits for negatives), so byte order is number order"
		} else {
			s = fmt.Sprintf("%d bytes big-endian with the sign bit flipped (Phoenix style), so negatives sort first", c.Width)
		}
	case KeyJava:
		s = fmt.Sprintf("%d bytes big-endian two's complement, as Java's Bytes.toBytes writes them; 0..MAX sort before MIN..-1", c.Width)
		if c.Desc {
			s = fmt.Sprintf("%d bytes big-endian, as Java's Bytes.toBytes writes them; MAX - value wraps as Java's arithmetic does, so negatives sort last", c.Width)
		}
		if c.Unsigned {
			s = fmt.Sprintf("%d bytes big-endian, unsigned (0 to %d)", c.Width, c.javaMax())
		}
	case KeyPhoenix:
		s = fmt.Sprintf("Phoenix's %s, as PDataType.toBytes writes it", c.Phoenix)
		if c.phoenixVar() {
			s += fmt.Sprintf(", then %s (absent after the last field written; trailing NULL fields are left out)", map[bool]string{false: "\\x00", true: "\\xFF"}[c.Desc])
		}
		if c.Desc {
			s += "; descending: every byte inverted"
		}
		return s
	}
	switch c.Unit {
	case Seconds:
		s += "; counts seconds"
	case Micros:
		s += "; counts microseconds"
	}
	if c.Reverse {
		s = "the characters reversed, then " + s + "; only LIKE '%suffix' and = use the key"
	}
	if c.Desc {
		if c.Enc == KeyJava || c.Enc == KeyBinary {
			s = "MAX - value (Long.MAX_VALUE - ts for a time), so the newest sorts first; " + s
		} else {
			s = fmt.Sprintf("%d - value, so larger values sort first; ", decimalMax(c.Width)) + s
			if c.Enc != KeyDecimal {
				s = "descending: every byte inverted, so larger values sort first; " + s[strings.Index(s, "; ")+2:]
			}
		}
	}
	return s
}
