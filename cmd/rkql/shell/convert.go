package shell

import (
	"encoding/json"
	"fmt"
	"strings"

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
		return catalog.Value{}, fmt.Errorf("column %s: %w", c.Name, err)
	}
	if c.Type == catalog.TypeTimestamp {
		if tm, ok := catalog.ParseTime(s); ok && !v.Time().Equal(tm) {
			return catalog.Value{}, fmt.Errorf("column %s: '%s' is finer than a millisecond, and TIMESTAMP holds whole milliseconds", c.Name, s)
		}
	}
	return v, nil
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
