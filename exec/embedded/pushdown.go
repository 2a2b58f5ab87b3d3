package embedded

import (
	"fmt"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/expr"
)

// Pushdown is what the embedded store evaluates itself: the whole filter,
// on each row inside the cursor loop before the row is copied out, the
// column projection, keys-only reads, the row limit, and a raw read's
// time range and cells. A filter over
// several versions of a row stays in the client, which sees each version
// as a row of its own.
type Pushdown struct{}

var _ exec.Pushdown = Pushdown{}

// Pushdown returns the store's Pushdown.
func (s *Store) Pushdown() exec.Pushdown { return Pushdown{} }

// StoreName names the store in EXPLAIN.
func (Pushdown) StoreName() string { return "embedded" }

// Features are all applied in the store.
func (Pushdown) Features() exec.Features {
	return exec.Features{Projection: true, KeysOnly: true, Limit: true, Cells: true}
}

// SplitFilter takes the whole filter unless the read returns several
// versions of each row.
func (Pushdown) SplitFilter(_ *catalog.Table, f expr.Expr, versions int) exec.Split {
	if versions > 1 {
		return exec.Split{Client: f, Why: []string{"VERSIONS: the filter applies to each version of a row, and the store filters whole rows"}}
	}
	return exec.Split{Server: f, How: []string{"evaluated in the store's cursor loop, before a row is copied out"}}
}

var _ exec.QualifierPushdown = Pushdown{}

// QualifierFilter: the store drops the cells of other qualifiers of the
// family in its cursor loop, before a row is copied out.
func (Pushdown) QualifierFilter(q *exec.QualifierRanges) []string {
	return []string{fmt.Sprintf("cells of %s outside the %s dropped in the store's cursor loop, before a row is copied out", q.Family, plural(len(q.Ranges), "qualifier range", "qualifier ranges"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
