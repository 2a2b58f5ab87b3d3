package exectest

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Compare checks got, a result in the order it was returned, against the
// reference: got must hold exactly want.Len() rows, and be the first rows
// of some ordering of want's groups in which each group's rows come
// together in any order. With no LIMIT this is "the same rows, in ORDER BY
// order"; with a LIMIT, ties at the cut may be any of the tied rows.
func Compare(got []catalog.Row, want *Result) error {
	n := want.Len()
	if len(got) != n {
		return fmt.Errorf("got %d rows, want %d", len(got), n)
	}
	gi := 0
	left := map[string]int{}
	pending := 0
	for i, r := range got {
		k := rowText(r)
		for left[k] == 0 {
			if pending > 0 {
				if in(want.Groups, gi, k) {
					return fmt.Errorf("row %d, %s, is out of ORDER BY order: %d rows sort before it", i, k, pending)
				}
				return fmt.Errorf("row %d, %s, is not in the result (or comes too often)", i, k)
			}
			if gi == len(want.Groups) {
				return fmt.Errorf("row %d, %s, is not in the result (or comes too often)", i, k)
			}
			clear(left)
			for _, w := range want.Groups[gi] {
				left[rowText(w)]++
			}
			pending = len(want.Groups[gi])
			gi++
		}
		left[k]--
		pending--
	}
	return nil
}

// in reports whether a row with text k is in one of groups[from:].
func in(groups [][]catalog.Row, from int, k string) bool {
	for _, g := range groups[from:] {
		for _, r := range g {
			if rowText(r) == k {
				return true
			}
		}
	}
	return false
}

// rowText renders a row so that two rows render alike only when their
// values are alike, type included.
func rowText(r catalog.Row) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = v.Type.String() + ":" + v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
