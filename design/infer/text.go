package infer

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// classify reads the values of one text field: how is "delimited",
// "end" (to the key's end) or "fixed" (every value as long).
func classify(vals [][]byte, how string) []piece {
	n := len(vals)
	text := true
	digits := true
	for _, v := range vals {
		text = text && utf8.Valid(v) && !bytes.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f })
		digits = digits && isDigits(v)
	}
	switch {
	case !text:
		return []piece{{typ: "BYTES", part: Part{Sure: Likely, Evidence: fmt.Sprintf("bytes that are not text in some of %d sampled keys, %s", n, howText(how))}}}
	case digits:
		return numberField(vals, how)
	}
	p := piece{typ: "STRING", part: Part{Sure: Certain, Evidence: fmt.Sprintf("text in all %d sampled keys, %s", n, howText(how))}}
	if how == "fixed" {
		p.comp.Width = len(vals[0])
		p.part.Evidence = fmt.Sprintf("%d bytes of text in all %d sampled keys", len(vals[0]), n)
	}
	if why, ok := reversed(vals); ok {
		p.comp.Reverse = true
		p.part.Sure = Likely
		p.part.Evidence += "; " + why
		p.part.Other = "the same text not reversed"
		p.part.Tell = "the bytes fit both; which end of the values varies most decides"
	}
	return []piece{p}
}

func howText(how string) string {
	switch how {
	case "delimited":
		return "ended by the literal that follows"
	case "end":
		return "running to the key's end"
	}
	return "all of one width"
}

// reversed reports whether text values read better backwards: their last
// characters vary less than their first (phone numbers, whose prefixes
// are few), or, when each holds a dot, their first label varies less
// than their last (domains, whose top-level names are few).
func reversed(vals [][]byte) (string, bool) {
	dotted := true
	for _, v := range vals {
		dotted = dotted && bytes.IndexByte(v, '.') > 0
	}
	if dotted {
		first, last := map[string]bool{}, map[string]bool{}
		for _, v := range vals {
			parts := strings.Split(string(v), ".")
			first[parts[0]] = true
			last[parts[len(parts)-1]] = true
		}
		if len(first)*2 <= len(last) && len(first) <= 8 {
			return fmt.Sprintf("the first dot label takes %d values and the last %d: a domain written backwards (moc.… for ….com)", len(first), len(last)), true
		}
		return "", false
	}
	head, tail := map[string]bool{}, map[string]bool{}
	for _, v := range vals {
		if len(v) < 6 {
			return "", false
		}
		head[string(v[:3])] = true
		tail[string(v[len(v)-3:])] = true
	}
	if len(tail)*4 <= len(head) && len(head) >= 8 {
		return fmt.Sprintf("the last 3 characters take %d values and the first 3 take %d: text written backwards, as a reversed phone number is", len(tail), len(head)), true
	}
	return "", false
}

// numberField reads digits: a date, a zero-padded number, a run of
// padded numbers with a random suffix, or reversed digits.
func numberField(vals [][]byte, how string) []piece {
	n := len(vals)
	same := true
	zeros := false
	for _, v := range vals {
		same = same && len(v) == len(vals[0])
		zeros = zeros || len(v) > 1 && v[0] == '0'
	}
	w := len(vals[0])
	if same && w == 8 {
		if p, ok := dateField(vals); ok {
			return []piece{p}
		}
	}
	if why, ok := reversed(vals); ok {
		p := piece{typ: "STRING", comp: catalogReverse()}
		p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("digits in all %d sampled keys, %s; %s", n, howText(how), why),
			Other: "a decimal number, not reversed", Tell: "the bytes fit both; which end of the values varies most decides"}
		return []piece{p}
	}
	if same && how != "delimited" && w > 9 {
		if ps := splitDigits(vals); len(ps) > 1 {
			return ps
		}
	}
	if w > 18 || !same && zeros {
		return []piece{{typ: "STRING", part: Part{Sure: Likely, Evidence: fmt.Sprintf("digits in all %d sampled keys, too long or too unevenly padded for a number", n)}}}
	}
	p := decimalPiece(w, !same || !zeros && how == "delimited")
	if same {
		if ms, ok := plausibleMillis(vals); ok {
			p.part.Other = "a TIMESTAMP in milliseconds written as decimal text"
			p.part.Tell = "every sampled value reads as a time in 2000..2100 (" + ms + "); the bytes fit both"
		}
	}
	return []piece{p}
}

// decimalPiece is a decimal number field, of variable width when free.
func decimalPiece(w int, free bool) piece {
	p := piece{typ: "BIGINT", comp: catalogDecimal(0)}
	if free {
		p.part = Part{Sure: Certain, Evidence: "decimal digits without leading zeros, ended by the literal that follows: Long.toString"}
		return p
	}
	p.comp.Width = w
	if w <= 9 {
		p.typ = "INT"
	}
	p.part = Part{Sure: Certain, Evidence: fmt.Sprintf("%d decimal digits, zero-padded, in every sampled key", w)}
	return p
}

