package hbasestore

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
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
//
// Past maxServerTests ranges, one ColumnRangeFilter from the first start
// to the last stop serves them all: the client filter drops the rest.
func qualifierFilter(q *exec.QualifierRanges) (filter.Filter, []string) {
	var fs []filter.Filter
	var how []string
	ranges := q.Ranges
	if n := len(ranges); n > maxServerTests {
		ranges = []exec.Range{{Start: ranges[0].Start, Stop: ranges[n-1].Stop}}
	}
	for _, r := range ranges {
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

// compileEntry translates m['k'] op literal, m a MAP column over a
// family, into the SingleColumnValueFilter of the entry's cell, as for
// a stored column of the map's value type in the map's encoding.
func compileEntry(t *catalog.Table, p *expr.Compare) (serverFilter, error) {
	sub, ok := p.L.(*expr.Subscript)
	lit, isLit := p.R.(*expr.Lit)
	if !ok || !isLit {
		return serverFilter{}, fmt.Errorf("%s: no HBase filter is built for this condition", p)
	}
	col, isCol := sub.X.(*expr.Col)
	key, keyLit := sub.Key.(*expr.Lit)
	if !isCol || !keyLit || col.Index >= len(t.Columns) || t.Columns[col.Index].MapFamily == "" {
		return serverFilter{}, fmt.Errorf("%s: only an entry of a MAP over a family, by a constant key, is tested by HBase", p)
	}
	c := &t.Columns[col.Index]
	k, err := c.Map.MapKey(key.V)
	if err != nil || k.Null {
		return serverFilter{}, fmt.Errorf("%s: key %s: no HBase filter is built for it", p, key.V)
	}
	q, err := c.MapKeys.Encode(k)
	if err != nil {
		return serverFilter{}, fmt.Errorf("%s: %w", p, err)
	}
	entry := c.MapCell()
	entry.Name, entry.Family, entry.Qualifier = sub.String(), c.MapFamily, string(q)
	return compileValue(&entry, col.Index, &expr.Cmp{Col: col.Index, Name: sub.String(), Op: p.Op, Val: lit.V})
}
