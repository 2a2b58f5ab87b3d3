package infer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// piece is one rowkey component of a reading. A field's name is given
// once the whole key is read (name).
type piece struct {
	comp catalog.ComponentSpec
	// typ is a field's column type.
	typ string
	// role names a field: "ts", "date", or "" for kN.
	role string
	part Part
}

func (p *piece) isField() bool { return p.typ != "" }

// cursor is where each sampled key's reading has got to.
type cursor struct {
	keys [][]byte
	off  []int
}

func (c *cursor) rest(i int) []byte { return c.keys[i][c.off[i]:] }

// advance returns a cursor moved on by n[i] bytes in key i.
func (c *cursor) advance(n func(i int) int) *cursor {
	next := &cursor{keys: c.keys, off: make([]int, len(c.off))}
	for i := range c.off {
		next.off[i] = c.off[i] + n(i)
	}
	return next
}

func (c *cursor) minRest() int {
	m := math.MaxInt
	for i := range c.keys {
		m = min(m, len(c.rest(i)))
	}
	return m
}

// segment reads keys left to right into pieces; ok is false when some
// part of them fits no reading.
func segment(keys [][]byte) (pieces []piece, ok bool) {
	c := &cursor{keys: keys, off: make([]int, len(keys))}
	for range 128 {
		ended := 0
		for i := range keys {
			if len(c.rest(i)) == 0 {
				ended++
			}
		}
		if ended == len(keys) {
			return mergeLiterals(pieces), true
		}
		if ended > 0 {
			return pieces, false
		}
		ps, next := nextPieces(c)
		if next == nil {
			return pieces, false
		}
		pieces, c = append(pieces, ps...), next
	}
	return pieces, false
}

func nextPieces(c *cursor) ([]piece, *cursor) {
	if p, next := literal(c); next != nil {
		return []piece{p}, next
	}
	if binaryStart(c) {
		p, next := binaryField(c)
		if next == nil {
			return nil, nil
		}
		return []piece{p}, next
	}
	return textField(c)
}

func printable(b byte) bool { return b >= 0x20 && b < 0x7f }

func alnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// literal reads a byte every key holds at the cursor that is not a letter
// or digit: a printable delimiter, or \x00 before text or the key's end.
func literal(c *cursor) (piece, *cursor) {
	b := c.rest(0)[0]
	if alnum(b) || !(printable(b) || b == 0) {
		return piece{}, nil
	}
	for i := range c.keys {
		r := c.rest(i)
		if r[0] != b {
			return piece{}, nil
		}
		if b == 0 && len(r) > 1 && !printable(r[1]) {
			return piece{}, nil
		}
	}
	lit := catalog.ToStringBinary([]byte{b})
	return piece{
		comp: catalog.ComponentSpec{Literal: &lit},
		part: Part{Sure: Certain, Evidence: fmt.Sprintf("every sampled key holds '%s' here", lit)},
	}, c.advance(func(int) int { return 1 })
}

// mergeLiterals joins literals that follow each other.
func mergeLiterals(ps []piece) []piece {
	var out []piece
	for _, p := range ps {
		if n := len(out); n > 0 && p.comp.Literal != nil && out[n-1].comp.Literal != nil {
			s := *out[n-1].comp.Literal + *p.comp.Literal
			out[n-1].comp.Literal = &s
			out[n-1].part.Evidence = fmt.Sprintf("every sampled key holds '%s' here", s)
			continue
		}
		out = append(out, p)
	}
	return out
}

// binaryStart: some key has a byte no text has at the cursor, or every
// key has a time in its next 8 bytes.
func binaryStart(c *cursor) bool {
	for i := range c.keys {
		if !printable(c.rest(i)[0]) {
			return true
		}
	}
	_, ok := timeAt(c, 0)
	return ok
}

// A plausible time is in [2000, 2100).
var (
	timeLo = int64(946684800)  // 2000-01-01 in seconds
	timeHi = int64(4102444800) // 2100-01-01
)

