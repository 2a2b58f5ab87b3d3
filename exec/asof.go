package exec

import (
	"fmt"

	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/planner"
)

// timeRange is the store's time range of an access, when the store
// applies one (placed.Scan.Timed); nil when it reads every time.
func timeRange(a *placed.Scan) *TimeRange {
	if a == nil || !a.Timed {
		return nil
	}
	from, to, ok := a.TimeRange()
	if !ok {
		return nil
	}
	return &TimeRange{From: from, To: to}
}

// checkAsOf refuses a plan read AS OF a time on a store that cannot keep
// the cells of a time range itself: reading the newest versions and
// dropping the later ones in the client would lose the older versions
// they hide.
func checkAsOf(sel *planner.Select, pd Pushdown) error {
	if u, ok := planner.Find[*planner.Union](sel.Root); ok {
		for _, b := range u.Branches {
			if err := checkAsOf(b, pd); err != nil {
				return err
			}
		}
		return nil
	}
	if sel.Access != nil && sel.Access.AsOf != nil && !pd.Features().Cells {
		return fmt.Errorf("the %s store cannot read as of a time: %w", pd.StoreName(), ErrNotPushable)
	}
	return nil
}
