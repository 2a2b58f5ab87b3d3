package shell

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// convertText converts a text value, from CSV or a JSON string, to the type
// of column c. It accepts what the text output formats print, so rows
// exported as CSV import again: BYTES as toStringBinary text, timestamps as
// 'YYYY-MM-DD HH:MM:SS.fff' (UTC) or RFC 3339, and also epoch milliseconds.
func convertText(c *catalog.Column, s string) (catalog.Value, error) {
	bad := func() (catalog.Value, error) {
		return catalog.Value{}, fmt.Errorf("column %s: '%s' is not a valid %s", c.Name, s, c.Type)
	}
	t := strings.TrimSpace(s)
	switch c.Type {
	case catalog.TypeString:
		return catalog.String(s), nil
	case catalog.TypeBytes:
		b, err := catalog.ParseBinary(s)
		if err != nil {
			return catalog.Value{}, fmt.Errorf("column %s: %w", c.Name, err)
		}
		return catalog.Bytes(b), nil
	case catalog.TypeBigint, catalog.TypeInt:
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || c.Type == catalog.TypeInt && (n < math.MinInt32 || n > math.MaxInt32) {
			return bad()
		}
		return catalog.Value{Type: c.Type, I: n}, nil
	case catalog.TypeDouble:
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return bad()
		}
		return catalog.Double(f), nil
	case catalog.TypeBoolean:
		b, err := strconv.ParseBool(t)
		if err != nil {
			return bad()
		}
		return catalog.Bool(b), nil
	case catalog.TypeTimestamp:
		if ms, err := strconv.ParseInt(t, 10, 64); err == nil {
			return catalog.TimestampMillis(ms), nil
		}
		if ms, ok := fastTimestamp(t); ok {
			return catalog.TimestampMillis(ms), nil
		}
		tm, ok := planner.ParseTime(t)
		if !ok {
			return bad()
		}
		return catalog.Timestamp(tm), nil
	case catalog.TypeDate:
		tm, ok := planner.ParseTime(t)
		if !ok {
			return bad()
		}
		return catalog.Date(tm), nil
	}
	return bad()
}

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