// timeReading is how 8 key bytes hold a time.
type timeReading struct {
	desc bool
	unit string // "", "s" or "us"
}

func (r timeReading) String() string {
	s := "Bytes.toBytes(ts)"
	if r.desc {
		s = "Bytes.toBytes(Long.MAX_VALUE - ts)"
	}
	switch r.unit {
	case "s":
		s += ", ts in seconds"
	case "us":
		s += ", ts in microseconds"
	default:
		s += ", ts in milliseconds"
	}
	return s
}

// timeAt finds the reading under which the 8 bytes at skip past the
// cursor are a plausible time in every key.
func timeAt(c *cursor, skip int) (timeReading, bool) {
	if c.minRest() < skip+8 {
		return timeReading{}, false
	}
	for _, r := range []timeReading{{}, {desc: true}, {unit: "s"}, {desc: true, unit: "s"}, {unit: "us"}, {desc: true, unit: "us"}} {
		ok := true
		for i := range c.keys {
			v := int64(binary.BigEndian.Uint64(c.rest(i)[skip:]))
			if r.desc {
				v = math.MaxInt64 - v
			}
			lo, hi := timeLo*1000, timeHi*1000
			switch r.unit {
			case "s":
				lo, hi = timeLo, timeHi
			case "us":
				lo, hi = timeLo*1000000, timeHi*1000000
			}
			if v < lo || v >= hi {
				ok = false
				break
			}
		}
		if ok {
			return r, true
		}
	}
	return timeReading{}, false
}

func timePiece(r timeReading, n int) piece {
	p := piece{typ: "TIMESTAMP", role: "ts", comp: catalog.ComponentSpec{Encoding: "java"}}
	if r.desc {
		p.comp.Order = "desc"
	}
	if r.unit == "s" {
		p.comp.Unit = "s"
	} else if r.unit == "us" {
		p.comp.Unit = "us"
	}
	p.part = Part{Sure: Certain, Evidence: fmt.Sprintf("8 bytes that read as %s in 2000..2100 in all %d sampled keys", r, n)}
	return p
}

// binaryField reads a Bytes.toBytes number, or the rest of the key as
// bytes when no number fits.
func binaryField(c *cursor) (piece, *cursor) {
	n := len(c.keys)
	if r, ok := timeAt(c, 0); ok {
		return timePiece(r, n), c.advance(func(int) int { return 8 })
	}
	for _, w := range []int{1, 2, 4} {
		if before, ok := beforeSomething(c, w); ok {
			p := piece{typ: "INT", comp: catalog.ComponentSpec{Encoding: "java", Width: w}}
			p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("a %d-byte number before %s in every sampled key", w, before)}
			return p, c.advance(func(int) int { return w })
		}
	}
	sameRest := true
	for i := range c.keys {
		sameRest = sameRest && len(c.rest(i)) == len(c.rest(0))
	}
	if sameRest && len(c.rest(0)) == 4 {
		if p, ok := intPiece(c, 4); ok {
			return p, c.advance(func(int) int { return 4 })
		}
	}
	for _, w := range []int{8, 4} {
		if p, ok := intPiece(c, w); ok {
			return p, c.advance(func(int) int { return w })
		}
	}
	return rawPiece(c)
}

// beforeSomething reports whether w bytes are a small number before
// what follows them in every key: a time, a Bytes.toBytes long, or (for
// one byte that is not text) text.
func beforeSomething(c *cursor, w int) (string, bool) {
	if _, ok := timeAt(c, w); ok {
		return "a time", true
	}
	if c.minRest() < w+1 {
		return "", false
	}
	next := c.advance(func(int) int { return w })
	if _, ok := intPiece(c, 8); !ok {
		if _, ok := intPiece(next, 8); ok {
			return "a Bytes.toBytes long", true
		}
	}
	if w != 1 {
		return "", false
	}
	for i := range c.keys {
		if !printable(next.rest(i)[0]) {
			return "", false
		}
	}
	return "text", true
}

