package catalog

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

func (c *Component) textBytes(v Value) []byte {
	if v.Type == TypeBytes {
		return v.B
	}
	return []byte(v.S)
}

func (c *Component) encodeText(dst []byte, v Value) ([]byte, error) {
	b := c.textBytes(v)
	if c.Reverse {
		b = reverseText(b, c.typ != TypeBytes)
	}
	if c.Desc {
		return c.encodeDescText(dst, v, b)
	}
	if c.Width > 0 {
		if len(b) > c.Width {
			return nil, c.errf("%s is %d bytes, longer than the field's fixed width of %d", v, len(b), c.Width)
		}
		// Decoding strips every pad byte at the padded edge, so a value
		// may not have one there, even when it fills the width.
		if len(b) > 0 {
			edge := b[len(b)-1]
			if c.PadLeft {
				edge = b[0]
			}
			if edge == c.Pad {
				return nil, c.errf("%s ends with the pad byte '%s' and could not be read back", v, ToStringBinary([]byte{c.Pad}))
			}
		}
		if c.PadLeft {
			for i := len(b); i < c.Width; i++ {
				dst = append(dst, c.Pad)
			}
			return append(dst, b...), nil
		}
		dst = append(dst, b...)
		for i := len(b); i < c.Width; i++ {
			dst = append(dst, c.Pad)
		}
		return dst, nil
	}
	return append(dst, b...), nil
}

// descText reports whether the component is variable-width descending
// text, which ends itself with a 0xFF byte.
func (c *Component) descText() bool {
	return c.Kind == KindField && c.Enc == KeyText && c.Desc && c.Width == 0
}

// encodeDescText writes descending text: every byte inverted, so larger
// values sort first. Variable-width text is followed by 0xFF, which no
// inverted byte equals since the text may not hold 0x00; so a shorter
// value sorts after a longer one it starts, as descending order wants.
// Fixed-width text is padded first, then inverted.
func (c *Component) encodeDescText(dst []byte, v Value, b []byte) ([]byte, error) {
	if c.Width > 0 {
		if len(b) > c.Width {
			return nil, c.errf("%s is %d bytes, longer than the field's fixed width of %d", v, len(b), c.Width)
		}
		if len(b) > 0 && b[len(b)-1] == c.Pad {
			return nil, c.errf("%s ends with the pad byte '%s' and could not be read back", v, ToStringBinary([]byte{c.Pad}))
		}
		for _, x := range b {
			dst = append(dst, ^x)
		}
		for i := len(b); i < c.Width; i++ {
			dst = append(dst, ^c.Pad)
		}
		return dst, nil
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, c.errf("%s holds a NUL byte, which descending text cannot hold", v)
	}
	for _, x := range b {
		dst = append(dst, ^x)
	}
	return append(dst, 0xFF), nil
}

// reverseText reverses the characters of b when runes is set, and its
// bytes otherwise (BYTES fields). Text is reversed only when it is valid
// UTF-8, so that reversing twice gives b back.
func reverseText(b []byte, runes bool) []byte {
	out := make([]byte, 0, len(b))
	if !runes || !utf8.Valid(b) {
		out = append(out, b...)
		slices.Reverse(out)
		return out
	}
	for i := len(b); i > 0; {
		_, n := utf8.DecodeLastRune(b[:i])
		out = append(out, b[i-n:i]...)
		i -= n
	}
	return out
}