// plausibleMillis: every value, read as milliseconds, is in 2000..2100.
func plausibleMillis(vals [][]byte) (string, bool) {
	for _, v := range vals {
		ms, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || ms < timeLo*1000 || ms >= timeHi*1000 {
			return "", false
		}
	}
	ms, _ := strconv.ParseInt(string(vals[0]), 10, 64)
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05"), true
}

// dateField reads 8 digits as yyyyMMdd, or as 99999999 minus it.
func dateField(vals [][]byte) (piece, bool) {
	for _, desc := range []bool{false, true} {
		ok := true
		for _, v := range vals {
			d, _ := strconv.Atoi(string(v))
			if desc {
				d = 99999999 - d
			}
			t, err := time.Parse("20060102", fmt.Sprintf("%08d", d))
			if err != nil || t.Year() < 1900 || t.Year() >= 2100 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		p := piece{typ: "DATE", role: "date", comp: catalogDecimal(8)}
		p.part = Part{Sure: Certain, Evidence: fmt.Sprintf("8 digits that read as a date yyyyMMdd in 1900..2100 in all %d sampled keys", len(vals))}
		if desc {
			p.comp.Order = "desc"
			p.part.Evidence = fmt.Sprintf("8 digits that read as 99999999 - yyyyMMdd, a date in 1900..2100, in all %d sampled keys", len(vals))
		}
		return p, true
	}
	return piece{}, false
}

// splitDigits cuts a run of digits of one width into zero-padded
// numbers, each starting where digits that are 0 in every key follow
// digits that vary, and a random suffix: the last j digits when the
// keys that share all before them are many (rows of one entity, spread).
func splitDigits(vals [][]byte) []piece {
	w := len(vals[0])
	var out []piece
	j := randomSuffix(vals)
	body := w - j
	zero := make([]bool, body)
	for i := range zero {
		zero[i] = true
		for _, v := range vals {
			if v[i] != '0' {
				zero[i] = false
				break
			}
		}
	}
	start := 0
	for i := 1; i <= body; i++ {
		if i == body || zero[i] && !zero[i-1] {
			p := decimalPiece(i-start, false)
			if i < body || start > 0 {
				p.part.Evidence += fmt.Sprintf(" (digits %d..%d of a run of %d; the next field starts where digits 0 in every key follow digits that vary)", start, i-1, w)
				p.part.Sure = Likely
				p.part.Other = "the boundary anywhere in the zeros that follow"
				p.part.Tell = "a key with a digit other than 0 there would tell"
			}
			out = append(out, p)
			start = i
		}
	}
	if j > 0 {
		mod := int64(1)
		for range j {
			mod *= 10
		}
		p := piece{comp: randomSpec(mod)}
		p.part = Part{Sure: Likely, Evidence: fmt.Sprintf("the last %d digits differ between keys that share all the digits before them (%s): a random suffix in [0, %d)",
			j, sharedExample(vals, j), mod),
			Other: "the last digits of the number before", Tell: "keys that share the digits before them, as these do, say a spread suffix; a counter would give 0, 1, 2 … per prefix"}
		out = append(out, p)
	}
	return out
}

// randomSuffix is how many trailing digits (up to 3) vary among keys
// that share the rest: a cut j where the keys fall into groups that
// hold at least a third of them, and cutting one digit more merges
// almost no groups (a suffix spreads one entity's rows; digits of a
// number would merge entities as the cut grows). Groups whose shared
// digits are all zeros do not count, and fewer than 12 keys in groups say
// nothing. 0 when there is none.
func randomSuffix(vals [][]byte) int {
	const minShared = 12 // fewer keys in shared groups say nothing
	groups := func(j int) (distinct, shared int) {
		g := map[string]int{}
		for _, v := range vals {
			g[string(v[:len(v)-j])]++
		}
		for prefix, c := range g {
			// Small numbers share their zero padding, not an entity.
			if c > 1 && strings.Trim(prefix, "0") != "" {
				shared += c
			}
		}
		return len(g), shared
	}
	for j := 1; j <= 3 && j < len(vals[0]); j++ {
		d, s := groups(j)
		d2, _ := groups(j + 1)
		if s >= minShared && s*3 >= len(vals) && d2*10 >= d*9 {
			return j
		}
	}
	return 0
}

func sharedExample(vals [][]byte, j int) string {
	groups := map[string][][]byte{}
	var order []string
	for _, v := range vals {
		k := string(v[:len(v)-j])
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], v)
	}
	for _, k := range order {
		if g := groups[k]; len(g) > 1 {
			g = slices.Clone(g)
			return quoteKeys(g, 3)
		}
	}
	return ""
}
