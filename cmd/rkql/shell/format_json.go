package shell

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/rkql/rkql/catalog"
)

// jsonWriter writes one JSON object per row, keyed by column name in column
// order (made unique by uniqueNames): as one array (json) or one object
// per line (jsonl). It streams in both cases.
type jsonWriter struct {
	w     io.Writer
	array bool
	keys  [][]byte // each column's quoted name and ':'
	b     []byte
	n     int64
}

func (j *jsonWriter) begin(cols []column) error {
	j.keys = make([][]byte, len(cols))
	for i, name := range uniqueNames(cols) {
		j.keys[i] = append(appendJSONString(nil, name), ':')
	}
	return nil
}

func (j *jsonWriter) row(r catalog.Row) error {
	j.b = j.b[:0]
	if j.array {
		if j.n == 0 {
			j.b = append(j.b, "[\n"...)
		} else {
			j.b = append(j.b, ",\n"...)
		}
	}
	j.b = append(j.b, '{')
	for i, v := range r {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.b = append(j.b, j.keys[i]...)
		j.b = appendJSONValue(j.b, v)
	}
	j.b = append(j.b, '}')
	if !j.array {
		j.b = append(j.b, '\n')
	}
	j.n++
	_, err := j.w.Write(j.b)
	return err
}

func (j *jsonWriter) end(int64) error {
	if !j.array {
		return nil
	}
	s := "\n]\n"
	if j.n == 0 {
		s = "[]\n"
	}
	_, err := io.WriteString(j.w, s)
	return err
}

// JSON renderings of times: RFC 3339 in UTC with milliseconds, and dates.
const (
	jsonTimestamp = "2006-01-02T15:04:05.000Z"
	jsonDate      = "2006-01-02"
)

// appendJSONValue appends v as JSON: numbers as numbers, booleans as
// booleans, NULL as null, timestamps and dates as strings, BYTES as
// toStringBinary text, a MAP as an object. A DOUBLE that is NaN or infinite, which JSON cannot
// hold as a number, is the string "NaN", "Infinity" or "-Infinity".
func appendJSONValue(b []byte, v catalog.Value) []byte {
	if v.Null {
		return append(b, "null"...)
	}
	switch v.Type {
	case catalog.TypeBigint, catalog.TypeInt:
		return strconv.AppendInt(b, v.I, 10)
	case catalog.TypeDouble:
		switch {
		case math.IsNaN(v.F):
			return append(b, `"NaN"`...)
		case math.IsInf(v.F, 1):
			return append(b, `"Infinity"`...)
		case math.IsInf(v.F, -1):
			return append(b, `"-Infinity"`...)
		}
		return strconv.AppendFloat(b, v.F, 'g', -1, 64)
	case catalog.TypeBoolean:
		return strconv.AppendBool(b, v.I != 0)
	case catalog.TypeTimestamp:
		return appendJSONString(b, v.Time().UTC().Format(jsonTimestamp))
	case catalog.TypeDate:
		return appendJSONString(b, v.Time().UTC().Format(jsonDate))
	case catalog.TypeString:
		return appendJSONString(b, v.S)
	case catalog.TypeBytes:
		return appendJSONString(b, catalog.ToStringBinary(v.B))
	case catalog.TypeMap:
		return appendJSONMap(b, v.M)
	}
	return appendJSONString(b, v.Text())
}

// appendJSONMap appends a MAP as a JSON object, its keys as their text
// and its values as appendJSONValue writes them.
func appendJSONMap(b []byte, m *catalog.Map) []byte {
	b = append(b, '{')
	for i, e := range m.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, e.Key.Text())
		b = append(b, ':')
		b = appendJSONValue(b, e.Val)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD; <, > and & are left as they are.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
