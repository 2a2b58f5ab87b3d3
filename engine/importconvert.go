package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
)

// convertText converts a text value, from CSV or a JSON string, to the type
// of column c, as catalog.ParseText reads it. That reads what the text
// output formats print, so rows exported as CSV import again: BYTES as
// toStringBinary text, timestamps as 'YYYY-MM-DD HH:MM:SS.fff' (UTC) or
// RFC 3339, and also epoch milliseconds.
func convertText(c *catalog.Column, s string) (catalog.Value, error) {
	if c.Type == catalog.TypeTimestamp {
		if ms, ok := fastTimestamp(strings.TrimSpace(s)); ok {
			return catalog.TimestampMillis(ms), nil
		}
	}
	v, err := catalog.ParseText(c.Type, s)
	if err != nil {
		if v, ok := wideYear(c.Type, strings.TrimSpace(s)); ok {
			return v, nil
		}
		return catalog.Value{}, fmt.Errorf("column %s: %w", c.Name, err)
	}
	if c.Type == catalog.TypeTimestamp {
		if tm, ok := catalog.ParseTime(s); ok && !v.Time().Equal(tm) {
			return catalog.Value{}, fmt.Errorf("column %s: '%s' is finer than a millisecond, and TIMESTAMP holds whole milliseconds", c.Name, s)
		}
	}
	return v, nil
}

// wideYear reads a TIMESTAMP or DATE whose year is not four digits, as
// the output formats write one before year 0001 or after 9999
// ("-0001-12-31 23:59:59.999", "10000-01-01T00:00:00.000Z"): a sign,
// then at least four digits of year, then the rest as usual. ok is false
// for anything else, and for a time a TIMESTAMP cannot hold.
func wideYear(t catalog.Type, s string) (catalog.Value, bool) {
	if t != catalog.TypeTimestamp && t != catalog.TypeDate {
		return catalog.Value{}, false
	}
	digits := strings.TrimPrefix(s, "-")
	n := strings.IndexByte(digits, '-')
	if n < 4 || n == 4 && len(digits) == len(s) {
		return catalog.Value{}, false // four digits and no sign: ParseText's
	}
	year, err := strconv.Atoi(digits[:n])
	if err != nil {
		return catalog.Value{}, false
	}
	if len(digits) < len(s) {
		year = -year
	}
	// The rest, after a four-digit stand-in year, is what ParseTime reads.
	tm, ok := catalog.ParseTime("2000" + digits[n:])
	if !ok {
		return catalog.Value{}, false
	}
	if tm.Month() == time.February && tm.Day() == 29 && !isLeap(year) {
		return catalog.Value{}, false
	}
	tm = time.Date(year, tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	if t == catalog.TypeDate {
		return catalog.Date(tm), true
	}
	ms := tm.UnixMilli()
	if !time.UnixMilli(ms).UTC().Equal(tm) {
		return catalog.Value{}, false // out of range, or finer than a millisecond
	}
	return catalog.TimestampMillis(ms), true
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// convertJSON converts a value decoded by encoding/json with UseNumber to
// the type of column c: null is NULL, strings go through convertText,
// numbers fill numeric and TIMESTAMP (epoch ms) columns, booleans BOOLEAN
// columns.
func convertJSON(c *catalog.Column, v any) (catalog.Value, error) {
	switch x := v.(type) {
	case nil:
		return catalog.Null(c.Type), nil
	case string:
		return convertText(c, x)
	case json.Number:
		switch c.Type {
		case catalog.TypeBigint, catalog.TypeInt, catalog.TypeDouble, catalog.TypeTimestamp:
			if v, err := convertText(c, x.String()); err == nil {
				return v, nil
			}
		case catalog.TypeString:
			return catalog.String(x.String()), nil
		}
		return catalog.Value{}, fmt.Errorf("column %s: the number %s is not a valid %s", c.Name, x, c.Type)
	case bool:
		if c.Type == catalog.TypeBoolean {
			return catalog.Bool(x), nil
		}
		return catalog.Value{}, fmt.Errorf("column %s: %t is not a valid %s", c.Name, x, c.Type)
	case map[string]any:
		return catalog.Value{}, fmt.Errorf("column %s: a JSON object is not a valid %s", c.Name, c.Type)
	case []any:
		return catalog.Value{}, fmt.Errorf("column %s: a JSON array is not a valid %s", c.Name, c.Type)
	}
	return catalog.Value{}, fmt.Errorf("column %s: %v is not a valid %s", c.Name, v, c.Type)
}
