package shell

import (
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// flatObject converts one line holding a flat JSON object, whose values are
// strings without escapes, numbers, booleans or null, to a row of t, without
// encoding/json. ok is false for anything else, or for a value that does
// not convert: the caller then decodes the line with encoding/json, which
// gives the same row or says what is wrong.
func flatObject(t *catalog.Table, line string) (row catalog.Row, ok bool) {
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
		if !known {
			return nil, false
		}
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
