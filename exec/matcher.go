package exec

import (
	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// Matcher evaluates a read's filter on store rows, for a store that
// evaluates filters where its data lives (the embedded store does, in its
// cursor loop, before it copies a row out). It decodes only the columns
// the filter reads, into scratch space it reuses. It is not safe for
// concurrent use.
type Matcher struct {
	d    *decoder
	f    expr.Expr
	vals catalog.Row
	offs []int
	row  Row
}

// NewMatcher returns the matcher of o's filter, or nil when o has none.
func NewMatcher(o *ReadOptions) *Matcher {
	if o.Filter == nil || o.Table == nil {
		return nil
	}
	t := o.Table
	var cols []int
	for _, c := range expr.Columns(o.Filter) {
		if c < len(t.Columns) && !t.Columns[c].KeyField {
			cols = append(cols, c)
		}
	}
	if cols == nil {
		cols = []int{}
	}
	return &Matcher{d: newDecoder(t, cols), f: o.Filter, vals: make(catalog.Row, len(t.Columns)+1),
		offs: make([]int, len(t.Key.Components)+1)}
}

// Match reports whether the filter holds for sr, whose cells are the
// row's visible cells, newest first per column. A row that does not fit
// the layout matches, so that the reader sees it and counts it as
// malformed instead of losing it silently. An error is the filter's:
// a value it depends on cannot be computed for this row, and the read
// must fail with it.
func (m *Matcher) Match(sr *StoreRow) (bool, error) {
	if err := m.d.fill(&m.row, sr, m.vals, m.offs); err != nil {
		return true, nil
	}
	return expr.Match(m.f, m.vals)
}
