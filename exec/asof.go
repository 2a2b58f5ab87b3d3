package exec

import (
	"fmt"

	"github.com/rkql/rkql/planner"
)

// asOfRange is the store's time range of an access read AS OF a time;
// nil when the access reads every time.
func asOfRange(a *planner.Access) *TimeRange {
	if a == nil || a.AsOf == nil {
		return nil
	}
	return &TimeRange{From: a.AsOf.From(), To: a.AsOf.To()}
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
