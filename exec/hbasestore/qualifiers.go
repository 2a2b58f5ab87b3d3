package hbasestore

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase/filter"
)

var _ exec.QualifierPushdown = Pushdown{}

// QualifierFilter names the filters qualifierFilter sends.
func (Pushdown) QualifierFilter(q *exec.QualifierRanges) []string {
	_, how := qualifierFilter(q)
	return how
}

// qualifierFilter keeps the cells of q's family whose qualifiers are in
// its ranges, and every cell of other families: a point is a
// QualifierFilter (=), a range that is a prefix's a ColumnPrefixFilter,
// any other range a ColumnRangeFilter, which seeks in each row to its
// start; several are one MUST_PASS_ONE FilterList, beside a FamilyFilter
// (!=) that keeps the other families when the table has others.
func qualifierFilter(q *exec.QualifierRanges) (filter.Filter, []string) {
	var fs []filter.Filter
	var how []string
	for _, r := range q.Ranges {
		switch {
		case len(r.Stop) == len(r.Start)+1 && r.Stop[len(r.Start)] == 0 && bytes.HasPrefix(r.Stop, r.Start):
			fs = append(fs, filter.Qualifier{Op: filter.Equal, Comparator: filter.Binary{Value: r.Start}})
			how = append(how, fmt.Sprintf("QualifierFilter(= '%s')", catalog.ToStringBinary(r.Start)))
		case len(r.Start) > 0 && bytes.Equal(r.Stop, catalog.PrefixEnd(r.Start)):
			fs = append(fs, filter.ColumnPrefix{Prefix: r.Start})
			how = append(how, fmt.Sprintf("ColumnPrefixFilter('%s')", catalog.ToStringBinary(r.Start)))
		default:
			f := filter.ColumnRange{MinInclusive: true}
			lo, hi := "", ""
			if len(r.Start) > 0 {
				f.Min, lo = r.Start, "'"+catalog.ToStringBinary(r.Start)+"'"
			}
			if len(r.Stop) > 0 {
				f.Max, hi = r.Stop, "'"+catalog.ToStringBinary(r.Stop)+"'"
			}
			fs = append(fs, f)
			how = append(how, fmt.Sprintf("ColumnRangeFilter([%s, %s))", lo, hi))
		}
	}
	if !q.Alone {
		fs = append(fs, filter.Family{Op: filter.NotEqual, Comparator: filter.Binary{Value: []byte(q.Family)}})
		how = append(how, fmt.Sprintf("FamilyFilter(!= '%s')", q.Family))
	}
	if len(fs) == 1 {
		return fs[0], how
	}
	return filter.Or(fs...), []string{"FilterList(MUST_PASS_ONE: " + strings.Join(how, ", ") + ")"}
}