// intPiece reads w bytes as a Bytes.toBytes integer when every sampled
// value is small next to the width (its high bytes all 0x00 or all
// 0xFF), forwards or as MAX minus it.
func intPiece(c *cursor, w int) (piece, bool) {
	if c.minRest() < w {
		return piece{}, false
	}
	hi := w / 4 // high bytes that must be sign bytes
	asc, desc := true, true
	for i := range c.keys {
		b := c.rest(i)[:w]
		asc = asc && signBytes(b[:hi], 0x00, 0xFF)
		desc = desc && (b[0] == 0x7F && signBytes(b[1:hi], 0xFF, 0xFF) || b[0] == 0x80 && signBytes(b[1:hi], 0x00, 0x00))
	}
	typ := "BIGINT"
	if w == 4 {
		typ = "INT"
	}
	p := piece{typ: typ, comp: catalog.ComponentSpec{Encoding: "java"}}
	switch {
	case asc:
		p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("%d bytes whose high bytes are sign bytes in every sampled key: Bytes.toBytes of a %s", w, typ)}
	case desc:
		p.comp.Order = "desc"
		p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("%d bytes that read as a small number subtracted from MAX in every sampled key: a descending %s", w, typ)}
	default:
		return piece{}, false
	}
	return p, true
}

// signBytes: every byte of b is x, or every byte is y.
func signBytes(b []byte, x, y byte) bool {
	if len(b) == 0 {
		return true
	}
	return bytes.Count(b, []byte{x}) == len(b) || bytes.Count(b, []byte{y}) == len(b)
}

// rawPiece reads the rest of every key as bytes.
func rawPiece(c *cursor) (piece, *cursor) {
	p := piece{typ: "BYTES", part: Part{Sure: Guess, Evidence: "bytes that no encoding reads: kept as they are"}}
	return p, c.advance(func(i int) int { return len(c.rest(i)) })
}

// textRun is how many bytes of text start key i at the cursor.
func textRun(c *cursor, i int) int {
	r := c.rest(i)
	for j, b := range r {
		if !printable(b) {
			return j
		}
	}
	return len(r)
}

// delimiters are tried in this order; the last ones also occur inside
// values, so they are taken only where every key holds them as often.
var (
	delimiters    = []byte{'|', '~', 0, ',', ';', ':', '#', '/', '\t', '^', '!'}
	weakDelimiter = []byte{'_', '-', '.', ' ', '+', '=', '@', '$', '&', '*'}
)

// textField reads a text field: fixed width with a pad, up to a
// delimiter, or to the key's end, and what its text is.
func textField(c *cursor) ([]piece, *cursor) {
	if p, w, ok := padded(c); ok {
		return []piece{p}, c.advance(func(int) int { return w })
	}
	if d, ok := delimiter(c); ok {
		vals := make([][]byte, len(c.keys))
		for i := range c.keys {
			vals[i] = c.rest(i)[:bytes.IndexByte(c.rest(i), d)]
		}
		ps := classify(vals, "delimited")
		if bytes.IndexByte(weakDelimiter, d) >= 0 && len(ps) == 1 && ps[0].part.Other == "" {
			lit := catalog.ToStringBinary([]byte{d})
			ps[0].part.Sure = Likely
			ps[0].part.Other = fmt.Sprintf("one field that holds the '%s' and what follows it", lit)
			ps[0].part.Tell = fmt.Sprintf("every sampled key holds '%s' as often, after text that varies; a key with more or fewer would say one field", lit)
		}
		return ps, c.advance(func(i int) int { return len(vals[i]) })
	}
	toEnd := true
	for i := range c.keys {
		toEnd = toEnd && textRun(c, i) == len(c.rest(i))
	}
	vals := make([][]byte, len(c.keys))
	if toEnd {
		for i := range c.keys {
			vals[i] = c.rest(i)
		}
		return classify(vals, "end"), c.advance(func(i int) int { return len(vals[i]) })
	}
	w := textRun(c, 0)
	for i := range c.keys {
		if textRun(c, i) != w {
			return nil, nil
		}
		vals[i] = c.rest(i)[:w]
	}
	if w == 0 {
		return nil, nil
	}
	return classify(vals, "fixed"), c.advance(func(int) int { return w })
}

