package ref

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Compare checks got, a result in the order it was returned, against the
// reference: got must hold exactly want.Len() rows, and be rows Offset …
// Offset+Limit-1 of some ordering of want's groups in which each group's
// rows come together in any order. With no LIMIT or OFFSET this is "the
// same rows, in ORDER BY order"; at a cut, the rows of the group cut
// through may be any of its rows.
func Compare(got []catalog.Row, want *Result) error {
	n := want.Len()
	if len(got) != n {
		return fmt.Errorf("got %d rows, want %d", len(got), n)
	}
	// take[g] is how many rows of group g the window holds.
	take := make([]int, len(want.Groups))
	pos, from, to := 0, int(want.Offset), int(want.Offset)+n
	for g, rows := range want.Groups {
		lo, hi := max(pos, from), min(pos+len(rows), to)
		take[g] = max(hi-lo, 0)
		pos += len(rows)
	}
	i := 0
	for g, rows := range want.Groups {
		if take[g] == 0 {
			continue
		}
		left := map[string]int{}
		for _, w := range rows {
			left[want.text(w)]++
		}
		for k := 0; k < take[g]; k, i = k+1, i+1 {
			t := want.text(got[i])
			if left[t] == 0 {
				if inGroups(want, g+1, t) {
					return fmt.Errorf("row %d, %s, is out of ORDER BY order: %d rows sort before it", i, t, take[g]-k)
				}
				return fmt.Errorf("row %d, %s, is not in the result (or comes too often)", i, t)
			}
			left[t]--
		}
	}
	return nil
}

// inGroups reports whether a row with text k is in one of the groups from
// index from on.
func inGroups(want *Result, from int, k string) bool {
	for _, g := range want.Groups[from:] {
		for _, r := range g {
			if want.text(r) == k {
				return true
			}
		}
	}
	return false
}

// text renders a row so that two rows render alike only when their
// values are alike, type included; DOUBLEs of Approx columns to 10
// significant digits.
func (r *Result) text(row catalog.Row) string {
	parts := make([]string, len(row))
	for i, v := range row {
		s := v.String()
		if i < len(r.Approx) && r.Approx[i] && v.Type == catalog.TypeDouble && !v.Null {
			s = strconv.FormatFloat(v.F, 'g', 10, 64)
		}
		parts[i] = v.Type.String() + ":" + s
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// RowText renders a row exactly, type included, as Compare's errors
// show it.
func RowText(r catalog.Row) string { return (&Result{}).text(r) }
