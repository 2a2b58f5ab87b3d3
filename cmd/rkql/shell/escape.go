package shell

import "unicode/utf8"

// ctlEscape makes control characters visible in the formats a person
// reads, so that a value cannot move the cursor, recolour or clear the
// screen, ring the bell or reverse the text after it. What it escapes, and
// how:
//
//   - tab, newline and carriage return: \t, \n and \r (unless kept);
//   - the other C0 controls and DEL: \xHH, as HBase's toStringBinary
//     writes a byte (ESC is \x1B);
//   - the C1 controls U+0080–U+009F and the bidirectional controls
//     U+202A–U+202E and U+2066–U+2069: \uHHHH (\u202E);
//   - with invalid set, a byte that is not UTF-8: \xHH.
//
// A backslash is left as it is, as toStringBinary text has them, unless
// backslash is set (tsv), when it is \\ so that every escape reads back.
//
// With uForm, every escape is \uHHHH: EXPLAIN's text, plain or JSON,
// where a JSON string may hold DEL, C1 and bidi controls as they are, and
// \uHHHH means the same character.
type ctlEscape struct {
	keep      uint32 // C0 controls written as they are, one bit each
	invalid   bool
	uForm     bool
	backslash bool
}

var (
	// tableEscape keeps newlines: a table cell holds several lines.
	tableEscape = ctlEscape{keep: 1 << '\n', invalid: true}
	// markdownEscape keeps line breaks, which become <br>.
	markdownEscape = ctlEscape{keep: 1<<'\n' | 1<<'\r', invalid: true}
	// tsvEscape escapes tab, newline, carriage return and backslash too,
	// as PostgreSQL's COPY text does, and leaves bytes that are not UTF-8
	// as they are; engine.Import reads it back.
	tsvEscape = ctlEscape{backslash: true}
	// textEscape is for EXPLAIN's text: its layout's newlines and tabs
	// stay.
	textEscape = ctlEscape{keep: 1<<'\n' | 1<<'\t', uForm: true}
)

const upperHex = "0123456789ABCDEF"

// needed reports whether s holds anything to escape; most values do not.
func (e ctlEscape) needed(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && e.keep&(1<<c) == 0 || c >= 0x7F || c == '\\' && e.backslash {
			return true
		}
	}
	return false
}

func (e ctlEscape) String(s string) string {
	if !e.needed(s) {
		return s
	}
	return string(e.append(make([]byte, 0, len(s)+8), s))
}

// append appends s, escaped, to b.
func (e ctlEscape) append(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\' && e.backslash:
				b = append(b, '\\', '\\')
			case c >= 0x20 && c != 0x7F, c < 0x20 && e.keep&(1<<c) != 0:
				b = append(b, c)
			case e.uForm:
				b = append(b, '\\', 'u', '0', '0', upperHex[c>>4], upperHex[c&0xF])
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			default:
				b = append(b, '\\', 'x', upperHex[c>>4], upperHex[c&0xF])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if e.invalid {
				b = append(b, '\\', 'x', upperHex[c>>4], upperHex[c&0xF])
			} else {
				b = append(b, c)
			}
		case r >= 0x80 && r <= 0x9F, r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			b = append(b, '\\', 'u', upperHex[r>>12&0xF], upperHex[r>>8&0xF], upperHex[r>>4&0xF], upperHex[r&0xF])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}
