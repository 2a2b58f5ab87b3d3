package parser

import (
	"encoding/hex"
	"strings"
	"time"
)

// unquote strips the quotes q from raw and turns each doubled q into one.
func unquote(raw string, q byte) string {
	body := raw[1 : len(raw)-1]
	qq := string([]byte{q, q})
	if !strings.Contains(body, qq) {
		return body
	}
	return strings.ReplaceAll(body, qq, qq[:1])
}

// quote encloses s in q, doubling each q inside it.
func quote(s string, q byte) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		if s[i] == q {
			b.WriteByte(q)
		}
		b.WriteByte(s[i])
	}
	b.WriteByte(q)
	return b.String()
}

// decodeHex decodes the body of a lexed x'…' literal, already checked by the
// lexer.
func decodeHex(raw string) ([]byte, error) {
	return hex.DecodeString(raw[2 : len(raw)-1])
}

// Timestamp layouts accepted by TIMESTAMP '…'. time.Parse accepts a
// fractional second after the seconds even when the layout has none.
var timestampLayouts = []string{
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02",
}

// timestampPrintLayout is how a timestamp is printed back; the fraction is
// added only when there are milliseconds.
const (
	timestampPrintLayout = "2006-01-02 15:04:05"
	datePrintLayout      = "2006-01-02"
)

// parseTimestamp parses the text of a TIMESTAMP literal into UTC, keeping
// its whole fraction: the planner decides what a finer fraction than a
// column holds means. Texts without a zone are UTC.
func parseTimestamp(text string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		t, err := time.Parse(layout, text)
		if err != nil {
			continue
		}
		t = t.UTC()
		if y := t.Year(); y < 0 || y > 9999 {
			return time.Time{}, false
		}
		return t, true
	}
	return time.Time{}, false
}

// parseDate parses the text of a DATE literal into midnight UTC.
func parseDate(text string) (time.Time, bool) {
	t, err := time.Parse(datePrintLayout, text)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// formatTimestamp prints t in UTC as TIMESTAMP literal text, with
// milliseconds when it has any.
func formatTimestamp(t time.Time) string {
	t = t.UTC()
	layout := timestampPrintLayout
	switch ns := t.Nanosecond(); {
	case ns == 0:
	case ns%int(time.Millisecond) == 0:
		layout += ".000"
	case ns%int(time.Microsecond) == 0:
		layout += ".000000"
	default:
		layout += ".000000000"
	}
	return t.Format(layout)
}
