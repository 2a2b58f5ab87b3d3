package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// flatObject converts one line holding a flat JSON object, whose values are
// strings without escapes, numbers, booleans or null, to a row of t, without
// encoding/json. ok is false for anything else, or for a value that does
// not convert, or for a column given twice: the caller then decodes the
// line with jsonObject, which gives the same row or says what is wrong.
// seen has room for a flag per column of t.
func flatObject(t *catalog.Table, line string, seen []bool) (row catalog.Row, ok bool) {
	clear(seen)
	p := flatParser{s: line}
	p.space()
	if !p.eat('{') {
		return nil, false
	}
	row = t.NewRow()
	p.space()
	if p.eat('}') {
		return row, p.end()
	}
	for {
		p.space()
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if !p.eat(':') {
			return nil, false
		}
		p.space()
		i, known := t.Column(key)
		if !known || seen[i] {
			return nil, false
		}
		seen[i] = true
		v, ok := p.value(&t.Columns[i])
		if !ok {
			return nil, false
		}
		row[i] = v
		p.space()
		if p.eat('}') {
			return row, p.end()
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

type flatParser struct {
	s string
	i int
}

func (p *flatParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *flatParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (p *flatParser) end() bool {
	p.space()
	return p.i == len(p.s)
}

// str reads a string with no escapes and no control characters, in valid
// UTF-8 (encoding/json would replace invalid bytes).
func (p *flatParser) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start, ascii := p.i, true
	for ; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			return s, ascii || utf8.ValidString(s)
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// value reads one value and converts it as convertJSON does.
func (p *flatParser) value(c *catalog.Column) (catalog.Value, bool) {
	if p.i >= len(p.s) {
		return catalog.Value{}, false
	}
	var raw any
	switch ch := p.s[p.i]; {
	case ch == '"':
		s, ok := p.str()
		if !ok {
			return catalog.Value{}, false
		}
		raw = s
	case ch == '-' || ch >= '0' && ch <= '9':
		n, ok := p.number()
		if !ok {
			return catalog.Value{}, false
		}
		raw = json.Number(n)
	case p.word("null"):
		return catalog.Null(c.Type), true
	case p.word("true"):
		raw = true
	case p.word("false"):
		raw = false
	default:
		return catalog.Value{}, false
	}
	v, err := convertJSON(c, raw)
	return v, err == nil
}

func (p *flatParser) word(w string) bool {
	if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
		p.i += len(w)
		return true
	}
	return false
}

// number reads a number in JSON's grammar.
func (p *flatParser) number() (string, bool) {
	start := p.i
	p.eat('-')
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.eat('0') {
		// no leading zeros
	} else if digits() == 0 {
		return "", false
	}
	if p.eat('.') && digits() == 0 {
		return "", false
	}
	if p.eat('e') || p.eat('E') {
		if !p.eat('+') {
			p.eat('-')
		}
		if digits() == 0 {
			return "", false
		}
	}
	return p.s[start:p.i], true
}

// fastTimestamp reads 'YYYY-MM-DD HH:MM:SS[.f…]' and
// 'YYYY-MM-DDTHH:MM:SS[.f…][Z]' (UTC) as catalog.ParseTime does, without its
// four attempts at time.Parse. ok is false for any other text, which the
// caller then gives to catalog.ParseText.
func fastTimestamp(s string) (ms int64, ok bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	sep := s[10]
	if sep != ' ' && sep != 'T' {
		return 0, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 {
		return 0, false
	}
	if d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return 0, false
	}
	rest, nsec := s[19:], 0
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for scale := 100_000_000; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			if i > 9 {
				return 0, false
			}
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return 0, false
		}
		rest = rest[i:]
	}
	switch {
	case rest == "":
	case rest == "Z" && sep == 'T':
	default:
		return 0, false
	}
	if nsec%int(time.Millisecond) != 0 {
		return 0, false // finer than TIMESTAMP holds: the slow path says so
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, nsec, time.UTC).UnixMilli(), true
}

// offsetError is an error at a byte offset of a JSON value.
type offsetError struct {
	off int
	err error
}

func (e *offsetError) Error() string { return e.err.Error() }

func (e *offsetError) Unwrap() error { return e.err }

// checkJSONText finds what encoding/json would read as U+FFFD without a
// word, in raw, a well-formed JSON value: a byte that is not UTF-8, and a
// \u escape of a surrogate that is not half of a pair.
func checkJSONText(raw []byte) error {
	if utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u`)) {
		return nil
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			r, _ := hexValue(raw[i+2:], 4) // well-formed: four hex digits
			n := 6
			if utf16.IsSurrogate(rune(r)) {
				r2, ok := uint32(0), false
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					r2, ok = hexValue(raw[i+8:], 4)
				}
				if !ok || utf16.DecodeRune(rune(r), rune(r2)) == utf8.RuneError {
					return &offsetError{i, fmt.Errorf(`the escape %s is half of a UTF-16 surrogate pair, not a character`, raw[i:i+6])}
				}
				n = 12
			}
			i += n
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return &offsetError{i, fmt.Errorf("invalid UTF-8: the byte 0x%02X", c)}
			}
			i += size
		}
	}
	return nil
}

// jsonObject converts raw, one well-formed JSON value, to a row of t. It
// refuses what encoding/json passes without a word: text that
// checkJSONText refuses, and a column given twice, of which encoding/json
// would keep the last. An error about a place in raw is an *offsetError.
func jsonObject(t *catalog.Table, raw []byte) (catalog.Row, error) {
	if err := checkJSONText(raw); err != nil {
		return nil, err
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("not a JSON object: %s", jsonKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	row := t.NewRow()
	seen := make([]bool, len(t.Columns))
	for dec.More() {
		at := int(dec.InputOffset())
		for at < len(raw) && (raw[at] == ',' || raw[at] == ' ' || raw[at] == '\t' || raw[at] == '\r' || raw[at] == '\n') {
			at++
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
		key, _ := tok.(string)
		i, ok := t.Column(key)
		switch {
		case !ok:
			return nil, &offsetError{at, fmt.Errorf("column %q does not exist in table %s (columns: %s)", key, t.Name, strings.Join(t.ColumnNames(), ", "))}
		case seen[i]:
			return nil, &offsetError{at, fmt.Errorf("the key %q appears twice in the object", key)}
		}
		seen[i] = true
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
		if row[i], err = convertJSON(&t.Columns[i], v); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// jsonKind names the kind of the JSON value raw starts with.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}
