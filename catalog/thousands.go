package catalog

import (
	"strconv"
	"strings"
)

// Thousands writes n in decimal with its digits grouped by three with
// commas, as reports show counts and costs: 1234567 is "1,234,567". A
// float64 is rounded to a whole number first; an infinity or NaN is
// written as strconv writes it.
func Thousands[N int | int64 | float64](n N) string {
	var s string
	switch v := any(n).(type) {
	case int:
		s = strconv.Itoa(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	case float64:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	sign, digits := "", s
	if digits != "" && (digits[0] == '-' || digits[0] == '+') {
		sign, digits = digits[:1], digits[1:]
	}
	if strings.Trim(digits, "0123456789") != "" {
		return s
	}
	var b strings.Builder
	b.WriteString(sign)
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}