// delimiter finds the byte that ends a field in every key.
func delimiter(c *cursor) (byte, bool) {
	for _, d := range delimiters {
		found, empty := true, true
		for i := range c.keys {
			r := c.rest(i)
			j := bytes.IndexByte(r, d)
			if j < 0 || (d != 0 && j > textRun(c, i)) || (d == 0 && j != textRun(c, i)) {
				found = false
				break
			}
			empty = empty && j == 0
		}
		if found && !empty {
			return d, true
		}
	}
	for _, d := range weakDelimiter {
		n := -1
		ok, varies := true, false
		var first []byte
		for i := range c.keys {
			r := c.rest(i)[:textRun(c, i)]
			for _, s := range delimiters {
				if j := bytes.IndexByte(r, s); j >= 0 {
					r = r[:j]
				}
			}
			k := bytes.Count(r, []byte{d})
			if k == 0 || (n >= 0 && k != n) || bytes.IndexByte(r, d) == 0 {
				ok = false
				break
			}
			n = k
			head := r[:bytes.IndexByte(r, d)]
			if i == 0 {
				first = head
			} else if !bytes.Equal(head, first) {
				varies = true
			}
		}
		// Text before it that every key shares is part of one value
		// (user-1, user-2), not a field of its own.
		if ok && varies {
			return d, true
		}
	}
	return 0, false
}

// padded finds a fixed-width text field right-padded with one byte: in
// at least half the keys a run of two or more pad bytes ends at the same
// offset W, starting at more than one offset (values of more than one
// length), and in none does the run go past it.
func padded(c *cursor) (piece, int, bool) {
	type at struct {
		pad byte
		end int
	}
	count := map[at]int{}
	starts := map[at]map[int]bool{} // where the runs start: values of one length are no padding
	digits := true
	for i := range c.keys {
		r := c.rest(i)[:textRun(c, i)]
		digits = digits && isDigits(r)
		seen := map[at]bool{}
		for j := 0; j < len(r); {
			k := j
			for k < len(r) && r[k] == r[j] {
				k++
			}
			if k-j >= 2 && !(r[j] >= '0' && r[j] <= '9') && !seen[at{r[j], k}] {
				seen[at{r[j], k}] = true
				count[at{r[j], k}]++
				if starts[at{r[j], k}] == nil {
					starts[at{r[j], k}] = map[int]bool{}
				}
				starts[at{r[j], k}][j] = true
			}
			j = k
		}
	}
	if digits {
		return piece{}, 0, false
	}
	best, bestN := at{}, 0
	for a, n := range count {
		if len(starts[a]) < 2 {
			continue
		}
		if n > bestN || n == bestN && a.end < best.end {
			best, bestN = a, n
		}
	}
	if bestN < 2 || bestN*2 < len(c.keys) {
		return piece{}, 0, false
	}
	w := best.end
	for i := range c.keys {
		r := c.rest(i)
		if textRun(c, i) < w || w < len(r) && r[w] == best.pad && r[w-1] == best.pad {
			return piece{}, 0, false
		}
	}
	pad := catalog.ToStringBinary([]byte{best.pad})
	p := piece{typ: "STRING", comp: catalog.ComponentSpec{Width: w, Pad: &pad}}
	p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("in %d of %d sampled keys a run of '%s' ends at byte %d of this field, and in none runs past it: text right-padded with '%s' to %d bytes",
		bestN, len(c.keys), pad, w, pad, w)}
	return p, w, true
}

func isDigits(b []byte) bool {
	for _, x := range b {
		if x < '0' || x > '9' {
			return false
		}
	}
	return len(b) > 0
}

// quoteKeys lists up to n keys as toStringBinary text.
func quoteKeys(keys [][]byte, n int) string {
	var s []string
	for _, k := range keys[:min(n, len(keys))] {
		s = append(s, "'"+catalog.ToStringBinary(k)+"'")
	}
	return strings.Join(s, ", ")
}
