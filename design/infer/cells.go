package infer

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// column is a proposed stored column with what supports it.
type column struct {
	spec catalog.ColumnSpec
	part Part
}

// cellColumns proposes one column per family:qualifier the sampled rows
// hold, named after its qualifier unless a key field or another column
// has that name. taken holds the key fields' names.
func cellColumns(rows []Row, taken map[string]bool) []column {
	vals := map[string][][]byte{}
	var order []string
	for _, r := range rows {
		for _, c := range r.Cells {
			fq := c.Family + ":" + c.Qualifier
			if _, ok := vals[fq]; !ok {
				order = append(order, fq)
			}
			vals[fq] = append(vals[fq], c.Value)
		}
	}
	slices.Sort(order)
	var out []column
	for _, fq := range order {
		fam, qual, _ := strings.Cut(fq, ":")
		if qual == emptyQualifier && allEmpty(vals[fq]) {
			continue // a row marker, not a column
		}
		name := ident(qual)
		if taken[name] {
			name = ident(fam + "_" + qual)
		}
		for base, k := name, 2; taken[name]; k++ {
			name = fmt.Sprintf("%s%d", base, k)
		}
		taken[name] = true
		c := cellEncoding(vals[fq])
		c.spec.Name = name
		c.spec.Column = catalog.ToStringBinary([]byte(fam)) + ":" + catalog.ToStringBinary([]byte(qual))
		c.part.What = fmt.Sprintf("%s %s", fq, c.spec.Type)
		if w := encodingWord(c.spec.Type, c.spec.Encoding); w != "bytes" {
			c.part.What += " " + w
		}
		out = append(out, c)
	}
	return out
}

// emptyQualifier is the empty cell rkql (and Phoenix) write so that a row
// whose columns are all key fields exists.
const emptyQualifier = "_0"

func allEmpty(vals [][]byte) bool {
	for _, v := range vals {
		if len(v) > 0 {
			return false
		}
	}
	return true
}

func encodingWord(typ, e string) string {
	if typ == "STRING" || typ == "BYTES" {
		return "bytes"
	}
	if e == "" {
		return "java"
	}
	return e
}

// ident makes a column name of s: letters, digits and underscores, not
// starting with a digit.
func ident(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "c" + n
	}
	return n
}

// cellEncoding reads what the sampled values of one qualifier are.
func cellEncoding(vals [][]byte) column {
	n := len(vals)
	text, ints, floats := true, true, true
	for _, v := range vals {
		text = text && utf8.Valid(v) && !strings.ContainsFunc(string(v), func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f })
		if !text {
			break
		}
		i, err := strconv.ParseInt(string(v), 10, 64)
		ints = ints && err == nil && strconv.FormatInt(i, 10) == string(v)
		_, err = strconv.ParseFloat(string(v), 64)
		floats = floats && err == nil && strings.ContainsAny(string(v), ".E")
	}
	switch {
	case text && ints && n > 0:
		return column{spec: catalog.ColumnSpec{Type: "BIGINT", Encoding: "text"}, part: Part{Sure: Likely,
			Evidence: fmt.Sprintf("decimal integers as text in all %d sampled cells", n), Other: "STRING", Tell: "a value that is not a number would say text"}}
	case text && floats && n > 0:
		return column{spec: catalog.ColumnSpec{Type: "DOUBLE", Encoding: "text"}, part: Part{Sure: Likely,
			Evidence: fmt.Sprintf("decimal fractions as text in all %d sampled cells", n), Other: "STRING", Tell: "a value that is not a number would say text"}}
	case text:
		return column{spec: catalog.ColumnSpec{Type: "STRING"}, part: Part{Sure: Certain, Evidence: fmt.Sprintf("UTF-8 text in all %d sampled cells", n)}}
	}
	if c, ok := fixedCell(vals); ok {
		return c
	}
	return column{spec: catalog.ColumnSpec{Type: "BYTES"}, part: Part{Sure: Guess, Evidence: fmt.Sprintf("bytes that are neither text nor a Bytes.toBytes number in %d sampled cells", n)}}
}

// fixedCell reads cells of one width as Bytes.toBytes values: 8 bytes a
// long (a TIMESTAMP when every value is a time in 2000..2100) or a
// double, 4 an int, 1 a boolean.
func fixedCell(vals [][]byte) (column, bool) {
	n := len(vals)
	w := len(vals[0])
	for _, v := range vals {
		if len(v) != w {
			return column{}, false
		}
	}
	switch w {
	case 8:
		longs, doubles, times := 0, 0, 0
		for _, v := range vals {
			u := binary.BigEndian.Uint64(v)
			l, d := int64(u), math.Float64frombits(u)
			small := l > -(1<<53) && l < 1<<53
			plausible := !math.IsNaN(d) && !math.IsInf(d, 0) && (d == 0 || math.Abs(d) > 1e-300 && math.Abs(d) < 1e300)
			switch {
			case small && !plausible:
				longs++
			case plausible && !small:
				doubles++
			}
			if l >= timeLo*1000 && l < timeHi*1000 {
				times++
			}
		}
		switch {
		case times == n:
			return column{spec: catalog.ColumnSpec{Type: "TIMESTAMP"}, part: Part{Sure: Likely,
				Evidence: fmt.Sprintf("8 bytes that read as Bytes.toBytes(long) milliseconds in 2000..2100 in all %d sampled cells", n), Other: "BIGINT", Tell: "values outside that time range would say a plain number"}}, true
		case doubles > 0 && longs == 0:
			return column{spec: catalog.ColumnSpec{Type: "DOUBLE"}, part: Part{Sure: Likely,
				Evidence: fmt.Sprintf("8 bytes that read as Bytes.toBytes(double) of ordinary size, and as longs too large to be counts, in %d of %d sampled cells", doubles, n)}}, true
		case longs > 0 && doubles == 0:
			return column{spec: catalog.ColumnSpec{Type: "BIGINT"}, part: Part{Sure: Likely,
				Evidence: fmt.Sprintf("8 bytes that read as Bytes.toBytes(long) below 2^53, and as doubles of no ordinary size, in %d of %d sampled cells", longs, n)}}, true
		case longs == 0 && doubles == 0:
			return column{spec: catalog.ColumnSpec{Type: "BIGINT"}, part: Part{Sure: Guess,
				Evidence: fmt.Sprintf("8 bytes in all %d sampled cells that read as a long and a double alike (zeros)", n), Other: "DOUBLE", Tell: "a value other than 0 would tell"}}, true
		}
	case 4:
		return column{spec: catalog.ColumnSpec{Type: "INT"}, part: Part{Sure: Likely,
			Evidence: fmt.Sprintf("4 bytes in all %d sampled cells: Bytes.toBytes(int)", n)}}, true
	case 1:
		for _, v := range vals {
			if v[0] != 0 && v[0] != 0xFF {
				return column{}, false
			}
		}
		return column{spec: catalog.ColumnSpec{Type: "BOOLEAN"}, part: Part{Sure: Likely,
			Evidence: fmt.Sprintf("one byte 0x00 or 0xFF in all %d sampled cells: Bytes.toBytes(boolean)", n)}}, true
	}
	return column{}, false
}
