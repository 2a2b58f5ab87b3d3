package exec

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// rowLess orders rows by sort keys; NULL sorts first ascending.
func rowLess(keys []planner.SortKey) func(a, b *Row) bool {
	return func(a, b *Row) bool {
		for _, k := range keys {
			c := catalog.Compare(a.Vals[k.Col], b.Vals[k.Col])
			if c == 0 {
				continue
			}
			if k.Desc {
				return c > 0
			}
			return c < 0
		}
		return false
	}
}

// topHeap keeps the best n rows: its root is the worst of them.
type topHeap struct {
	rows []*Row
	less func(a, b *Row) bool
}

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return h.less(h.rows[j], h.rows[i]) }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(*Row)) }
func (h *topHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

// sort drains in and returns its rows sorted: with a limit through a
// bounded heap, otherwise up to the sort budget.
func (x *Executor) sort(ctx context.Context, in rowIter, s *planner.Sort) (rowIter, error) {
	defer in.close()
	less := rowLess(s.Keys)
	budget := x.SortBudget
	if budget <= 0 {
		budget = 1_000_000
	}
	var rows []*Row
	h := &topHeap{less: less}
	seq := 0
	for {
		r, err := in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		seq++
		if s.Limit != planner.NoLimit {
			if int64(h.Len()) < s.Limit {
				if h.Len() >= budget {
					return nil, fmt.Errorf("%w: ORDER BY … LIMIT %d needs a client sort holding more than %d rows; lower the LIMIT or raise --sort-budget", ErrSortBudget, s.Limit, budget)
				}
				heap.Push(h, held(r, true))
			} else if h.Len() > 0 && less(r, h.rows[0]) {
				h.rows[0] = held(r, true)
				heap.Fix(h, 0)
			}
			continue
		}
		if len(rows) >= budget {
			return nil, fmt.Errorf("%w: ORDER BY needs a client sort of more than %d rows; add a LIMIT or raise --sort-budget", ErrSortBudget, budget)
		}
		rows = append(rows, held(r, false))
	}
	if s.Limit != planner.NoLimit {
		rows = h.rows
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
	return &sliceIter{rows: rows}, nil
}

// held is the part of a row a sort keeps: its values, without the key it
// was decoded from (which holds on to the store's buffer of raw cells).
// own copies the values too, for a top-N sort that keeps few of the rows
// whose values share one decoding slab.
func held(r *Row, own bool) *Row {
	vals := r.Vals
	if own {
		vals = slices.Clone(vals)
	}
	return &Row{Vals: vals}
}
